"""Casual Japanese in its plain forms (language/casual_japanese.py), and what the stages read
from it: a casual request is the request, a topic って leaves its noun whole, a count stands
for a dropped particle, a kanji spelling no search knows is read by its sound; "what is it
like?" in any language is answered by the thing's description."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import readings
from commerce_agent.agent.language.casual_japanese import plain
from commerce_agent.agent.language.detect import detect_language
from commerce_agent.agent.models.scripted import facts, requests
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.speech import read_act

_THINGS = ["玄米茶", "和紙ノート", "茶筅", "急須"]
# (the verb's stem as the て-form takes it, its contracted ておく, its plain request)
_VERBS = [("入れ", "入れといて", "入れてください"), ("追加し", "追加しといて", "追加してください"),
          ("取っ", "取っといて", "取ってください"), ("頼ん", "頼んどいて", "頼んでください")]
_CASUAL_ENDINGS = ["てちょうだい", "てくれ", "てくれる？", "てね", "てよ", "ておいて",
                   "てくんない？"]


@given(verb=st.sampled_from(_VERBS), thing=st.sampled_from(_THINGS))
def test_a_contracted_te_oku_is_the_plain_request(verb: tuple[str, str, str], thing: str) -> None:
    assert plain(f"{thing}を{verb[1]}") == f"{thing}を{verb[2]}"


@given(ending=st.sampled_from(_CASUAL_ENDINGS), thing=st.sampled_from(_THINGS))
def test_a_casual_favour_after_the_te_form_is_the_plain_request(ending: str, thing: str) -> None:
    assert plain(f"{thing}をカートに入れ{ending}") == f"{thing}をカートに入れてください"


@pytest.mark.parametrize("said", ["製菓用でね", "お会計でね", "ちょっと待って", "買ってどう",
                                  "取りに行ってもいい？", "hello", "急須って？"])
def test_what_is_no_casual_request_stays_as_typed(said: str) -> None:
    assert plain(said) == said


@given(thing=st.sampled_from([*_THINGS, "ティラミス", "Folio Unlimited"]),
       asked=st.sampled_from(["どんなお茶ですか", "ありますか", "いくら？", "何？"]))
def test_the_topic_tte_after_a_noun_is_wa(thing: str, asked: str) -> None:
    assert plain(f"{thing}って{asked}") == f"{thing}は{asked}"


@given(noun=st.sampled_from(["注文", "購入", "追加", "予約", "キャンセル"]),
       mark=st.sampled_from(["", "。", "！"]))
def test_a_verbal_noun_ended_by_de_is_a_request(noun: str, mark: str) -> None:
    assert plain(f"ノート1冊{noun}で{mark}") == f"ノート1冊{noun}してください{mark}"


@given(thing=st.sampled_from(_THINGS), count=st.integers(1, 9),
       counter=st.sampled_from(["つ", "個", "本", "冊", "袋", "箱"]),
       verb=st.sampled_from([("注文して", "buy"), ("購入したい", "buy"), ("ください", "add"),
                             ("カートに入れて", "add")]))
def test_a_count_stands_for_a_dropped_particle(thing: str, count: int, counter: str,
                                               verb: tuple[str, str]) -> None:
    said = f"{thing}{count}{counter}{verb[0]}"
    assert requests.asked(said) == verb[1]
    assert read_act(said).kind == "instruction"


def test_a_year_is_no_count_before_an_order_verb() -> None:
    assert requests.asked("2027年注文して") is None


def test_a_kanji_spelling_is_read_by_its_sound() -> None:
    assert readings.sounded("焙じ茶") == readings.fold("ほうじちゃ")
    assert readings.sounded("ほうじ茶") != ""  # its kanji 茶 is read too
    assert readings.sounded("キュウス") == ""
    items = [{"name": "加賀棒茶 100g", "description": "石川の焙じ茎茶（ほうじ茶）。"},
             {"name": "抹茶入り玄米茶 200g", "description": "煎茶に玄米と抹茶。"}]
    assert readings.names_in(items, [readings.sounded("焙じ茶")]) == [items[0]]


def test_a_name_says_a_word_better_than_its_gloss() -> None:
    glossed = {"name": "セラドン釉のティーポット（急須）700ml"}
    named = {"name": "常滑焼 急須 300ml"}
    assert readings.names_in([glossed, named], ["きゅうす"]) == [named]
    assert readings.names_in([glossed], ["きゅうす"]) == [glossed]


@pytest.mark.parametrize(("said", "language"), [
    ("3 arancini orders", "en"), ("2 assiettes", "fr"), ("ajoute onze mugs", "fr"),
    ("mes commandes", "fr")])
def test_a_plural_the_tables_know_tells_the_language(said: str, language: str) -> None:
    assert detect_language(said) == language


_GYOKURO = {"itemId": "item_yame_gyokuro", "name": "八女玉露 50g",
            "description": "福岡・八女の被覆栽培の玉露。濃厚な旨味と甘み。"}
_GENMAICHA = {"itemId": "item_genmaicha", "name": "Thé genmaicha au matcha, 200 g",
              "description": "Sencha mélangé à du riz brun grillé. Saupoudré de matcha."}


@pytest.mark.parametrize(("item", "question", "lang"), [
    (_GYOKURO, "玉露はどんなお茶ですか", "ja"), (_GYOKURO, "玉露とは？", "ja"),
    (_GYOKURO, "玉露はどういうもの？", "ja"), (_GENMAICHA, "c'est quoi le genmaicha ?", "fr"),
    (_GENMAICHA, "le genmaicha il est comment ?", "fr"),
    (_GENMAICHA, "what is the genmaicha like?", "en")])
def test_asking_what_a_thing_is_is_answered_by_its_description(
        item: dict[str, str], question: str, lang: str) -> None:
    assert say(lang, "not_stated") not in facts.answer(item, question, lang)


def test_a_detail_the_data_does_not_state_is_still_said_so() -> None:
    assert say("ja", "not_stated") in facts.answer(_GYOKURO, "玉露はカフェインが多いですか", "ja")
