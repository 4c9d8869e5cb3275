"""Accept-Language negotiation (RFC 9110 §12.5.4, lookup as in RFC 4647 §3.4).

The header is client-controlled and sent on every request, so parsing is lenient (a bad entry
is skipped, a header with nothing usable means "no preference") and cached per header value.
"""

from __future__ import annotations

import re
from functools import lru_cache

DEFAULT_LOCALE = "en"
SUPPORTED_LOCALES: tuple[str, ...] = ("en", "fr", "ja", "ar")

# Longer headers are not browsers' (they send a handful of ranges): treat as no preference.
MAX_HEADER_LENGTH = 1024
_RANGE = re.compile(r"^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$")
_QVALUE = re.compile(r"^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")


def parse(header: str) -> list[tuple[str, float]]:
    """The valid (range, q) pairs of a header, best first (stable for equal q)."""
    ranges: list[tuple[str, float]] = []
    for entry in header.split(","):
        tag, *params = entry.split(";")
        tag = tag.strip().lower().replace("_", "-")
        if not _RANGE.match(tag):
            continue
        q = 1.0
        for param in params:
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                value = value.strip()
                q = float(value) if _QVALUE.match(value) else -1.0
        if q >= 0:
            ranges.append((tag, q))
    ranges.sort(key=lambda pair: -pair[1])
    return ranges


def _covers(language_range: str, locale: str) -> bool:
    return locale == language_range or locale.startswith(language_range + "-")


def _truncations(tag: str) -> list[str]:
    """fr-latn-ca → fr-latn-ca, fr-latn, fr (dropping a dangling one-letter subtag)."""
    parts = tag.split("-")
    result = []
    while parts:
        result.append("-".join(parts))
        parts.pop()
        if parts and len(parts[-1]) == 1:
            parts.pop()
    return result


def choose(header: str, supported: tuple[str, ...] = SUPPORTED_LOCALES,
           default: str = DEFAULT_LOCALE) -> str:
    """The best supported locale for an Accept-Language value; `default` when none fits."""
    if len(header) > MAX_HEADER_LENGTH:
        return default
    ranges = parse(header)
    excluded = [tag for tag, q in ranges if q == 0 and tag != "*"]
    by_lower = {code.lower(): code for code in supported}

    def acceptable(code: str) -> bool:
        return not any(_covers(tag, code.lower()) for tag in excluded)

    for tag, q in ranges:
        if q == 0:
            break
        if tag == "*":
            wildcard = [default, *supported]
            named = {t for t, _ in ranges}
            found = next((c for c in wildcard if acceptable(c) and c.lower() not in named),
                         None)
            if found:
                return found
            continue
        for candidate in _truncations(tag):
            code = by_lower.get(candidate)
            if code is not None and acceptable(code):
                return code
        # A range less specific than a supported locale ("zh" for "zh-hant") also matches.
        more_specific = next((code for low, code in by_lower.items()
                              if _covers(tag, low) and acceptable(code)), None)
        if more_specific:
            return more_specific
    return default


def names_a_language(header: str) -> bool:
    """Whether the header asks for some language: a valid range other than `*`.

    Only then does it outrank the signed-in user's saved language (see middleware): a missing,
    empty, unusable, over-long or wildcard-only header states no preference. A range with q=0
    counts too, so `fr;q=0` is never overridden by a saved `fr`.
    """
    if len(header) > MAX_HEADER_LENGTH:
        return False
    return any(tag != "*" for tag, _ in parse(header))


@lru_cache(maxsize=512)
def negotiate(header: bytes) -> str:
    """choose() for a raw header value, cached: a handful of distinct values is the norm."""
    return choose(header.decode("latin-1"))


@lru_cache(maxsize=512)
def states_preference(header: bytes) -> bool:
    """names_a_language() for a raw header value, cached like negotiate()."""
    return names_a_language(header.decode("latin-1"))
