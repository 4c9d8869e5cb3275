"""Requests per second for the buy flow, each as a ratio of a bare Starlette JSON route.

    python bench/commerce_api.py [--duration 10] [--connections 32]

Starts `commerce-agent serve` and the bare app (bench/bare_app.py) with uvicorn, one at a time,
pinned to CPU 0 where the machine has two cores, and loads them with wrk pinned to CPU 1:
GET /catalogs/{id}, add-to-cart (POST /carts/{id}/items) and a paid POST /orders carrying
X-PAYMENT (each request a fresh cart and a confirmed sandbox payment, prepared beforehand).
Every write is a real `BEGIN IMMEDIATE` transaction with synchronous=FULL.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from support import ROOT, free_port, pin, serve_bare, serve_ours, stop, wait_until_up

ITEM = "item_limited_glaze_mug"
ADDRESS = {"address": "1 Main St, Springfield, US", "countryCode": "US"}


def wrk(url: str, duration: int, connections: int, script: Path | None = None
        ) -> tuple[float, dict[int, int]]:
    """Successful (2xx) requests per second, and the count of answers by status (from the
    script's `done`; counted by wrk itself without a script)."""
    command = [*pin(1), "wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency"]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    total = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", output)
    if total is None:
        raise SystemExit(output)
    seconds = float(total.group(2)) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[
        total.group(3)]
    statuses = {int(code): int(count) for code, count in
                re.findall(r"^status (\d+): (\d+)$", output, re.M)}
    if not statuses:  # no script: wrk reports only non-2xx answers
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        statuses = {200: int(total.group(1)) - (int(bad.group(1)) if bad else 0)}
        if bad:
            statuses[0] = int(bad.group(1))
    ok = sum(count for code, count in statuses.items() if 200 <= code < 300)
    return ok / seconds, statuses


def lua_rotating(requests: list[tuple[str, str, dict[str, str], str]], path: Path) -> Path:
    """A wrk script that sends each prepared request once, in order (then repeats), and
    counts the answers by status (each wrk thread has its own Lua state: `done` asks them)."""
    lines = ["local reqs = {}"]
    for method, target, headers, body in requests:
        header_table = ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}"
                                 for k, v in headers.items())
        lines.append(f"reqs[#reqs + 1] = wrk.format({json.dumps(method)}, {json.dumps(target)}, "
                     f"{{{header_table}}}, {json.dumps(body)})")
    lines += ["local i = 0", "request = function()", "  i = i % #reqs + 1",
              "  return reqs[i]", "end"]
    statuses = ["local threads = {}",
                "setup = function(thread) table.insert(threads, thread) end",
                "codes = {}", "response = function(status, headers, body)",
                "  codes[status] = (codes[status] or 0) + 1", "end",
                "done = function(summary, latency, requests)",
                "  local all = {}",
                "  for _, thread in ipairs(threads) do",
                "    for code, count in pairs(thread:get('codes')) do",
                "      all[code] = (all[code] or 0) + count end end",
                "  for code, count in pairs(all) do io.write(string.format("
                "'status %d: %d\\n', code, count)) end", "end"]
    path.write_text("\n".join(lines + statuses) + "\n")
    return path


async def prepare(base: str, token: str, carts: int, orders: int
                  ) -> tuple[str, list[str], list[tuple[str, str]]]:
    """Catalog id, carts for add-to-cart, and (body, X-PAYMENT) pairs for paid orders."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
        store = (await client.get("/stores/store_ceramics")).json()
        catalog_id = store["catalogIds"][0]
        cart_ids = []
        for _ in range(carts):
            cart_ids.append((await client.post("/carts", json={"storeId": "store_ceramics"})
                             ).json()["id"])
        paid: list[tuple[str, str]] = []
        semaphore = asyncio.Semaphore(48)

        async def one() -> None:
            async with semaphore:
                cart = (await client.post("/carts", json={"storeId": "store_ceramics"})).json()
                await client.post(f"/carts/{cart['id']}/items",
                                  json={"itemId": ITEM, "quantity": 1})
                body = json.dumps({"cartId": cart["id"], "deliveryAddress": ADDRESS})
                required = (await client.post("/orders", content=body,
                                              headers={"Content-Type": "application/json"})
                            ).json()
                entry = next(a for a in required["accepts"] if a["scheme"] == "fiat_intent")
                confirmed = (await client.post(entry["extra"]["confirmUrl"], json={
                    "clientSecret": entry["extra"]["clientSecret"],
                    "card": "4242424242424242"})).json()
                proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
                         "payload": {"paymentIntentId": confirmed["paymentIntentId"]}}
                paid.append((body, base64.b64encode(json.dumps(proof).encode()).decode()))

        await asyncio.gather(*(one() for _ in range(orders)))
        return catalog_id, cart_ids, paid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--orders", type=int, default=0,
                        help="paid orders to prepare (default: enough for the duration)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")

    bare_port = free_port()
    bare = serve_bare(bare_port)
    try:
        wait_until_up(f"http://127.0.0.1:{bare_port}/catalogs/bare", bare)
        bare_rps, _ = wrk(f"http://127.0.0.1:{bare_port}/catalogs/bare", args.duration,
                          args.connections)
    finally:
        bare.terminate()
        bare.wait()

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        subprocess.run([sys.executable, "-m", "commerce_agent", "seed", "--db", str(db)],
                       cwd=ROOT, check=True, capture_output=True)
        token = subprocess.run([sys.executable, "-m", "commerce_agent", "token", "create",
                                "--user", "alice@example.com", "--db", str(db)], cwd=ROOT,
                               check=True, capture_output=True, text=True).stdout.strip()
        with sqlite3.connect(db) as connection:  # enough stock for every prepared order
            connection.execute("UPDATE stock SET quantity = 100000000 WHERE item_id = ?",
                               (ITEM,))
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = serve_ours(db, port)
        try:
            wait_until_up(f"{base}/capabilities", server)
            orders = args.orders or args.duration * 2500
            started = time.monotonic()
            catalog_id, cart_ids, paid = asyncio.run(prepare(base, token, 2000, orders))
            print(f"prepared {len(paid)} paid orders in {time.monotonic() - started:.1f}s")
            # Requests built when the script loads get no Host header from wrk: name it.
            auth = {"Host": f"127.0.0.1:{port}", "Authorization": f"Bearer {token}",
                    "Content-Type": "application/json"}
            catalog_rps, catalog_codes = wrk(f"{base}/catalogs/{catalog_id}", args.duration,
                                             args.connections)
            # A digital item of the carts' store (no stock row: unlimited); lines merge up to
            # 999 units, so 2,000 carts take about two million adds.
            add_body = json.dumps({"itemId": "item_glazing_guide_ebook", "quantity": 1})
            add_script = lua_rotating([("POST", f"/carts/{cart_id}/items", auth, add_body)
                                       for cart_id in cart_ids], Path(folder) / "add.lua")
            add_rps, add_codes = wrk(base, args.duration, args.connections, add_script)
            order_script = lua_rotating([("POST", "/orders", {**auth, "X-PAYMENT": proof}, body)
                                         for body, proof in paid], Path(folder) / "order.lua")
            order_rps, order_codes = wrk(base, args.duration, args.connections, order_script)
            with sqlite3.connect(db) as connection:
                placed = connection.execute("SELECT COUNT(*) FROM orders").fetchone()[0]
        finally:
            stop(server)

    def codes(counted: dict[int, int]) -> str:
        return ", ".join(f"{code}: {count}" for code, count in sorted(counted.items()))

    print("successful (2xx) requests per second, and as a ratio of the bare route:")
    print(f"bare Starlette JSON route      {bare_rps:9.0f} req/s   1.00")
    for name, rps, counted in (("GET /catalogs/{id}", catalog_rps, catalog_codes),
                               ("POST /carts/{id}/items", add_rps, add_codes),
                               ("paid POST /orders (X-PAYMENT)", order_rps, order_codes)):
        print(f"{name:31}{rps:9.0f} req/s   {rps / bare_rps:.2f}   (answers {codes(counted)})")
    print(f"orders in the database afterwards: {placed} (of {len(paid)} prepared)")


if __name__ == "__main__":
    main()
