"""Every sentence the scripted agent says exists in each language it speaks: English in
messages.ENGLISH, French and Japanese in the i18n catalogs (`agent.<key>`), with the same
placeholders; a catalog of another language (Arabic) that has agent sentences has them all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from commerce_agent.agent.models.scripted import messages
from commerce_agent.i18n.messages import catalog, placeholders

SCRIPTED = Path(messages.__file__).parent
# say(language, "key", …) and say(p.lang, 'key', …) as written in the model's modules.
_SAID = re.compile(r"\bsay\(\s*[\w.]+\s*,\s*[\"']([\w.]+)[\"']")


def _keys_used() -> set[str]:
    return {key for path in SCRIPTED.glob("*.py")
            for key in _SAID.findall(path.read_text(encoding="utf-8"))}


def test_the_model_says_only_sentences_it_has_in_english() -> None:
    used = _keys_used()
    assert len(used) > 50
    assert used - set(messages.ENGLISH) == set()


@pytest.mark.parametrize("language", ["fr", "ja"])
def test_every_sentence_is_in_each_language_with_the_same_placeholders(language: str) -> None:
    written = catalog(language)
    missing = [key for key in messages.ENGLISH if f"agent.{key}" not in written]
    assert missing == []
    for key, english in messages.ENGLISH.items():
        assert placeholders(written[f"agent.{key}"]) == placeholders(english), key


def test_a_catalog_with_some_agent_sentences_has_them_all() -> None:
    for language in ("ar", "en"):
        written = {key for key in catalog(language) if key.startswith("agent.")}
        assert not written or written == {f"agent.{key}" for key in messages.ENGLISH}
