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
- replay of a 10,000-event journal (GET stream?startIndex=0 of a preloaded session).

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
from pathlib import Path
from typing import Any

import httpx
from support import ROOT, free_port, memory_kib, pin

MOUNT = "/agent/v1"


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
    waiting = asyncio.Queue[int]()
    counted = 0

    async def reader() -> None:
        nonlocal counted
        async with http.stream("GET", f"{url}{MOUNT}/session/{session_id}/stream",
                               params={"follow": "true"}) as response:
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
        await http.post(f"{url}{MOUNT}/session/{session_id}",
                        json={"message": "hello", "continuationToken": token},
                        headers={"Authorization": f"Bearer {token}"})
        await waiting.get()
    elapsed = time.perf_counter() - started
    task.cancel()
    return counted - before, elapsed


async def raw_follow(port: int, session_id: str, start: int, ready: asyncio.Event,
                     opened: list[int], done: list[float], t0: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {MOUNT}/session/{session_id}/stream?startIndex={start}&follow=true "
                 f"HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
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
    port = int(url.rsplit(":", 1)[1])
    per_session = 100
    sessions = []
    for _ in range(max(1, streams // per_session)):
        created = (await http.post(f"{url}{MOUNT}/session", json={"message": "hi"})).json()
        text = (await http.get(f"{url}{MOUNT}/session/{created['sessionId']}/stream")).text
        sessions.append((created["sessionId"], created["continuationToken"],
                         len([line for line in text.splitlines() if line.strip()])))
    before = memory_kib(pid)
    ready, t0 = asyncio.Event(), [0.0]
    opened: list[int] = []
    done: list[float] = []
    tasks = [asyncio.create_task(raw_follow(port, session_id, length, ready, opened, done, t0))
             for session_id, _, length in sessions for _ in range(per_session)]
    while len(opened) < len(tasks):
        await asyncio.sleep(0.05)
    held = memory_kib(pid)
    t0[0] = time.perf_counter()
    ready.set()
    await asyncio.gather(*(http.post(f"{url}{MOUNT}/session/{session_id}",
                                     json={"message": "hello", "continuationToken": token},
                                     headers={"Authorization": f"Bearer {token}"})
                           for session_id, token, _ in sessions))
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    after = memory_kib(pid)
    return {"streams": len(tasks), "rss_before_mib": before["VmRSS"] / 1024,
            "rss_held_mib": held["VmRSS"] / 1024, "peak_rss_mib": after["VmHWM"] / 1024,
            "all_received_s": max(done)}


async def replay(http: httpx.AsyncClient, url: str, session_id: str) -> tuple[int, float, int]:
    timings, count, size = [], 0, 0
    for _ in range(5):
        started = time.perf_counter()
        response = await http.get(f"{url}{MOUNT}/session/{session_id}/stream")
        timings.append(time.perf_counter() - started)
        count = sum(1 for line in response.content.splitlines() if line.strip())
        size = len(response.content)
    return count, statistics.median(timings), size


async def measure(journal: str, url: str, pid: int, preloaded: str, streams: int
                  ) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120), limits=limits) as http:
        accepted, first = await first_events(http, url, 50)
        events, elapsed = await one_session_throughput(http, url, 100)
        fan = await fan_out(http, url, pid, streams)
        count, replay_s, size = await replay(http, url, preloaded)
    return {"journal": journal.split("?")[0],
            "post_202_ms": statistics.median(accepted) * 1000,
            "first_event_ms": statistics.median(first) * 1000,
            "first_event_p90_ms": statistics.quantiles(first, n=10)[-1] * 1000,
            "events_per_s": events / elapsed, **fan,
            "replay_events": count, "replay_ms": replay_s * 1000,
            "replay_events_per_s": count / replay_s, "replay_mib": size / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journals", default="memory,file,sqlite,redis")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="print JSON lines only")
    args = parser.parse_args()
    if (os.cpu_count() or 1) > 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    rows = []
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
            rows.append(row)
            print(json.dumps(row) if args.json else
                  f"{row['journal']:>7}: POST→202 {row['post_202_ms']:.1f} ms, POST→first "
                  f"event {row['first_event_ms']:.1f} ms (p90 "
                  f"{row['first_event_p90_ms']:.1f}), {row['events_per_s']:.0f} events/s "
                  f"through one session, {row['streams']} streams: RSS "
                  f"{row['rss_before_mib']:.0f}→{row['rss_held_mib']:.0f} MiB (peak "
                  f"{row['peak_rss_mib']:.0f}), all received a new turn in "
                  f"{row['all_received_s']:.2f} s, replay of {row['replay_events']} events "
                  f"{row['replay_ms']:.0f} ms ({row['replay_events_per_s']:.0f} events/s, "
                  f"{row['replay_mib']:.1f} MiB)", flush=True)


if __name__ == "__main__":
    main()
