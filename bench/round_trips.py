"""Round trips to PostgreSQL per request: add-to-cart and a paid order, in-process.

    python bench/round_trips.py [--db postgresql://…] [--verbose]

Each statement text sent to the server (one `execute` of a psycopg cursor, or one
`executemany`) is one sequential round trip of the request: they are counted while the
request runs, the reads on the read pool and the writes on the writer pool together, with
BEGIN, the deferred statements and COMMIT travelling with the statements they go with. A
scratch database is created on 127.0.0.1:5432 (user postgres) and dropped afterwards unless
`--db` names one (emptied with `seed --reset` first). `--verbose` prints each round trip's
statements.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from commerce_api import ADDRESS, ITEM
from support import cli
from workers import scratch_postgres

from commerce_agent.app import create_app
from commerce_agent.auth.tokens import mint_token
from commerce_agent.settings import Settings

MEDIA = "application/commerce+json; version=1.0"


def _heads(text: str) -> str:
    """The first words of each statement of a round trip's text."""
    return " | ".join(" ".join(statement.split())[:70] for statement in text.split("; ")
                      if statement.strip())


class Counter:
    def __init__(self) -> None:
        self.texts: list[str] = []

    @contextmanager
    def counting(self) -> Iterator[list[str]]:
        import psycopg

        self.texts = []
        originals = (psycopg.AsyncCursor.execute, psycopg.AsyncCursor.executemany)
        texts = self.texts

        async def execute(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            texts.append(_heads(str(query)))
            return await originals[0](cursor, query, *args, **kwargs)

        async def executemany(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            texts.append("(many) " + _heads(str(query)))
            return await originals[1](cursor, query, *args, **kwargs)

        psycopg.AsyncCursor.execute = execute  # type: ignore[method-assign]
        psycopg.AsyncCursor.executemany = executemany  # type: ignore[method-assign]
        try:
            yield texts
        finally:
            psycopg.AsyncCursor.execute, psycopg.AsyncCursor.executemany = originals  # type: ignore[method-assign]


async def measure(db: str, verbose: bool, repeat: int) -> dict[str, int]:
    counter = Counter()
    app = create_app(Settings(db_path=db, base_url="http://bench", simulate=False))
    found: dict[str, int] = {}
    async with app.router.lifespan_context(app):
        async with app.state.db.transaction() as tx:
            token = await mint_token(tx, "user_alice", "bench")
        headers = {"Authorization": f"Bearer {token}", "Accept": MEDIA}
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench",
                                     headers=headers) as client:
            # The first of each warms the caches (and psycopg's prepared statements) up.
            for round_ in range(repeat):
                cart = (await client.post("/carts", json={"storeId": "store_ceramics"})).json()
                with counter.counting() as texts:
                    added = await client.post(f"/carts/{cart['id']}/items",
                                              json={"itemId": ITEM, "quantity": 1})
                assert added.status_code == 200, added.text
                found["add-to-cart"] = len(texts)
                _show(verbose and round_ == repeat - 1, "add-to-cart", texts)
                body = {"cartId": cart["id"], "deliveryAddress": ADDRESS}
                required = (await client.post("/orders", json=body)).json()
                entry = next(a for a in required["accepts"] if a["scheme"] == "fiat_intent")
                confirmed = (await client.post(entry["extra"]["confirmUrl"], json={
                    "clientSecret": entry["extra"]["clientSecret"],
                    "card": "4242424242424242"})).json()
                proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
                         "payload": {"paymentIntentId": confirmed["paymentIntentId"]}}
                payment = base64.b64encode(json.dumps(proof).encode()).decode()
                with counter.counting() as texts:
                    placed = await client.post("/orders", json=body,
                                               headers={"X-PAYMENT": payment})
                assert placed.status_code == 201, placed.text
                found["paid POST /orders"] = len(texts)
                _show(verbose and round_ == repeat - 1, "paid POST /orders", texts)
                with counter.counting() as texts:
                    keyed = await client.post("/orders", json=body,
                                              headers={"X-PAYMENT": payment,
                                                       "Idempotency-Key": f"k{round_}"})
                assert keyed.status_code == 409, keyed.text  # the cart is submitted
                found["refused POST /orders (cart submitted)"] = len(texts)
    return found


def _show(verbose: bool, name: str, texts: list[str]) -> None:
    if verbose:
        print(f"-- {name}: {len(texts)} round trips")
        for number, text in enumerate(texts, 1):
            print(f"{number:3}. {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--db", help="a PostgreSQL URL (emptied first)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    def run(db: str) -> None:
        cli("seed", "--reset", "--db", db)
        for name, count in asyncio.run(measure(db, args.verbose, args.repeat)).items():
            print(f"{name:40} {count:3} round trips")

    if args.db:
        run(args.db)
        return
    with scratch_postgres() as db:
        if db is None:
            sys.exit(1)
        run(db)


if __name__ == "__main__":
    main()
