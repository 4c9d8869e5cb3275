"""The order resolver: which order an after-sale request means, from ids, tails, the items or
store named, positions and times, and when it must ask."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import intents, which_order
from commerce_agent.agent.models.scripted.which_order import Meant, cues, resolve

PLATES = {"orderId": "ord_0001aaaaaa3f9a2c", "items": [{"name": "Stoneware Dinner Plate"}]}
MUG = {"orderId": "ord_0002bbbbbb77e1d0", "items": [{"name": "Classic Stoneware Mug"}]}
TEAPOT = {"orderId": "ord_0003cccccc0b4e11", "items": [{"name": "Celadon Teapot"}]}
ORDERS = [PLATES, MUG, TEAPOT]  # oldest first


def fits(order: dict[str, Any], text: str) -> int:
    """Words shared with the order's item names (the caller's scoring, simplified)."""
    said = set(text.lower().replace("?", " ").split())
    named = {word.lower().rstrip("s") for line in order["items"] for word in line["name"].split()}
    return len({word.rstrip("s") for word in said} & named)


def meant(*texts: str, focus: str | None = None) -> Meant:
    return resolve(ORDERS, texts, fits, focus)


@pytest.mark.parametrize(("text", "expected"), [
    ("where is my order?", TEAPOT),               # nothing said: the most recent
    ("cancel the teapot", TEAPOT),
    ("return the plates", PLATES),
    ("cancel my first order", PLATES),
    ("my oldest order", PLATES),
    ("la plus ancienne commande", PLATES),
    ("最初の注文をキャンセル", PLATES),
    ("cancel my last order", TEAPOT),
    ("annule la dernière", TEAPOT),
    ("前回の注文", TEAPOT),
    ("the second order", MUG),
    ("cancel my previous order", MUG),
    ("la commande précédente", MUG),
    ("status of the order ending in 3f9a2c", PLATES),
    ("please cancel ...77e1d0", MUG),
    ("what about ord_0002bbbbbb77e1d0?", MUG),
])
def test_one_message_names_the_order(text: str, expected: dict[str, Any]) -> None:
    assert meant(text) == Meant(str(expected["orderId"]))


def test_the_order_before_that_counts_back_from_the_one_in_view() -> None:
    assert meant("and the order before that?", focus=str(TEAPOT["orderId"])).order_id == \
        MUG["orderId"]
    assert meant("and the order before that?", focus=str(MUG["orderId"])).order_id == \
        PLATES["orderId"]


def test_words_that_fit_two_orders_equally_ask_which() -> None:
    found = meant("cancel the stoneware order")
    assert found.order_id is None
    assert found.tied == (PLATES["orderId"], MUG["orderId"])


@pytest.mark.parametrize(("answer", "expected"), [
    ("the plates", PLATES), ("the mug", MUG), ("the first one", PLATES),
    ("the second one", MUG), ("the last one", MUG), ("…77e1d0", MUG),
])
def test_the_answer_to_which_order_picks_among_the_tied(answer: str,
                                                        expected: dict[str, Any]) -> None:
    assert meant("cancel the stoneware order", answer) == Meant(str(expected["orderId"]))


def test_a_position_among_the_orders_an_item_names() -> None:
    two_mugs = [MUG, PLATES, {**MUG, "orderId": "ord_0004dddddd000001"}]
    assert resolve(two_mugs, ("cancel the mug",), fits).tied == (
        MUG["orderId"], "ord_0004dddddd000001")
    assert resolve(two_mugs, ("cancel my last mug order",), fits).order_id == \
        "ord_0004dddddd000001"
    assert resolve(two_mugs, ("cancel my first mug order",), fits).order_id == MUG["orderId"]


def test_no_orders_means_none() -> None:
    assert resolve([], ("cancel my order",), fits) == Meant(None)


@pytest.mark.parametrize("text", ["give it 4 stars", "tip 15%", "tip 1000 yen",
                                  "it was added in 2026", "order 2 cafe mugs"])
def test_counts_years_and_words_are_no_id_tails(text: str) -> None:
    assert cues(text).tail is None


def test_positions_that_need_every_order_listed() -> None:
    known = [TEAPOT]
    assert which_order.wants_orders_listed(("cancel my first order",), known)
    assert which_order.wants_orders_listed(("the one ending in 3f9a2c",), known)
    assert not which_order.wants_orders_listed(("where is my teapot?",), known)
    assert not which_order.wants_orders_listed(("cancel my last order",), known)


@given(st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=3),
       st.sampled_from(["where is my order?", "cancel it", "any news?", "status please"]))
def test_nothing_said_is_always_the_most_recent_order(picks: list[int], text: str) -> None:
    orders = [{"orderId": f"ord_{n:04d}", "items": [ORDERS[k]["items"][0]]}
              for n, k in enumerate(picks)]
    assert resolve(orders, (text,), fits) == Meant(f"ord_{len(picks) - 1:04d}")


DATED = [{**PLATES, "createdAt": "2026-11-20T09:00:00+00:00"},
         {**MUG, "createdAt": "2026-11-25T18:30:00+00:00"},
         {**TEAPOT, "createdAt": "2026-11-26T08:00:00+00:00"}]
TODAY = date(2026, 11, 26)


@pytest.mark.parametrize(("text", "expected"), [
    ("what happened to yesterday's order?", MUG),
    ("ma commande d'hier", MUG),
    ("昨日の注文をキャンセル", MUG),
    ("the order I placed today", TEAPOT),
    ("my order from November 20", PLATES),
    ("la commande du 20 novembre", PLATES),
    ("11月20日の注文", PLATES),
    ("my order from last tuesday", TEAPOT),  # a day no order was placed: the most recent
])
def test_a_day_names_the_order_placed_that_day(text: str, expected: dict[str, Any]) -> None:
    assert resolve(DATED, (text,), fits, today=TODAY) == Meant(str(expected["orderId"]))


def test_two_orders_on_the_day_named_ask_which() -> None:
    both = [*DATED, {**PLATES, "orderId": "ord_0005eeeeee000002",
                     "createdAt": "2026-11-25T20:00:00+00:00"}]
    assert resolve(both, ("yesterday's order",), fits, today=TODAY).tied == (
        MUG["orderId"], "ord_0005eeeeee000002")


# Orders with totals and days, for the cues that place an order by its amount or day.
PRICED = [{**PLATES, "total": {"amount": "52.50", "currency": "USD"},
           "createdAt": "2026-11-24T10:00:00+00:00"},
          {**MUG, "total": {"amount": "46.50", "currency": "USD"},
           "createdAt": "2026-11-25T10:00:00+00:00"},
          {**TEAPOT, "total": {"amount": "80.50", "currency": "USD"},
           "createdAt": "2026-11-26T10:00:00+00:00"}]
THURSDAY = date(2026, 11, 26)


@pytest.mark.parametrize(("text", "expected"), [
    ("scrap the order with the teapot in it, the plates are fine", TEAPOT),
    ("call off the plates, keep the mug", PLATES),
    ("annule la commande avec le mug, les assiettes ça va", MUG),
    ("cancel the teapot, not the plates", TEAPOT),
    ("cancel the mug purchase but keep the teapot", MUG),
])
def test_a_spared_order_is_never_the_one_meant(text: str, expected: dict[str, Any]) -> None:
    assert meant(text) == Meant(str(expected["orderId"]))


def test_a_japanese_refusal_spares_what_comes_before_it() -> None:
    assert which_order.spared("ノートじゃなくて玉露をキャンセル") == ("玉露をキャンセル", "ノート")


def test_not_the_one_leaves_the_others_to_choose_from() -> None:
    assert meant("cancel my order, not the teapot one").tied == (PLATES["orderId"],
                                                                 MUG["orderId"])


@pytest.mark.parametrize(("text", "expected"), [
    ("cancel the $46.50 order", MUG),
    ("annule la commande de 52,50 $", PLATES),
    ("the 80.50 dollars order", TEAPOT),
    ("tip $3 on my order", TEAPOT),  # an amount no order totals places none
])
def test_an_amount_said_with_an_order_names_it(text: str, expected: dict[str, Any]) -> None:
    assert resolve(PRICED, [text], fits).order_id == expected["orderId"]


@pytest.mark.parametrize(("text", "expected"), [
    ("cancel Tuesday's order", PLATES),
    ("annule la commande de mercredi", MUG),
    ("木曜日の注文の状況は？", TEAPOT),
    ("yesterday's order", MUG),
])
def test_a_day_names_the_order_placed_then(text: str, expected: dict[str, Any]) -> None:
    assert resolve(PRICED, [text], fits, today=THURSDAY).order_id == expected["orderId"]


def test_the_other_one_is_not_the_order_in_view() -> None:
    two = [PLATES, MUG]
    assert resolve(two, ["cancel the other one"], fits, str(MUG["orderId"])).order_id == \
        PLATES["orderId"]
    assert resolve(two, ["annule l'autre commande"], fits, str(PLATES["orderId"])).order_id == \
        MUG["orderId"]
    assert resolve(ORDERS, ["cancel the other one"], fits, str(MUG["orderId"])).tied == (
        PLATES["orderId"], TEAPOT["orderId"])


@pytest.mark.parametrize(("text", "placed"), [
    ("cancel my last order", True), ("the $46.50 order", True), ("cancel it", True),
    ("cancel the teapot", False), ("annule la commande du livre", False),
])
def test_placed_says_whether_more_than_items_name_the_order(text: str, placed: bool) -> None:
    assert which_order.placed(cues(text)) is placed


@pytest.mark.parametrize("said", ["where's order 641934 at?", "la commande n° 641934 est partie ?",
                                  "注文641934はどうなっていますか"])
def test_an_all_digit_tail_after_the_word_order_is_that_order(said: str) -> None:
    # a receipt's tail may happen to have no letter; the noun says what the digits are
    assert which_order.cues(said).tail == "641934"
    assert intents.understand(said)[0] == "status"


@pytest.mark.parametrize("said", ["order 12 mugs", "order 2 plates to 94110"])
def test_a_count_after_the_verb_order_is_no_tail(said: str) -> None:
    assert which_order.cues(said).tail is None


@pytest.mark.parametrize("said", ["what about 038596… has it left?", "where is 038596?",
                                  "what about 038596, has it left?"])
def test_six_digits_with_no_word_after_them_are_a_tail(said: str) -> None:
    assert which_order.cues(said).tail == "038596"
    assert intents.understand(said)[0] == "status"


@pytest.mark.parametrize("said", ["buy 100000 mugs", "ship to 12 MG Road, New Delhi 110001, India",
                                  "send it to 10 Anson Road, Singapore 079903"])
def test_a_count_or_a_postcode_is_no_tail(said: str) -> None:
    assert which_order.cues(said).tail is None


KNOWN_IDS = ("ord_0123456789abcdef0123fbebce", "ord_00000000000000000000b4babe")


@pytest.mark.parametrize(("said", "meant"), [
    ("fbebce", "ord_0123456789abcdef0123fbebce"),  # letters only, still a tail
    ("#FBEBCE?", "ord_0123456789abcdef0123fbebce?"),
    ("where is b4babe", "where is ord_00000000000000000000b4babe"),
    ("a facade planter", "a facade planter"),  # no order ends so: a word
    ("ebce", "ebce"),  # too short to name an order
])
def test_a_tail_of_a_known_order_is_that_order(said: str, meant: str) -> None:
    assert which_order.spelt_out(said, KNOWN_IDS) == meant


def test_a_tail_two_orders_share_names_neither() -> None:
    shared = ("ord_1111111111111111111111abcdef", "ord_2222222222222222222222abcdef")
    assert which_order.spelt_out("abcdef", shared) == "abcdef"
    assert which_order.spelt_out("1abcdef", shared) == shared[0]


@given(st.from_regex(r"ord_[0-9a-f]{28}", fullmatch=True))
def test_any_tail_read_off_a_receipt_finds_its_order(order_id: str) -> None:
    spelt = which_order.spelt_out(order_id[-6:], [order_id])
    assert which_order.cues(spelt).order_id == order_id
