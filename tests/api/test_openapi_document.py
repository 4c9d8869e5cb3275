"""/openapi.json: a valid OpenAPI 3.1 document covering every route, built from the structs the
server decodes with, whose response schemas real answers satisfy; /docs and /.well-known."""

from __future__ import annotations

import re
from typing import Any

import httpx
import msgspec
import pytest
from openapi_spec_validator import validate
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route

from commerce_agent.commerce.routes import carts as cart_routes
from commerce_agent.commerce.routes.order_actions import RatingRequest, TipRequest
from commerce_agent.commerce.routes.orders import CreateOrderRequest
from commerce_agent.commerce.routes.webhooks import CreateWebhookRequest
from commerce_agent.commerce.services.carts.pricing import MAX_LINE_QUANTITY
from commerce_agent.commerce.services.profile import ProfilePatch
from commerce_agent.openapi.generator import undocumented
from tests.support.openapi import check, fetch_document

ALICE = {"email": "alice@example.com", "password": "alice-demo-pass"}


def app_routes(routes: list[BaseRoute], prefix: str = "") -> set[tuple[str, str]]:
    """Every (method, path) of the app, walked independently of the generator."""
    found: set[tuple[str, str]] = set()
    for route in routes:
        if isinstance(route, Route):
            path = re.sub(r"{(\w+)(:\w+)?}", r"{\1}", prefix + route.path)
            found |= {(method, path) for method in (route.methods or set()) if method != "HEAD"}
        elif isinstance(route, Mount):
            inner: Any = route.app
            while not hasattr(inner, "routes"):
                inner = inner.app
            found |= app_routes(inner.routes, prefix + route.path)
    return found


async def test_document_is_valid_openapi_3_1(client: httpx.AsyncClient) -> None:
    document = await fetch_document(client)
    assert document["openapi"].startswith("3.1")
    validate(document)


async def test_every_route_of_the_app_is_documented(app: Starlette,
                                                    client: httpx.AsyncClient) -> None:
    document = await fetch_document(client)
    documented = {(method.upper(), path) for path, item in document["paths"].items()
                  for method in item}
    expected = app_routes(app.routes)
    assert len(expected) >= 40
    assert expected - documented == set()
    assert documented - expected == set()
    for agent_path in ("/agent/v1/session", "/agent/v1/session/{session_id}/stream"):
        assert agent_path in document["paths"]


async def test_every_operation_has_its_answers_described(app: Starlette) -> None:
    """A new route needs an entry in commerce_agent/openapi/operations.py."""
    assert undocumented(app, app.state.settings) == []


async def test_request_bodies_are_the_decoders_structs(client: httpx.AsyncClient) -> None:
    document = await fetch_document(client)
    components = document["components"]["schemas"]

    def body_ref(method: str, path: str) -> str:
        content = document["paths"][path][method]["requestBody"]["content"]
        ref: str = content["application/commerce+json"]["schema"]["$ref"]
        assert content["application/json"]["schema"]["$ref"] == ref
        return ref.rsplit("/", 1)[1]

    assert body_ref("post", "/carts") == "CreateCartRequest"
    assert body_ref("post", "/carts/{cart_id}/items") == "AddItemRequest"
    assert body_ref("patch", "/user/profile") == "ProfilePatch"
    assert body_ref("post", "/auth/token") == "PasswordGrant"
    # The component is exactly what msgspec says about the struct the handler decodes with.
    _, expected = msgspec.json.schema_components([ProfilePatch, cart_routes.AddItemRequest],
                                                 ref_template="#/components/schemas/{name}")
    for name, schema in expected.items():
        assert components[name] == schema
    assert components["AddItemRequest"]["additionalProperties"] is False
    assert "requestBody" not in document["paths"]["/carts/{cart_id}"]["get"]


async def test_rules_the_server_checks_are_in_the_document(app: Starlette,
                                                         client: httpx.AsyncClient) -> None:
    components = (await fetch_document(client))["components"]["schemas"]
    # Rules across fields: the very fragments the structs check as they are decoded.
    for kind in (TipRequest, RatingRequest, CreateOrderRequest, CreateWebhookRequest):
        assert components[kind.__name__]["allOf"] == [rule.schema for rule in kind.rules]
    # Rules kept in services: written from the constants the services check.
    assert components["AddItemRequest"]["properties"]["quantity"] == {
        "type": "integer", "minimum": 1, "maximum": MAX_LINE_QUANTITY}
    agent = components["CreateBody"]["properties"]["agent"]["anyOf"][0]
    assert agent == {"type": "string", "enum": list(app.state.agent.agents)}
    assert "x-vocabulary" not in str(components)


async def test_protected_resource_metadata_is_only_at_the_mcp_path(
        client: httpx.AsyncClient) -> None:
    paths = (await fetch_document(client))["paths"]
    assert "/.well-known/oauth-protected-resource/mcp" in paths
    assert "/.well-known/oauth-protected-resource" not in paths
    assert (await client.get("/.well-known/oauth-protected-resource")).status_code == 404


async def test_auth_and_idempotency_follow_the_handlers(client: httpx.AsyncClient) -> None:
    paths = (await fetch_document(client))["paths"]
    assert paths["/carts"]["post"]["security"] == [{"bearerAuth": []}, {"guestCartToken": []}]
    assert paths["/carts/adopt"]["post"]["security"] == [{"bearerAuth": []}]
    assert paths["/user/profile"]["get"]["security"] == [{"bearerAuth": []}]
    assert paths["/capabilities"]["get"]["security"] == []
    assert paths["/catalogs/{catalog_id}"]["get"]["security"] == [{}, {"bearerAuth": []}]

    def params(path: str, method: str) -> list[str]:
        return [p.get("$ref", p.get("name")) for p in paths[path][method]["parameters"]]

    assert "#/components/parameters/IdempotencyKey" in params("/carts", "post")
    assert "#/components/parameters/IdempotencyKey" in params("/user/profile", "patch")
    assert "#/components/parameters/IdempotencyKey" not in params("/auth/token", "post")
    assert "limit" in params("/stores", "get") and "cursor" in params("/stores", "get")
    assert "cart_id" in params("/carts/{cart_id}/items/{line_id}", "patch")


async def test_real_answers_match_their_documented_schemas(client: httpx.AsyncClient,
                                                           alice: dict[str, str]) -> None:
    document = await fetch_document(client)
    calls: list[tuple[str, str, str, dict[str, Any]]] = [
        ("GET", "/capabilities", "/capabilities", {}),
        ("GET", "/stores", "/stores?limit=2", {}),
        ("GET", "/stores/{store_id}", "/stores/store_ceramics", {}),
        ("GET", "/stores/{store_id}", "/stores/nope", {}),
        ("GET", "/catalogs", "/catalogs?limit=2", {}),
        ("GET", "/catalogs/{catalog_id}", "/catalogs/cat_ceramics_drinkware", {}),
        ("GET", "/items/{item_id}", "/items/item_classic_mug", {}),
        ("GET", "/search", "/search?q=mug", {}),
        ("GET", "/search", "/search?limit=0", {}),
        ("GET", "/orders", "/orders", {"headers": alice}),
        ("GET", "/orders", "/orders", {}),
        ("GET", "/user/profile", "/user/profile", {"headers": alice}),
        ("PATCH", "/user/profile", "/user/profile",
         {"headers": alice, "json": {"preferences": {"language": "fr"}}}),
        ("PATCH", "/user/profile", "/user/profile", {"headers": alice, "json": {"x": 1}}),
        ("POST", "/auth/token", "/auth/token", {"json": ALICE}),
        ("POST", "/auth/token", "/auth/token", {"json": {**ALICE, "password": "no"}}),
        ("GET", "/.well-known/commerce", "/.well-known/commerce", {}),
        ("GET", "/agent/v1/health", "/agent/v1/health", {}),
        ("GET", "/agent/v1/session/{session_id}/stream", "/agent/v1/session/nope/stream", {}),
        ("GET", "/account/sign-in", "/account/sign-in", {}),
        ("GET", "/account/profile", "/account/profile", {}),
        ("GET", "/docs", "/docs", {}),
    ]
    for method, template, url, kwargs in calls:
        check(document, method, template, await client.request(method, url, **kwargs))
    cart = await client.post("/carts", json={"storeId": "store_ceramics"}, headers=alice)
    check(document, "POST", "/carts", cart)
    cart_id = cart.json()["id"]
    added = await client.post(f"/carts/{cart_id}/items", headers=alice,
                              json={"itemId": "item_limited_glaze_mug", "quantity": 1})
    check(document, "POST", "/carts/{cart_id}/items", added)
    check(document, "GET", "/carts/{cart_id}", await client.get(f"/carts/{cart_id}",
                                                                headers=alice))
    line = added.json()["items"][0]["cartItemId"]
    check(document, "PATCH", "/carts/{cart_id}/items/{line_id}", await client.patch(
        f"/carts/{cart_id}/items/{line}", headers=alice, json={"quantity": 2}))
    order = await client.post("/orders", headers=alice, json={
        "cartId": cart_id, "deliveryAddress": {"address": "1 Main St, Springfield, US",
                                               "countryCode": "US"}})
    assert order.status_code == 402
    check(document, "POST", "/orders", order)
    tokens = (await client.post("/auth/token", json=ALICE)).json()
    check(document, "POST", "/auth/refresh", await client.post(
        "/auth/refresh", json={"refreshToken": tokens["refreshToken"]}))
    check(document, "POST", "/auth/revoke", await client.post(
        "/auth/revoke", json={"token": tokens["accessToken"]}))


async def test_docs_page_is_self_contained(client: httpx.AsyncClient) -> None:
    document = await fetch_document(client)
    page = await client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    for marker in ("<script", "<link", "src=", "@import", "url("):
        assert marker not in text.lower()
    assert "default-src 'none'" in page.headers["content-security-policy"]
    for path in document["paths"]:
        assert f"<code>{path}</code>" in text.replace("&#x27;", "'")
    assert 'id="schema-ProfilePatch"' in text and 'href="#schema-Cart"' in text


async def test_well_known_points_at_the_capabilities(client: httpx.AsyncClient) -> None:
    response = await client.get("/.well-known/commerce")
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    assert "max-age" in response.headers["cache-control"]
    discovery = response.json()["commerce"]
    assert discovery["version"] == "1.0"
    assert discovery["capabilities"] == "http://test/capabilities"
    capabilities = await client.get(discovery["capabilities"])
    assert capabilities.status_code == 200 and capabilities.json()["capabilities"]
    assert (await client.get(discovery["openapi"])).status_code == 200
    assert (await client.get(discovery["context"])).status_code == 200


@pytest.mark.parametrize("path", ["/openapi.json", "/docs"])
async def test_discovery_documents_are_public(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path, headers={"Authorization": "Bearer wrong"})
    assert response.status_code == 200
