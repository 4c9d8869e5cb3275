"""Japanese shoppers' own words, stage by stage: counts read aloud in kana, kinds of tea, the
softened endings and question words of a request, and a verb of getting negated."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.category_words import in_english_categories
from commerce_agent.agent.language.spoken_counts import with_counts_plain
from commerce_agent.agent.models.scripted import mind
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.agent.models.scripted.words import japanese_query

# The Sino-Japanese readings of 1-9 as said before a counter, with their sound changes.
_READINGS = {1: ["いち", "いっ"], 2: ["に"], 3: ["さん"], 4: ["よん"], 5: ["ご"],
             6: ["ろく", "ろっ"], 7: ["なな"], 8: ["はち", "はっ"], 9: ["きゅう"]}
_COUNTERS = {"こ": "個", "さつ": "冊", "まい": "枚", "ふくろ": "袋", "はこ": "箱"}
_THINGS = ["玄米茶", "ノート", "茶筅", "お皿", "ほうじ茶"]


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 99), st.sampled_from(sorted(_COUNTERS)), st.sampled_from(_THINGS),
       st.sampled_from(["ください", "をください", "お願いします", "", "で"]), st.data())
def test_a_count_read_aloud_in_kana_is_that_count(number: int, counter: str, thing: str,
                                                   ending: str, data: st.DataObject) -> None:
    tens, units = divmod(number, 10)
    said = ""
    if tens:
        said += (data.draw(st.sampled_from(_READINGS[tens])) if tens > 1 else "") + "じゅう"
    if units:
        said += data.draw(st.sampled_from(_READINGS[units]))
    particle = "を" if ending.startswith("を") else ""
    text = f"{thing}{particle}{said}{counter}{ending.removeprefix('を')}"
    plain = with_counts_plain(text)
    assert f"{number}{_COUNTERS[counter]}" in plain
    assert quantities.how_many(plain) == number


@pytest.mark.parametrize(("said", "count"), [
    ("茶筅いっぽんください", 1), ("茶筅さんぼん", 3), ("茶筅ろっぽん", 6), ("玄米茶ふたふくろ", 2),
    ("玄米茶をひとはこ", 1), ("カートにさんこ入れて", 3), ("玉露×2", 2), ("ノート x 3", 3)])
def test_kana_and_list_counts(said: str, count: int) -> None:
    assert quantities.how_many(with_counts_plain(said)) == count


@pytest.mark.parametrize("said", ["にほんちゃ", "いっこうに届かない", "さつまいも", "ここにこれ",
                                  "にこにこ", "茶筅にほん", "mug x2"])
def test_kana_words_that_are_no_count_stay(said: str) -> None:
    assert with_counts_plain(said) == said


@pytest.mark.parametrize(("said", "kind"), [
    ("お茶ありますか？", "tea"), ("日本茶", "tea"), ("緑茶ほしい", "green tea"),
    ("煎茶はある？", "sencha"), ("このお茶を2つ", "tea"), ("茶を3つ", "tea")])
def test_tea_as_a_kind_is_the_catalogs_category(said: str, kind: str) -> None:
    assert f" {kind} " in in_english_categories(said)


@pytest.mark.parametrize("said", ["ほうじ茶をください", "茶色のマグ", "お茶碗",
                                  "抹茶入り玄米茶", "茶筅を1本"])
def test_tea_inside_a_word_is_that_word(said: str) -> None:
    assert in_english_categories(said) == said


@pytest.mark.parametrize(("said", "query"), [
    ("緑茶ほしいんだけど、なにがある？", "緑茶"), ("玉露が欲しいんですが", "玉露"),
    ("急須を探してるんだけど", "急須"), ("ノート買いたいんですけど", "ノート"),
    ("インクほしいなあ", "インク"), ("和紙ノート探しています", "和紙ノート"),
    ("急須ないかな", "急須"),
    ("どんな急須がありますか", "急須"), ("青いのをください", "青い")])
def test_a_softened_ending_or_question_word_names_no_product(said: str, query: str) -> None:
    assert japanese_query(said) == query


@pytest.mark.parametrize("said", ["やっぱり玉露は買わない", "玉露は買いません",
                                  "玉露は注文しない", "玉露は頼まないです", "玉露は買うのやめます"])
def test_a_thing_not_bought_after_all_is_let_go(said: str) -> None:
    reading = mind.read(said)
    assert reading is not None and reading.intent == "remove"
    assert understand(said)[0] == "remove"


@pytest.mark.parametrize("said", ["やっぱ買うのやめる", "やっぱり買わないことにします",
                                  "買うのやめます"])
def test_buying_given_up_takes_back_and_never_buys(said: str) -> None:
    assert understand(said)[0] == "no"


@pytest.mark.parametrize("said", ["ノートは入れないで", "玉露は買わないの？"])
def test_a_refusal_of_the_request_or_a_question_is_no_let_go(said: str) -> None:
    assert mind.read(said) is None


@pytest.mark.parametrize("said", ["高くないお茶ある？", "急須は割れないですか", "少ないのがいい"])
def test_an_adjective_or_a_question_in_ない_is_no_negation(said: str) -> None:
    act = read_act(said)
    assert not act.wholly_negated and not act.negated


@pytest.mark.parametrize("said", ["緑茶ほしいんだけど、なにがある？",
                                  "急須がほしいです。何がありますか？",
                                  "お茶が欲しいんですが、おすすめはありますか"])
def test_a_wish_with_what_there_is_asked_shows_them(said: str) -> None:
    assert understand(said)[0] == "search"


@pytest.mark.parametrize("said", ["届いた茶筅が壊れていたので交換したいです",
                                  "急須を交換してもらえますか"])
def test_an_exchange_asked_for_is_a_return(said: str) -> None:
    assert understand(said)[0] == "return"


def test_a_thing_swapped_in_the_cart_is_no_exchange() -> None:
    assert understand("抹茶を玉露に交換して")[0] != "return"


@pytest.mark.parametrize("said", ["カート空にして", "カートは空っぽにして", "カートをからにして"])
def test_the_cart_emptied_without_its_particle(said: str) -> None:
    assert understand(said)[0] == "empty"
