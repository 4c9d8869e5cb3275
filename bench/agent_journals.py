"""Agent session streaming, per journal backend: latency, throughput, fan-out, replay.

    python bench/agent_journals.py [--journals memory,file,sqlite,redis] [--streams 1000]

For each backend it starts one server process (bench/agent_server.py, pinned to CPU 0 where
there are two cores; this driver runs on CPU 1) and measures:

- POST /session → 202, and POST → the first event read from the stream (sequential sessions);
- events per second through one session: a `follow=true` stream reads while the driver sends
  the next message as soon as the previous turn ends (scripted model, no pacing);
- STREAMS concurrent `follow=true` streams held by the one process (100 per session, plain
  sockets): the server's RSS with them open, its peak RSS (VmHWM), and the time until every
  stream has received a whole new turn;
- replay of a 10,000-event journal (GET stream?startIndex=0 of a preloaded session), once the
  server has let go of the fan-out's streams (no CPU used for 0.2 s); median of 15.

The ceiling is bench/bare_app.py, served the same way (uvicorn on CPU 0) and measured in the
same run with the same client code: its GET /ndjson/follow streams get one turn of as many
small lines as ours sends per turn (the last a `session.waiting`) for each POST /ndjson/poke
(one poke per group of 100 streams, as ours has one session per 100 streams), and
GET /ndjson?count=10000 replays small lines in chunks of REPLAY_CHUNK, as ours does. Each ratio
is ours as a share of the ceiling: events/s ÷ its events/s, or its time ÷ our time.

The sqlite journal uses the default synchronous=FULL; Redis must run on 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from support import ROOT, free_port, memory_kib, pin, serve_bare, stop, wait_until_up

from commerce_agent.agent.sessions import REPLAY_CHUNK

MOUNT = "/agent/v1"
TURNS = 100  # turns through one session (events/s)
PER_SESSION = 100  # fan-out streams per session (per poked group for the ceiling)


def start(journal: str, folder: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    port = free_port()
    out = folder / f"preloaded-{port}"
    process = subprocess.Popen(
        [*pin(0), sys.executable, str(ROOT / "bench" / "agent_server.py"), "--db",
         str(folder / f"bench-{port}.db"), "--journal", journal, "--port", str(port),
         "--preload", "10000", "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server for {journal} exited ({process.returncode})")
        try:
            if httpx.get(f"{url}{MOUNT}/health", timeout=1).status_code == 200 and out.exists():
                return process, url, out.read_text()
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("server did not come up")


async def first_events(http: httpx.AsyncClient, url: str, count: int
                       ) -> tuple[list[float], list[float]]:
    accepted, first = [], []
    for _ in range(count):
        started = time.perf_counter()
        created = await http.post(f"{url}{MOUNT}/session", json={"message": "hello"})
        accepted.append(time.perf_counter() - started)
        session_id = created.json()["sessionId"]
        async with http.stream("GET", f"{url}{MOUNT}/session/{session_id}/stream") as response:
            async for line in response.aiter_lines():
                if line.strip():
                    first.append(time.perf_counter() - started)
                    break
    return accepted, first


async def one_session_throughput(http: httpx.AsyncClient, url: str, turns: int
                                 ) -> tuple[int, float]:
    created = (await http.post(f"{url}{MOUNT}/session", json={"message": "hello"})).json()
    session_id, token = created["sessionId"], created["continuationToken"]
    return await throughput(
        http, f"{url}{MOUNT}/session/{session_id}/stream", {"follow": "true"},
        lambda: http.post(f"{url}{MOUNT}/session/{session_id}",
                          json={"message": "hello", "continuationToken": token},
                          headers={"Authorization": f"Bearer {token}"}), turns)


async def throughput(http: httpx.AsyncClient, stream_url: str, params: dict[str, str],
                     send: Callable[[], Awaitable[Any]], turns: int) -> tuple[int, float]:
    """A following stream that starts with a whole turn; `send` starts the next turn as soon
    as the previous one has ended (its `session.waiting` read), `turns` times: events read
    and seconds taken."""
    waiting = asyncio.Queue[int]()
    counted = 0

    async def reader() -> None:
        nonlocal counted
        async with http.stream("GET", stream_url, params=params) as response:
            async for line in response.aiter_lines():
                if not line.strip():
                    continue
                counted += 1
                if '"session.waiting"' in line:
                    waiting.put_nowait(counted)

    task = asyncio.create_task(reader())
    await waiting.get()
    before = counted
    started = time.perf_counter()
    for _ in range(turns):
        await send()
        await waiting.get()
    elapsed = time.perf_counter() - started
    task.cancel()
    return counted - before, elapsed


async def raw_follow(port: int, path: str, ready: asyncio.Event, opened: list[int],
                     done: list[float], t0: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await writer.drain()
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        buffer += await reader.read(4096)
    if not buffer.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"a stream was refused: {buffer[:200]!r}")
    opened.append(1)
    await ready.wait()
    while b'"session.waiting"' not in buffer:
        chunk = await reader.read(65536)
        if not chunk:
            raise SystemExit("a stream ended before the turn did")
        buffer += chunk
    done.append(time.perf_counter() - t0[0])
    writer.close()


async def fan_out(http: httpx.AsyncClient, url: str, pid: int, streams: int
                  ) -> dict[str, Any]:
    sessions = []
    for _ in range(max(1, streams // PER_SESSION)):
        created = (await http.post(f"{url}{MOUNT}/session", json={"message": "hi"})).json()
        text = (await http.get(f"{url}{MOUNT}/session/{created['sessionId']}/stream")).text
        sessions.append((created["sessionId"], created["continuationToken"],
                         len([line for line in text.splitlines() if line.strip()])))
    return await hold(url, pid, [
        (f"{MOUNT}/session/{session_id}/stream?startIndex={length}&follow=true",
         lambda session_id=session_id, token=token: http.post(
             f"{url}{MOUNT}/session/{session_id}",
             json={"message": "hello", "continuationToken": token},
             headers={"Authorization": f"Bearer {token}"}))
        for session_id, token, length in sessions])


async def hold(url: str, pid: int, groups: list[tuple[str, Callable[[], Awaitable[Any]]]]
               ) -> dict[str, Any]:
    """PER_SESSION raw streams on each group's path; once all are open, every group's `send`
    at once, and the time until every stream holds the new turn (its `session.waiting`)."""
    port = int(url.rsplit(":", 1)[1])
    before = memory_kib(pid)
    ready, t0 = asyncio.Event(), [0.0]
    opened: list[int] = []
    done: list[float] = []
    tasks = [asyncio.create_task(raw_follow(port, path, ready, opened, done, t0))
             for path, _ in groups for _ in range(PER_SESSION)]
    while len(opened) < len(tasks):
        await asyncio.sleep(0.05)
    held = memory_kib(pid)
    t0[0] = time.perf_counter()
    ready.set()
    await asyncio.gather(*(send() for _, send in groups))
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    after = memory_kib(pid)
    return {"streams": len(tasks), "rss_before_mib": before["VmRSS"] / 1024,
            "rss_held_mib": held["VmRSS"] / 1024, "peak_rss_mib": after["VmHWM"] / 1024,
            "all_received_s": max(done)}


async def settle(pid: int, timeout: float = 10) -> None:
    """Until the server has used no CPU for two 0.1 s ticks running (the fan-out's
    closed streams take it a few hundred ms to let go, which the replays would pay)."""
    def cpu() -> int:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks

    deadline, quiet, last = time.monotonic() + timeout, 0, cpu()
    while quiet < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        now = cpu()
        quiet, last = (quiet + 1 if now == last else 0), now


async def replay(http: httpx.AsyncClient, stream_url: str) -> tuple[int, float, int]:
    timings, count, size = [], 0, 0
    for _ in range(15):
        started = time.perf_counter()
        response = await http.get(stream_url)
        timings.append(time.perf_counter() - started)
        count = sum(1 for line in response.content.splitlines() if line.strip())
        size = len(response.content)
    return count, statistics.median(timings), size


async def measure(journal: str, url: str, pid: int, preloaded: str, streams: int
                  ) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120), limits=limits) as http:
        accepted, first = await first_events(http, url, 50)
        events, elapsed = await one_session_throughput(http, url, TURNS)
        fan = await fan_out(http, url, pid, streams)
        await settle(pid)
        count, replay_s, size = await replay(http, f"{url}{MOUNT}/session/{preloaded}/stream")
    return {"journal": journal.split("?")[0],
            "post_202_ms": statistics.median(accepted) * 1000,
            "first_event_ms": statistics.median(first) * 1000,
            "first_event_p90_ms": statistics.quantiles(first, n=10)[-1] * 1000,
            "events_per_s": events / elapsed, "events_per_turn": events / TURNS, **fan,
            "replay_events": count, "replay_ms": replay_s * 1000,
            "replay_events_per_s": count / replay_s, "replay_mib": size / 2**20}


async def measure_bare(url: str, pid: int, streams: int, turn_lines: int, replay_events: int
                       ) -> dict[str, Any]:
    """The same figures on bench/bare_app.py: turns of `turn_lines` lines, as ours sends."""
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120), limits=limits) as http:
        events, elapsed = await throughput(
            http, f"{url}/ndjson/follow", {"group": "one", "lines": str(turn_lines)},
            lambda: http.post(f"{url}/ndjson/poke",
                              params={"group": "one", "lines": str(turn_lines)}), TURNS)
        fan = await hold(url, pid, [
            (f"/ndjson/follow?group=fan{index}",
             lambda index=index: http.post(f"{url}/ndjson/poke", params={
                 "group": f"fan{index}", "lines": str(turn_lines)}))
            for index in range(max(1, streams // PER_SESSION))])
        await settle(pid)
        count, replay_s, size = await replay(
            http, f"{url}/ndjson?count={replay_events}&chunk={REPLAY_CHUNK}")
    return {"journal": "bare", "events_per_s": events / elapsed,
            "events_per_turn": events / TURNS, **fan, "replay_events": count,
            "replay_ms": replay_s * 1000, "replay_events_per_s": count / replay_s,
            "replay_mib": size / 2**20}


def ceiling(streams: int, turn_lines: int, replay_events: int) -> dict[str, Any]:
    port = free_port()
    server = serve_bare(port)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/catalogs/bare", server)
        return asyncio.run(measure_bare(f"http://127.0.0.1:{port}", server.pid, streams,
                                        turn_lines, replay_events))
    finally:
        stop(server)


def with_ratios(row: dict[str, Any], bare: dict[str, Any]) -> dict[str, Any]:
    """Ours as a share of the ceiling: rates ÷ its rates, its time ÷ our time."""
    return {**row, "events_per_s_ratio": row["events_per_s"] / bare["events_per_s"],
            "all_received_ratio": bare["all_received_s"] / row["all_received_s"],
            "replay_events_per_s_ratio": row["replay_events_per_s"]
            / bare["replay_events_per_s"]}


def header(streams: int, replay_events: int) -> str:
    return (f"{'':15}{'POST→202':>9}{'POST→first event (p90)':>24}  │{'events/s':>9}{'ratio':>7}  │"
            f"{f'{streams} streams: RSS (peak)':>27}{'all received':>14}{'ratio':>7}  │"
            f"{f'replay of {replay_events}':>17}{'events/s':>10}{'ratio':>7}{'size':>10}")


def line(row: dict[str, Any]) -> str:
    name = "bare Starlette" if row["journal"] == "bare" else row["journal"]
    latency = (f"{row['post_202_ms']:>6.1f} ms{row['first_event_ms']:>9.1f} ms (p90 "
               f"{row['first_event_p90_ms']:>5.1f})") if "post_202_ms" in row else f"{'':33}"
    memory = (f"{row['rss_before_mib']:.0f}→{row['rss_held_mib']:.0f} MiB "
              f"({row['peak_rss_mib']:.0f})")

    def ratio(key: str) -> str:
        return f"{row.get(key, 1.0):>7.2f}"

    return (f"{name:<15}{latency}  │{row['events_per_s']:>9.0f}{ratio('events_per_s_ratio')}  │"
            f"{memory:>27}{row['all_received_s']:>12.3f} s"
            f"{ratio('all_received_ratio')}  │{row['replay_ms']:>14.1f} ms"
            f"{row['replay_events_per_s']:>10.0f}{ratio('replay_events_per_s_ratio')}"
            f"{row['replay_mib']:>6.2f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journals", default="memory,file,sqlite,redis")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="print JSON lines only")
    args = parser.parse_args()
    if (os.cpu_count() or 1) > 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    rows = []
    bare: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        for kind in args.journals.split(","):
            spec = {"file": f"file:{folder}/journal",
                    "redis": f"redis://127.0.0.1:6379/0?prefix=bench-{secrets.token_hex(4)}:"
                    }.get(kind, kind)
            process, url, preloaded = start(spec, folder)
            try:
                row = asyncio.run(measure(spec, url, process.pid, preloaded, args.streams))
            finally:
                process.terminate()
                process.wait()
                if kind == "redis":
                    import redis

                    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
                    keys = list(client.scan_iter(match=spec.split("prefix=")[1] + "*"))
                    if keys:
                        client.delete(*keys)
            row["journal"] = kind
            if bare is None:  # the ceiling's turns have as many lines as ours (known now)
                bare = ceiling(args.streams, round(row["events_per_turn"]),
                               row["replay_events"])
                print(json.dumps(bare) if args.json else
                      f"per journal, beside the bare Starlette ceiling; ratio = share of the "
                      f"ceiling (events/s ÷ its events/s, its time ÷ our time)\n"
                      f"{header(bare['streams'], bare['replay_events'])}\n{line(bare)}",
                      flush=True)
            row = with_ratios(row, bare)
            rows.append(row)
            print(json.dumps(row) if args.json else line(row), flush=True)


if __name__ == "__main__":
    main()
