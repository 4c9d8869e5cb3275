"""Japanese requests by their grammar (`language/courtesy.py`): every polite or humble
request form reads as its plain one; a question whether a thing can be done stays one."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language.courtesy import plain_request
from commerce_agent.agent.language.tidy import tidy
from commerce_agent.agent.models.scripted.speech import read_act

# Verbs × the auxiliaries that make their te-form a request: every pair is "〜てください".
_VERBS = ("取り消して", "キャンセルして", "追加して", "入れて", "一時停止して", "解約して",
          "送って")
_AUXILIARIES = ("いただけますか", "いただけますでしょうか", "いただけませんか", "もらえますか",
                "もらえませんか", "くださいますか", "くれますか", "ほしいのですが",
                "いただきたいのですが", "いただけると助かります", "もらえる？")


@pytest.mark.parametrize("verb", _VERBS)
@pytest.mark.parametrize("auxiliary", _AUXILIARIES)
def test_a_te_form_and_an_auxiliary_of_receiving_or_giving_is_a_request(
        verb: str, auxiliary: str) -> None:
    said = plain_request(f"注文を{verb}{auxiliary}")
    assert said.startswith(f"注文を{verb}ください")


@pytest.mark.parametrize(("said", "plain"), [
    ("急須を返品させていただきたいのですが", "急須を返品したいです"),
    ("茶道体験を予約させていただけますでしょうか", "茶道体験を予約したいです"),
    ("玄米茶を買いたいのですが", "玄米茶を買いたいです"),
    ("注文したいと思います", "注文したいです"),
    ("キャンセルをお願いできますでしょうか", "キャンセルをお願いします"),
    ("お取り消しをお願いいたします", "お取り消しをお願いします"),
    ("ティラミスを3ついただけますか", "ティラミスを3つください"),
    ("げんまいちゃを ふたつ いただけますでしょうか", "げんまいちゃを ふたつ ください"),
])
def test_leave_wishes_and_asking_read_in_their_plain_form(said: str, plain: str) -> None:
    assert plain_request(said) == plain


@pytest.mark.parametrize(("said", "plain"), [
    ("すみません、その注文を取り消していただけますか", "その注文を取り消してください"),
    ("大変申し訳ありませんが、注文をキャンセルしてください", "注文をキャンセルしてください"),
    ("恐れ入りますが、返品をお願いします", "返品をお願いします"),
    ("すみません", "すみません"),  # a cushion alone is kept: it is all that was said
])
def test_cushions_opening_a_sentence_are_dropped(said: str, plain: str) -> None:
    assert plain_request(said) == plain


@pytest.mark.parametrize("said", [
    "キャンセルできますか？", "発送前ならキャンセルできますか", "このノートは返品可能ですか？",
    "キャンセルすることはできますか", "一時停止はできますか", "送料はいくらですか",
    "add two mugs please", "annulez ma commande",
])
def test_a_question_whether_a_thing_can_be_done_is_no_request(said: str) -> None:
    assert plain_request(said) == said


@pytest.mark.parametrize("said", [
    "すみません、その注文を取り消していただけますか",
    "注文のキャンセルをお願いできますでしょうか",
    "メンバーシップを一時停止していただけますか",
])
def test_requests_read_as_instructions_once_tidied(said: str) -> None:
    assert read_act(tidy(said)).kind == "instruction"


@pytest.mark.parametrize("said", ["キャンセルできますか？", "返品は可能ですか？"])
def test_questions_whether_possible_stay_questions_once_tidied(said: str) -> None:
    assert read_act(tidy(said)).kind == "question"
