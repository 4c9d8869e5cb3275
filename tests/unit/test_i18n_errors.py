"""Localized errors: every code the source tree can raise has a message in every locale."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from commerce_agent.errors import CommerceError, error_body
from commerce_agent.i18n.messages import catalog, localize_body, placeholders, translate
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, SUPPORTED_LOCALES
from tests.support.i18n_codes import walk

FOUND = walk()
TRANSLATED = [locale for locale in SUPPORTED_LOCALES if locale != DEFAULT_LOCALE]
SAMPLE_PARAMS: dict[str, Any] = {
    "id": "ord_123", "status": "in_transit", "itemId": "item_x", "code": "SAVE10", "key": "k-1",
    "max": 999, "quantity": 1000, "from": "completed", "maxCartItems": 20,
    "minimumCommitment": 3, "cancellableFrom": "2027-02-26",
    "minimum": {"amount": "1500.00", "currency": "USD"},
    "country": "DE", "deliveryAreas": ["US", "CA"], "returnableUntil": "2026-01-01T00:00:00Z",
    "capability": "dev.commerce.product.variants", "requested": "3.0",
    "served": "1.0, 1.1, 2.0", "limit": 1048576, "field": "/quantity", "minutes": 15,
    "shippingMethodId": "ship_nope", "options": ["ship_standard", "ship_express"],
    "currency": "USD",
}


def test_every_raise_site_has_a_traceable_code() -> None:
    assert FOUND.untraced == [], (
        "CommerceError built with a code the walker cannot trace to a string literal; pass "
        "the code as a literal (or through a helper parameter) so it can be translated")
    assert {"cart_not_found", "store_not_found", "unauthorized", "not_found",
            "method_not_allowed", "capability_version_unsupported"} <= FOUND.codes.keys()


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_code_is_translated(locale: str) -> None:
    missing = sorted(code for code in FOUND.codes if f"error.{code}" not in catalog(locale))
    assert missing == [], f"add these keys to commerce_agent/i18n/catalogs/{locale}.json"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_templates_use_only_params_every_raise_site_passes(locale: str) -> None:
    for code in FOUND.codes:
        template = catalog(locale).get(f"error.{code}", "")
        extra = placeholders(template) - FOUND.params(code)
        assert not extra, f"{locale} error.{code} uses {extra}, not passed by every raise site"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_code_renders_in_every_locale(locale: str) -> None:
    for code in sorted(FOUND.codes):
        params = {name: SAMPLE_PARAMS[name] for name in FOUND.params(code)}
        english = f"English developer message for {code}."
        error = CommerceError(400, code, english, params=params)
        body = localize_body(error_body(error, "/x"), locale)
        assert body["userMessage"]["localizationKey"] == f"error.{code}"
        assert body["userMessage"]["params"] == params
        assert body["userMessage"]["message"] == body["message"] == body["detail"]
        assert body["userMessage"]["locale"] == locale
        if locale == DEFAULT_LOCALE:
            assert body["message"] == english
        else:
            assert body["message"] != english
            assert "{" not in body["message"], (locale, code, body["message"])


def test_unknown_code_and_missing_param_fall_back_to_english() -> None:
    body = localize_body(error_body(CommerceError(418, "teapot", "I am a teapot."), "/"), "fr")
    assert body["message"] == "I am a teapot."
    assert body["userMessage"]["locale"] == DEFAULT_LOCALE
    lacking = CommerceError(404, "store_not_found", "No store with id 'x'.")  # no {id} param
    body = localize_body(error_body(lacking, "/"), "ja")
    assert body["message"] == "No store with id 'x'."
    assert translate("ja", "error.store_not_found", {"id": "x"}) == "ID x のお店はありません。"


def test_params_are_written_the_locale_way() -> None:
    assert translate("fr", "error.minimum_order_value",
                     {"minimum": {"amount": "1500.00", "currency": "EUR"}}) == (
        "Les articles de la commande doivent atteindre au moins 1\u202f500,00\xa0€ (hors "
        "livraison et taxes).")
    assert "Allemagne" in str(translate("fr", "error.geographic_restriction",
                                        {"country": "DE", "deliveryAreas": ["US", "CA"]}))
    assert "États-Unis et Canada" in str(translate(
        "fr", "error.geographic_restriction", {"country": "DE", "deliveryAreas": ["US", "CA"]}))


def check(response: httpx.Response, locale: str, code: str) -> dict[str, Any]:
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert response.headers["content-language"] == locale
    assert body["userMessage"]["locale"] == locale
    if locale != DEFAULT_LOCALE:
        expected = translate(locale, f"error.{code}", body["userMessage"]["params"])
        assert body["message"] == body["detail"] == body["userMessage"]["message"] == expected
    return body


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
async def test_real_errors_come_in_the_negotiated_locale(
        client: httpx.AsyncClient, alice: dict[str, str], locale: str) -> None:
    lang = {"Accept-Language": f"{locale};q=0.9, de;q=0.8"}
    check(await client.get("/nowhere", headers=lang), locale, "not_found")
    check(await client.delete("/capabilities", headers=lang), locale, "method_not_allowed")
    check(await client.post("/carts", json={}, headers=lang), locale, "unauthorized")
    body = check(await client.get("/stores/store_nope", headers=lang), locale, "store_not_found")
    assert "store_nope" in body["message"]
    check(await client.post("/carts", json={"storeId": 5}, headers={**lang, **alice}), locale,
          "bad_request")
    cart = (await client.post("/carts", json={"storeId": "store_ceramics"},
                              headers=alice)).json()
    response = await client.post(f"/carts/{cart['id']}/items", headers={**lang, **alice},
                                 json={"itemId": "item_espresso_cup_set", "quantity": 0})
    check(response, locale, "invalid_quantity")
    check(await client.get("/carts/cart_missing", headers={**lang, **alice}), locale,
          "cart_not_found")
