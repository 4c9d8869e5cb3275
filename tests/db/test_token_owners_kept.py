"""Token owners are kept per process while the auth_changes counter stands still: a change by
any connection (another process, the CLI) shows on the very next request."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.auth import bearer
from commerce_agent.auth.tokens import hash_token, mint_token
from tests.support.app import token_for
from tests.support.elsewhere import read_one, write

pytestmark = pytest.mark.both_backends


def _change_elsewhere(target: str, sql: str, params: dict[str, Any] | None = None) -> None:
    """A write by another connection, as another process on the same database would make it."""
    write(target, sql, params)


def _kept_hashes(app: Starlette) -> set[str]:
    kept = bearer._kept.get(app.state.db)
    return set() if kept is None else set(kept.owners)


async def _status(client: httpx.AsyncClient, token: str) -> int:
    return (await client.get("/orders", headers={"Authorization": f"Bearer {token}"})
            ).status_code


async def test_a_revocation_by_another_process_refuses_the_next_request(
        app: Starlette, client: httpx.AsyncClient) -> None:
    token = await token_for(app, "user_alice")
    assert await _status(client, token) == 200
    assert hash_token(token) in _kept_hashes(app)  # kept: the next request reads no token
    _change_elsewhere(app.state.settings.db_path,
                      "UPDATE tokens SET revoked_at = '2026-01-01T00:00:00Z' "
                      "WHERE token_hash = :hash", {"hash": hash_token(token)})
    assert await _status(client, token) == 401


async def test_a_deleted_user_or_token_is_refused_at_once(app: Starlette,
                                                          client: httpx.AsyncClient) -> None:
    first, second = await token_for(app, "user_alice"), await token_for(app, "user_alice")
    assert await _status(client, first) == 200
    assert await _status(client, second) == 200
    _change_elsewhere(app.state.settings.db_path, "DELETE FROM tokens WHERE token_hash = :hash",
                      {"hash": hash_token(first)})
    assert await _status(client, first) == 401
    assert await _status(client, second) == 200  # read again, still live


async def test_a_profile_change_elsewhere_shows_in_the_next_answer(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    before = await client.get("/stores/store_ceramics", headers=alice)
    assert before.headers["content-language"] == "en"
    profile = {"preferences": {"notifications": True, "language": "fr"}}
    _change_elsewhere(app.state.settings.db_path,
                      "UPDATE users SET profile = :profile WHERE id = :id",
                      {"profile": json.dumps(profile), "id": "user_alice"})
    after = await client.get("/stores/store_ceramics", headers=alice)
    assert after.headers["content-language"] == "fr"


async def test_a_kept_token_still_expires(app: Starlette, client: httpx.AsyncClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    async with app.state.db.transaction() as tx:
        token = await mint_token(tx, "user_alice", "test", lifetime_seconds=60)
    assert await _status(client, token) == 200
    now = clock.seconds()
    monkeypatch.setattr(clock, "seconds", lambda: now + 61)
    assert await _status(client, token) == 401


async def test_unknown_tokens_are_not_kept_and_a_new_one_is_found(
        app: Starlette, client: httpx.AsyncClient) -> None:
    assert await _status(client, "cat_not_issued_yet") == 401
    assert hash_token("cat_not_issued_yet") not in _kept_hashes(app)
    token = await token_for(app, "user_bob")  # minted after a refused request
    assert await _status(client, token) == 200


async def test_what_is_kept_is_bounded(app: Starlette, client: httpx.AsyncClient,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bearer, "MAX_KEPT", 3)
    minted = [await token_for(app, "user_alice") for _ in range(7)]
    for token in minted:
        assert await _status(client, token) == 200
        assert len(_kept_hashes(app)) <= 3
    assert await _status(client, minted[0]) == 200  # dropped, then read again


async def test_without_the_counter_row_nothing_is_kept(app: Starlette,
                                                       client: httpx.AsyncClient) -> None:
    _change_elsewhere(app.state.settings.db_path, "DELETE FROM auth_changes")
    token = await token_for(app, "user_alice")
    assert await _status(client, token) == 200
    _change_elsewhere(app.state.settings.db_path,
                      "UPDATE tokens SET revoked_at = '2026-01-01T00:00:00Z' "
                      "WHERE token_hash = :hash", {"hash": hash_token(token)})
    assert await _status(client, token) == 401


async def _add_to_cart(client: httpx.AsyncClient, token: str, cart_id: str,
                       **headers: str) -> httpx.Response:
    return await client.post(f"/carts/{cart_id}/items",
                             json={"itemId": "item_glazing_guide_ebook", "quantity": 1},
                             headers={"Authorization": f"Bearer {token}", **headers})


async def _new_cart(client: httpx.AsyncClient, token: str) -> str:
    created = await client.post("/carts", json={"storeId": "store_ceramics"},
                                headers={"Authorization": f"Bearer {token}"})
    assert created.status_code == 201
    return str(created.json()["id"])


@pytest.mark.parametrize("idempotency_key", [None, "add-once"])
async def test_a_write_with_a_token_revoked_elsewhere_is_refused_and_writes_nothing(
        app: Starlette, client: httpx.AsyncClient, idempotency_key: str | None) -> None:
    """A write takes a kept token without reading it first; its transaction checks it."""
    token = await token_for(app, "user_alice")
    cart_id = await _new_cart(client, token)
    headers = {} if idempotency_key is None else {"Idempotency-Key": idempotency_key}
    assert (await _add_to_cart(client, token, cart_id, **headers)).status_code == 200
    _change_elsewhere(app.state.settings.db_path,
                      "UPDATE tokens SET revoked_at = '2026-01-01T00:00:00Z' "
                      "WHERE token_hash = :hash", {"hash": hash_token(token)})
    refused = await _add_to_cart(client, token, cart_id, **headers)
    assert refused.status_code == 401
    assert refused.json()["code"] == "unauthorized"
    assert 'error="invalid_token"' in refused.headers["www-authenticate"]
    quantity = read_one(app.state.settings.db_path,
                        "SELECT quantity FROM cart_items WHERE cart_id = :cart",
                        {"cart": cart_id})["quantity"]
    assert quantity == 1  # the first add only


async def test_a_write_after_another_tokens_change_is_checked_and_kept_again(
        app: Starlette, client: httpx.AsyncClient) -> None:
    token, other = await token_for(app, "user_alice"), await token_for(app, "user_bob")
    cart_id = await _new_cart(client, token)
    version = bearer._kept[app.state.db].version
    _change_elsewhere(app.state.settings.db_path,  # moves the counter; alice's token stays live
                      "UPDATE tokens SET revoked_at = '2026-01-01T00:00:00Z' "
                      "WHERE token_hash = :hash", {"hash": hash_token(other)})
    assert (await _add_to_cart(client, token, cart_id)).status_code == 200
    kept = bearer._kept[app.state.db]
    assert kept.version == version + 1 and hash_token(token) in kept.owners
    assert (await _add_to_cart(client, other, cart_id)).status_code == 401


def test_every_route_taking_a_writer_principal_hands_it_to_write() -> None:
    """writer_principal leaves the check to writes.write: a route that took one and did not
    write through it would act on a token nobody checked."""
    import ast
    import pathlib

    import commerce_agent

    users = 0
    for path in pathlib.Path(commerce_agent.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.AsyncFunctionDef):
                continue
            called = {call.func.id for call in ast.walk(node)
                      if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)}
            # cart_writer is writer_principal that also takes a guest cart token
            if called & {"writer_principal", "cart_writer"} \
                    and node.name not in ("writer_principal", "cart_writer"):
                users += 1
                assert "write" in called, f"{path.name}:{node.name} never calls write()"
    # enough to show the walk found the routes; the six cart changes share one handler
    assert users >= 12
