"""Japanese words typed in kana or inflected as shoppers do: option words by their reading,
the verbs of collecting in any form, removing and emptying the cart with any verb of removing."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language.checkout_acts import read_checkout
from commerce_agent.agent.language.delivery import collects_in_person
from commerce_agent.agent.language.option_words import english_option_words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.typed import typed


@pytest.mark.parametrize(("said", "words"), [
    ("まっちゃ の せいかよう を ひとつ", {"culinary"}),
    ("おてまえようで", {"ceremonial"}),
    ("ふろしきで つつんで", {"furoshiki"}),
    ("製菓用で", {"culinary"}),
])
def test_option_words_typed_in_kana_are_read(said: str, words: set[str]) -> None:
    assert english_option_words(said) == frozenset(words)


@pytest.mark.parametrize("said", ["みどりどうの ちゃせん", "ほしいです", "せきを よやく"])
def test_a_single_kanji_word_is_not_read_from_its_kana(said: str) -> None:
    assert english_option_words(said) == frozenset()


@pytest.mark.parametrize("said", [
    "取りに行きます", "受け取りたいです", "お店で受け取ります", "あとで受け取って帰ります",
    "取りに伺いますね", "引き取りに行きます",
])
def test_collecting_in_any_form_is_the_collect_act(said: str) -> None:
    assert "collect" in read_checkout(said).acts
    assert collects_in_person(said)


@pytest.mark.parametrize("said", ["受け取り方法は？", "受け取り時間を教えて"])
def test_a_noun_about_collecting_is_no_act(said: str) -> None:
    assert "collect" not in read_checkout(said).acts


@pytest.mark.parametrize("said", [
    "注文お願いします、取りに行きます", "お会計お願いします", "支払いたいです", "会計して",
    "注文を確定してください",
])
def test_a_checkout_with_its_ending_leaves_no_request(said: str) -> None:
    read = read_checkout(said)
    assert read.concludes and read.rest == ""


@pytest.mark.parametrize("said", [
    "おかいけい おねがいします", "かくていして", "けっさいで", "せいさんして",
])
def test_checkout_words_typed_in_kana_are_a_checkout(said: str) -> None:
    assert understand(typed(said))[0] == "checkout"


@pytest.mark.parametrize("said", [
    "カートから全部消してください", "全部消して", "カートの中身を削除して", "カートをクリアして",
    "全部外してください", "やっぱりやめます、カートから全部消してください",
])
def test_emptying_the_cart_with_any_verb_of_removing(said: str) -> None:
    assert understand(said)[0] == "empty"


@pytest.mark.parametrize("said", ["茶筅を消して", "玄米茶を外します", "ほうじ茶抜いといて"])
def test_removing_a_line_with_any_verb_of_removing(said: str) -> None:
    assert understand(said)[0] == "remove"


@pytest.mark.parametrize("said", ["注文を取り消して", "注文を全部取り消して", "全部キャンセルして"])
def test_calling_an_order_off_is_still_a_cancel(said: str) -> None:
    assert understand(said)[0] == "cancel"
