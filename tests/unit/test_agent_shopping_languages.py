"""Shopping in Japanese and French, stage by stage: the product words around particles, verb
endings, counters and units; French verbs in any tense and elided articles; counts that are
sizes; and the language a reply is written in."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language import reply_language
from commerce_agent.agent.models.scripted import intents, phrasing, words
from commerce_agent.agent.models.scripted.explain import explain
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.state import Call, State


@pytest.mark.parametrize(("said", "noun"), [
    ("抹茶を2つカートに入れて", "抹茶"),
    ("茶筅ありますか", "茶筅"),
    ("急須が欲しいです", "急須"),
    ("ノートほしい", "ノート"),
    ("マルゲリータを一枚、16インチで", "マルゲリータ"),
    ("玄米茶を３袋ください", "玄米茶"),
    ("お皿を4枚カートに入れて", "皿"),
    ("炭酸水を3本お願いします", "炭酸水"),
    ("ティラミスを二つ下さい", "ティラミス"),
    ("300mlの急須", "急須"),
    ("12ozのマグカップはありますか", "マグカップ"),
])
def test_a_japanese_request_keeps_only_its_noun(said: str, noun: str) -> None:
    assert words.japanese_query(said) == noun


@pytest.mark.parametrize(("said", "count"), [
    ("抹茶を2つ", 2), ("お皿を4枚", 4), ("ペンを3本", 3), ("コーヒーを2杯", 2),
    ("ノートを三冊", 3), ("玄米茶を３袋", 3), ("加賀棒茶を五つ", 5), ("玄米茶を十袋", 10),
    ("マグを2個", 2), ("2点ください", 2), ("ひとつください", 1), ("二十一個", 21),
    ("マルゲリータを一枚、16インチで", 1),
])
def test_japanese_counters_and_numerals_are_counts(said: str, count: int) -> None:
    assert words.quantity(said) == count


@pytest.mark.parametrize("said", ["la 16 pouces", "16インチで", "the 300 ml one", "en 12 pouces"])
def test_a_size_in_any_unit_is_no_count(said: str) -> None:
    assert words.quantity(said) is None


@pytest.mark.parametrize("said", [
    "je prendrai les lasagnes", "j'aimerais deux tiramisus", "je vais prendre une pizza",
    "je voudrais une théière", "je prendrais bien deux bols", "je commanderais bien un mug",
    "炭酸水を3本お願いします", "マルゲリータを一枚、16インチで", "急須が欲しいです",
])
def test_wanting_or_taking_in_any_tense_is_adding(said: str) -> None:
    assert intents.understand(said)[0] == "add"


@pytest.mark.parametrize("said", ["je voudrais savoir le prix", "je veux voir les tasses"])
def test_wanting_to_know_or_see_is_not_adding(said: str) -> None:
    assert intents.understand(said)[0] != "add"


@pytest.mark.parametrize(("word", "verb"), [
    ("prendrai", True), ("voudrions", True), ("vendez", True), ("aimerais", True),
    ("prenez", True), ("acheterai", True), ("lasagnes", False), ("vendeur", False),
    ("trouvaille", False), ("assiettes", False), ("theiere", False),
])
def test_french_verbs_are_told_from_nouns(word: str, verb: bool) -> None:
    assert words.french_verb(word) is verb


def test_an_elided_article_leaves_its_noun() -> None:
    assert words.without_elision("de l'eau et d'encre pour l'assiette").split() == [
        "de", "eau", "et", "encre", "pour", "assiette"]


def test_a_japanese_noun_names_a_thing_and_a_pointer_does_not_need_latin_words() -> None:
    assert words.names_a_thing("炭酸水を")
    assert words.names_a_thing("two plates")
    assert not words.names_a_thing("ください")


@pytest.mark.parametrize(("said", "previous", "language"), [
    ("oui", "fr", "fr"), ("ok", "fr", "fr"), ("ok", "ja", "ja"), ("はい", "fr", "fr"),
    ("はい", "ja", "ja"), ("ord_01abc", "ja", "ja"), ("3", "fr", "fr"), ("yes", "ja", "ja"),
    ("oui", None, "fr"), ("je voudrais une théière", "en", "fr"),
    ("抹茶を2つカートに入れてください", "fr", "ja"), ("add two mugs to my cart", "fr", "en"),
])
def test_a_one_word_message_keeps_the_conversations_language(
        said: str, previous: str | None, language: str) -> None:
    assert reply_language(said, previous) == language


def test_an_option_question_in_french_or_japanese_shows_no_english_group_name() -> None:
    for language in ("fr", "ja"):
        asked = phrasing.option_question(language, "Pizza", "Choose your size", "1) 12-inch")
        assert "Choose your size".lower() not in asked.lower()
        assert "1) 12-inch" in asked
    assert "choose your size" in phrasing.option_question("en", "Pizza", "Choose your size",
                                                          "1) 12-inch")


def _french_state() -> State:
    state = State()
    state.language = "fr"
    state.items["item_mug"] = {"itemId": "item_mug", "name": "Mug classique en grès"}
    return state


@pytest.mark.parametrize(("code", "result"), [
    ("insufficient_stock", {"details": [{"availableQuantity": 2}]}),
    ("payment_failed", {}), ("promotion_invalid", {"details": [{"reason": "expired"}]}),
    ("cart_expired", {}), ("something_new", {}),
    ("order_already_cancelled", {"params": {"id": "ord_1"}}),
])
def test_a_tool_error_is_explained_in_the_shoppers_language(
        code: str, result: dict[str, object]) -> None:
    call = Call("add_to_cart", {"itemId": "item_mug", "code": "WELCOME10"},
                {"code": code, "message": "An English message.", **result}, True)
    said = explain(call, _french_state())
    assert "English" not in said and "Sorry" not in said and "That " not in said, said


def test_reads_ask_for_the_shoppers_language_and_english_asks_for_none() -> None:
    state = _french_state()
    asked = Planner(state, {}).call("search_products", query="bol")
    assert asked.args["locale"] == "fr"
    state.language = "en"
    assert "locale" not in Planner(state, {}).call("search_products", query="bowl").args
    assert "locale" not in Planner(_french_state(), {}).call("create_cart", storeId="s").args


def test_cart_lines_bear_the_names_the_shoppers_reads_gave() -> None:
    state = _french_state()
    line = {"cartItemId": "l1", "itemId": "item_mug", "name": "Classic Stoneware Mug",
            "quantity": 2}
    cart = {"cartId": "c", "storeId": "store_ceramics", "items": [line]}
    state.absorb("add_to_cart", {"itemId": "item_mug"}, cart, False)
    assert state.carts["store_ceramics"]["items"][0]["name"] == "Mug classique en grès"
    assert line["name"] == "Classic Stoneware Mug"  # the tool's result is kept as it came


def test_a_japanese_word_is_also_tried_in_the_other_kana_and_without_long_vowels() -> None:
    assert words.kana_spellings("きゅうす") == ["キュウス"]
    assert words.kana_spellings("ティーポット") == ["てぃーぽっと", "ティポット"]
    assert words.kana_spellings("急須") == []
