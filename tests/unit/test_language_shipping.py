"""The shipping stage of the agent's language: cheap, fast and named choices, three
languages, any store's options (not a list of one store's)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.shipping import chosen_option


def _option(option_id: str, name: str, amount: str, days: int | None = None
            ) -> dict[str, Any]:
    option: dict[str, Any] = {"id": option_id, "name": name,
                              "amount": {"amount": amount, "currency": "USD"}}
    if days is not None:
        option["processingTime"] = {"minDays": 1, "maxDays": days}
    return option


CERAMICS = [_option("std", "Standard Shipping", "8.50", 7),
            _option("exp", "Express Shipping", "24.00", 2)]
MIDORI = [_option("yamato", "Yamato Transport (Takkyubin)", "800", 3),
          _option("yu", "Yu-Packet (small items)", "360", 7)]


@pytest.mark.parametrize(("text", "options", "expected"), [
    ("check out with express please", CERAMICS, "exp"),
    ("the cheaper shipping", CERAMICS, "std"),
    ("whatever is fastest", CERAMICS, "exp"),
    ("standard shipping is fine", CERAMICS, "std"),
    ("la livraison la moins chère", CERAMICS, "std"),
    ("livraison express s'il vous plaît", CERAMICS, "exp"),
    ("一番安い配送で", CERAMICS, "std"),
    ("急ぎでお願いします", CERAMICS, "exp"),
    ("send it by yamato", MIDORI, "yamato"),
    ("yu-packet is fine", MIDORI, "yu"),
    ("the cheapest one", MIDORI, "yu"),
    ("as fast as possible", MIDORI, "yamato"),
    ("check out", CERAMICS, None),
    ("ship it to 1 Main St, Springfield, US", CERAMICS, None),
])
def test_choices(text: str, options: list[dict[str, Any]], expected: str | None) -> None:
    assert chosen_option(text, options) == expected


def test_without_times_fast_means_the_express_named_one() -> None:
    options = [_option("a", "Economy", "3.00"), _option("b", "Express courier", "12.00")]
    assert chosen_option("fast please", options) == "b"
    assert chosen_option("economy", options) == "a"


@given(st.text(max_size=80))
def test_never_fails_and_only_names_an_offered_option(text: str) -> None:
    found = chosen_option(text, MIDORI)
    assert found is None or found in {"yamato", "yu"}
    assert chosen_option(text, CERAMICS[:1]) is None  # one option: nothing to choose
