"""Finding the product meant (find15): a price limit said strictly leaves its amount out, a
thing wanted by what it does is the kind that does it (and is shown, never added unseen), 本 is
a book but not the 本 of 八十本立, a need told around "help" is no call for the help text, the
head noun a description says beats a modifier a name says, a choice among those shown goes by
what their data says, and a name mistyped beyond the search's budget is still found."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import fuzzy, read
from commerce_agent.agent.language.category_words import by_use, in_english_categories
from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.intents import Frame, greeting, understand
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.state import State, relevant


@pytest.mark.parametrize(("said", "left_out"), [
    ("books under 29 euros", {Decimal(29)}),
    ("less than £20", {Decimal(20)}),
    ("cheaper than $22", {Decimal(22)}),
    ("moins de 20 €", {Decimal(20)}),
    ("3000円未満のお茶", {Decimal(3000)}),
    ("over $100", {Decimal(100)}),
    ("plus de 50 euros", {Decimal(50)}),
    ("books up to €29", set()),
    ("at most 980 yen", set()),
    ("no more than $80", set()),
    ("pas plus de 15 euros", set()),
    ("3000円以下", set()),
    ("3000円まで", set()),
    ("at least £20", set()),
    ("$20 or under", set()),
    ("nothing over $40", set()),
    ("between 10 and 20 dollars", set()),
    ("around 50 pounds", set()),
])
def test_a_limit_said_strictly_leaves_its_amount_out(said: str, left_out: set[Decimal]) -> None:
    assert words.excluded_prices(said) == left_out


@given(st.integers(min_value=1, max_value=99_999))
def test_under_and_up_to_bound_the_same_amount(amount: int) -> None:
    under, up_to = read(f"mugs under ${amount}").price, read(f"mugs up to ${amount}").price
    assert under is not None and up_to is not None
    assert under.max == up_to.max == amount
    assert under.max_excluded and not up_to.max_excluded


@pytest.mark.parametrize(("said", "kind"), [
    ("got anything i can steep loose leaf tea in?", "teapot"),
    ("something to brew loose leaf tea", "teapot"),
    ("de quoi infuser du thé", "teapot"),
    ("お茶を淹れる道具", "teapot"),
    ("i need something to make coffee", "brewers"),
    ("what do i need to whisk matcha", "matcha tools"),
    ("抹茶を点てる道具がほしい", "matcha tools"),
])
def test_a_thing_wanted_for_what_it_does_is_its_kind(said: str, kind: str) -> None:
    assert kind in by_use(words.fold(said))


@pytest.mark.parametrize("said", ["i want to make tea", "a teapot please", "matcha 30 g"])
def test_a_thing_named_is_left_as_said(said: str) -> None:
    assert by_use(words.fold(said)) == words.fold(said)


@pytest.mark.parametrize("said", ["i need something to make coffee", "抹茶を点てる道具がほしい",
                                  "I'd like something to steep tea in"])
def test_a_thing_wanted_for_what_it_does_is_shown_not_added(said: str) -> None:
    assert understand(said)[0] == "search"


@pytest.mark.parametrize("said", ["I'll have the lasagna and something to drink",
                                  "add a lasagna and something sweet",
                                  "can I get a tiramisu and anything else you recommend"])
def test_a_thing_named_before_something_unnamed_is_still_added(said: str) -> None:
    assert understand(said)[0] == "add"


@pytest.mark.parametrize("said", ["一番高い本は？", "安い本ある？", "本はありますか",
                                  "電子書籍はある？"])
def test_hon_is_a_book(said: str) -> None:
    assert {"books", "ebook"} & set(in_english_categories(said).split())


@pytest.mark.parametrize("said", ["高山 茶筅（八十本立）", "2本ください", "日本茶",
                                  "本日は営業していますか", "本当に？", "見本はある？"])
def test_hon_as_a_counter_or_inside_a_word_is_no_book(said: str) -> None:
    assert "books" not in in_english_categories(said).split()


@pytest.mark.parametrize(("said", "small_talk"), [
    ("help", True), ("help me please", True), ("can you help me", True), ("hi there", True),
    ("i make coffee by hand every morning, one cup. what would help?", False),
])
def test_a_need_told_around_help_is_no_small_talk(said: str, small_talk: bool) -> None:
    assert greeting(words.fold(said)) is small_talk


def _item(item_id: str, name: str, description: str = "", price: str = "10") -> dict[str, Any]:
    return {"itemId": item_id, "name": name, "description": description,
            "price": {"amount": price, "currency": "JPY"}, "available": True}


WORKSHOP = _item("w", "Matcha Tea Ceremony Workshop (Yanaka)", "A 90-minute introduction.")
CHASEN = _item("c", "Takayama Bamboo Chasen (80 tines)", "Hand-carved bamboo whisk from Nara.")


def test_the_head_noun_a_description_says_comes_first() -> None:
    assert [item["itemId"] for item in relevant([WORKSHOP, CHASEN], "matcha whisks")] == [
        "c", "w"]


def test_a_head_noun_a_name_says_needs_no_description() -> None:
    assert [item["itemId"] for item in relevant([WORKSHOP, CHASEN], "matcha workshop")] == ["w"]


KYUSU = _item("k", "Tokoname Kyusu Teapot, 300 ml", "Unglazed red-clay side-handle teapot.")
CELADON = _item("t", "Celadon Teapot, 700 ml", "A porcelain teapot with a built-in strainer.")
SOURDOUGH = _item("s", "The Sourdough Year (eBook)", "Fifty-two weekly bakes.")
FOLIO = _item("f", "Folio Unlimited — Monthly Plan", "Read any title from our library.")
LEVAIN = _item("s", "Une année au levain (livre numérique)", "Cinquante-deux fournées.")
FOLIO_FR = _item("f", "Folio Unlimited — abonnement mensuel", "Tout le catalogue à lire.")


@pytest.mark.parametrize(("shown", "said", "meant"), [
    ([CELADON, KYUSU], "the one with the side handle", "k"),
    ([CELADON, KYUSU], "the porcelain one", "t"),
    ([FOLIO, SOURDOUGH], "the one about sourdough bread", "s"),  # "bread" is no "read"
    ([FOLIO_FR, LEVAIN], "celui sur le pain au levain", "s"),
    ([CELADON, KYUSU], "the one with a lid", None),  # neither says more than the other
    ([_item("g", "Glaze Mug", "A small-batch mug."), _item("m", "Classic Mug", "Everyday.")],
     "the small one", None),  # a size, read by the size stages
])
def test_a_choice_among_those_shown_goes_by_their_data(shown: list[dict[str, Any]], said: str,
                                                        meant: str | None) -> None:
    state = State()
    state.language = "fr" if "celui" in said else "en"
    state.results = shown
    state.frame = Frame("add", (said,))
    planner = Planner(state, {})
    found = planner.described_among_shown(words.content_words(planner.query(said)))
    assert (found or {}).get("itemId") == meant


@pytest.mark.parametrize(("said", "name"), [("gyokru", "Yame Gyokuro, 50 g"),
                                            ("lasanga", "Lasagna Bolognese"),
                                            ("tirramisu", "Tiramisù")])
def test_a_name_mistyped_is_like_the_name(said: str, name: str) -> None:
    assert fuzzy.names_like([name, "Pizza Margherita"], [said]) == [1, 0]


def test_short_words_and_other_letters_are_no_typos() -> None:
    assert fuzzy.names_like(["Yame Gyokuro, 50 g"], ["tea", "kyokuro", "1234"]) == [0]
    assert fuzzy.names_like(["The Shape of Letters — relié, signé"], ["resilier"]) == [0]

