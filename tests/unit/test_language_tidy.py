"""The tidy pass of the normalize stage: how people type, read as the stages expect."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from commerce_agent.agent.language.tidy import CASUAL, tidy
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.typed import (
    KATAKANA,
    KNOWN,
    VOCABULARY,
    catalogue_words,
    typed,
)


@pytest.mark.parametrize(("said", "read"), [
    ("pls cancle my ordr thx", "please cancel my order thanks"),
    ("pleaaase add it", "please add it"),
    ("yesss", "yes"),
    ("goood", "good"),
    ("nop", "nope"),
    ("gimme two arancini plz", "give me two arancini please"),
    ("add it rn", "add it"),
    ("add PixelForge w/ support", "add PixelForge with support"),
    ("anule ma comande", "annule ma commande"),
    ("ma comande est expediee ?", "ma commande est expediee ?"),
    ("oui stp", "oui s'il te plaît"),
    ("d'ac", "d'accord"),
    ("はーい", "はい"),
    ("ううん", "いいえ"),
    ("注文をきゃんせるして", "注文をキャンセルして"),
    ("かーとにいれて", "カートに入れて"),
    ("ちゅうもんをきゃんせる", "注文をキャンセル"),
    ("宇治抹茶を２つｶｰﾄに", "宇治抹茶を2つカートに"),
    ("“add the teapot”", '"add the teapot"'),
    ("yep 👍", "yep yes"),
    ("🙏", "yes please"),
    # an emoji with words after it ends a clause
    ("sounds good 👍 order it", "sounds good yes, order it"),
    ("love it 😍 add two", "love it, add two"),
    ("pls!", "yes please"),
    ("add a tiramisu\nand a san pellegrino", "add a tiramisu, and a san pellegrino"),
    ("where is it??!", "where is it?"),
    ("   add   two    plates  ", "add two plates"),
    ("cancel ord_01aaab3eeee9", "cancel ord_01aaab3eeee9"),
    ("status of …fffa21", "status of ...fffa21"),
    # "4" and "2" typed for "for" and "to", never a count
    ("can i sign up 4 the folio plan", "can i sign up for the folio plan"),
    ("add it 2 my cart", "add it to my cart"),
    ("add 2 to my cart", "add 2 to my cart"),
    ("get me 4 the blue ones", "get me 4 the blue ones"),
])
def test_typing_classes(said: str, read: str) -> None:
    assert typed(said) == read


@pytest.mark.parametrize("said", [
    "I was wondering if you could add two dinner plates to my cart",
    "would it be possible to add the celadon teapot to my cart?",
    "hi! could u possibly put the teapot in my cart?",
    "est-ce que vous pourriez ajouter la théière ?",
])
def test_a_polite_wrapper_around_a_cart_request_is_the_request(said: str) -> None:
    assert typed(said).startswith("please ")
    assert understand(typed(said))[0] == "add"


@pytest.mark.parametrize("said", [
    "would it be possible to cancel my order?",
    "is it possible to return the plates?",
    "how do i cancle my order?",
    "can i pause my subscripton?",
    "would it be possible to pause my membership?",
])
def test_questions_about_changing_an_order_stay_questions(said: str) -> None:
    assert understand(typed(said))[0] not in ("cancel", "return", "sub_pause", "sub_cancel")


def test_a_negated_misspelt_cancel_is_still_negated() -> None:
    assert understand(typed("dont cancle it, just wondering when it ships"))[0] != "cancel"


def test_words_of_the_items_shown_are_a_vocabulary() -> None:
    matcha = {"name": "Uji Matcha", "metadata": {"dev.commerce.product.variants": {
        "variants": [{"values": ["Ceremonial", "30 g"]}, {"values": ["Culinary", "100 g"]}]}}}
    assert "ceremonial" not in catalogue_words([{"itemId": "m", "name": "Uji Matcha"}])
    words = catalogue_words([{"itemId": "m", **matcha}])
    assert {"ceremonial", "culinary", "matcha"} <= words
    assert typed("ceremonal grade", words) == "ceremonial grade"
    assert typed("the larger one", frozenset({"large"})) == "the larger one"


_LETTERS = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=12)
_LONG_WORDS = sorted(word for word in VOCABULARY if len(word) >= 6 and word.isascii())


@given(st.sampled_from(_LONG_WORDS), st.integers(min_value=1), st.sampled_from(
    string.ascii_lowercase))
@example("abonne", 5, "n")  # "abonnn": no squeeze of its tripled letter is a word
def test_a_word_one_letter_off_reads_as_a_word_of_the_vocabulary(word: str, where: int,
                                                                letter: str) -> None:
    position = 1 + where % (len(word) - 1)  # the first letter is kept
    misspelt = word[:position] + letter + word[position + 1:]
    corrected = tidy(f"the {misspelt} one", VOCABULARY, KNOWN, KATAKANA).split()[1]
    assert corrected in VOCABULARY or corrected in KNOWN or corrected == misspelt


@given(st.sampled_from(sorted(VOCABULARY)))
def test_a_word_of_the_vocabulary_is_kept(word: str) -> None:
    assert tidy(f"the {word} one", VOCABULARY, KNOWN, KATAKANA) == f"the {word} one"


@given(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=3))
def test_short_words_are_never_corrected_into_an_intent_word(word: str) -> None:
    assume(word not in CASUAL)  # "plz" stands for "please": spelt short, not misspelt
    read = tidy(f"the {word} one", VOCABULARY, KNOWN).split()
    assert not {said for said in read if said in VOCABULARY} - {word}


@given(_LETTERS)
def test_a_word_two_edits_from_cancel_never_reads_as_cancel(word: str) -> None:
    from rapidfuzz.distance import OSA

    if OSA.distance(word, "cancel") >= 2 or word[0] != "c":
        assert "cancel" not in tidy(word, VOCABULARY, KNOWN, KATAKANA).split() or \
            word == "cancel"


@given(st.from_regex(r"ord_[0-9a-f]{28}", fullmatch=True))
def test_an_order_id_is_kept_as_typed(order_id: str) -> None:
    assert typed(f"cancel {order_id}").endswith(order_id)
    assert typed(order_id[-6:]) == order_id[-6:] or not order_id[-6:].isalpha()


@given(st.text(max_size=60))
@example("«\n0")  # a break after « once ate the space the quote keeps
def test_tidy_never_fails_and_is_stable(text: str) -> None:
    once = typed(text)
    assert isinstance(once, str)
    assert typed(once) == once or len(typed(once)) <= len(once)


@pytest.mark.parametrize(("said", "read"), [
    ("2 cacio e pepe w the fresh tonnarelli", "2 cacio e pepe with the fresh tonnarelli"),
    ("a mug w gift box", "a mug with gift box"),
])
def test_a_lone_w_between_words_is_with(said: str, read: str) -> None:
    assert tidy(said) == read


@pytest.mark.parametrize("said", ["ship to 500 W Madison St, Chicago IL 60661",
                                  "12 nw 5th ave", "options a, b, w or z",
                                  "deliver to 88 queen st w toronto on m5h 2n2"])
def test_the_w_of_an_address_or_a_list_is_kept(said: str) -> None:
    assert " with " not in tidy(said)


@given(st.integers(min_value=1, max_value=9999), st.sampled_from(["W", "w"]),
       st.sampled_from(["Madison St", "Main St", "5th Ave"]))
def test_a_w_after_a_house_number_is_never_with(number: int, w: str, street: str) -> None:
    assert "with" not in tidy(f"ship it to {number} {w} {street}")


@given(st.integers(min_value=1, max_value=9999),
       st.sampled_from(["queen st", "bloor street", "king ave", "dundas rd", "lakeshore blvd"]),
       st.sampled_from(["toronto", "the corner", "apt 4"]))
def test_a_w_after_a_street_type_is_west(number: int, street: str, after: str) -> None:
    """"queen st w toronto": the w after a street type is the street's side of town."""
    assert "with" not in tidy(f"ship it to {number} {street} w {after}")
