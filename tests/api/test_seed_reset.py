"""`seed --reset` on a shop that has been used (both backends): the sample stores come back as
shipped, every order, cart and change is gone, and the accounts and their tokens are kept (a
token the CLI minted keeps working). Seeding a seeded database changes nothing."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.seed import load_stores, load_users, seed
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.lifecycle_support import mug_order

pytestmark = pytest.mark.both_backends


async def _count(app: Starlette, table: str) -> int:
    row = await app.state.db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")  # noqa: S608
    assert row is not None
    return int(row["n"])


async def test_reset_restores_the_samples_and_keeps_the_accounts(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    renamed = await client.patch(f"/admin/stores/{CERAMICS}", headers=owner,
                                 json={"name": "Renamed"})
    assert renamed.status_code == 200
    placed = await mug_order(client, alice)
    assert await _count(app, "orders") == 1

    assert await seed(app.state.db) is False  # already seeded: nothing happens
    assert (await client.get(f"/orders/{placed['id']}", headers=alice)).status_code == 200

    assert await seed(app.state.db, reset=True) is True
    for table in ("orders", "carts", "order_events", "stock"):
        if table == "stock":
            assert await _count(app, table) > 0  # the samples' stock, back as shipped
        else:
            assert await _count(app, table) == 0, table
    assert await _count(app, "stores") == len(load_stores())
    store = await client.get(f"/stores/{CERAMICS}", headers=alice)
    assert store.status_code == 200 and store.json()["name"] != "Renamed"
    assert (await client.get(f"/orders/{placed['id']}", headers=alice)).status_code == 404
    # Accounts and their tokens survive: Alice's token and the merchant's still work.
    assert (await client.get("/user/profile", headers=alice)).status_code == 200
    emails = {row["email"] for row in await app.state.db.fetch_all("SELECT email FROM users")}
    assert {user["email"].lower() for user in load_users()} | {"owner@hearth.example"} \
        <= emails
    # The merchant's link to the store went with the stores: the account stays, the store
    # is no longer theirs.
    assert (await client.get(f"/admin/stores/{CERAMICS}", headers=owner)).status_code in \
        (403, 404)
