"""One error shape everywhere: unknown routes, bad methods, bodies and tokens."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.helpers import CERAMICS, LIMITED_MUG, assert_error


async def test_unknown_route_is_404_in_error_shape(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/nope"), 404, "not_found")


async def test_wrong_method_is_405_in_error_shape(client: httpx.AsyncClient) -> None:
    assert_error(await client.delete("/capabilities"), 405, "method_not_allowed")


async def test_missing_token_is_401_with_challenge(client: httpx.AsyncClient) -> None:
    response = await client.post("/carts", json={"storeId": CERAMICS})
    assert_error(response, 401, "unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert "invalid_token" not in response.headers["www-authenticate"]
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("header", ["Bearer nonsense", "Bearer ", "Basic abc", "Bearer cat_x"])
async def test_bad_token_is_401_invalid_token(client: httpx.AsyncClient, header: str) -> None:
    response = await client.get("/orders", headers={"Authorization": header})
    assert_error(response, 401, "unauthorized")
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


async def test_revoked_and_expired_tokens_are_refused(app: Any, client: httpx.AsyncClient
                                                      ) -> None:
    from commerce_agent.auth.tokens import mint_token, revoke_token

    async with app.state.db.transaction() as tx:
        revoked = await mint_token(tx, "user_alice", "test")
        await revoke_token(tx, revoked)
        expired = await mint_token(tx, "user_alice", "test", lifetime_seconds=-1)
    for token in (revoked, expired):
        response = await client.get("/orders", headers={"Authorization": f"Bearer {token}"})
        assert_error(response, 401, "unauthorized")


async def test_malformed_json_is_400(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    response = await client.post("/carts", content=b"{not json",
                                 headers={**alice, "Content-Type": "application/json"})
    body = assert_error(response, 400, "bad_request")
    assert body["details"][0]["type"] == "validation"


@pytest.mark.parametrize(("path", "template", "reason"), [
    # Refused before the route's schema is looked at (json_input.MAX_DEPTH).
    ("/orders", '{"cartId": "c", "metadata": {"deep": %s}}', "nested too deeply"),
    ("/carts", '{"storeId": %s}', "nested too deeply"),
])
async def test_absurdly_nested_json_is_400_not_500(client: httpx.AsyncClient, app: Any,
                                                   alice: dict[str, str], path: str,
                                                   template: str, reason: str) -> None:
    deep = "[" * 20_000 + "]" * 20_000  # well under the size limit
    response = await client.post(path, content=(template % deep).encode(),
                                 headers={**alice, "Content-Type": "application/json"})
    body = assert_error(response, 400, "bad_request")
    assert body["details"][0]["reason"] == reason
    carts = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM carts")
    assert carts["n"] == 0


async def test_empty_body_is_400(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    response = await client.post("/carts", content=b"",
                                 headers={**alice, "Content-Type": "application/json"})
    assert_error(response, 400, "bad_request")


async def test_wrong_type_points_at_the_field(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    response = await client.post("/carts", json={"storeId": 7}, headers=alice)
    body = assert_error(response, 400, "bad_request")
    assert body["details"][0]["field"] == "/storeId"


async def test_unknown_field_is_400(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    response = await client.post("/carts", json={"storeId": CERAMICS, "colour": "red"},
                                 headers=alice)
    body = assert_error(response, 400, "bad_request")
    assert body["details"][0]["field"] == "/colour"


async def test_non_json_content_type_is_415(client: httpx.AsyncClient,
                                            alice: dict[str, str]) -> None:
    response = await client.post("/carts", content=b"storeId=x",
                                 headers={**alice, "Content-Type": "text/plain"})
    assert_error(response, 415, "unsupported_media_type")


async def test_commerce_media_type_is_accepted(client: httpx.AsyncClient,
                                               alice: dict[str, str]) -> None:
    response = await client.post(
        "/carts", content=b'{"storeId": "store_ceramics"}',
        headers={**alice, "Content-Type": "application/commerce+json; version=1.0"})
    assert response.status_code == 201
    assert response.headers["content-type"] == "application/commerce+json; version=1.0"


async def test_huge_body_is_413_and_writes_nothing(client: httpx.AsyncClient, app: Any,
                                                   alice: dict[str, str]) -> None:
    huge = b'{"storeId": "' + b"x" * 300_000 + b'"}'
    response = await client.post("/carts", content=huge,
                                 headers={**alice, "Content-Type": "application/json"})
    assert_error(response, 413, "payload_too_large")
    row = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM carts")
    assert row["n"] == 0


async def test_huge_body_without_content_length_is_413(client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    async def chunks() -> Any:
        for _ in range(40):
            yield b"x" * 10_000

    response = await client.post("/carts", content=chunks(),
                                 headers={**alice, "Content-Type": "application/json"})
    assert_error(response, 413, "payload_too_large")


async def test_bad_pagination_is_400(client: httpx.AsyncClient) -> None:
    for query in ("limit=0", "limit=101", "limit=abc", "cursor=%%%", "cursor=bm9wZQ"):
        body = assert_error(await client.get(f"/stores?{query}"), 400, "bad_request")
        assert body["details"][0]["field"] in ("limit", "cursor")


async def test_a_405_allows_every_method_of_its_path(client: httpx.AsyncClient) -> None:
    # Routes of one path with different methods are separate: Allow names all of them.
    for method, path, allowed in (
            ("OPTIONS", "/orders", "GET, HEAD, POST"),
            ("PUT", "/user/profile", "GET, HEAD, PATCH"),
            ("PUT", "/carts/cart_x/items/line_y", "DELETE, PATCH"),
            ("DELETE", "/account/sign-in", "GET, HEAD, POST"),
            ("OPTIONS", "/agent/v1/consent/ses_x/secret", "GET, HEAD, POST")):
        response = await client.request(method, path)
        assert response.status_code == 405, (method, path)
        assert response.headers["allow"] == allowed, (method, path)


async def test_a_newline_in_an_agent_path_stays_in_the_agent_api(
        client: httpx.AsyncClient) -> None:
    response = await client.get("/agent/v1/session/ses%0Ax/stream")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert set(response.json()) == {"error"}


async def test_a_whole_number_written_as_a_float_is_an_integer(client: httpx.AsyncClient,
                                                                alice: dict[str, str]) -> None:
    cart = (await client.post("/carts", json={"storeId": CERAMICS}, headers=alice)).json()
    item_id = LIMITED_MUG
    url = f"/carts/{cart['id']}/items"
    added = await client.post(url, content=b'{"itemId": "%s", "quantity": 2.0}'
                              % item_id.encode(), headers={**alice,
                                                           "Content-Type": "application/json"})
    assert added.status_code == 200, added.text
    assert added.json()["items"][0]["quantity"] == 2
    for quantity in (b"2.5", b'"2"'):
        refused = await client.post(url, content=b'{"itemId": "%s", "quantity": %s}'
                                    % (item_id.encode(), quantity),
                                    headers={**alice, "Content-Type": "application/json"})
        assert_error(refused, 400, "bad_request")
