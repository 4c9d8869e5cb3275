"""Webhook deliveries per second, end to end, from `commerce-agent serve` to a local receiver.

    python bench/webhooks.py [--orders 15] [--subscriptions 20]

The server runs on CPU 0 and this driver (receiver and buyer) on CPU 1 where there are two
cores. The receiver is a keep-alive HTTP/1.1 server on asyncio streams answering 200 with an
empty body. Alice subscribes `--subscriptions` URLs to every event (`*`), so each event fans
out to that many deliveries; each is a real signed POST, and each outcome a recorded attempt
in the SQLite outbox (synchronous=FULL).

1. live: she pays for `--orders` orders (8 at a time through the HTTP API); the simulator
   (speed 10000) takes each to `completed`, emitting order.created, order.confirmed, and an
   order.updated plus an order.<status> per step. Figure: deliveries received ÷ (last
   arrival − first order request), and the lag from each event's timestamp to its arrival.
2. backlog after a restart: the same load while the receiver answers 503 with
   `Retry-After: 1`; the server is then stopped (SIGTERM), the receiver switched to 200 and the
   server started again on the same file. Figure: deliveries ÷ (last arrival − first arrival
   after the restart): how fast a backlog drains.

The ceiling, measured in the same run: bench/bare_app.py served the same way (uvicorn on
CPU 0) POSTs as many deliveries as the live step made to the same receiver and URLs, each a
signed body of the size of ours (one received body, with a fresh id and timestamp), on one
shared httpx.AsyncClient, as many at a time as our sender (CONCURRENCY), and records nothing.
Figure: deliveries ÷ (last arrival − first arrival). Each ratio is ours ÷ the ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from support import cli, free_port, pin_self, serve_bare, serve_ours, stop, wait_until_up

from commerce_agent.commerce.services.webhooks.sender import CONCURRENCY

ITEM = "item_limited_glaze_mug"
ADDRESS = {"address": "1 Main St, Springfield, US", "countryCode": "US"}
SERVE = ("--simulate", "--simulate-speed", "10000")


class Receiver:
    """Counts deliveries: arrival time and lag (now − the event's timestamp) of each."""

    def __init__(self) -> None:
        self.status = 200
        self.arrivals: list[float] = []
        self.lags: list[float] = []
        self.refused = 0
        self.sample = b"{}"  # the last body received
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[Any]] = set()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        handler = asyncio.current_task()
        assert handler is not None
        self._handlers.add(handler)
        try:
            while await reader.readline():
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                body = await reader.readexactly(length)
                status = self.status
                if status == 200:
                    now = time.time()
                    self.arrivals.append(time.perf_counter())
                    self.sample = body
                    stamp = json.loads(body)["timestamp"].replace("Z", "+00:00")
                    self.lags.append(now - datetime.fromisoformat(stamp).timestamp())
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                else:
                    self.refused += 1
                    writer.write(b"HTTP/1.1 503 Busy\r\nRetry-After: 1\r\n"
                                 b"Content-Length: 0\r\n\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            self._handlers.discard(handler)
            writer.close()

    async def close_all(self) -> None:
        for writer in list(self._writers):
            writer.close()
        await asyncio.gather(*self._handlers, return_exceptions=True)


async def buy(client: httpx.AsyncClient) -> None:
    cart = (await client.post("/carts", json={"storeId": "store_ceramics"})).json()
    await client.post(f"/carts/{cart['id']}/items", json={"itemId": ITEM, "quantity": 1})
    body = {"cartId": cart["id"], "deliveryAddress": ADDRESS}
    required = (await client.post("/orders", json=body)).json()
    entry = next(a for a in required["accepts"] if a["scheme"] == "fiat_intent")
    confirmed = (await client.post(entry["extra"]["confirmUrl"], json={
        "clientSecret": entry["extra"]["clientSecret"], "card": "4242424242424242"})).json()
    proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
             "payload": {"paymentIntentId": confirmed["paymentIntentId"]}}
    placed = await client.post("/orders", json=body, headers={
        "X-PAYMENT": base64.b64encode(json.dumps(proof).encode()).decode()})
    assert placed.status_code == 201, placed.text


async def buy_many(base: str, token: str, orders: int) -> None:
    semaphore = asyncio.Semaphore(8)
    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 headers={"Authorization": f"Bearer {token}"}) as client:
        async def one() -> None:
            async with semaphore:
                await buy(client)

        await asyncio.gather(*(one() for _ in range(orders)))


def outbox(db: Path) -> tuple[int, int, int]:
    """(deliveries, pending deliveries, orders not yet completed)."""
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as connection:
        total, pending = connection.execute(
            "SELECT COUNT(*), COALESCE(SUM(status = 'pending'), 0) FROM webhook_deliveries"
        ).fetchone()
        moving = connection.execute(
            "SELECT COUNT(*) FROM orders WHERE status NOT IN ('completed', 'cancelled')"
        ).fetchone()[0]
    return int(total), int(pending), int(moving)


async def until(check: Callable[[], bool], timeout: float = 60) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.1)


def percentile(values: list[float], share: float) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * share))]


async def ceiling(receiver: Receiver, urls: list[str], count: int) -> tuple[float, str]:
    """Seconds from the first to the last arrival of `count` deliveries POSTed by the bare
    app, and its count of answers by status."""
    port = free_port()
    server = serve_bare(port)
    try:
        await asyncio.to_thread(wait_until_up, f"http://127.0.0.1:{port}/catalogs/bare", server)
        receiver.status = 200
        receiver.arrivals.clear()
        async with httpx.AsyncClient(timeout=300) as client:
            pushed = await client.post(f"http://127.0.0.1:{port}/webhooks/push", json={
                "urls": urls, "count": count, "concurrency": CONCURRENCY,
                "body": json.loads(receiver.sample)})
        assert pushed.status_code == 200, pushed.text
        await until(lambda: len(receiver.arrivals) >= count)
        answers = ", ".join(f"{code}: {n}" for code, n in pushed.json()["statuses"].items())
        return receiver.arrivals[-1] - receiver.arrivals[0], answers
    finally:
        stop(server)


async def run(args: argparse.Namespace, folder: Path) -> None:
    receiver = Receiver()
    server_socket = await asyncio.start_server(receiver.serve, "127.0.0.1", 0)
    hook_port = server_socket.sockets[0].getsockname()[1]
    db = folder / "bench.db"
    cli("seed", "--db", str(db))
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE stock SET quantity = 1000000 WHERE item_id = ?", (ITEM,))
    token = cli("token", "create", "--user", "alice@example.com", "--db", str(db))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve_ours(db, port, *SERVE)
    urls = [f"http://127.0.0.1:{hook_port}/hook/{index}" for index in range(args.subscriptions)]
    try:
        await asyncio.to_thread(wait_until_up, f"{base}/capabilities", server)
        async with httpx.AsyncClient(base_url=base, timeout=30,
                                     headers={"Authorization": f"Bearer {token}"}) as client:
            for url in urls:
                created = await client.post("/webhooks", json={"url": url, "events": ["*"]})
                assert created.status_code == 201, created.text

        # 1. live
        started = time.perf_counter()
        await buy_many(base, token, args.orders)
        def all_delivered() -> bool:
            total, pending, moving = outbox(db)
            return pending == moving == 0 and len(receiver.arrivals) >= total

        await until(all_delivered)
        total = outbox(db)[0]
        elapsed = receiver.arrivals[-1] - started
        lags = (f"lag event->arrival p50 {statistics.median(receiver.lags) * 1000:.0f} ms, "
                f"p95 {percentile(receiver.lags, 0.95) * 1000:.0f} ms, "
                f"max {max(receiver.lags) * 1000:.0f} ms")

        # 2. backlog drained after a restart
        receiver.status = 503
        receiver.arrivals.clear()
        before = total
        await buy_many(base, token, args.orders)

        def all_refused() -> bool:
            total, _, moving = outbox(db)
            return moving == 0 and receiver.refused >= total - before

        await until(all_refused)
        stop(server)  # SIGTERM: a graceful stop (leases given back)
        backlog = outbox(db)[1]
        receiver.status = 200
        server = serve_ours(db, port, *SERVE)
        await until(lambda: outbox(db)[1] == 0 and len(receiver.arrivals) >= backlog)
        drain = receiver.arrivals[-1] - receiver.arrivals[0]
        stop(server)

        # 3. the ceiling: a bare Starlette app sending as many deliveries to the same receiver
        bare, answers = await ceiling(receiver, urls, total)
    finally:
        stop(server)
        await receiver.close_all()
        server_socket.close()
        await server_socket.wait_closed()
    print(f"webhook deliveries to a local receiver ({total} live = {total // args.subscriptions}"
          f" events x {args.subscriptions} subscriptions, {args.orders} orders); ratio = "
          f"deliveries/s ÷ the ceiling's")
    print(f"{'':50}{'deliveries':>11}{'seconds':>9}{'per second':>12}{'ratio':>7}")
    for name, count, seconds, note in (
            (f"bare Starlette + httpx, {CONCURRENCY} at a time (ceiling)", total, bare,
             f"first to last arrival; answers {answers}"),
            ("live: first order request to last arrival", total, elapsed, lags),
            ("backlog after a restart: first to last arrival", backlog, drain, "")):
        print(f"{name:50}{count:>11}{seconds:>9.2f}{count / seconds:>12,.0f}"
              f"{count / seconds / (total / bare):>7.2f}   {note}".rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=15)
    parser.add_argument("--subscriptions", type=int, default=20,
                        help="receiver URLs subscribed to every event (at most 20)")
    args = parser.parse_args()
    pin_self(1)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()
