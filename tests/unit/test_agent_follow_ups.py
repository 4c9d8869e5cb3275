"""Follow-up questions about what is in view (`follow_ups`): what they ask, whether something
in view fits, and which free times a shift names against the time booked."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from commerce_agent.agent.models.scripted import follow_ups
from commerce_agent.agent.models.scripted.follow_ups import FollowUp, read, times_asked
from commerce_agent.commerce.orders.model import SCHEDULING

_STARTS = ("2027-01-11T07:00:00+00:00", "2027-01-11T18:30:00+00:00",
           "2027-01-13T07:00:00+00:00", "2027-01-16T09:30:00+00:00",
           "2027-01-17T09:30:00+00:00", "2027-01-19T07:00:00+00:00")
_CLASS: dict[str, Any] = {
    "itemId": "item_class", "name": "Class", "price": {"amount": "14.00", "currency": "GBP"},
    "catalogId": "cat_yoga",
    "metadata": {SCHEDULING: {"timeSlots": [
        {"id": f"slot_{n}", "startTime": start, "available": True}
        for n, start in enumerate(_STARTS)]}}}
_NOW = datetime(2027, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("said", "asked"), [
    ("anything earlier?", FollowUp(shift="earlier")),
    ("any sooner?", FollowUp(shift="earlier")),
    ("and the day after?", FollowUp(shift="day_after")),
    ("the day before?", FollowUp(shift="day_before")),
    ("what else have you got that week?", FollowUp(shift="week")),
    ("anything later that day?", FollowUp(shift="later", same_day=True)),
    ("other times?", FollowUp(shift="other")),
    ("is there something cheaper?", FollowUp(price="cheaper")),
    ("is there cheaper one?", FollowUp(price="cheaper")),
    ("something less expensive?", FollowUp(price="cheaper")),
    ("anything pricier?", FollowUp(price="dearer")),
    ("what about in green?", FollowUp(option="green")),
    ("and in 100 g?", FollowUp(option="100 g")),
    ("does it come in blue?", FollowUp(option="blue")),
    ("quelque chose de moins cher ?", FollowUp(price="cheaper")),
    ("et le lendemain ?", FollowUp(shift="day_after")),
])
def test_what_a_follow_up_asks(said: str, asked: FollowUp) -> None:
    assert read(said) == asked


@pytest.mark.parametrize("said", [
    "anything cheaper in teapots?", "cheaper mugs?", "find a mug", "show me the mugs",
    "cancel my order", "where is my order?", "I want it in blue", "add two plates",
    "the cheaper one", "the cheaper one please", "which of the two is less expensive?",
    "le plus cher des deux"])
def test_a_thing_named_is_no_follow_up(said: str) -> None:
    assert read(said) is None


@pytest.mark.parametrize(("asked", "booked", "wanted"), [
    (FollowUp(shift="earlier"), "slot_3", ["slot_0", "slot_1", "slot_2"]),
    (FollowUp(shift="later"), "slot_3", ["slot_4", "slot_5"]),
    (FollowUp(shift="day_after"), "slot_3", ["slot_4"]),
    (FollowUp(shift="day_before"), "slot_4", ["slot_3"]),
    (FollowUp(shift="week"), "slot_0", ["slot_1", "slot_2", "slot_3", "slot_4"]),
    (FollowUp(shift="later", same_day=True), "slot_0", ["slot_1"]),
    (FollowUp(shift="earlier", same_day=True), "slot_0", []),
    (FollowUp(shift="other"), None, [f"slot_{n}" for n in range(6)]),
])
def test_the_times_a_shift_names(asked: FollowUp, booked: str | None,
                                 wanted: list[str]) -> None:
    assert [choice.id for choice in times_asked(asked, _CLASS, booked, _NOW)] == wanted


def test_the_booking_in_the_cart_is_the_service_in_view() -> None:
    items = {"item_class": _CLASS, "item_mug": {"itemId": "item_mug", "name": "Mug"}}
    carts = [{"items": [{"cartItemId": "l1", "itemId": "item_class", "timeSlotId": "slot_2"}]}]
    assert follow_ups.service_in_view(items, carts, "item_mug", None) == (_CLASS, "slot_2")
    assert follow_ups.service_in_view(items, [], "item_class", None) == (_CLASS, None)
    assert follow_ups.service_in_view(items, [], "item_mug", None) is None
    assert not follow_ups.fits(FollowUp(shift="earlier"), items, [], "item_mug", None)
    assert follow_ups.fits(FollowUp(price="cheaper"), items, [], "item_class", None)


def test_only_an_options_words_ask_about_the_items_options() -> None:
    mug = {"itemId": "item_mug", "name": "Mug", "metadata": {"dev.commerce.product.variants": {
        "options": ["Color"], "variants": [{"id": "v1", "values": ["Speckled Oat"]}]}}}
    items = {"item_mug": mug}
    for said in ("what about in green?", "and in 16 oz?", "in oat?", "what about in large?"):
        asked = read(said)
        assert asked is not None and follow_ups.fits(asked, items, [], "item_mug", None), said
    asked = read("what about in Tokyo?")
    assert asked is None or not follow_ups.fits(asked, items, [], "item_mug", None)
