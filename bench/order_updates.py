"""SSE fan-out: many watchers of one order, many changes, beside a bare Starlette SSE broadcast.

    python bench/order_updates.py [--watchers 1000] [--changes 100]

The server runs on CPU 0 and this driver on CPU 1 (where there are two cores). Watchers are
plain sockets, so the driver's own parsing stays cheap. The order is a subscription order and
the changes are pause/resume requests through the HTTP API, sent one after the other (each a
real `BEGIN IMMEDIATE` transaction with synchronous=FULL, a stored JSON Patch and a webhook
outbox check). The figure is the time from the first change's request until every watcher
holds the last change's event, and the server's peak RSS (VmHWM). The ceiling is the same
load on bench/bare_app.py, whose POST /publish puts one event in every stream's queue.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from support import (
    cli,
    free_port,
    memory_kib,
    pin_self,
    serve_bare,
    serve_ours,
    stop,
    wait_until_up,
)

STORE, ITEM = "store_ebooks", "item_folio_unlimited_monthly"


@dataclass
class Watchers:
    """Raw-socket SSE readers of one stream path; each knows the last event id it holds."""

    port: int
    path: str
    headers: str
    last_ids: list[int] = field(default_factory=list)
    done_at: list[float] = field(default_factory=list)
    reconnects: int = 0
    target: int = 0
    target_known: asyncio.Event = field(default_factory=asyncio.Event)

    async def watch(self, index: int, opened: asyncio.Event, count: list[int], total: int
                    ) -> None:
        last = 0
        first = True
        while True:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            resume = f"Last-Event-ID: {last}\r\n" if last else ""
            writer.write(f"GET {self.path} HTTP/1.1\r\nHost: bench\r\n{self.headers}{resume}"
                         "Accept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            buffer = b""
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break  # dropped as too slow: resume from the last id held
                buffer += chunk
                ids = re.findall(rb"(?:^|\n)id: (\d+)\n", buffer)
                if ids:
                    last = int(ids[-1])
                    buffer = buffer[buffer.rfind(b"\n\n") + 2:]
                    if first:
                        first = False
                        count[0] += 1
                        if count[0] == total:
                            opened.set()
                    if self.target_known.is_set() and last >= self.target:
                        self.done_at[index] = time.perf_counter()
                        writer.close()
                        return
            writer.close()
            self.reconnects += 1


async def fan_out(watchers: Watchers, count: int, change: Callable[[int], Awaitable[None]],
                  changes: int, pid: int, first_id: int) -> dict[str, float]:
    watchers.done_at = [0.0] * count
    opened, opened_count = asyncio.Event(), [0]
    tasks = [asyncio.create_task(watchers.watch(i, opened, opened_count, count))
             for i in range(count)]
    await asyncio.wait_for(opened.wait(), 120)
    held = memory_kib(pid)
    watchers.target = first_id + changes
    watchers.target_known.set()
    started = time.perf_counter()
    for index in range(changes):
        await change(index)
    writes_done = time.perf_counter() - started
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    after = memory_kib(pid)
    return {"all_received_s": max(watchers.done_at) - started, "writes_s": writes_done,
            "rss_held_mib": held["VmRSS"] / 1024, "peak_rss_mib": after["VmHWM"] / 1024,
            "reconnects": watchers.reconnects}


async def subscription_order(http: httpx.AsyncClient) -> str:
    cart = (await http.post("/carts", json={"storeId": STORE})).json()
    await http.post(f"/carts/{cart['id']}/items", json={"itemId": ITEM, "quantity": 1})
    body = {"cartId": cart["id"]}
    required = (await http.post("/orders", json=body)).json()
    entry = next(a for a in required["accepts"] if a["scheme"] == "fiat_intent")
    intent = (await http.post(entry["extra"]["confirmUrl"], json={
        "clientSecret": entry["extra"]["clientSecret"], "card": "4242424242424242"})).json()
    proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
             "payload": {"paymentIntentId": intent["paymentIntentId"]}}
    placed = await http.post("/orders", json=body, headers={
        "X-PAYMENT": base64.b64encode(json.dumps(proof).encode()).decode()})
    assert placed.status_code == 201, placed.text
    order_id: str = placed.json()["id"]
    return order_id


async def run_ours(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    db = Path(folder) / "bench.db"
    cli("seed", "--db", str(db))
    token = cli("token", "create", "--user", "alice@example.com", "--db", str(db))
    port = free_port()
    server = serve_ours(db, port)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/capabilities", server)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                     headers={"Authorization": f"Bearer {token}"}) as http:
            order_id = await subscription_order(http)
            first = await first_event_id(port, f"/orders/{order_id}/updates", token)

            async def change(index: int) -> None:
                action = "pause" if index % 2 == 0 else "resume"
                response = await http.post(f"/orders/{order_id}/subscription/{action}")
                assert response.status_code == 200, response.text

            watchers = Watchers(port, f"/orders/{order_id}/updates",
                                f"Authorization: Bearer {token}\r\n")
            return await fan_out(watchers, args.watchers, change, args.changes, server.pid,
                                 first)
    finally:
        stop(server)


async def first_event_id(port: int, path: str, token: str) -> int:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http, \
            http.stream("GET", path, headers={"Authorization": f"Bearer {token}"}) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("id: "):
                return int(line[4:])
    raise SystemExit("the stream sent no event")


async def run_bare(args: argparse.Namespace) -> dict[str, float]:
    port = free_port()
    server = serve_bare(port)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/catalogs/bare", server)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:

            async def change(index: int) -> None:
                await http.post("/publish")

            first = int((await http.post("/publish")).json()["published"])
            return await fan_out(Watchers(port, "/events", ""), args.watchers, change,
                                 args.changes, server.pid, first)
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=100)
    args = parser.parse_args()
    pin_self(1)
    bare = asyncio.run(run_bare(args))
    with tempfile.TemporaryDirectory() as folder:
        ours = asyncio.run(run_ours(args, Path(folder)))
    events = args.watchers * args.changes
    print(f"{args.watchers} watchers of one order, {args.changes} changes "
          f"({events} events delivered)")
    print(f"{'':32}{'all received':>14}{'writes':>10}{'events/s':>12}{'RSS held':>11}"
          f"{'peak RSS':>11}{'reconnects':>12}")
    for name, result in (("bare Starlette SSE broadcast", bare),
                         ("GET /orders/{id}/updates", ours)):
        print(f"{name:32}{result['all_received_s']:>13.2f}s{result['writes_s']:>9.2f}s"
              f"{events / result['all_received_s']:>12.0f}{result['rss_held_mib']:>8.0f} MiB"
              f"{result['peak_rss_mib']:>8.0f} MiB{result['reconnects']:>12.0f}")


if __name__ == "__main__":
    main()
