"""The normalize stage (commerce_agent/agent/language): pass rates, latency and memory.

    python bench/normalize_readings.py [--no-lingua] [--failures]

Prints the pass rate of read() on the dev table (tuned against) and the held-out table (never
tuned against), the p50/p95 latency of one uncached read() over the dev table's messages
(each message's caches cleared first, so every call does the whole work) and of reading it
again (cached, as when a conversation's earlier messages are read at each step), the resident
memory the stage adds: after importing it, and after the first read of every message (which
loads text2num, usaddress, price-parser, dateparser and, with the agent-nlp extra, lingua).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from support import ROOT, memory_kib

sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-lingua", action="store_true",
                        help="read as without the agent-nlp extra (the word table alone)")
    parser.add_argument("--failures", action="store_true", help="print each failing case")
    options = parser.parse_args()
    before = memory_kib(os.getpid())["VmRSS"]
    from commerce_agent.agent.language import dates, detect, numbers, read, reading
    from tests.support.normalize_support import differences, load, read_case

    if options.no_lingua:
        detect._detector = lambda: None  # type: ignore[assignment]
    imported = memory_kib(os.getpid())["VmRSS"]
    tables = {name: load(name) for name in ("dev", "heldout")}
    for name, (now, tz, cases) in tables.items():
        failing = [(case["text"], wrong) for case in cases
                   if (wrong := differences(read_case(case, now, tz), case))]
        passed = len(cases) - len(failing)
        print(f"{name}: {passed}/{len(cases)} passed ({passed / len(cases):.1%})")
        if options.failures:
            for text, wrong in failing:
                print(f"  {text!r}: {'; '.join(wrong)}")
    used = memory_kib(os.getpid())["VmRSS"]
    now, tz, cases = tables["dev"]
    timings = []
    for _ in range(5):
        for case in cases:
            reading._parts.cache_clear()
            detect._latin_language.cache_clear()
            numbers._fold_numbers.cache_clear()
            dates._search.cache_clear()
            start = time.perf_counter()
            read(case["text"], now=now, tz=tz)
            timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    print(f"read() uncached over {len(cases)} dev messages x5: "
          f"p50 {statistics.median(timings):.3f} ms, "
          f"p95 {timings[int(len(timings) * 0.95)]:.3f} ms, max {timings[-1]:.1f} ms")
    again = []
    for case in cases:
        start = time.perf_counter()
        read(case["text"], now=now, tz=tz)
        again.append((time.perf_counter() - start) * 1000)
    print(f"read() again (a conversation's earlier messages, cached): "
          f"p50 {statistics.median(again):.3f} ms")
    print(f"RSS: +{(imported - before) / 1024:.1f} MiB on import, "
          f"+{(used - before) / 1024:.1f} MiB after reading every message")


if __name__ == "__main__":
    main()
