"""GET and PATCH /user/profile: the spec's shape, ownership, validation, preferences hook."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.services.profile import (
    MAX_ADDRESSES,
    preferred_currency,
    preferred_language,
    preferred_locale,
)
from commerce_agent.i18n import DEFAULT_LOCALE

pytestmark = pytest.mark.both_backends

ADDRESS = {"streetAddress": "1 Main St", "addressLocality": "Springfield",
           "addressRegion": "IL", "postalCode": "62701", "addressCountry": "US"}


async def get_profile(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.get("/user/profile", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/commerce+json")
    body: dict[str, Any] = response.json()
    return body


async def patch(client: httpx.AsyncClient, headers: dict[str, str], body: Any,
                status: int = 200, **extra: str) -> dict[str, Any]:
    response = await client.patch("/user/profile", json=body, headers={**headers, **extra})
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def upstream_schema(client: httpx.AsyncClient) -> dict[str, Any]:
    capabilities = (await client.get("/capabilities")).json()["capabilities"]
    entry = next(c for c in capabilities if c["id"] == "dev.commerce.user.profile@1.0")
    schema: dict[str, Any] = (await client.get(entry["schemaUrl"])).json()
    return schema


async def test_new_profile_has_the_spec_shape(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    body = await get_profile(client, alice)
    assert body == {"_version": "1.0", "savedAddresses": [],
                    "preferences": {"notifications": False}, "consentGiven": False}
    jsonschema.validate(body, await upstream_schema(client))


@pytest.mark.parametrize("pointer", ["defaultBillingAddress", "preferences/language",
                                     "preferences/currency"])
async def test_unset_values_are_left_out_because_upstream_has_no_null(
        client: httpx.AsyncClient, alice: dict[str, str], pointer: str) -> None:
    """The upstream schema types these as object/string: an explicit null would not validate."""
    body = await get_profile(client, alice)
    parent, _, name = pointer.rpartition("/")
    assert name not in (body[parent] if parent else body)
    with_null = {**body, "preferences": dict(body["preferences"])}
    (with_null[parent] if parent else with_null)[name] = None
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(with_null, await upstream_schema(client))


async def test_patch_changes_only_what_is_sent(client: httpx.AsyncClient,
                                               alice: dict[str, str]) -> None:
    full = await patch(client, alice, {
        "savedAddresses": [{"label": "Home", "address": ADDRESS},
                           {"label": "Work", "address": {**ADDRESS, "streetAddress": "9 Elm"}}],
        "defaultBillingAddress": ADDRESS,
        "preferences": {"language": "de-DE", "currency": "EUR", "notifications": True},
        "consentGiven": True})
    assert full["defaultBillingAddress"] == ADDRESS
    assert full["preferences"] == {"language": "de-DE", "currency": "EUR",
                                   "notifications": True}
    jsonschema.validate(full, await upstream_schema(client))
    partial = await patch(client, alice, {"preferences": {"currency": None}})
    assert partial["preferences"] == {"language": "de-DE", "notifications": True}
    assert len(partial["savedAddresses"]) == 2 and partial["consentGiven"] is True
    cleared = await patch(client, alice, {"defaultBillingAddress": None, "savedAddresses": []})
    assert "defaultBillingAddress" not in cleared and cleared["savedAddresses"] == []
    assert await get_profile(client, alice) == cleared


async def test_get_then_patch_round_trips(client: httpx.AsyncClient,
                                          alice: dict[str, str]) -> None:
    await patch(client, alice, {"savedAddresses": [{"label": "Home", "address": ADDRESS}]})
    body = await get_profile(client, alice)
    assert await patch(client, alice, body) == body
    await patch(client, alice, {**body, "_version": "2.0"}, status=400)


async def test_address_country_is_optional(client: httpx.AsyncClient,
                                           alice: dict[str, str]) -> None:
    address = {key: value for key, value in ADDRESS.items() if key != "addressCountry"}
    body = await patch(client, alice, {"defaultBillingAddress": address})
    assert body["defaultBillingAddress"] == address


async def test_one_user_cannot_see_or_change_another(client: httpx.AsyncClient,
                                                     alice: dict[str, str],
                                                     bob: dict[str, str]) -> None:
    await patch(client, alice, {"consentGiven": True, "defaultBillingAddress": ADDRESS})
    bobs = await get_profile(client, bob)
    assert bobs["consentGiven"] is False and "defaultBillingAddress" not in bobs
    await patch(client, bob, {"preferences": {"language": "ar"}})
    alices = await get_profile(client, alice)
    assert alices["consentGiven"] is True and "language" not in alices["preferences"]
    # There is no way to name another user: the path has no id, and ids are refused.
    response = await client.patch("/user/profile", headers=bob, json={"userId": "user_alice"})
    assert response.status_code == 400
    assert (await client.get("/user/profile/user_alice", headers=bob)).status_code == 404


async def test_profile_requires_a_token(client: httpx.AsyncClient) -> None:
    assert (await client.get("/user/profile")).status_code == 401
    response = await client.patch("/user/profile", json={"consentGiven": True})
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"
    bad = await client.get("/user/profile", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401


@pytest.mark.parametrize(("body", "field"), [
    ({"nickname": "x"}, "/nickname"),
    ({"preferences": {"theme": "dark"}}, "/preferences/theme"),
    ({"consentGiven": "yes"}, "/consentGiven"),
    ({"preferences": {"notifications": 1}}, "/preferences/notifications"),
    ({"preferences": {"language": "zz-ZZ"}}, "/preferences/language"),
    ({"preferences": {"language": "not a tag"}}, "/preferences/language"),
    ({"preferences": {"currency": "usd"}}, "/preferences/currency"),
    ({"preferences": {"currency": "XYZ"}}, "/preferences/currency"),
    ({"defaultBillingAddress": {**ADDRESS, "postalCode": ""}},
     "/defaultBillingAddress/postalCode"),
    ({"defaultBillingAddress": {"streetAddress": "1 Main St"}}, "/defaultBillingAddress"),
    ({"defaultBillingAddress": {**ADDRESS, "streetAddress": "x" * 201}},
     "/defaultBillingAddress/streetAddress"),
    ({"defaultBillingAddress": {**ADDRESS, "floor": 3}}, "/defaultBillingAddress/floor"),
    ({"savedAddresses": [{"address": ADDRESS}]}, "/savedAddresses/0"),
    ({"savedAddresses": [{"label": "", "address": ADDRESS}]}, "/savedAddresses/0/label"),
    ({"savedAddresses": [{"label": "Home", "address": ADDRESS},
                         {"label": "home", "address": ADDRESS}]}, "/savedAddresses/1/label"),
    ({"savedAddresses": [{"label": f"A{i}", "address": ADDRESS}
                         for i in range(MAX_ADDRESSES + 1)]}, "/savedAddresses"),
    ({"savedAddresses": [{"label": "Tab\there", "address": ADDRESS}]},
     "/savedAddresses/0/label"),
])
async def test_invalid_patches_are_400_with_a_pointer(client: httpx.AsyncClient,
                                                      alice: dict[str, str],
                                                      body: dict[str, Any], field: str) -> None:
    before = await get_profile(client, alice)
    error = await patch(client, alice, body, status=400)
    assert error["code"] == "bad_request"
    assert error["details"][0]["type"] == "validation"
    assert error["details"][0]["field"] == field
    assert await get_profile(client, alice) == before


@pytest.mark.parametrize("raw", [b"", b"[]", b"{", b"null"])
async def test_malformed_bodies_are_400(client: httpx.AsyncClient, alice: dict[str, str],
                                        raw: bytes) -> None:
    response = await client.patch("/user/profile", content=raw,
                                  headers={**alice, "Content-Type": "application/json"})
    assert response.status_code == 400


async def test_oversized_body_is_413(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    response = await client.patch("/user/profile", headers=alice,
                                  json={"savedAddresses": [], "pad": "x" * 300_000})
    assert response.status_code == 413


async def test_patch_is_idempotent_with_a_key(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    first = await client.patch("/user/profile", headers={**alice, "Idempotency-Key": "k1"},
                               json={"consentGiven": True})
    await patch(client, alice, {"consentGiven": False})
    replay = await client.patch("/user/profile", headers={**alice, "Idempotency-Key": "k1"},
                                json={"consentGiven": True})
    assert replay.headers["idempotent-replayed"] == "true"
    assert replay.json() == first.json()
    assert (await get_profile(client, alice))["consentGiven"] is False


async def test_preference_hooks(app: Starlette, client: httpx.AsyncClient,
                                alice: dict[str, str]) -> None:
    db = app.state.db
    assert await preferred_locale(db, "user_alice") is None
    assert await preferred_currency(db, "user_alice") is None
    await patch(client, alice, {"preferences": {"language": "fr-CA", "currency": "CAD"}})
    assert await preferred_language(db, "user_alice") == "fr-CA"
    assert await preferred_locale(db, "user_alice") == "fr"  # a supported locale
    assert await preferred_currency(db, "user_alice") == "CAD"
    await patch(client, alice, {"preferences": {"language": "sw"}})
    assert await preferred_locale(db, "user_alice") == DEFAULT_LOCALE
    assert await preferred_locale(db, "no_such_user") is None


async def test_stored_profile_of_an_old_row_reads_with_defaults(app: Starlette,
                                                                client: httpx.AsyncClient,
                                                                alice: dict[str, str]) -> None:
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE users SET profile = '{}' WHERE id = 'user_alice'")
    body = await get_profile(client, alice)
    assert body["preferences"] == {"notifications": False}


async def test_saved_currency_gives_price_bounds_their_currency(client: httpx.AsyncClient,
                                                                 alice: dict[str, str]
                                                                 ) -> None:
    everything = (await client.get("/search?limit=100", headers=alice)).json()
    assert everything["currency"] is None
    assert len({item["price"]["currency"] for item in everything["items"]}) > 1
    under = (await client.get("/search?limit=100&maxPrice=30", headers=alice)).json()
    assert under["currency"] is None  # no saved currency: the bound applies to every price
    await patch(client, alice, {"preferences": {"currency": "EUR"}})
    # Without a price bound a saved currency hides nothing.
    unbounded = await client.get("/search?limit=100", headers=alice)
    assert unbounded.json()["items"] == everything["items"]
    mine = await client.get("/search?limit=100&maxPrice=30", headers=alice)
    assert mine.json()["currency"] == "EUR" and mine.json()["items"]
    assert {item["price"]["currency"] for item in mine.json()["items"]} == {"EUR"}
    assert all(float(item["price"]["amount"]) <= 30 for item in mine.json()["items"])
    assert "Authorization" in ",".join(mine.headers.get_list("vary")).replace(" ", "").split(",")
    # An explicit filter wins; `any` lifts the default; anonymous callers get every currency.
    gbp = (await client.get("/search?limit=100&currency=GBP", headers=alice)).json()
    assert gbp["currency"] == "GBP"
    assert {item["price"]["currency"] for item in gbp["items"]} == {"GBP"}
    lifted = (await client.get("/search?limit=100&maxPrice=30&currency=any",
                               headers=alice)).json()
    assert lifted["currency"] is None and lifted["items"] == under["items"]
    assert (await client.get("/search?limit=100&maxPrice=30")).json()["items"] == under["items"]
    # A bad token is not the search's business: no default, no 401.
    bad = await client.get("/search?limit=100&maxPrice=30",
                           headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 200 and bad.json()["currency"] is None
    invalid = await client.get("/search?currency=eur", headers=alice)
    assert invalid.status_code == 400 and invalid.json()["details"][0]["field"] == "currency"


async def test_a_refused_value_is_quoted_with_its_pattern_as_written(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """Only the reason's first letter is lowered: the pattern keeps its case."""
    refused = await patch(client, alice, {"preferences": {"currency": "usd"}}, 400)
    detail = refused["details"][0]
    assert detail["field"] == "/preferences/currency"
    assert detail["reason"] == "expected `str` matching regex '^[A-Z]{3}$'"
