"""Japanese typed in romaji is read in kana; English, French and names alone are kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.romaji import in_kana
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.typed import typed


@pytest.mark.parametrize(("said", "read"), [
    ("houjicha wo futatsu kudasai", "ほうじちゃ を ふたつ ください"),
    ("okaikei onegaishimasu", "おかいけい おねがいします"),
    ("matcha no otemae-you 30g wo mittsu", "まっちゃ の おてまえよう 30g を みっつ"),
    ("Uji matcha o hitotsu kudasai", "うじ まっちゃ を ひとつ ください"),
    ("chūmon wo kyanseru shitai desu", "ちゅうもん を きゃんせる したい です"),
    ("OCHA10 wo tsukatte kudasai", "OCHA10 を つかって ください"),
    ("hai", "はい"),
    ("iie!", "いいえ!"),
])
def test_romaji_is_read_in_kana(said: str, read: str) -> None:
    assert in_kana(said) == read


@pytest.mark.parametrize("said", [
    "I need a mug", "no thanks", "add two to my cart", "je veux une tasse", "matcha",
    "the uji matcha please", "Yame Gyokuro", "tonkatsu", "ok", "no to the gift box",
    "ajoute une assiette", "encore une", "mets-en deux de plus", "kaikei", "a tasse to go",
])
def test_other_languages_and_names_alone_are_kept(said: str) -> None:
    assert in_kana(said) == said


@pytest.mark.parametrize(("said", "intent"), [
    ("okaikei onegaishimasu", "checkout"),
    ("chuumon wo kyanseru shite kudasai", "cancel"),
    ("henpin shitai desu", "return"),
])
def test_romaji_is_understood_as_the_japanese_it_spells(said: str, intent: str) -> None:
    assert understand(typed(said))[0] == intent


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.!?'0123456789", max_size=40))
def test_any_latin_text_reads_as_itself_or_wholly_in_kana(text: str) -> None:
    read = in_kana(text)
    assert read == text or not any(char.isalpha() and char.isascii()
                                   for token in read.split() if not any(
                                       c.isdigit() for c in token) for char in token)
