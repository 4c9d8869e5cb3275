"""Kinds by their words in every language (commerce_agent/agent/language/kinds.py)."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language import kinds


@pytest.mark.parametrize(("word", "kind"), [
    ("cup", "mug"), ("cups", "mug"), ("tasses", "mug"), ("マグカップ", "mug"),
    ("bol", "bowl"), ("bols", "bowl"), ("ボウル", "bowl"), ("どんぶり", "bowl"),
    ("whisk", "whisk"), ("fouet", "whisk"), ("茶筅", "whisk"),
    ("théière", "teapot"), ("急須", "teapot"), ("hojicha", "hojicha"), ("ほうじ茶", "hojicha"),
])
def test_a_word_names_its_kind_in_any_language(word: str, kind: str) -> None:
    assert kinds.kind_of(word) == kind


@pytest.mark.parametrize("word", ["blue", "bamboo", "matcha", "tea", "茶", "鉢", "pot"])
def test_options_materials_and_words_of_many_things_name_no_kind(word: str) -> None:
    assert kinds.kind_of(word) is None


def test_a_text_says_the_kinds_its_words_are() -> None:
    assert kinds.kinds_in("Fouet à matcha en bambou (chasen) de Takayama") == {"whisk"}
    assert kinds.kinds_in("大きなサービングボウル（大鉢）") == {"bowl"}
    assert kinds.kinds_in("クラシックマグ（炻器のマグカップ）") == {"mug"}
    assert kinds.kinds_in("吊り下げプランター（麻ひも付き）") == {"planter"}


def test_a_pot_for_plants_is_no_bowl() -> None:
    assert "bowl" not in kinds.kinds_in("水抜き穴のある15cmの炻器の鉢と手結びの麻ひも。")
