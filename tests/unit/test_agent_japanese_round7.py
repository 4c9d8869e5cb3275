"""Japanese as typed on a phone: particles dropped, a casual "…で" close, 大丈夫です decided."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language.codes import read_code
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act


@pytest.mark.parametrize("text", ["茶筅いらない", "玄米茶要らないです", "ノートいりません。",
                                  "急須いらないかな", "茶筅はいらない"])
def test_a_refusal_without_its_particle_removes_the_thing(text: str) -> None:
    assert understand(text)[0] == "remove"


@pytest.mark.parametrize("text", ["抹茶の30グラムを二つ。100グラムはいらない",
                                  "急須を風呂敷なしでカートに入れて"])
def test_a_declined_option_inside_an_order_still_orders(text: str) -> None:
    assert understand(text)[0] == "add"


@pytest.mark.parametrize("text", ["玄米茶じゃなくてほうじ茶で", "玄米茶じゃなくてほうじ茶で！",
                                  "マグじゃなくてティーポットでいいです",
                                  "玄米茶じゃなくてほうじ茶にして"])
def test_the_casual_de_close_names_the_one_chosen(text: str) -> None:
    assert understand(text)[0] == "replace"


def test_daijoubu_alone_declines_and_with_onegai_consents() -> None:
    # decided: a bare 大丈夫です answers a chat offer as "no thanks" (the approval itself has its
    # own button); consent says so ("大丈夫、お願い")
    assert read_act("大丈夫です").kind == "refusal"
    assert read_act("大丈夫、お願い").kind == "confirmation"


@pytest.mark.parametrize(("text", "rest"), [("MIDORI500を使って", ""),
                                            ("ＭＩＤＯＲＩ５００使えますか？", "?"),
                                            ("OCHA10を使って玉露を買う", "玉露を買う")])
def test_a_code_before_its_japanese_verb_is_read(text: str, rest: str) -> None:
    coded = read_code(text)
    assert coded.code is not None and coded.rest.strip("?") == rest.strip("?")
    assert read_code("ティーポットを使ってみたい").code is None


@pytest.mark.parametrize("text", ["MIDORI500を使って", "OCHA10使えますか"])
def test_a_code_with_a_japanese_verb_is_a_promotion(text: str) -> None:
    assert understand(text)[0] == "promotion"


@pytest.mark.parametrize("text", ["クラシックマグの16ozで！", "玉露で頼む", "ほうじ茶でよろしく"])
def test_the_casual_de_close_orders(text: str) -> None:
    assert understand(text)[0] == "add"
