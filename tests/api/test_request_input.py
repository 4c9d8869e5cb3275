"""Malformed input never reaches a handler as a 500: every JSON body passes json_input's rules
(UTF-8 everywhere, no duplicate key, no U+0000, bounded depth) through one decoding path, and
U+0000 in a path or a query is answered before any lookup — on both backends."""

from __future__ import annotations

import base64
import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.json_input import MAX_DEPTH
from commerce_agent.openapi import introspect
from tests.support.admin_support import merchant_headers
from tests.support.helpers import CERAMICS, LIMITED_MUG, add_item, new_cart

pytestmark = pytest.mark.both_backends
JSON = {"Content-Type": "application/json"}

# Four bodies every JSON route refuses before its schema is looked at, with the reason given.
BAD_BODIES = {
    "bad UTF-8 in a string": (b'{"storeId": "store_\xff"}', "not UTF-8"),
    "duplicate key": (b'{"storeId": "a", "storeId": "b"}', "duplicate key"),
    "U+0000 in a string": (b'{"storeId": "store\\u0000x"}', "contains U+0000"),
    "too deep": (b'{"storeId": ' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}",
                 "nested too deeply"),
}
AGENT = "/agent/v1"


def _json_routes(app: Starlette) -> list[tuple[str, str]]:
    """(method, path) of every route whose handler decodes a JSON body (as /openapi.json
    finds them), the agent API's included."""
    return [(endpoint.method, endpoint.path) for endpoint in introspect.walk(app.router.routes)
            if endpoint.method in ("POST", "PUT", "PATCH")
            and introspect.request_types(endpoint.handler)]


async def _filled(app: Starlette, client: httpx.AsyncClient, headers: dict[str, str]
                  ) -> dict[str, str]:
    """A real id for each path parameter, so a route reaches its body."""
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG)
    session = await client.post(f"{AGENT}/session", json={"message": "hello"}, headers=headers)
    assert session.status_code == 202, session.text
    return {"store_id": CERAMICS, "cart_id": cart["id"], "item_id": LIMITED_MUG,
            "catalog_id": "cat_ceramics_mugs", "variant_id": "var_x", "code": "WELCOME10",
            "order_id": "ord_missing", "return_id": "ret_missing", "webhook_id": "wh_missing",
            "subscription_id": "wh_missing", "intent_id": "pi_missing",
            "session_id": session.json()["sessionId"]}


@pytest.mark.parametrize("case", sorted(BAD_BODIES))
async def test_every_json_route_refuses_a_malformed_body_with_400(
        app: Starlette, client: httpx.AsyncClient, case: str) -> None:
    headers = await merchant_headers(app, "owner@example.com", CERAMICS)
    ids = await _filled(app, client, headers)
    body, reason = BAD_BODIES[case]
    routes = _json_routes(app)
    assert len(routes) >= 30 and ("POST", f"{AGENT}/session") in routes
    refused, missing = [], []
    for method, template in routes:
        path = re.sub(r"\{(\w+)\}", lambda m: ids.get(m.group(1), "x"), template)
        response = await client.request(method, path, content=body,
                                        headers={**headers, **JSON})
        assert response.status_code != 500, (method, path, response.text)
        if response.status_code != 400:
            # Only a refusal that needs no body may come first: the thing is not there.
            assert response.status_code == 404, (method, path, response.text)
            missing.append(template)
            continue
        error = response.json()
        if path.startswith(AGENT):
            assert error["error"]["code"] == "invalid_json", (path, error)
        else:
            assert error["code"] == "bad_request", (path, error)
            assert error["details"][0]["reason"] == reason, (path, error)
        refused.append(path)
    assert len(refused) + len(missing) == len(routes)
    assert len(missing) <= 2, missing  # ids the test cannot fill (a line, a variant)


@pytest.mark.parametrize("case", sorted(BAD_BODIES))
async def test_public_write_routes_refuse_before_anything_else(
        client: httpx.AsyncClient, case: str) -> None:
    body, reason = BAD_BODIES[case]
    for path in ("/auth/token", "/auth/refresh", "/auth/revoke",
                 "/payments/sandbox/intents/pi_x/confirm"):
        response = await client.post(path, content=body, headers=JSON)
        assert response.status_code == 400, (path, response.text)
        assert response.json()["details"][0]["reason"] == reason
    response = await client.post(f"{AGENT}/session", content=body, headers=JSON)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"


async def test_duplicate_keys_create_nothing(app: Starlette, client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    response = await client.post("/carts", content=b'{"storeId":"a","storeId":"%s"}'
                                 % CERAMICS.encode(), headers={**alice, **JSON})
    assert response.status_code == 400
    assert "storeId" in response.json()["message"]
    carts = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM carts")
    assert carts["n"] == 0


async def test_a_wrong_top_level_type_is_400(client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    for body in (b"[]", b'"storeId"', b"7", b"null"):
        response = await client.post("/carts", content=body, headers={**alice, **JSON})
        assert response.status_code == 400, body
        assert response.json()["code"] == "bad_request"


async def test_a_payment_proof_is_held_to_the_same_rules(client: httpx.AsyncClient,
                                                         alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG)
    for raw in (b'{"x402Version": 1, "x402Version": 2}', b'{"x402Version": 1, "s": "\xff"}'):
        response = await client.post(
            "/orders", json={"cartId": cart["id"], "deliveryAddress": {
                "address": "1 Main St, Springfield, US", "countryCode": "US"}},
            headers={**alice, "X-PAYMENT": base64.b64encode(raw).decode()})
        assert response.status_code == 400, response.text
        assert response.json()["details"][0]["reason"] == "malformed"


# --- U+0000 in paths and queries ----------------------------------------------------------

@pytest.mark.parametrize("path", ["/stores/x%00", "/items/x%00", "/catalogs/x%00",
                                  "/items/x%00/reviews", "/carts/x%00", "/orders/x%00",
                                  "/admin/stores/x%00", "/shop/items/x%00",
                                  f"{AGENT}/session/x%00/stream"])
async def test_nul_in_a_path_is_404(client: httpx.AsyncClient, alice: dict[str, str],
                                    path: str) -> None:
    response = await client.get(path, headers=alice)
    assert response.status_code == 404, response.text


@pytest.mark.parametrize("query", ["storeId=%00&q=mug", "q=mu%00g", "cursor=%00",
                                   "limit=1%00"])
async def test_nul_in_a_query_is_400(client: httpx.AsyncClient, query: str) -> None:
    for path in ("/search", "/stores", "/catalogs"):
        response = await client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, response.text)
        assert response.json()["code"] == "bad_request"


async def test_nul_in_a_write_path_is_404(client: httpx.AsyncClient,
                                          alice: dict[str, str]) -> None:
    response = await client.post("/carts/x%00/items", json={"itemId": LIMITED_MUG,
                                                            "quantity": 1}, headers=alice)
    assert response.status_code == 404


@pytest.mark.parametrize("email", ["alice@example.com\u0000", "\u0000@example.com"])
async def test_nul_in_an_email_is_refused(client: httpx.AsyncClient, email: str) -> None:
    token = await client.post("/auth/token", json={"email": email, "password": "x" * 12})
    assert token.status_code == 400
    form = await client.post("/account/sign-in", data={"email": email, "password": "x"})
    assert form.status_code == 400
    registration = await client.post("/account/register", data={
        "email": email, "password": "long-enough-password", "name": "N"})
    assert registration.status_code == 400


async def test_nul_in_admin_names_and_ids_is_refused(app: Starlette,
                                                     client: httpx.AsyncClient) -> None:
    headers = await merchant_headers(app, "owner@example.com", CERAMICS)
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/admin/stores", {"name": "Shop\u0000", "currency": "USD"}),
        ("POST", "/admin/stores", {"name": "Shop", "currency": "USD", "id": "s\u0000"}),
        ("PATCH", f"/admin/items/{LIMITED_MUG}", {"name": "Mug\u0000"}),
        ("PATCH", f"/admin/stores/{CERAMICS}", {"info": {"slogan": "a\u0000"}}),
    ]
    for method, path, body in cases:
        response = await client.request(method, path, json=body, headers=headers)
        assert response.status_code == 400, (path, response.text)
