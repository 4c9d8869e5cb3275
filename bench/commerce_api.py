"""Requests per second for the buy flow, each as a ratio of a bare Starlette JSON route.

    python bench/commerce_api.py [--duration 5] [--rounds 3] [--connections 32] [--orders N]

Starts `commerce-agent serve` and the bare app (bench/bare_app.py) with uvicorn, both pinned
to CPU 0 where the machine has two cores, and loads them with wrk pinned to CPU 1, one server
at a time: GET /catalogs/{id}, add-to-cart (POST /carts/{id}/items) and a paid POST /orders
carrying X-PAYMENT (each request a fresh cart and a confirmed sandbox payment, prepared
beforehand). Every write is a real `BEGIN IMMEDIATE` transaction with synchronous=FULL.

A round of paid orders sends each of its prepared orders once and ends when they are all
answered (or when its duration is up), so its rate is the server's, never the pace of
preparation: a server faster than the orders prepared ends the round early. (Repeating a
prepared order instead would be answered 409, a spent payment, and counted as nothing.)

Each route is measured in rounds, and every round runs the bare route right beside it (in
turn before and after), so that a ratio compares two runs seconds apart: on a shared machine
the speed of both drifts by a third within minutes. The figures printed are the medians of
the rounds, and every round is shown.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

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


def lua_rotating(requests: list[tuple[str, str, dict[str, str], str]], path: Path,
                 once: tuple[str, str, dict[str, str]] | None = None) -> Path:
    """A wrk script that sends each prepared request once, in order, and counts the answers
    by status (each wrk thread has its own Lua state: `done` asks them). It repeats them; with
    `once` (a request that fails, without writing anything) it sends that instead when the
    list is used up, and stops once as many answers came back as there are requests."""
    lines = ["local reqs = {}"]
    for method, target, headers, body in requests:
        header_table = ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}"
                                 for k, v in headers.items())
        lines.append(f"reqs[#reqs + 1] = wrk.format({json.dumps(method)}, {json.dumps(target)}, "
                     f"{{{header_table}}}, {json.dumps(body)})")
    if once is None:
        lines += ["local i = 0", "request = function()", "  i = i % #reqs + 1",
                  "  return reqs[i]", "end", "local answered, stop_after = 0, nil"]
    else:
        method, target, headers = once
        header_table = ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}"
                                 for k, v in headers.items())
        lines += [f"local filler = wrk.format({json.dumps(method)}, {json.dumps(target)}, "
                  f"{{{header_table}}})",
                  "local i = 0", "request = function()", "  i = i + 1",
                  "  if i > #reqs then return filler end", "  return reqs[i]", "end",
                  "local answered, stop_after = 0, #reqs"]
    statuses = ["local threads = {}",
                "setup = function(thread) table.insert(threads, thread) end",
                "codes = {}", "response = function(status, headers, body)",
                "  codes[status] = (codes[status] or 0) + 1",
                "  answered = answered + 1",
                "  if stop_after and answered >= stop_after then wrk.thread:stop() end", "end",
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

        async def post(path: str, expected: int, **kwargs: Any) -> Any:
            """The answer's JSON; a 503 (a loaded machine: the database's bounded waits) is
            tried again, any other unexpected answer stops the bench."""
            for _ in range(20):
                answer = await client.post(path, **kwargs)
                if answer.status_code != 503:
                    break
                await asyncio.sleep(0.2)
            if answer.status_code != expected:
                raise SystemExit(f"preparing: POST {path} answered {answer.status_code}: "
                                 f"{answer.text[:300]}")
            return answer.json()

        async def one() -> None:
            async with semaphore:
                cart = await post("/carts", 201, json={"storeId": "store_ceramics"})
                await post(f"/carts/{cart['id']}/items", 200,
                           json={"itemId": ITEM, "quantity": 1})
                body = json.dumps({"cartId": cart["id"], "deliveryAddress": ADDRESS})
                required = await post("/orders", 402, content=body,
                                      headers={"Content-Type": "application/json"})
                entry = next(a for a in required["accepts"] if a["scheme"] == "fiat_intent")
                confirmed = await post(entry["extra"]["confirmUrl"], 200, json={
                    "clientSecret": entry["extra"]["clientSecret"],
                    "card": "4242424242424242"})
                proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
                         "payload": {"paymentIntentId": confirmed["paymentIntentId"]}}
                paid.append((body, base64.b64encode(json.dumps(proof).encode()).decode()))

        await asyncio.gather(*(one() for _ in range(orders)))
        return catalog_id, cart_ids, paid


Measure = Callable[[], tuple[float, dict[int, int]]]


class Route:
    """One route's rounds: its figures and the bare route's, run beside each other."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rounds: list[tuple[float, float, dict[int, int]]] = []  # ours, bare, answers

    def measure(self, ours: Measure, bare: Measure) -> None:
        if len(self.rounds) % 2 == 0:
            bare_rps, _ = bare()
            rps, codes = ours()
        else:
            rps, codes = ours()
            bare_rps, _ = bare()
        self.rounds.append((rps, bare_rps, codes))

    def medians(self) -> tuple[float, float, float]:
        return (statistics.median(rps for rps, _, _ in self.rounds),
                statistics.median(bare for _, bare, _ in self.rounds),
                statistics.median(rps / bare for rps, bare, _ in self.rounds))

    def answers(self) -> str:
        counted: dict[int, int] = {}
        for _, _, codes in self.rounds:
            for code, count in codes.items():
                counted[code] = counted.get(code, 0) + count
        return ", ".join(f"{code}: {count}" for code, count in sorted(counted.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=5, help="seconds of each run")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each route, each beside a run of the bare route")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--orders", type=int, default=0,
                        help="paid orders to prepare (default: 2,000 for each second of "
                             "every round; a round ends early when its orders are used up)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")

    rounds = max(1, args.rounds)
    routes = [Route("GET /catalogs/{id}"), Route("POST /carts/{id}/items"),
              Route("paid POST /orders (X-PAYMENT)")]
    bare_port = free_port()
    bare_url = f"http://127.0.0.1:{bare_port}/catalogs/bare"
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
        bare = serve_bare(bare_port)
        server = serve_ours(db, port)
        try:
            wait_until_up(bare_url, bare)
            wait_until_up(f"{base}/capabilities", server)
            orders = args.orders or rounds * args.duration * 2000
            started = time.monotonic()
            catalog_id, cart_ids, paid = asyncio.run(prepare(base, token, 2000, orders))
            print(f"prepared {len(paid)} paid orders in {time.monotonic() - started:.1f}s")

            def bare_run() -> tuple[float, dict[int, int]]:
                return wrk(bare_url, args.duration, args.connections)

            # Requests built when the script loads get no Host header from wrk: name it.
            auth = {"Host": f"127.0.0.1:{port}", "Authorization": f"Bearer {token}",
                    "Content-Type": "application/json"}
            # A digital item of the carts' store (no stock row: unlimited); lines merge up to
            # 999 units, so 2,000 carts take about two million adds.
            add_body = json.dumps({"itemId": "item_glazing_guide_ebook", "quantity": 1})
            add_script = lua_rotating([("POST", f"/carts/{cart_id}/items", auth, add_body)
                                       for cart_id in cart_ids], Path(folder) / "add.lua")
            # Each round places orders of its own: a spent payment cannot pay twice.
            share = len(paid) // rounds
            order_scripts = [lua_rotating(
                [("POST", "/orders", {**auth, "X-PAYMENT": proof}, body)
                 for body, proof in paid[index * share:(index + 1) * share]],
                Path(folder) / f"order{index}.lua", once=("GET", "/orders/ord_none", auth))
                for index in range(rounds)]
            catalog_url = f"{base}/catalogs/{catalog_id}"
            for _ in range(rounds):
                routes[0].measure(partial(wrk, catalog_url, args.duration, args.connections),
                                  bare_run)
            for _ in range(rounds):
                routes[1].measure(partial(wrk, base, args.duration, args.connections,
                                          add_script), bare_run)
            for script in order_scripts:
                routes[2].measure(partial(wrk, base, args.duration, args.connections, script),
                                  bare_run)
            with sqlite3.connect(db) as connection:
                placed = connection.execute("SELECT COUNT(*) FROM orders").fetchone()[0]
        finally:
            stop(server)
            stop(bare)

    print(f"successful (2xx) requests per second, the median of {rounds} round(s), each beside "
          "a run of the bare Starlette JSON route:")
    print(f"{'':31}{'req/s':>9}  {'bare':>7}  ratio")
    for route in routes:
        rps, bare_rps, ratio = route.medians()
        print(f"{route.name:31}{rps:9.0f}  {bare_rps:7.0f}  {ratio:.2f}   "
              f"(answers {route.answers()})")
    print("rounds (req/s, bare req/s, ratio):")
    for route in routes:
        print(f"  {route.name:31}" + "   ".join(
            f"{rps:.0f} {bare_rps:.0f} {rps / bare_rps:.2f}" for rps, bare_rps, _ in route.rounds))
    print(f"orders in the database afterwards: {placed} (of {len(paid)} prepared)")


if __name__ == "__main__":
    main()
