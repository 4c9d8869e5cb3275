"""Every catalog as a whole: each template parses and names its params plainly, no locale
holds a shared key English lacks, and a catalog missing a key falls back to English rather
than to nothing (tests/unit/test_i18n_errors.py checks the error codes one by one)."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from commerce_agent.i18n.messages import catalog, placeholders, translate
from commerce_agent.i18n.negotiation import SUPPORTED_LOCALES

# Keys only translations have: error.* (English is the raised message) and the scripted
# agent's agent.* (its English lives in the agent's code).
TRANSLATION_ONLY = ("error.", "agent.")
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_template_parses_with_plain_named_params(locale: str) -> None:
    for key, template in catalog(locale).items():
        fields = list(Formatter().parse(template))  # raises on a stray brace
        for _, name, spec, conversion in fields:
            if name is None:
                continue
            assert PLAIN_NAME.fullmatch(name), (locale, key, name)
            assert not spec and conversion is None, (locale, key, name)


@pytest.mark.parametrize("locale", [code for code in SUPPORTED_LOCALES if code != "en"])
def test_no_locale_has_a_shared_key_english_lacks(locale: str) -> None:
    english = catalog("en")
    extra = {key for key in catalog(locale)
             if not key.startswith(TRANSLATION_ONLY) and key not in english}
    assert extra == set(), locale


@pytest.mark.parametrize("locale", [code for code in SUPPORTED_LOCALES if code != "en"])
def test_shared_keys_keep_englishs_placeholders(locale: str) -> None:
    for key, template in catalog("en").items():
        theirs = catalog(locale).get(key)
        if theirs is not None:
            assert placeholders(theirs) == placeholders(template), (locale, key)


def test_a_locale_or_key_without_text_gives_none_for_the_caller_to_fall_back() -> None:
    assert catalog("de") == {} and translate("de", "mail.order_new.subject", {}) is None
    assert translate("fr", "mail.nothing.subject", {"orderId": "o"}) is None
    assert translate("fr", "mail.order_new.subject", {}) is None  # its {orderId} is missing
    assert translate("fr", "mail.order_new.subject", {"orderId": "o", "more": 1}) \
        == "Nouvelle commande o"
