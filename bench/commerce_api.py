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
from support import ROOT, free_port, pin, serve_bare, serve_ours, wait_until_up

ITEM = "item_limited_glaze_mug"
ADDRESS = {"address": "1 Main St, Springfield, US", "countryCode": "US"}


def wrk(url: str, duration: int, connections: int, script: Path | None = None) -> tuple[float,
                                                                                          str]:
    command = [*pin(1), "wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency"]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if match is None:
        raise SystemExit(output)
    return float(match.group(1)), output


def lua_rotating(requests: list[tuple[str, str, dict[str, str], str]], path: Path) -> Path:
    """A wrk script that sends each prepared request once, in order (then repeats)."""
    lines = ["local reqs = {}"]
    for method, target, headers, body in requests:
        header_table = ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}"
                                 for k, v in headers.items())
        lines.append(f"reqs[#reqs + 1] = wrk.format({json.dumps(method)}, {json.dumps(target)}, "
                     f"{{{header_table}}}, {json.dumps(body)})")
    lines += ["local i = 0", "request = function()", "  i = i % #reqs + 1",
              "  return reqs[i]", "end"]
    statuses = ["local codes = {}", "response = function(status, headers, body)",
                "  codes[status] = (codes[status] or 0) + 1", "end",
                "done = function(summary, latency, requests)",
                "  for code, count in pairs(codes) do io.write(string.format("
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
        semaphore = asyncio.Semaphore(16)

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
            auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            catalog_rps, _ = wrk(f"{base}/catalogs/{catalog_id}", args.duration,
                                 args.connections)
            add_body = json.dumps({"itemId": "item_ebook_python_patterns", "quantity": 1})
            add_script = lua_rotating([("POST", f"/carts/{cart_id}/items", auth, add_body)
                                       for cart_id in cart_ids], Path(folder) / "add.lua")
            add_rps, add_out = wrk(base, args.duration, args.connections, add_script)
            order_script = lua_rotating([("POST", "/orders", {**auth, "X-PAYMENT": proof}, body)
                                         for body, proof in paid], Path(folder) / "order.lua")
            order_rps, order_out = wrk(base, args.duration, args.connections, order_script)
        finally:
            server.terminate()
            server.wait()

    def status_lines(output: str) -> str:
        return ", ".join(re.findall(r"status (\d+: \d+)", output))

    print(f"bare Starlette JSON route      {bare_rps:9.0f} req/s   1.00")
    print(f"GET /catalogs/{{id}}             {catalog_rps:9.0f} req/s   "
          f"{catalog_rps / bare_rps:.2f}")
    print(f"POST /carts/{{id}}/items         {add_rps:9.0f} req/s   {add_rps / bare_rps:.2f}"
          f"   ({status_lines(add_out)})")
    print(f"paid POST /orders (X-PAYMENT)  {order_rps:9.0f} req/s   {order_rps / bare_rps:.2f}"
          f"   ({status_lines(order_out)})")


if __name__ == "__main__":
    main()
