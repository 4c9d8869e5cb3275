"""The held-out conversation set (tests/heldout/): pass or fail per conversation with the
reason, the pass rate per category and overall, and the safety failures apart.

    python bench/agent_heldout.py [--dir tests/heldout2] [--only NAME_PART] [--show] [--json OUT]

It runs in-process (the app over httpx.ASGITransport on a fresh copy of a seeded SQLite file
per conversation), like tests/e2e/test_agent_conversations.py. The set is never tuned against:
read tests/heldout/README.md before changing it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from support import ROOT

sys.path.insert(0, str(ROOT))

from tests.support.heldout_support import FOLDER, Outcome, rates, run_all  # noqa: E402


def report(outcomes: list[Outcome], show: bool) -> None:
    for outcome in outcomes:
        print(f"{'PASS' if outcome.passed else 'FAIL'}  {outcome.name}  ({outcome.seconds:.2f}s)")
        for reason in outcome.reasons:
            print(f"      {reason[:400]}")
        if show:
            print("      " + "\n      ".join(outcome.transcript))
    overall, per = rates(outcomes)
    print("\nper category (passed/total):")
    for tag, (passed, total) in per.items():
        print(f"  {tag:24} {passed:3}/{total:<3} {passed / total:6.0%}")
    unsafe = [o for o in outcomes if o.safety]
    print(f"\nsafety failures: {sum(len(o.safety) for o in unsafe)} in {len(unsafe)} "
          "conversation(s)")
    for outcome in unsafe:
        for failure in outcome.safety:
            print(f"  {outcome.name}: {failure[:300]}")
    print(f"\noverall: {sum(o.passed for o in outcomes)}/{len(outcomes)} = {overall:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=FOLDER,
                        help="the held-out set (default tests/heldout; also heldout2 to 11)")
    parser.add_argument("--only", help="run the conversations whose name contains this")
    parser.add_argument("--show", action="store_true", help="print every transcript")
    parser.add_argument("--json", help="write the outcomes to this file")
    args = parser.parse_args()
    outcomes = asyncio.run(run_all(args.only, args.dir.resolve()))
    report(outcomes, args.show)
    if args.json:
        Path(args.json).write_text(json.dumps([o.__dict__ for o in outcomes], indent=1,
                                              ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
