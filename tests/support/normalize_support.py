"""The reading tables (tests/data/normalize_*.json): load them and say how a reading differs.

Every field of a case is checked: an empty list or null expects nothing found ("300 ml" gives
no count), `when` compares the minute (or the day alone when no time is expected), and `keeps`
lists words that must remain in `rest`.
"""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from commerce_agent.agent.language import Reading, read

DATA = Path(__file__).resolve().parents[1] / "data"


def load(name: str) -> tuple[datetime, str, list[dict[str, Any]]]:
    table = json.loads((DATA / f"normalize_{name}.json").read_text(encoding="utf-8"))
    return datetime.fromisoformat(table["now"]), table["tz"], table["cases"]


def read_case(case: dict[str, Any], now: datetime, tz: str) -> Reading:
    return read(case["text"], now=now, tz=tz)


def differences(reading: Reading, case: dict[str, Any]) -> list[str]:
    """The fields where `reading` is not what `case` expects (empty when it passes)."""
    found: dict[str, Any] = {
        "language": reading.language,
        "counts": [count.value for count in reading.counts],
        "measures": [[_decimal(str(measure.value)), measure.unit]
                     for measure in reading.measures],
        "sizes": [size.label for size in reading.sizes],
        "price": _price(reading),
        "address": reading.address and {"text": reading.address.text,
                                         "country": reading.address.country_code},
        "when": _when(reading, case["when"]),
    }
    expected = dict(case, measures=[[_decimal(value), unit]
                                    for value, unit in case["measures"]])
    if expected["price"]:
        expected["price"] = {
            "min": _decimal(expected["price"]["min"]), "max": _decimal(expected["price"]["max"]),
            "currency": expected["price"]["currency"]}
    wrong = [f"{field}: {found[field]!r} != {expected[field]!r}" for field in found
             if found[field] != expected[field]]
    # Japanese has no spaces: a kept word is a part of the rest.
    words = reading.rest if reading.language == "ja" else reading.rest.split()
    missing = [word for word in case["keeps"] if word not in words]
    if missing:
        wrong.append(f"rest {reading.rest!r} lacks {missing}")
    return wrong


def _decimal(value: str | None) -> str | None:
    return None if value is None else format(Decimal(value).normalize(), "f")


def _price(reading: Reading) -> dict[str, Any] | None:
    bound = reading.price
    if bound is None:
        return None
    return {"min": _decimal(None if bound.min is None else str(bound.min)),
            "max": _decimal(None if bound.max is None else str(bound.max)),
            "currency": bound.currency}


def _when(reading: Reading, expected: str | None) -> str | None:
    if reading.when is None:
        return None
    moment = reading.when.at
    if expected is not None and "T" not in expected or not reading.when.has_time:
        return moment.date().isoformat()
    return moment.strftime("%Y-%m-%dT%H:%M")
