"""Courtesy that asks nothing (`language.courtesy`), days and times typed in kana
(`language.kana_calendar`), a Japanese compound's head (`naming.kanji_heads`) and going on to
payment said in Japanese (`checkout_acts`): each read as the stages expect, and what the
speech-act and intent stages then make of the message."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.checkout_acts import read_checkout, says_nothing_else
from commerce_agent.agent.language.courtesy import plain_request
from commerce_agent.agent.language.kana_calendar import in_kanji
from commerce_agent.agent.language.reading import read
from commerce_agent.agent.language.tips import Tip, read_tip
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.naming import kanji_heads, names_it
from commerce_agent.agent.models.scripted.sequence import requests
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.agent.models.scripted.typed import typed


@pytest.mark.parametrize(("said", "read"), [
    ("so sorry, could you cancel that order please?", "could you cancel that order please?"),
    ("apologies, would you cancel my order?", "would you cancel my order?"),
    ("I'm sorry but can you add a mug", "can you add a mug"),
    ("Désolé, pourriez-vous annuler cette commande ?", "pourriez-vous annuler cette commande ?"),
    ("excusez-moi, pouvez-vous ajouter deux assiettes ?", "pouvez-vous ajouter deux assiettes ?"),
    ("すみませんが、注文を取り消していただけますか", "注文を取り消してください"),
    ("申し訳ございませんが、先ほどの注文を取り消していただけますか",
     "先ほどの注文を取り消してください"),
    ("大変申し訳ないのですが、注文をキャンセルしていただけませんか",
     "注文をキャンセルしてください"),
    ("恐れ入りますが、その注文をキャンセルしてもらえませんか", "その注文をキャンセルしてください"),
    ("お手数ですが、玄米茶を3つ入れてもらえますか", "玄米茶を3つ入れてください"),
    ("美濃和紙ノートを2冊入れていただけないでしょうか", "美濃和紙ノートを2冊入れてください"),
    ("八女玉露を2つ入れてくださいませんか", "八女玉露を2つ入れてください"),
    ("茶筅の注文をお願いできますか", "茶筅の注文をお願いします"),
])
def test_courtesy_is_the_request_it_wraps(said: str, read: str) -> None:
    assert plain_request(said) == read


@pytest.mark.parametrize("said", ["sorry?", "すみません", "excuse me", "pardon ?",
                                  "sorry I meant the blue one", "袋をいただけますか"])
def test_courtesy_alone_or_no_wrapper_is_left_as_typed(said: str) -> None:
    assert plain_request(said) == said


@pytest.mark.parametrize("said", [
    "すみませんが、さっきの注文を取り消していただけますか",
    "大変申し訳ないのですが、注文をキャンセルしていただけませんか",
    "so sorry, could you cancel that order please?",
    "Désolé, pourriez-vous annuler cette commande ?",
])
def test_an_apologetic_cancel_request_is_a_cancel_not_a_question(said: str) -> None:
    text = typed(said)
    assert read_act(text).kind == "instruction"
    assert understand(text)[0] == "cancel"


@pytest.mark.parametrize(("said", "at"), [
    ("1がつ11にちの あさ7じの ヴィンヤサ", datetime(2027, 1, 11, 7, 0)),
    ("1がつ11にちの よる6じはんの ヴィンヤサ", datetime(2027, 1, 11, 18, 30)),
    ("2がつ6にち ごご2じの ポートレート", datetime(2027, 2, 6, 14, 0)),
    ("4がつ4かの ごぜんの ちゃどうたいけん", datetime(2027, 4, 4, 9, 0)),
    ("3がつ よっかの よる", datetime(2027, 3, 4, 18, 0)),
])
def test_days_and_times_typed_in_kana_are_read(said: str, at: datetime) -> None:
    when = read(typed(said), now=datetime(2026, 11, 27)).when
    assert when is not None
    assert when.at.replace(tzinfo=None) == at


@pytest.mark.parametrize("said", ["いちばん やすいの", "とうきょうと たいとうく やなか 3-1-1",
                                  "いつか いきたい", "によると", "ほしいです", "3じかん"])
def test_other_kana_are_left_alone(said: str) -> None:
    assert in_kanji(said) == said


@given(st.text(alphabet="あいうえおかきくけこさしすせそ 0123456789", max_size=20))
def test_kana_days_change_nothing_without_a_unit_or_day_word(said: str) -> None:
    kept = in_kanji(said)
    assert len(kept) <= len(said)
    assert not any(char in kept for char in "月日時分") or any(
        unit in said for unit in ("がつ", "にち", "じ", "ふん", "ぷん"))


@pytest.mark.parametrize(("phrase", "heads"), [
    ("常滑急須", ["滑急須", "急須"]), ("抹茶茶筅", ["茶茶筅", "茶筅"]), ("竹茶筅", ["茶筅"]),
    ("手削り茶筅", ["茶筅"]), ("急須", []), ("ほうじ茶", []), ("ヴィンヤサ", []),
])
def test_a_kanji_compound_is_headed_by_its_end(phrase: str, heads: list[str]) -> None:
    assert kanji_heads(phrase) == heads


def test_a_compound_names_the_item_its_head_names() -> None:
    kyusu = {"itemId": "item_tokoname_kyusu", "name": "常滑焼 急須 300ml"}
    assert names_it(kyusu, frozenset({"常滑急須"}), "ja")
    assert not names_it(kyusu, frozenset({"抹茶茶筅"}), "ja")


@pytest.mark.parametrize("said", ["お支払いまで進めてください", "決済へ進んで", "会計まで進めて"])
def test_going_on_to_payment_pays(said: str) -> None:
    found = read_checkout(said)
    assert found.concludes and says_nothing_else(found.rest), found


def test_an_answer_said_with_the_payment_is_left_over_for_the_question() -> None:
    found = read_checkout("では3月13日の午前の回でお願いいたします。お支払いまで進めてください")
    assert found.concludes
    assert "3月13日" in found.rest


@pytest.mark.parametrize(("said", "read"), [
    ("あおくて ちいさい まぐかっぷ", "青くて 小さい まぐかっぷ"),
    ("おおきい あおい まぐ", "大きい 青い まぐ"),
    ("ちいさなまぐ", "小さなまぐ"),
    ("おおきいほう", "大きいほう"),
    ("12いんちを ひとつ", "12インチを ひとつ"),
    ("ちっぷを 15ぱーせんと", "チップを 15パーセント"),
    ("ほし5つ と ちっぷ", "星5つ と チップ"),
    ("ほしいです", "ほしいです"),
])
def test_shop_words_typed_in_kana_are_read_as_the_stages_know_them(said: str, read: str) -> None:
    assert typed(said) == read


@pytest.mark.parametrize("said", ["あおいろ", "まあおいしい", "いちばん"])
def test_kana_that_only_hold_an_adjectives_sounds_are_kept(said: str) -> None:
    assert typed(said) == said


def test_a_percentage_said_in_japanese_is_a_percentage_tip() -> None:
    assert read_tip("チップを 10パーセント") == Tip(percentage=Decimal(10))
    assert read_tip("チップを10プロ") == Tip(percentage=Decimal(10))


@pytest.mark.parametrize(("said", "kinds"), [
    ("星4つ と チップ 15パーセント お願いします", ["rate", "tip"]),
    ("チップ3ドルと星5つでお願いします", ["tip", "rate"]),
    ("おいしかったです ほし5つ と ちっぷ 10ぱーせんと おねがいします", ["rate", "tip"]),
])
def test_a_rating_and_a_tip_joined_by_to_are_two_requests(said: str, kinds: list[str]) -> None:
    assert [request.kind for request in requests(typed(said))] == kinds


@pytest.mark.parametrize("said", ["抹茶を2つと茶筅を1つください", "とうきょうと たいとうく"])
def test_things_joined_by_to_stay_one_request(said: str) -> None:
    assert requests(typed(said)) == []
