"""Requests per second with 1 and 2 server processes (`serve --workers N`), on SQLite and on
PostgreSQL, beside the bare Starlette ceiling served with as many processes.

    python bench/workers.py [--duration 4] [--order-seconds 2] [--orders 1500]
                            [--pg-orders 400] [--connections 32] [--workers 1 2]
                            [--db postgresql://…] [--no-postgres]

For each backend it seeds a fresh store and prepares paid orders (each a fresh cart and a
confirmed sandbox payment) through the server; then, for each worker count, it starts
`commerce-agent serve --workers N` on that store and loads it with wrk (the runner and scripts
of bench/commerce_api.py): GET /catalogs/{id}, add-to-cart (POST /carts/{id}/items) and a paid
POST /orders carrying X-PAYMENT, each order placed once: preparing a payment costs far more
than placing the order, so the paid-order rate is timed from the first request to the last
order placed (in wrk's Lua). The bare JSON route (bench/bare_app.py) runs under
`uvicorn --workers N` the same way.

PostgreSQL: `--db URL` uses that database (emptied with `seed --reset` first); without it, a
scratch database is created on 127.0.0.1:5432 (user postgres) and dropped afterwards when the
`postgres` extra is installed and the server answers; `--no-postgres` skips it.

The servers are not pinned (N processes need N cores); wrk runs on CPU 1 as in
bench/commerce_api.py, so on a two-core machine a second process shares its core with wrk. The
figures are what one run on this machine shows, not a model of a bigger one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
from commerce_api import ITEM, lua_rotating, prepare, wrk
from support import ROOT, cli, free_port, stop, wait_until_up

ROUTES = ["GET /catalogs/{id}", "POST /carts/{id}/items", "paid POST /orders"]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def serve(db: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "commerce_agent", "serve", "--port",
                             str(port), "--db", db, "--no-simulate", "--log-level", "warning",
                             "--workers", str(workers)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def serve_bare(port: int, workers: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "uvicorn", "bare_app:app", "--port",
                             str(port), "--log-level", "warning", "--no-access-log",
                             "--workers", str(workers)], cwd=ROOT / "bench",
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@contextmanager
def scratch_postgres() -> Iterator[str | None]:
    """A new empty PostgreSQL database for the run (dropped after), or None if unavailable."""
    try:
        import psycopg
    except ImportError:
        print("PostgreSQL skipped: psycopg is missing (pip install -e '.[postgres]')")
        yield None
        return
    name = f"bench_workers_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        print(f"PostgreSQL skipped: {str(error).strip().splitlines()[0]}")
        yield None
        return
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with suppress(psycopg.Error), psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# Appended to bench/commerce_api.py's rotating script: wall-clock time (LuaJIT's FFI) from the
# first request to the last 201, so that the rate counts only the time the orders took, even
# when every prepared order is placed before the run ends (then spent payments answer 409).
TIMING_LUA = """
local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
           int clock_gettime(int clock, bench_timespec *now); ]]
local function now()
  local t = ffi.new("bench_timespec")
  ffi.C.clock_gettime(1, t)
  return tonumber(t.tv_sec) + tonumber(t.tv_nsec) / 1e9
end
local send = request
request = function()
  if first_sent == nil then first_sent = now() end
  return send()
end
local count_answer = response
created = 0
response = function(status, headers, body)
  count_answer(status, headers, body)
  if status == 201 then created = created + 1; last_created = now() end
end
local report = done
done = function(summary, latency, requests)
  report(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local first, last = thread:get("first_sent"), thread:get("last_created")
    if first and last then
      io.write(string.format("placed %d in %.6f\\n", thread:get("created"), last - first))
    end
  end
end
"""


def place_orders(base: str, seconds: int, connections: int, script: Path
                 ) -> tuple[float, dict[int, int]]:
    """Paid orders per second, from the first request to the last order placed; and the
    answers by status."""
    output = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s",
                             str(script), base], capture_output=True, text=True,
                            check=True).stdout
    statuses = {int(code): int(count) for code, count in
                re.findall(r"^status (\d+): (\d+)$", output, re.M)}
    placed = re.search(r"^placed (\d+) in ([\d.]+)$", output, re.M)
    if placed is None:
        raise SystemExit(output)
    return int(placed.group(1)) / float(placed.group(2)), statuses


def prepare_store(db: str, orders: int) -> tuple[str, str, list[str],
                                                   list[tuple[str, str]]]:
    """Seed `db` afresh and prepare `orders` paid orders through a 2-process server: Alice's
    token, the catalog id, carts to add to, and (body, X-PAYMENT) pairs."""
    cli("seed", "--reset", "--db", db)
    token = cli("token", "create", "--user", "alice@example.com", "--db", db)
    admin = cli("merchant", "create", "--email", "bench-merchant@example.com", "--store",
                "store_ceramics", "--password", "bench-merchant-pass", "--db", db)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port, 2)
    try:
        wait_until_up(f"{base}/capabilities", server)
        # Enough stock for every prepared order, through the admin API (either backend).
        httpx.put(f"{base}/admin/items/{ITEM}/stock", json={"quantity": 10**9},
                  headers={"Authorization": f"Bearer {admin.split()[-1]}"}).raise_for_status()
        started = time.monotonic()
        catalog_id, cart_ids, paid = asyncio.run(prepare(base, token, 1000, orders))
        print(f"  prepared {len(paid)} paid orders in {time.monotonic() - started:.1f}s",
              flush=True)
    finally:
        stop(server)
    return token, catalog_id, cart_ids, paid


def measure(db: str, workers: int, args: argparse.Namespace, folder: Path, token: str,
            catalog_id: str, cart_ids: list[str], paid: list[tuple[str, str]]
            ) -> list[tuple[float, dict[int, int]]]:
    """(2xx req/s, answers by status) of each route in ROUTES, on `workers` processes."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port, workers)
    try:
        wait_until_up(f"{base}/capabilities", server)
        auth = {"Host": f"127.0.0.1:{port}", "Authorization": f"Bearer {token}",
                "Content-Type": "application/json"}
        add_body = json.dumps({"itemId": "item_glazing_guide_ebook", "quantity": 1})
        add = lua_rotating([("POST", f"/carts/{cart_id}/items", auth, add_body)
                            for cart_id in cart_ids], folder / "add.lua")
        orders = lua_rotating([("POST", "/orders", {**auth, "X-PAYMENT": proof}, body)
                               for body, proof in paid], folder / "orders.lua")
        with orders.open("a") as script:
            script.write(TIMING_LUA)
        return [wrk(f"{base}/catalogs/{catalog_id}", args.duration, args.connections),
                wrk(base, args.duration, args.connections, add),
                place_orders(base, args.order_seconds, args.connections, orders)]
    finally:
        stop(server)


def bare(workers: int, args: argparse.Namespace) -> float:
    port = free_port()
    process = serve_bare(port, workers)
    url = f"http://127.0.0.1:{port}/catalogs/bare"
    try:
        wait_until_up(url, process)
        return wrk(url, args.duration, args.connections)[0]
    finally:
        stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=4, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--order-seconds", type=int, default=2,
                        help="longest paid-order run (each order needs a payment prepared "
                             "beforehand, at a few dozen a second)")
    parser.add_argument("--orders", type=int, default=1500,
                        help="paid orders prepared per worker count on SQLite")
    parser.add_argument("--pg-orders", type=int, default=400,
                        help="paid orders prepared per worker count on PostgreSQL")
    parser.add_argument("--db", default=None,
                        help="PostgreSQL URL to use (it is reseeded); default: a scratch one")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")

    results: dict[tuple[str, int], list[tuple[float, dict[int, int]]]] = {}
    ceilings = {}
    with tempfile.TemporaryDirectory() as folder, scratch_postgres() if not (
            args.db or args.no_postgres) else _given(args.db) as postgres:
        backends = [("sqlite", str(Path(folder) / "bench.db"))]
        if postgres:
            backends.append(("postgresql", postgres))
        for workers in args.workers:
            ceilings[workers] = bare(workers, args)
        for name, db in backends:
            print(f"{name}:", flush=True)
            share = args.orders if name == "sqlite" else args.pg_orders
            token, catalog_id, cart_ids, paid = prepare_store(db, share * len(args.workers))
            for index, workers in enumerate(args.workers):
                results[name, workers] = measure(
                    db, workers, args, Path(folder), token, catalog_id, cart_ids,
                    paid[index * share:(index + 1) * share])


    print(f"\nsuccessful (2xx) requests per second, one wrk run each ({args.duration}s; paid "
          f"orders: until the prepared ones are placed, at most {args.order_seconds}s), "
          f"{args.connections} connections:")
    print(f"{'':22}{'workers':>8}" + "".join(f"{route:>24}" for route in ROUTES))
    for workers in args.workers:
        print(f"{'bare Starlette JSON':22}{workers:>8}{ceilings[workers]:>24.0f}")
    for (name, workers), figures in results.items():
        print(f"{name:22}{workers:>8}" + "".join(f"{rps:>24.0f}" for rps, _ in figures))
    print("answers by status:")
    for (name, workers), figures in results.items():
        print(f"  {name} x{workers}: " + "; ".join(
            f"{route}: " + ", ".join(f"{code}: {count}" for code, count in sorted(codes.items()))
            for route, (_, codes) in zip(ROUTES, figures, strict=True)))


@contextmanager
def _given(url: str | None) -> Iterator[str | None]:
    yield url


if __name__ == "__main__":
    main()
