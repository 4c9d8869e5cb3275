"""Finding and choosing in the scripted model's stages: "that one" in French and Japanese,
French takes with an object pronoun, a thing asked for with a please, a price order among
what was shown, Japanese lists joined by や, and price limits that leave no word behind."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import requests, words
from commerce_agent.agent.models.scripted.intents import understand

_PRONOUNS = ["le", "la", "les", "l'"]
_TAKES = ["prends", "veux", "voudrais", "prendrai", "garde", "choisis", "achète", "commande"]


@given(pronoun=st.sampled_from(_PRONOUNS), verb=st.sampled_from(_TAKES),
       opening=st.sampled_from(["", "ok, ", "parfait, ", "bon "]))
def test_a_french_take_with_an_object_pronoun_asks_for_it(pronoun: str, verb: str,
                                                          opening: str) -> None:
    said = f"{opening}je {pronoun}{'' if pronoun.endswith(chr(39)) else ' '}{verb}"
    assert requests.asked(words.fold(said)) is not None
    assert understand(said)[0] in ("add", "buy", "yes")  # "ok, je le prends": a yes too


@pytest.mark.parametrize("said", ["je veux savoir le prix", "je voudrais voir les mugs"])
def test_wanting_to_know_is_no_take(said: str) -> None:
    assert understand(said)[0] not in ("add", "buy")


@pytest.mark.parametrize("said", ["celui-là", "celui-là s'il vous plaît", "celle-ci",
                                  "va pour celui-là", "ok, celle-là merci", "それ", "あれで",
                                  "それでお願いします", "こちらをください"])
def test_that_one_takes_the_thing_in_view(said: str) -> None:
    assert understand(said)[0] in ("yes", "add")


@pytest.mark.parametrize("said", ["ça coûte combien ?", "celui-là est en stock ?",
                                  "それはいくらですか"])
def test_asking_about_that_one_is_no_yes(said: str) -> None:
    assert understand(said)[0] != "yes"


@pytest.mark.parametrize("said", ["a pour over dripper please", "a celadon teapot, please",
                                  "une théière s'il vous plaît", "un fouet en bambou svp"])
def test_a_thing_asked_for_with_a_please_is_an_order(said: str) -> None:
    assert understand(said)[0] == "add"


@pytest.mark.parametrize("said", ["a blue one please", "a large one please"])
def test_only_a_look_with_a_please_orders_nothing_new(said: str) -> None:
    assert understand(said)[0] != "add"


@pytest.mark.parametrize("said", ["le plus cher des deux", "the cheaper of the two",
                                  "the more expensive one", "二つのうち安いほう"])
def test_a_price_order_of_what_was_shown_is_no_count(said: str) -> None:
    assert understand(said)[0] == "search"
    assert words.quantity(said) is None


@pytest.mark.parametrize("said", ["c'est quoi votre livre le plus cher ?",
                                  "votre livre le moins cher ?", "mon livre préféré"])
def test_a_book_after_a_determiner_is_no_delivery(said: str) -> None:
    assert understand(said)[0] != "policy"


@given(first=st.sampled_from(["玄米茶", "茶筅", "急須", "ほうじ茶"]),
       second=st.sampled_from(["和紙ノート", "インク", "抹茶碗"]),
       joiner=st.sampled_from(["や", "と", "および", "、あと", "、それと"]))
def test_a_japanese_list_is_several_items(first: str, second: str, joiner: str) -> None:
    phrases = words.item_phrases(f"{first}{joiner}{second}をカートに入れてください")
    assert len(phrases) == 2
    assert words.japanese_query(phrases[0]) == first
    assert words.japanese_query(phrases[1]) == second


@given(amount=st.integers(min_value=100, max_value=99999),
       limit=st.sampled_from(["以下", "未満", "まで", "以内", "くらい", "くらいまで"]),
       noun=st.sampled_from(["茶道具", "お茶", "文房具", "急須"]))
def test_a_japanese_price_limit_leaves_only_the_noun(amount: int, limit: str, noun: str) -> None:
    assert words.japanese_query(words.strip_prices(f"{amount}円{limit}の{noun}")) == \
        noun.removeprefix("お")


@pytest.mark.parametrize("said", ["それを買います", "これを買ってください", "それを買う"])
def test_buying_that_one_names_no_product(said: str) -> None:
    assert words.japanese_query(said) == ""


@pytest.mark.parametrize(("said", "sort"), [
    ("the fanciest teapot", "price_desc"), ("a high-end yoga mat", "price_desc"),
    ("books, price high to low", "price_desc"), ("la tasse la plus luxueuse", "price_desc"),
    ("thés par prix décroissant", "price_desc"), ("一番値段が高い本", "price_desc"),
    ("お茶を高い順に", "price_desc"), ("books, price low to high", "price_asc"),
    ("livres par prix croissant", "price_asc"), ("一番お手頃なお茶", "price_asc"),
    ("安価なお茶", "price_asc"), ("a reasonably priced mug", "price_asc"),
])
def test_a_price_order_said_any_way_sorts(said: str, sort: str) -> None:
    assert words.price_order(said) == {"sort": sort}


@pytest.mark.parametrize("said", ["一番お手頃なお茶", "値段が一番高いお茶", "安価なお茶"])
def test_a_japanese_price_order_leaves_the_noun(said: str) -> None:
    assert words.japanese_query(said) == "茶"


@pytest.mark.parametrize(("said", "count"), [
    ("arancini, caesar salad, 2 tiramisu", 3),
    ("a lasagna as well as tiramisu", 2),
    ("une lasagne ainsi que deux tiramisus", 2),
    ("une lasagne, puis deux tiramisus", 2),
    ("the dripper, the teapot and the plate", 3),
])
def test_several_items_however_joined(said: str, count: int) -> None:
    assert len(words.item_phrases(said)) == count


@pytest.mark.parametrize(("said", "first"), [
    ("a classic mug, blue, and two plates", "a classic mug, blue"),
    ("a margherita, gluten-free crust, and a diavola", "a margherita, gluten-free crust"),
    ("a margherita, extra cheese, and a diavola", "a margherita, extra cheese"),
])
def test_an_option_after_a_comma_stays_with_its_item(said: str, first: str) -> None:
    assert words.item_phrases(said)[0] == first


@given(person=st.sampled_from(["my dad", "my sister", "my boss", "a colleague", "ma mère",
                               "mon père"]),
       verb=st.sampled_from(["who loves", "who drinks a lot of", "qui adore le", "she loves",
                             "who is really into"]))
def test_who_a_gift_is_for_is_no_product(person: str, verb: str) -> None:
    said = f"a gift for {person} {verb} coffee"
    assert words.for_whom(said)
    kept = words.without_the_recipient([w for w in words.fold(said).split()
                                        if not words.is_stop(w, "")])
    assert kept == ["coffee"]


@pytest.mark.parametrize("said", ["not that one, the other one", "non, l'autre",
                                  "もう一つの方でお願いします"])
def test_the_other_one_is_read(said: str) -> None:
    assert words.the_other_one(said)


@pytest.mark.parametrize("said", ["the other colour", "l'autre taille"])
def test_the_other_option_is_no_other_item(said: str) -> None:
    assert not words.the_other_one(said)


@pytest.mark.parametrize("said", ["それをカートに", "一番安いのをカートに", "玄米茶を2つカートに"])
def test_a_thing_into_the_cart_without_its_verb_is_an_add(said: str) -> None:
    assert understand(said)[0] == "add"


@pytest.mark.parametrize("said", ["カートに何が入っていますか", "カートを見せて"])
def test_asking_about_the_cart_stays_a_cart_question(said: str) -> None:
    assert understand(said)[0] == "cart"


def test_a_store_named_with_code_asks_for_no_discount() -> None:
    assert understand("anything under ten euros at Folio & Code?")[0] == "search"
    assert understand("any discount codes?")[0] == "discounts"


@pytest.mark.parametrize("said", ["I want to buy a gift for someone who loves pottery",
                                  "I'd like a present for my dad who drinks coffee"])
def test_a_gift_described_by_whom_it_is_for_shows_what_fits(said: str) -> None:
    assert understand(said)[0] == "search"


def test_a_japanese_name_holding_an_option_word_is_a_thing() -> None:
    assert words.item_phrases("ヨガマットとギフトカードをください") == (
        "ヨガマット", "ギフトカードをください")
    assert words.item_phrases("マグを2個、青で") == ("マグを2個、青で",)


@pytest.mark.parametrize(("said", "noun"), [
    ("お茶の中で最も安いものはどれ？", "茶"), ("文房具のうち一番安いのは？", "文房具"),
    ("一番安い stationery をください", "stationery"), (" teaware がほしい", "teaware"),
])
def test_among_a_kind_and_a_kind_in_english_leave_the_noun(said: str, noun: str) -> None:
    assert words.japanese_query(said) == noun
