"""Finding what the shopper means (issue 21, round 6): the words that name a kind, counts said
as dozens in Japanese, several items in one message, and price limits in their currency."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import fold_numbers
from commerce_agent.agent.models.scripted import intents, words
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.state import of_the_kind, relevant


@pytest.mark.parametrize(("text", "expected"), [
    ("ほうじ茶を半ダース", 6),
    ("玄米茶を1ダース", 12),
    ("2ダースの玄米茶", 24),
    ("玄米茶をダースで", 12),
    ("茶筅を二ダース", 24),
])
def test_japanese_dozens_are_counts(text: str, expected: int) -> None:
    assert words.quantity(text) == expected
    assert "ダース" not in words.japanese_query(text)


@given(st.integers(min_value=1, max_value=40))
def test_any_number_of_japanese_dozens_is_twelve_each(dozens: int) -> None:
    assert fold_numbers(f"{dozens}ダースの急須", "ja") == f"{dozens * 12}個の急須"
    assert words.quantity(f"急須を{dozens}ダース") == dozens * 12


@pytest.mark.parametrize(("text", "query"), [
    ("3000円以下の茶道具はありますか", "茶道具"),    # the limit word is no product
    ("じゃあ茶筅をください", "茶筅"),                # an opener is no product
    ("お茶好きへのプレゼント", "茶 プレゼント"),      # the thing loved is the product word
    ("コーヒー好きの人への贈り物", "コーヒー 贈り物"),
])
def test_japanese_product_words(text: str, query: str) -> None:
    assert words.japanese_query(text) == query


@pytest.mark.parametrize(("text", "kept"), [
    ("any books please", {"book"}),             # plural: the thing, not the verb
    ("a book to learn rust", {"book", "learn", "rust"}),
    ("book a class", {"class"}),                # the verb
    ("I want to book the workshop", {"workshop"}),
    ("du moins cher", set()),                   # "moins" as written, not "moin"
])
def test_content_words(text: str, kept: set[str]) -> None:
    assert words.content_words(text) == kept


def test_the_french_word_for_tea_is_not_the_english_article() -> None:
    assert words.without_false_friends("du thé à moins de 1000 yens") == \
        "du tea à moins de 1000 yens"
    assert words.without_false_friends("les thés verts") == "les tea verts"
    assert words.without_false_friends("the teapot") == "the teapot"
    assert words.without_false_friends("théière") == "théière"


@pytest.mark.parametrize(("text", "count"), [
    ("3 genmaicha", 3),                 # only the number is left once the name is gone
    ("2 tiramisu", 2),
    ("2", None),                        # "2" answering "which one?" is a position
])
def test_a_count_before_a_name_the_item_carries(text: str, count: int | None) -> None:
    name = {"3 genmaicha": "Genmaicha with Matcha, 200 g", "2 tiramisu": "Tiramisù"}.get(
        text, "Tiramisù")
    assert Frame("add", (text,)).quantity(name) == count


@given(st.integers(min_value=2, max_value=99))
def test_a_count_and_the_items_whole_name(count: int) -> None:
    assert Frame("add", (f"{count} tiramisu",)).quantity("Tiramisù") == count


@pytest.mark.parametrize("text", [
    "a dripper and the large serving bowl please",
    "the teapot and a glaze mug",
    "une théière et un bol",
    "抹茶碗と急須",
])
def test_a_list_of_things_is_an_order(text: str) -> None:
    assert intents.understand(text)[0] == "add"


@pytest.mark.parametrize(("text", "currency"), [
    ("a gift for a tea lover under 1000 yen", "JPY"),
    ("books under 20 €", "EUR"),
    ("moins de 20 €", "EUR"),
    ("yoga mats under 30 quid", "GBP"),
    ("3000円以下の抹茶", "JPY"),
    ("mugs under 20 bucks", "USD"),
    ("mugs under 20", None),
])
def test_a_price_limit_names_its_currency(text: str, currency: str | None) -> None:
    assert words.price_bounds(text)
    assert words.price_currency(text) == currency


def _item(name: str) -> dict[str, str]:
    return {"itemId": name.lower().replace(" ", "_"), "name": name}


def test_a_name_keeps_the_items_that_carry_it() -> None:
    found = [_item("Uji Matcha"), _item("Chasen Whisk")]
    assert [i["name"] for i in relevant(found, "matcha")] == ["Uji Matcha"]


def test_a_description_keeps_every_match() -> None:
    """No name carries half of "gift tea lover": every tea the search found is shown."""
    found = [_item("Roasted Stem Tea"), _item("Genmaicha with Matcha")]
    assert len(relevant(found, "gift tea lover")) == 2


def _priced(name: str, amount: str, currency: str, catalog: str) -> dict[str, object]:
    return {"itemId": name, "name": name, "price": {"amount": amount, "currency": currency},
            "catalogId": catalog}


def test_the_kind_is_its_names_and_their_catalogs_in_one_currency() -> None:
    """"the most affordable tea": the teas by name, the genmaicha filed with them, not the
    teapot in dollars whose description says "tea"."""
    found = [_priced("Celadon Teapot", "72.00", "USD", "cat_drinkware"),
             _priced("Roasted Stem Tea", "980", "JPY", "cat_tea"),
             _priced("Gyokuro Tea", "2600", "JPY", "cat_tea"),
             _priced("Genmaicha with Matcha", "750", "JPY", "cat_tea"),
             _priced("Washi Notebook", "1500", "JPY", "cat_paper")]
    kind = [item["name"] for item in of_the_kind(found, "tea")]
    assert kind == ["Roasted Stem Tea", "Gyokuro Tea", "Genmaicha with Matcha"]


@given(st.lists(st.tuples(st.integers(min_value=1, max_value=10_000),
                          st.sampled_from(["USD", "JPY", "EUR"])), min_size=1, max_size=8))
def test_the_kind_never_mixes_currencies(prices: list[tuple[int, str]]) -> None:
    found = [_priced(f"Tea {n}", str(amount), currency, f"cat_{currency}")
             for n, (amount, currency) in enumerate(prices)]
    kind = of_the_kind(found, "tea")
    assert kind
    assert len({item["price"]["currency"] for item in kind}) == 1  # type: ignore[index]


@pytest.mark.parametrize(("text", "loved"), [
    ("a gift for a tea lover", "tea"),
    ("a present for someone who likes coffee", "coffee"),
    ("un cadeau pour quelqu'un qui aime le thé", "tea"),
])
def test_whom_it_is_for_names_the_thing_they_love(text: str, loved: str) -> None:
    assert words.for_whom(text)
    said = [w for w in words.without_false_friends(text).split()
            if not words.is_stop(words.fold(w))]
    assert words.without_the_recipient(said) == [loved]


def test_a_gift_card_is_still_a_gift() -> None:
    assert not words.for_whom("the gift card please")
    assert words.without_the_recipient(["gift"]) == ["gift"]
