"""Gift wrapping and cards in shoppers' words (agent/language/gifting.py) and a yes with a
condition on the price (agent/language/conditions.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import conditions, gifting
from commerce_agent.agent.language.folding import fold
from commerce_agent.agent.models.scripted import choices, line_options
from tests.support.sample_items import sample_item

MUG, KYUSU, PLATE = (sample_item("item_classic_mug"), sample_item("item_tokoname_kyusu"),
                     sample_item("item_stoneware_dinner_plate"))
GIFT_BOX, FUROSHIKI = "addon_ceramics_gift_box", "addon_midori_furoshiki"


@pytest.mark.parametrize("said", [
    "gift wrap it", "yes, gift boxed", "wrap it up as a present", "can you wrap it",
    "as a gift please", "avec un paquet cadeau", "emballez-le svp", "c'est pour offrir",
    "ラッピングしてください", "ギフト包装でお願い", "風呂敷で包んでください"])
def test_gift_phrasing_is_said_as_gift_wrap(said: str) -> None:
    assert "gift wrap" in gifting.plain(said)


@pytest.mark.parametrize("said", ["a £50 gift card", "une carte cadeau", "ギフトカード"])
def test_a_gift_card_sold_as_a_product_stays_one(said: str) -> None:
    assert "gift wrap" not in gifting.plain(said)
    assert not gifting.asks_for_a_card(said)


def test_a_cards_message_is_no_product_word() -> None:
    plain = gifting.plain("add a card saying happy birthday")
    assert "birthday" not in plain and "card" in plain
    assert "maman" not in gifting.plain("une carte qui dit bonne fete maman")
    assert gifting.asks_for_a_card("the mug with a card")


@given(st.text(alphabet="abdhiklmnsuvxyz ,.!?0123456789", max_size=40))
def test_words_that_say_no_gift_are_left_as_said(text: str) -> None:
    assert gifting.plain(text) == fold(text)


@pytest.mark.parametrize(("item", "said", "addon"), [
    (KYUSU, "gift wrap it", FUROSHIKI), (KYUSU, "はい、風呂敷で包んでください", FUROSHIKI),
    (MUG, "yes, gift boxed", GIFT_BOX), (MUG, "add a card saying happy birthday", GIFT_BOX),
    (MUG, "avec un coffret cadeau", GIFT_BOX)])
def test_gift_wrapping_and_cards_name_the_items_add_on(item: dict[str, object], said: str,
                                                       addon: str) -> None:
    assert line_options.named(item, said) == [(addon, True)]
    assert line_options.names_nothing_else(item, said, frozenset())
    assert choices.pick_addons(item, choices.said_words((said,))) == [addon]


def test_no_gift_box_takes_it_away_and_a_plate_has_none() -> None:
    assert line_options.named(MUG, "no gift box, thanks") == [(GIFT_BOX, False)]
    assert line_options.named(PLATE, "gift wrap it") == []


@pytest.mark.parametrize("said", ["gift wrapped please", "風呂敷で包んでください",
                                  "en paquet cadeau svp"])
def test_only_wrapping(said: str) -> None:
    assert gifting.only_wrapping(said)
    assert not gifting.only_wrapping(f"{said} and 2 dinner plates")


@pytest.mark.parametrize(("said", "price", "currency", "kept"), [
    ("ok if its under 40 bucks", "34.00", "USD", True),
    ("only if it's under $50", "72.00", "USD", False),
    ("sure, as long as it's below £70", "68.00", "GBP", True),
    ("oui si c'est moins de 30 €", "14.99", "EUR", True),
    ("5000円以下ならお願い", "8800", "JPY", False),
    ("only if it's under $50", "45.00", "EUR", False),  # another currency: never judged met
])
def test_a_price_condition_is_judged(said: str, price: str, currency: str, kept: bool) -> None:
    bound = conditions.price_condition(said)
    assert bound is not None
    assert conditions.met(bound, Decimal(price), currency) is kept


@pytest.mark.parametrize("said", ["yes please", "add 2 under $20", "if it's $25", "sure"])
def test_no_condition(said: str) -> None:
    assert conditions.price_condition(said) is None


@given(st.integers(min_value=1, max_value=9999), st.integers(min_value=1, max_value=9999))
def test_under_a_limit_is_below_it(limit: int, price: int) -> None:
    bound = conditions.price_condition(f"ok if it's under ${limit}")
    assert bound is not None
    assert conditions.met(bound, Decimal(price), "USD") is (price < limit)


@pytest.mark.parametrize(("said", "about"), [
    ("can you gift wrap it?", True), ("do you do gift wrapping?", True),
    ("ラッピングできますか？", True), ("gift wrap the plates and the mug", False),
    ("the classic mug", False)])
def test_asking_about_wrapping_alone(said: str, about: bool) -> None:
    assert gifting.about_wrapping(said) is about
