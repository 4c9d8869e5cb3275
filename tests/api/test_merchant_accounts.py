"""Making merchants (`merchants.create`, what `commerce-agent merchant create` calls): an
existing account becomes a merchant with its password kept; a new one needs a password that
passes registration; a store that does not exist creates nothing; a merchant runs only the
stores it was given."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.shop import merchants
from commerce_agent.errors import CommerceError
from tests.support.admin_support import CERAMICS, EBOOKS
from tests.support.app import token_for

pytestmark = pytest.mark.both_backends


async def headers_of(app: Starlette, user_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {await token_for(app, user_id)}"}


async def test_a_new_account_needs_a_password(app: Starlette) -> None:
    with pytest.raises(CommerceError) as refused:
        await merchants.create(app.state.db, "new@shop.example", [CERAMICS])
    assert refused.value.status == 400 and "give a password" in refused.value.message
    row = await app.state.db.fetch_one("SELECT id FROM users WHERE email = :email",
                                       {"email": "new@shop.example"})
    assert row is None


async def test_a_weak_password_is_refused_by_the_registration_rules(app: Starlette) -> None:
    with pytest.raises(CommerceError) as refused:
        await merchants.create(app.state.db, "new@shop.example", [CERAMICS], password="x")
    assert refused.value.code == "bad_request"
    assert refused.value.message.startswith("The password")


async def test_an_unknown_store_creates_no_account(app: Starlette) -> None:
    with pytest.raises(CommerceError) as refused:
        await merchants.create(app.state.db, "new@shop.example", [CERAMICS, "store_nope"],
                               password="merchant-pass-123")
    assert refused.value.status == 404
    row = await app.state.db.fetch_one("SELECT id FROM users WHERE email = :email",
                                       {"email": "new@shop.example"})
    assert row is None


async def test_an_existing_shopper_becomes_a_merchant_and_keeps_the_account(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    made = await merchants.create(app.state.db, "Alice@Example.com", [CERAMICS])
    assert made.created is False and made.email == "alice@example.com"
    assert made.store_ids == [CERAMICS]
    assert await merchants.is_merchant(app.state.db, made.user_id)
    stores = await client.get("/admin/stores", headers=alice)
    assert stores.status_code == 200, stores.text
    assert [store["id"] for store in stores.json()["stores"]] == [CERAMICS]
    again = await merchants.create(app.state.db, "alice@example.com", [CERAMICS, EBOOKS])
    assert again.user_id == made.user_id and again.created is False
    listed = (await client.get("/admin/stores", headers=alice)).json()["stores"]
    assert sorted(store["id"] for store in listed) == sorted([CERAMICS, EBOOKS])


async def test_a_new_merchant_runs_only_its_store(app: Starlette,
                                                  client: httpx.AsyncClient) -> None:
    made = await merchants.create(app.state.db, "kiln@shop.example", [EBOOKS],
                                  name="Kiln", password="merchant-pass-123")
    assert made.created is True
    headers = await headers_of(app, made.user_id)
    mine = await client.get(f"/admin/stores/{EBOOKS}", headers=headers)
    assert mine.status_code == 200
    theirs = await client.get(f"/admin/stores/{CERAMICS}", headers=headers)
    assert theirs.status_code == 404
    assert not await merchants.is_merchant(
        app.state.db, (await app.state.db.fetch_one(
            "SELECT id FROM users WHERE email = :email",
            {"email": "alice@example.com"}))["id"])
