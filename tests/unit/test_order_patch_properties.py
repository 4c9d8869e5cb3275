"""The order-updates feed's JSON Patches as properties (hypothesis): the patch between two
rendered orders, stored as JSON text and applied to the first, gives the second; a stream of
them rebuilds the last order from nothing — whatever the orders hold (lists that grow, shrink
and reorder, keys with `/` and `~`, numbers, nulls)."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
import msgspec
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce.orders.events import patch_between
from commerce_agent.commerce.orders.model import STATUSES

# Keys as orders have them, and the ones JSON Pointer must escape.
KEYS = st.sampled_from(["id", "status", "total", "amount", "lineItems", "metadata", "a/b",
                        "~0", "~1x", "", "dev.commerce.order.refunds"]) | st.text(max_size=4)
SCALARS = (st.none() | st.booleans() | st.integers(-(2**53), 2**53)
           | st.text(max_size=8) | st.sampled_from(STATUSES))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(KEYS, inner, max_size=5), max_leaves=30)
LINE = st.fixed_dictionaries({"id": st.sampled_from(["li_1", "li_2", "li_3", "li_4"]),
                              "quantity": st.integers(1, 999),
                              "price": st.fixed_dictionaries({"amount": st.sampled_from(
                                  ["0.00", "12.50", "999.99"]), "currency": st.just("USD")})})
ORDER = st.fixed_dictionaries({
    "id": st.just("order_1"),
    "status": st.sampled_from(STATUSES),
    "lineItems": st.lists(LINE, max_size=4),
    "actions": st.lists(st.fixed_dictionaries({"id": st.sampled_from(
        ["cancel", "return", "rate", "tip", "pause"])}), max_size=4),
    "metadata": st.dictionaries(KEYS, JSON, max_size=4),
})


def stored(patch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The patch as the feed sends it: encoded once when written, read back by a client."""
    decoded: list[dict[str, Any]] = json.loads(msgspec.json.encode(patch))
    return decoded


@given(before=JSON, after=JSON)
def test_the_patch_between_two_documents_gives_the_second(before: Any, after: Any) -> None:
    if not isinstance(before, dict) or not isinstance(after, dict):
        before, after = {"value": before}, {"value": after}
    assert jsonpatch.apply_patch(before, stored(patch_between(before, after))) == after


@given(orders=st.lists(ORDER, min_size=1, max_size=6))
def test_the_stream_of_an_orders_patches_rebuilds_it(orders: list[dict[str, Any]]) -> None:
    previous: dict[str, Any] | None = None
    rebuilt: Any = None
    for order in orders:
        patch = stored(patch_between(previous, order))
        if previous is None:
            assert patch == [{"op": "replace", "path": "", "value": order}]
        rebuilt = jsonpatch.apply_patch(rebuilt, patch)
        assert rebuilt == order
        previous = order


@given(order=ORDER)
def test_no_change_is_an_empty_patch(order: dict[str, Any]) -> None:
    assert patch_between(order, json.loads(json.dumps(order))) == []
