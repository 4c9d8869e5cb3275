"""Localized error messages: one JSON catalog per locale, keyed by `error.<code>`.

English needs no error catalog: the developer message the code raised is already English
(en.json holds only the agent's approval prompts, `approval.*`, which every language takes
from the catalog). In another locale `message`, `detail` and `userMessage.message` come from
its catalog, with `{param}` placeholders filled from `userMessage.params` (numbers formatted
for the locale). A code missing from a catalog, or a template naming a param the error lacks,
keeps the English message.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from importlib import resources
from string import Formatter
from typing import Any

from babel import Locale, lists, numbers
from starlette.requests import Request

from commerce_agent.http import request_locale
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE

_CATALOGS = resources.files("commerce_agent.i18n") / "catalogs"
_COUNTRY_PARAMS = {"country", "countryCode", "deliveryAreas"}


@cache
def catalog(locale: str) -> dict[str, str]:
    """The messages of one locale ({} for English and for a locale without a catalog)."""
    source = _CATALOGS / f"{locale}.json"
    if not source.is_file():
        return {}
    messages: dict[str, str] = json.loads(source.read_text(encoding="utf-8"))
    return messages


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def _display(name: str, value: Any, locale: str) -> str:
    """A param as the locale writes it: numbers, Money ({amount, currency}), country names."""
    if isinstance(value, list | tuple):
        return str(lists.format_list([_display(name, item, locale) for item in value],
                                     locale=locale))
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float | Decimal):
        return str(numbers.format_decimal(value, locale=locale))
    if isinstance(value, dict) and {"amount", "currency"} <= value.keys():
        return str(numbers.format_currency(Decimal(str(value["amount"])),
                                           str(value["currency"]), locale=locale))
    if name in _COUNTRY_PARAMS and isinstance(value, str):
        return str(Locale.parse(locale).territories.get(value.upper(), value))
    return str(value)


def translate(locale: str, key: str, params: dict[str, Any]) -> str | None:
    """The message for `key` in `locale` with params filled in, or None."""
    template = catalog(locale).get(key)
    if template is None or not placeholders(template) <= params.keys():
        return None
    return template.format_map({name: _display(name, params[name], locale)
                                for name in placeholders(template)})


def localize_body(body: dict[str, Any], locale: str) -> dict[str, Any]:
    """Put an error body in `locale`; userMessage.locale says which language it ended up in."""
    user_message = dict(body.get("userMessage") or {})
    key = str(user_message.get("localizationKey", f"error.{body.get('code')}"))
    text = None if locale == DEFAULT_LOCALE else translate(
        locale, key, user_message.get("params") or {})
    if text is not None:
        body["message"] = body["detail"] = text
    user_message["message"] = body.get("message", "")
    user_message["locale"] = DEFAULT_LOCALE if text is None else locale
    body["userMessage"] = user_message
    return body


def localize_error(request: Request, body: dict[str, Any]) -> dict[str, Any]:
    """The hook errors.render_error calls (app.state.localize_error).

    A message that fell back to English is labelled English: the locale middleware answers
    with the Content-Language recorded here rather than the negotiated one.
    """
    body = localize_body(body, request_locale(request) or DEFAULT_LOCALE)
    request.state.content_language = body["userMessage"]["locale"]
    return body
