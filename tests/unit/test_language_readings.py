"""Japanese names compared by how they sound (commerce_agent/agent/language/readings.py)."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language import readings


@pytest.mark.parametrize(("said", "name"), [
    ("げんまいちゃ", "抹茶入り玄米茶 200g"),   # kanji read as kana
    ("ぼうちゃ", "加賀棒茶 100g"),
    ("でぃあぼら", "ピザ・ディアボラ"),          # the other kana
    ("ゔぃんやさ", "ヴィンヤサフロー ドロップインクラス"),
    ("びんやさ", "ヴィンヤサフロー ドロップインクラス"),  # ゔぃ sounds び
    ("ぎふとかあど", "ルーメン・スタジオ ギフトカード（50ポンド）"),  # long vowel written out
    ("ｶｶﾞﾎﾞｳﾁｬ", "加賀棒茶 100g"),             # half-width
    ("diavola", "ピザ・ディアボラ"),             # romaji of a loanword
])
def test_a_name_said_by_its_sound_is_named(said: str, name: str) -> None:
    assert readings.names_by_sound(said, name)


@pytest.mark.parametrize(("said", "name"), [
    ("の", "抹茶入り玄米茶 200g"),       # a particle
    ("ちゃ", "加賀棒茶 100g"),           # two kana are inside too many readings
    ("ください", "ください茶"),          # politeness is never evidence
    ("ひとつ", "ひとつ星"),
    ("らざにあ", "ピザ・ディアボラ"),
])
def test_particles_counts_and_other_names_are_no_evidence(said: str, name: str) -> None:
    assert not readings.names_by_sound(said, name)


def test_folding_joins_kana_forms() -> None:
    assert readings.fold("カード") == readings.fold("かーど") == readings.fold("かあど")
    assert readings.fold("ヴァ") == readings.fold("ば")


def test_spaced_kana_words_keep_inner_particles() -> None:
    def split(text: str) -> list[str]:
        return text.split("と")
    assert readings.spaced_kana_words("ぎふとかあどを ひとつ", split) == ["ぎふとかあど", "ひとつ"]
    assert readings.spaced_kana_words("ほうじ茶と急須", split) == ["ほうじ茶", "急須"]


def test_items_named_by_sound_in_a_catalog() -> None:
    items = [{"itemId": "a", "name": "加賀棒茶 100g"}, {"itemId": "b", "name": "八女玉露 50g"}]
    assert [item["itemId"] for item in readings.names_in(items, ["ぎょくろ"])] == ["b"]
    assert readings.names_in(items, ["まぐかっぷ"]) == []


def test_items_named_by_sound_in_a_description_when_no_name_is() -> None:
    items = [{"itemId": "a", "name": "加賀棒茶 100g",
              "description": "石川の焙じ茎茶（ほうじ茶）。香ばしくカフェイン控えめで。"},
             {"itemId": "b", "name": "八女玉露 50g", "description": "福岡・八女の玉露。"}]
    assert [item["itemId"] for item in readings.names_in(items, ["ほうじちゃ"])] == ["a"]
    # a name said by sound wins over a description that also says it
    items.append({"itemId": "c", "name": "ほうじ茶ラテ"})
    assert [item["itemId"] for item in readings.names_in(items, ["ほうじちゃ"])] == ["c"]
