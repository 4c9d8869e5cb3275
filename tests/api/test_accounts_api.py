"""The JSON token API: sign in, bad password, expiry, revocation, refresh rotation, sign-out."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.auth import accounts
from commerce_agent.cli import main
from commerce_agent.settings import Settings

pytestmark = pytest.mark.both_backends

ALICE = {"email": "alice@example.com", "password": "alice-demo-pass"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def sign_in(client: httpx.AsyncClient, **credentials: str) -> dict[str, Any]:
    response = await client.post("/auth/token", json=credentials or ALICE)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    pair: dict[str, Any] = response.json()
    return pair


async def profile_status(client: httpx.AsyncClient, token: str) -> int:
    return (await client.get("/user/profile", headers=bearer(token))).status_code


def assert_unauthorized(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 401, response.text
    assert response.headers["content-type"].startswith("application/commerce+json")
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.headers["cache-control"] == "no-store"
    body: dict[str, Any] = response.json()
    assert body["code"] == "unauthorized" and body["status"] == 401
    assert body["userMessage"]["localizationKey"] == "error.unauthorized"
    return body


async def test_password_sign_in_issues_a_working_bearer_token(
        client: httpx.AsyncClient) -> None:
    pair = await sign_in(client)
    assert pair["tokenType"] == "Bearer"
    assert pair["expiresIn"] == accounts.ACCESS_TOKEN_LIFETIME
    assert pair["refreshExpiresIn"] == accounts.REFRESH_TOKEN_LIFETIME
    assert pair["accessToken"] != pair["refreshToken"]
    assert await profile_status(client, pair["accessToken"]) == 200
    created = await client.post("/carts", json={"storeId": "store_ceramics"},
                                headers=bearer(pair["accessToken"]))
    assert created.status_code == 201


async def test_email_is_case_insensitive(client: httpx.AsyncClient) -> None:
    pair = await sign_in(client, email="  Alice@Example.COM ", password=ALICE["password"])
    assert await profile_status(client, pair["accessToken"]) == 200


@pytest.mark.parametrize("credentials", [
    {"email": "alice@example.com", "password": "wrong-password"},
    {"email": "nobody@example.com", "password": "alice-demo-pass"},
    {"email": "alice@example.com", "password": "ALICE-DEMO-PASS"},
])
async def test_wrong_credentials_are_401_in_error_shape(client: httpx.AsyncClient,
                                                        credentials: dict[str, str]) -> None:
    body = assert_unauthorized(await client.post("/auth/token", json=credentials))
    assert "password" in body["message"]


async def test_token_request_validation(client: httpx.AsyncClient) -> None:
    unknown = await client.post("/auth/token", json={**ALICE, "grant": "x"})
    assert unknown.status_code == 400
    assert unknown.json()["details"][0]["field"] == "/grant"
    missing = await client.post("/auth/token", json={"email": "alice@example.com"})
    assert missing.status_code == 400 and missing.json()["code"] == "bad_request"
    huge = await client.post("/auth/token", json={"email": "a@b.c", "password": "x" * 300})
    assert huge.status_code == 400


async def test_access_token_expires(client: httpx.AsyncClient,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pair = await sign_in(client)
    later = clock.seconds() + accounts.ACCESS_TOKEN_LIFETIME + 1
    monkeypatch.setattr(clock, "seconds", lambda: later)
    response = await client.get("/user/profile", headers=bearer(pair["accessToken"]))
    assert_unauthorized(response)
    assert 'error="invalid_token"' in response.headers["www-authenticate"]
    # The refresh token outlives the access token and brings the session back.
    refreshed = await client.post("/auth/refresh", json={"refreshToken": pair["refreshToken"]})
    assert refreshed.status_code == 200, refreshed.text
    assert await profile_status(client, refreshed.json()["accessToken"]) == 200


async def test_refresh_token_expires(client: httpx.AsyncClient,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pair = await sign_in(client)
    later = clock.seconds() + accounts.REFRESH_TOKEN_LIFETIME + 1
    monkeypatch.setattr(clock, "seconds", lambda: later)
    body = assert_unauthorized(await client.post(
        "/auth/refresh", json={"refreshToken": pair["refreshToken"]}))
    assert "expired" in body["message"]


async def test_refresh_rotates_and_reuse_revokes_the_whole_sign_in(
        client: httpx.AsyncClient) -> None:
    first = await sign_in(client)
    second_response = await client.post("/auth/refresh",
                                         json={"refreshToken": first["refreshToken"]})
    assert second_response.status_code == 200
    assert second_response.headers["cache-control"] == "no-store"
    second = second_response.json()
    assert second["refreshToken"] != first["refreshToken"]
    assert second["accessToken"] != first["accessToken"]
    assert await profile_status(client, second["accessToken"]) == 200
    # The old access token lives on until it expires.
    assert await profile_status(client, first["accessToken"]) == 200
    # Reusing the spent refresh token is taken as theft: every token of the sign-in dies.
    reuse = await client.post("/auth/refresh", json={"refreshToken": first["refreshToken"]})
    assert "already used" in assert_unauthorized(reuse)["message"]
    assert await profile_status(client, second["accessToken"]) == 401
    assert await profile_status(client, first["accessToken"]) == 401
    dead = await client.post("/auth/refresh", json={"refreshToken": second["refreshToken"]})
    assert_unauthorized(dead)


async def test_unknown_refresh_token_is_401(client: httpx.AsyncClient) -> None:
    assert_unauthorized(await client.post("/auth/refresh", json={"refreshToken": "car_nope"}))
    access = (await sign_in(client))["accessToken"]
    # An access token is not a refresh token.
    assert_unauthorized(await client.post("/auth/refresh", json={"refreshToken": access}))


async def test_sign_out_revokes_access_and_refresh(client: httpx.AsyncClient) -> None:
    pair = await sign_in(client)
    other = await sign_in(client)
    out = await client.post("/auth/sign-out", headers=bearer(pair["accessToken"]))
    assert out.status_code == 204
    revoked = await client.get("/user/profile", headers=bearer(pair["accessToken"]))
    assert_unauthorized(revoked)
    assert 'error="invalid_token"' in revoked.headers["www-authenticate"]
    assert_unauthorized(await client.post("/auth/refresh",
                                          json={"refreshToken": pair["refreshToken"]}))
    # Another sign-in of the same user is untouched.
    assert await profile_status(client, other["accessToken"]) == 200
    # Signing out again with the dead token is itself refused.
    assert_unauthorized(await client.post("/auth/sign-out",
                                          headers=bearer(pair["accessToken"])))


async def test_sign_out_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.post("/auth/sign-out")
    assert_unauthorized(response)
    assert "invalid_token" not in response.headers["www-authenticate"]


async def test_revoke_endpoint_takes_either_token(client: httpx.AsyncClient) -> None:
    pair = await sign_in(client)
    assert (await client.post("/auth/revoke",
                              json={"token": pair["refreshToken"]})).status_code == 204
    assert await profile_status(client, pair["accessToken"]) == 401
    again = await sign_in(client)
    assert (await client.post("/auth/revoke",
                              json={"token": again["accessToken"]})).status_code == 204
    assert_unauthorized(await client.post("/auth/refresh",
                                          json={"refreshToken": again["refreshToken"]}))
    # Unknown tokens are accepted silently (RFC 7009).
    assert (await client.post("/auth/revoke", json={"token": "cat_unknown"})).status_code == 204


async def test_cli_tokens_keep_working_and_sign_out_alone(
        app: Starlette, client: httpx.AsyncClient, settings: Settings) -> None:
    # The CLI runs its own event loop, as it does from a shell next to the server.
    minted = await asyncio.to_thread(CliRunner().invoke, main, [
        "token", "create", "--user", "alice@example.com", "--db", settings.db_path])
    assert minted.exit_code == 0, minted.output
    cli_token = minted.output.strip()
    api = await sign_in(client)
    assert await profile_status(client, cli_token) == 200
    assert (await client.post("/auth/sign-out", headers=bearer(cli_token))).status_code == 204
    assert await profile_status(client, cli_token) == 401
    assert await profile_status(client, api["accessToken"]) == 200


async def test_fixture_tokens_are_not_refresh_tokens(client: httpx.AsyncClient,
                                                     alice: dict[str, str]) -> None:
    token = alice["Authorization"].split()[1]
    assert_unauthorized(await client.post("/auth/refresh", json={"refreshToken": token}))
    assert await profile_status(client, token) == 200


async def test_tokens_are_stored_hashed(app: Starlette, client: httpx.AsyncClient) -> None:
    pair = await sign_in(client)
    db = app.state.db
    for table in ("tokens", "refresh_tokens"):
        rows = await db.fetch_all(f"SELECT token_hash FROM {table}")  # noqa: S608
        hashes = {row["token_hash"] for row in rows}
        assert pair["accessToken"] not in hashes and pair["refreshToken"] not in hashes


def test_capability_advertises_the_flows_and_lifetimes() -> None:
    from commerce_agent.auth.flows import capability_metadata

    metadata = capability_metadata(Settings(base_url="https://shop.example/"))
    assert metadata["signInUrl"] == "https://shop.example/account/sign-in"
    assert metadata["tokenUrl"] == "https://shop.example/auth/token"
    assert metadata["sessionDuration"] == accounts.ACCESS_TOKEN_LIFETIME
    assert metadata["refreshTokenSupported"] is True


async def test_capabilities_list_auth_flows_and_profile(client: httpx.AsyncClient) -> None:
    capabilities = {entry["id"]: entry for entry in
                    (await client.get("/capabilities")).json()["capabilities"]}
    flows = capabilities["dev.commerce.auth.flows@1.0"]["metadata"]
    for key in ("signInUrl", "signOutUrl", "registrationUrl", "profileUrl", "tokenUrl",
                "refreshUrl", "revocationUrl"):
        assert flows[key].startswith("http://test/")
    for key in ("signInUrl", "signOutUrl", "registrationUrl", "profileUrl"):
        page = await client.get(flows[key])
        assert page.status_code in (200, 303)
    assert "dev.commerce.user.profile@1.0" in capabilities
    schema = await client.get(capabilities["dev.commerce.auth.flows@1.0"]["schemaUrl"])
    assert schema.status_code == 200


async def test_unknown_email_costs_the_same_scrypt_check(app: Starlette,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    real = accounts.verify_password

    def counting(password: str, stored: str | None) -> bool:
        checked.append(stored or "")
        return real(password, stored)

    monkeypatch.setattr(accounts, "verify_password", counting)
    assert await accounts.authenticate(app.state.db, "ghost@example.com", "x") is None
    assert await accounts.authenticate(app.state.db, "alice@example.com", "x") is None
    assert len(checked) == 2 and all(h.startswith("scrypt$") for h in checked)
    assert checked[0] != checked[1]
