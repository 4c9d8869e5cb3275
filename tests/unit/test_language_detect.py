"""detect_language: Japanese by script, English/French by lingua or the word table, else default."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import detect, detect_language

SENTENCES = [
    ("I want a blue teapot please", "en"),
    ("where is my order?", "en"),
    ("cheapest mug under $20", "en"),
    ("add two of those to my cart", "en"),
    ("je voudrais une théière bleue", "fr"),
    ("Bonjour, avez-vous des bols ?", "fr"),
    ("ajoutez deux tasses au panier", "fr"),
    ("où en est ma commande ?", "fr"),
    ("急須を2つください", "ja"),
    ("ラーメン", "ja"),
    ("東京都渋谷区", "ja"),
    ("注文はどこ？", "ja"),
]


@pytest.fixture(params=["lingua", "words"])
def detector(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each case runs with lingua (the agent-nlp extra) and with the word table alone."""
    detect._latin_language.cache_clear()
    if request.param == "lingua":
        pytest.importorskip("lingua", reason="the agent-nlp extra is not installed")
    else:
        monkeypatch.setattr(detect, "_detector", lambda: None)
    yield request.param
    detect._latin_language.cache_clear()


@pytest.mark.parametrize(("text", "language"), SENTENCES)
def test_sentences(detector: str, text: str, language: str) -> None:
    assert detect_language(text) == language
    assert detect_language(text, default="fr") == language


@pytest.mark.parametrize("text", ["", "  ", "2", "ok", "?!", "x", "kyusu"])
def test_too_short_or_ambiguous_gives_the_default(detector: str, text: str) -> None:
    assert detect_language(text, default="fr") == "fr"
    assert detect_language(text, default="en") == "en"


def test_japanese_script_anywhere_makes_it_japanese() -> None:
    assert detect_language("add the 急須 please") == "ja"


def test_a_yen_sign_alone_does_not() -> None:
    assert detect_language("cheaper than 3000円 please", default="fr") == "en"
    assert detect_language("500円〜1000円") == "ja"


@settings(deadline=None)
@given(st.text(max_size=40))
def test_always_one_of_the_three(text: str) -> None:
    assert detect_language(text, default="en") in ("en", "fr", "ja")


@settings(deadline=None)
@given(st.text(alphabet=st.characters(whitelist_categories=["Nd", "P", "Zs"]), max_size=20))
@example("・")  # punctuation from the katakana block
@example("゠ 12")
def test_digits_and_punctuation_alone_keep_the_default(text: str) -> None:
    assert detect_language(text, default="fr") == "fr"


@pytest.mark.parametrize(("text", "japanese"), [
    ("抹茶を2つ", True), ("カート", True), ("ありがとう", True), ("Matcha・Tea", True),
    ("a matcha whisk", False), ("une théière", False), ("2 x 300 ml", False), ("", False),
])
def test_in_japanese_script(text: str, japanese: bool) -> None:
    assert detect.in_japanese_script(text) is japanese


@pytest.mark.parametrize(("said", "previous", "language"), [
    # a phone-typed French word outweighs the English a French shopper borrows
    ("add to cart le python design patterns stp", None, "fr"),
    ("jveux le mug bleu", None, "fr"),
    # borrowed English in a French conversation tells no language
    ("go checkout", "fr", "fr"),
    ("ok on valide", "fr", "fr"),
    # English stays English
    ("go checkout", "en", "en"),
    ("show me the cheapest mug pls", None, "en"),
    ("the blue one", "fr", "en"),
])
def test_french_typed_on_a_phone_and_borrowed_english(said: str, previous: str | None,
                                                      language: str) -> None:
    assert detect.reply_language(said, previous) == language


@pytest.mark.parametrize(("said", "lang"), [
    ("tea max 1000 yen", "en"), ("teas around 1000 yen", "en"),
    ("un thé à 20 euros max", "fr"), ("du thé, budget max 20 euros", "fr"),
])
def test_a_price_limit_word_keeps_the_shoppers_language(said: str, lang: str) -> None:
    assert detect_language(said) == lang
