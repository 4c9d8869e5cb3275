"""How each read's latency grows with the data: p50 at a small and a large data set.

    python bench/growth.py [--requests 400] [--backends sqlite,postgres]
                           [--orders 1000,100000] [--products 1000,50000]
                           [--reads "search q=mug,browse (no query)"]

For each backend (PostgreSQL on 127.0.0.1:5432 in a scratch database, skipped with a message
when absent) and each size, it builds a database: the sample stores, then a generated store of
N products in one catalog (`shop.writes.add_store`, the seeding function) and N orders of one
customer (`storage.orders.insert_orders`, in one transaction), each order a line of a random
generated product, 85% completed and 15% confirmed. Then it times each read, one request at a
time through the app in-process (httpx over ASGI, so no network or other process is in the
figures), the two sizes in turn request by request so that both see the same moments of a
shared machine's load, and prints the p50 at each size and the ratio large/small:

- item read: `GET /items/{id}` signed in as that customer (its review action asks whether
  they bought the item);
- search `q=mug` (one generated product in 40 is a mug: matches grow with the catalog) and
  `q=glaze` (sample products only: as many matches at every size), a page of 20;
- browse: `GET /search` without a query, a page of 20;
- catalog items page: `GET /catalogs/{id}?limit=20`, its first page and the page after 40
  pages (by cursor), signed in;
- admin item list: `GET /admin/stores/{id}/items?limit=20`, as the store's merchant;
- order list: `GET /orders?limit=20`, its page after 40 pages, `?status=confirmed` (15%)
  and `?status=cancelled` (none);
- the whole catalog `GET /catalogs/{id}`, signed in (never kept), 3 requests: linear by
  nature.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from commerce_agent.app import create_app  # noqa: E402
from commerce_agent.auth import accounts  # noqa: E402
from commerce_agent.commerce.shop import merchants, writes  # noqa: E402
from commerce_agent.commerce.storage import orders as order_storage  # noqa: E402
from commerce_agent.db import Database  # noqa: E402
from commerce_agent.settings import Settings  # noqa: E402

STORE = "store_growth"
CATALOG = "cat_growth"
ALICE = "alice@example.com"
MERCHANT = "growth-owner@example.com"
ADJECTIVES = ("rustic", "modern", "classic", "tiny", "grand", "speckled", "matte", "glossy",
              "bold", "quiet", "warm", "cool", "bright", "dark", "soft", "sturdy", "light",
              "heavy", "round", "square")
MATERIALS = ("oak", "walnut", "linen", "cotton", "wool", "stone", "clay", "steel", "copper",
             "brass", "glass", "bamboo", "cork", "felt", "leather", "marble", "slate", "tin",
             "rattan", "jute")
NOUNS = ("mug", "bowl", "plate", "vase", "lamp", "stool", "shelf", "basket", "tray", "jar",
         "candle", "clock", "frame", "mirror", "rug", "blanket", "pillow", "towel", "apron",
         "teapot", "kettle", "ladle", "spoon", "fork", "knife", "board", "planter", "pot",
         "hook", "box", "bag", "case", "lid", "cup", "glass", "bottle", "flask", "tumbler",
         "coaster", "pitcher")


def product(index: int, rng: random.Random) -> dict[str, Any]:
    noun = NOUNS[index % len(NOUNS)]
    adjective, material = rng.choice(ADJECTIVES), rng.choice(MATERIALS)
    return {"id": f"item_growth_{index}", "name": f"{adjective.title()} {material} {noun}",
            "description": f"A {adjective} {noun} made of {material}, number {index}.",
            "price": {"amount": f"{rng.randint(300, 9000) / 100:.2f}", "currency": "USD"},
            "fulfillmentType": "physical", "stock": rng.randint(0, 50),
            "metadata": {"dev.commerce.product.categorization": {
                "_version": "1.0", "items": [{"name": f"{noun.title()}s"}]}}}


def store(products: int) -> dict[str, Any]:
    rng = random.Random(products)
    return {"id": STORE, "name": "Growth Goods", "description": "Generated products.",
            "currency": "USD", "metadata": {}, "promotions": [],
            "catalogs": [{"id": CATALOG, "name": "Everything",
                          "items": [product(index, rng) for index in range(products)]}]}


def orders_of(template: dict[str, Any], count: int, products: int) -> list[dict[str, Any]]:
    """`count` copies of a real order, one random generated product each, oldest first."""
    rng = random.Random(count)
    line = template["items"][0]
    made = []
    for index in range(count):
        stamp = 1_600_000_000 + index * 60
        created = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(stamp))
        item_id = f"item_growth_{rng.randrange(products)}"
        made.append({**template, "id": f"ord_{stamp:012x}{index:016x}", "storeId": STORE,
                     "status": "confirmed" if rng.random() < 0.15 else "completed",
                     "createdAt": created, "updatedAt": created,
                     "items": [{**line, "id": f"line_{index}", "itemId": item_id,
                                "variantId": ""}]})
    return made


@asynccontextmanager
async def postgres_database(suffix: str) -> AsyncIterator[str | None]:
    """A scratch database on 127.0.0.1:5432 (dropped afterwards), or None without one."""
    try:
        import psycopg
    except ImportError:
        print("PostgreSQL skipped: psycopg is not installed (the postgres extra)")
        yield None
        return
    name = f"ca_growth_{os.getpid()}_{suffix}"
    admin_url = "postgresql://postgres@127.0.0.1:5432/postgres"
    try:
        admin = psycopg.connect(admin_url, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        print(f"PostgreSQL skipped: no server on 127.0.0.1:5432 ({exc})".splitlines()[0])
        yield None
        return
    with admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' "
                      "LC_COLLATE 'C' LC_CTYPE 'C'")
        try:
            yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


async def vacuum(url: str) -> None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        await connection.execute("VACUUM ANALYZE")


async def load(db: Database, client: httpx.AsyncClient, orders: int, products: int
               ) -> dict[str, str]:
    """The generated store and orders; the bearer headers of the customer and the merchant."""
    started = time.monotonic()
    async with db.transaction() as tx:
        await writes.add_store(tx, store(products))
    loaded = time.monotonic()
    alice_id = (await db.fetch_one("SELECT id FROM users WHERE email = :email",
                                   {"email": ALICE}))["id"]  # type: ignore[index]
    alice = {"Authorization": f"Bearer {(await accounts.issue_grant(db, alice_id)).accessToken}"}
    template = await one_order(client, alice)
    docs = orders_of(template, orders, products)
    for start in range(0, len(docs), 20_000):
        async with db.transaction() as tx:
            await order_storage.insert_orders(tx, alice_id, docs[start:start + 20_000])
    if db.dialect == "postgresql":  # the steady state autovacuum would reach: the planner's
        await vacuum(db.path)  # statistics, and index-only scans that need no heap visits
    owner = await merchants.create(db, MERCHANT, [STORE],
                                   password="growth-owner-pass-1")  # noqa: S106 - a bench's
    merchant = {"Authorization": "Bearer "
                + (await accounts.issue_grant(db, owner.user_id)).accessToken}
    print(f"  loaded {products:,} products in {loaded - started:.1f}s and {orders:,} orders "
          f"in {time.monotonic() - loaded:.1f}s", flush=True)
    return {"alice": alice["Authorization"], "merchant": merchant["Authorization"]}


async def one_order(client: httpx.AsyncClient, alice: dict[str, str]) -> dict[str, Any]:
    """A real paid order of the sample data, through the API (the template of the rest)."""
    cart = (await client.post("/carts", json={"storeId": "store_ceramics"}, headers=alice)
            ).json()
    await client.post(f"/carts/{cart['id']}/items", headers=alice,
                      json={"itemId": "item_limited_glaze_mug", "quantity": 1})
    body = {"cartId": cart["id"], "deliveryAddress": {"address": "1 Main St, Springfield, US",
                                                      "countryCode": "US"}}
    required = (await client.post("/orders", json=body, headers=alice)).json()
    assert "accepts" in required, required
    entry = next(a for a in required["accepts"] if a["scheme"] == "fiat_intent")
    confirmed = (await client.post(entry["extra"]["confirmUrl"], json={
        "clientSecret": entry["extra"]["clientSecret"], "card": "4242424242424242"})).json()
    proof = base64.b64encode(json.dumps({
        "x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
        "payload": {"paymentIntentId": confirmed["paymentIntentId"]}}).encode()).decode()
    placed = await client.post("/orders", json=body, headers={**alice, "X-PAYMENT": proof})
    assert placed.status_code == 201, placed.text
    order: dict[str, Any] = placed.json()
    return order


Read = Callable[[], Awaitable[httpx.Response]]


async def deep_cursor(client: httpx.AsyncClient, url: str, headers: dict[str, str],
                      pages: int) -> str:
    """The cursor of the page after `pages` pages of 20."""
    cursor = ""
    for _ in range(pages):
        body = (await client.get(url, params={"limit": 20, "cursor": cursor},
                                 headers=headers)).json()
        cursor = body["pagination"]["nextCursor"]
    return cursor


@asynccontextmanager
async def loaded_app(target: str, orders: int, products: int
                     ) -> AsyncIterator[dict[str, Read]]:
    """The app on a database of this size, loaded, and the reads to time on it."""
    settings = Settings(db_path=target, base_url="http://test", simulate=False)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                     timeout=600) as client:
            tokens = await load(app.state.db, client, orders, products)
            alice, merchant = {"Authorization": tokens["alice"]}, \
                {"Authorization": tokens["merchant"]}
            catalog_url = f"/catalogs/{CATALOG}"
            catalog_deep = await deep_cursor(client, catalog_url, alice, 40)
            orders_deep = await deep_cursor(client, "/orders", alice, 40)
            item = f"/items/item_growth_{products // 2}"
            yield {
                "item read (signed in)": lambda: client.get(item, headers=alice),
                "search q=mug": lambda: client.get("/search?q=mug&limit=20"),
                "search q=glaze": lambda: client.get("/search?q=glaze&limit=20"),
                "browse (no query)": lambda: client.get("/search?limit=20"),
                "catalog items page": lambda: client.get(f"{catalog_url}?limit=20",
                                                         headers=alice),
                "catalog items page 41": lambda: client.get(
                    catalog_url, params={"limit": 20, "cursor": catalog_deep}, headers=alice),
                "admin item list": lambda: client.get(
                    f"/admin/stores/{STORE}/items?limit=20", headers=merchant),
                "order list": lambda: client.get("/orders?limit=20", headers=alice),
                "order list page 41": lambda: client.get(
                    "/orders", params={"limit": 20, "cursor": orders_deep}, headers=alice),
                "orders ?status=confirmed": lambda: client.get(
                    "/orders?limit=20&status=confirmed", headers=alice),
                "orders ?status=cancelled": lambda: client.get(
                    "/orders?limit=20&status=cancelled", headers=alice),
                WHOLE: lambda: client.get(catalog_url, headers=alice),
            }


WHOLE = "whole catalog (signed in)"


async def compare(small: dict[str, Read], large: dict[str, Read], requests: int,
                  only: list[str] | None = None) -> list[tuple[str, float, float]]:
    """Each read's p50 (ms) on both sizes (of the reads named in `only`, if given), the two
    timed in turn request by request (after 5 unmeasured of each), so that both see the same
    moments of the machine's load."""
    figures = []
    unknown = set(only or ()) - set(small)
    if unknown:
        raise SystemExit(f"no such read: {', '.join(sorted(unknown))}; "
                         f"the reads are: {', '.join(small)}")
    for name in small:
        if only is not None and name not in only:
            continue
        reads = (small[name], large[name])
        times: tuple[list[float], list[float]] = ([], [])
        for read in reads:
            for _ in range(1 if name == WHOLE else 5):
                response = await read()
                assert response.status_code == 200, response.text[:300]
        for index in range(5 if name == WHOLE else requests):
            for side in ((0, 1) if index % 2 == 0 else (1, 0)):
                started = time.perf_counter()
                await reads[side]()
                times[side].append(time.perf_counter() - started)
        figures.append((name, statistics.median(times[0]) * 1000,
                        statistics.median(times[1]) * 1000))
    return figures


def report(backend: str, sizes: list[tuple[int, int]],
           figures: list[tuple[str, float, float]]) -> None:
    (small_orders, small_products), (large_orders, large_products) = sizes
    print(f"\n{backend}: p50 ms at {small_orders:,} orders / {small_products:,} products and "
          f"at {large_orders:,} / {large_products:,}")
    print(f"  {'read':30}{'small':>9}{'large':>9}{'ratio':>8}")
    for name, small, large in figures:
        print(f"  {name:30}{small:9.2f}{large:9.2f}{large / small:8.2f}", flush=True)


async def run(args: argparse.Namespace) -> None:
    sizes = list(zip(args.orders, args.products, strict=True))
    if len(sizes) != 2:
        raise SystemExit("give two sizes: --orders SMALL,LARGE --products SMALL,LARGE")
    (small_orders, small_products), (large_orders, large_products) = sizes
    for backend in args.backends:
        async with targets(backend) as found:
            if found is None:
                continue
            print(f"{backend}: loading", flush=True)
            async with loaded_app(found[0], small_orders, small_products) as small, \
                    loaded_app(found[1], large_orders, large_products) as large:
                report(backend, sizes,
                       await compare(small, large, args.requests, args.reads))


@asynccontextmanager
async def targets(backend: str) -> AsyncIterator[tuple[str, str] | None]:
    """Two empty databases of the backend (None: PostgreSQL is absent)."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "small.db"), str(Path(folder) / "large.db")
        return
    async with postgres_database("small") as small, postgres_database("large") as large:
        yield None if small is None or large is None else (small, large)


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400,
                        help="reads timed per figure on each size (the whole catalog: 5)")
    parser.add_argument("--backends", type=lambda text: text.split(","),
                        default=["sqlite", "postgres"])
    parser.add_argument("--orders", type=_numbers, default=[1000, 100_000],
                        help="the customer's orders, small and large")
    parser.add_argument("--products", type=_numbers, default=[1000, 50_000],
                        help="the generated catalog's products, small and large")
    parser.add_argument("--reads", type=lambda text: text.split(","), default=None,
                        help="time only these reads (by name, comma-separated)")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
