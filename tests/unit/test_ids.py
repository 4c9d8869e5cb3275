"""Resource ids: a prefix, the creation time first (so ids sort by it), then randomness."""

from __future__ import annotations

import re
import time
from typing import Any

from commerce_agent import clock
from commerce_agent.ids import new_id


def test_ids_made_later_sort_after_and_never_repeat() -> None:
    earlier = [new_id("ord") for _ in range(1000)]
    time.sleep(0.002)
    later = new_id("ord")
    assert all(re.fullmatch(r"ord_[0-9a-f]{28}", value) for value in [*earlier, later])
    assert all(value < later for value in earlier)
    assert len(set(earlier)) == len(earlier)


def test_an_id_carries_its_creation_time_to_the_millisecond(monkeypatch: Any) -> None:
    monkeypatch.setattr(clock, "seconds", lambda: 1_795_000_000.1234)
    assert new_id("cart").removeprefix("cart_")[:12] == f"{1_795_000_000_123:012x}"
