"""Latin names written in katakana, kanji the dictionary misreads, and names said in parts
(commerce_agent/agent/language/readings.py)."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language import readings


@pytest.mark.parametrize(("said", "name"), [
    ("ピクセルフォージ", "PixelForge Pro 5 永久ライセンスキー"),
    ("テセレート・ターミナル", "Tessellate Terminal ローンチ版ライセンス"),
    ("テセレート", "Tessellate Terminal ローンチ版ライセンス"),
    ("アウレリアサンズ", "Aurelia Sans フォントファミリー デスクトップライセンス"),
    ("フォリオ・アンリミテッド", "Folio Unlimited 月額プラン"),
    ("パイソン", "実践 Pythonデザインパターン（電子書籍）"),
    ("クワイエットフォーカス", "Quiet Focus: Working Deeply in Noisy Times (Audiobook)"),
])
def test_a_latin_name_written_in_katakana_is_named(said: str, name: str) -> None:
    assert readings.names_by_sound(said, name)


@pytest.mark.parametrize(("said", "name"), [
    ("ライセンス", "Tessellate Terminal ローンチ版ライセンス"),  # katakana of the name: as before
    ("ピクセルフォージ", "Tessellate Terminal ローンチ版ライセンス"),
    ("パイソン", "Practical Rust — Paperback + eBook"),
    ("アイ", "Aurelia Sans"),  # too few consonants to tell
    ("テセレート", "Tessellate"),
])
def test_a_katakana_word_names_only_latin_words_of_its_sound(said: str, name: str) -> None:
    expected = said == "ライセンス" or (said == "テセレート" and name == "Tessellate")
    assert readings.names_by_sound(said, name) is expected


@pytest.mark.parametrize(("latin", "katakana"), [
    ("pixelforge", "ピクセルフォージ"), ("terminal", "ターミナル"), ("python", "パイソン"),
    ("gift card", "ギフトカード"), ("tiramisu", "ティラミス"), ("vinyasa", "ヴィンヤサ"),
])
def test_loanword_keys_agree(latin: str, katakana: str) -> None:
    from_kana = readings.loanword_key("".join(
        part["hepburn"] for part in readings._kakasi().convert(katakana)))
    assert readings.loanword_key(latin) == from_kana


@pytest.mark.parametrize(("said", "name"), [
    ("みのわしのーと", "美濃和紙ノート A5"),  # 美濃和紙 is みの + わし, not みのわ + かみ
    ("たかやまの", "高山 茶筅（八十本立）"),
    ("しちりあふうの", "シチリア風カンノーリ（2個）"),  # 風 after a loanword: ふう
    ("とすかーなふう", "トスカーナ風ケールのシーザーサラダ"),
])
def test_kanji_the_dictionary_misreads_are_read_as_said(said: str, name: str) -> None:
    assert readings.names_by_sound(said.removesuffix("の"), name)


def test_a_name_said_in_parts_is_read_as_one() -> None:
    items = [{"name": "美濃和紙ノート A5"}, {"name": "四季 万年筆インク「秋柿」50ml"}]
    assert readings.said_together(["わし", "のと", "ぎょくろ"]) == ["わしのと", "のとぎょくろ"]
    assert readings.names_in(items, ["わし", "のと"]) == [items[0]]


def test_a_noun_after_a_modifier_keeps_its_last_kana() -> None:
    found = readings.spaced_kana_words("わしの のと", lambda text: [text])
    assert found == ["わし", "のと"]
    assert readings.spaced_kana_words("ちゃを ひとつ", lambda text: [text]) == ["ちゃ", "ひとつ"]
