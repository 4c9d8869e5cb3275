"""One long agent session in-process: does a turn cost more as the conversation grows?

    python bench/agent_long_session.py [--turns 200] [--profile]

A person says "hello" TURNS times through the Agent Session API (httpx over ASGI, the app on
a fresh SQLite file). Printed: wall and CPU ms per turn, and the CPU ms of the scripted
model's `plan` (fold + policy) per turn, each the median of the ten turns around turn 10,
turn 100 and the last; with --profile, the scripted model's entries of a cProfile of the
whole session. CPU times hold up on a busy machine, wall times do not.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from commerce_agent.agent.models.scripted import model  # noqa: E402
from commerce_agent.app import create_app  # noqa: E402
from commerce_agent.settings import Settings  # noqa: E402
from tests.support.conversation_support import Person  # noqa: E402

PLANS: dict[int, float] = {}  # CPU ms of plan() by the turn it served


def time_plans() -> None:
    planner = model.plan

    def timed(request: Any, *rest: Any) -> Any:
        started = time.process_time()
        try:
            return planner(request, *rest)
        finally:
            turn = sum(message.role == "user" for message in request.messages)
            PLANS[turn] = PLANS.get(turn, 0.0) + (time.process_time() - started) * 1000

    model.plan = timed  # type: ignore[assignment]


async def session(turns: int, profiler: cProfile.Profile | None
                  ) -> tuple[list[float], list[float]]:
    folder = Path(tempfile.mkdtemp())
    app = create_app(Settings(db_path=str(folder / "bench.db"), base_url="http://test",
                              simulate=False, sqlite_synchronous="NORMAL"))
    walls, cpus = [], []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            person = Person(app, client, {})
            if profiler:
                profiler.enable()
            for _ in range(turns):
                wall, cpu = time.perf_counter(), time.process_time()
                await person.say("hello")
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
            if profiler:
                profiler.disable()
    return walls, cpus


def around(values: list[float], turn: int) -> float:
    """The median of the ten turns around `turn` (1-based)."""
    start = min(max(0, turn - 5), max(0, len(values) - 10))
    return statistics.median(values[start:start + 10])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    time_plans()
    profiler = cProfile.Profile() if args.profile else None
    walls, cpus = asyncio.run(session(args.turns, profiler))
    plans = [PLANS.get(turn, 0.0) for turn in range(1, args.turns + 1)]
    at = sorted({min(10, args.turns), min(100, args.turns), args.turns})
    print(f"{'turn':>6}{'wall ms':>10}{'CPU ms':>9}{'plan CPU ms':>14}")
    for turn in at:
        print(f"{turn:>6}{around(walls, turn):>10.2f}{around(cpus, turn):>9.2f}"
              f"{around(plans, turn):>14.3f}")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(
            "models/scripted/(model|state|folds|policy)", 12)


if __name__ == "__main__":
    main()
