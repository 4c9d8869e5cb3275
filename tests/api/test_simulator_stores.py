"""The fulfillment simulator moves orders of the sample stores only (or of a store whose
merchant switched it on); a real shop's orders wait for the merchant, who moves them by hand
(the admin API the console uses)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

from commerce_agent.cli import main
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.commerce.storage import lifecycle as storage
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.elsewhere import read_one
from tests.support.lifecycle_support import mug_order

pytestmark = pytest.mark.both_backends
SHOPIFY = Path(__file__).parents[1] / "data" / "shopify_products.csv"


async def _ticks_until_moved(app: Starlette, order_id: str) -> bool:
    for _ in range(20):
        await simulator.tick(app.state.db, 100000.0, "http://test")
        if await storage.job(app.state.db, order_id) is None:
            return False
        row = await storage.order_by_id(app.state.db, order_id)
        if row is not None and row["status"] != "confirmed":
            return True
        await asyncio.sleep(0.01)
    return False


async def test_sample_stores_are_simulated_and_a_merchant_can_switch_it(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    store = (await client.get(f"/admin/stores/{CERAMICS}", headers=owner)).json()
    assert store["simulateFulfillment"] is True
    simulated = await mug_order(client, alice)
    assert await _ticks_until_moved(app, simulated["id"])

    off = await client.patch(f"/admin/stores/{CERAMICS}", headers=owner,
                             json={"simulateFulfillment": False})
    assert off.status_code == 200 and off.json()["simulateFulfillment"] is False
    by_hand = await mug_order(client, alice)
    assert await storage.job(app.state.db, by_hand["id"]) is None
    assert not await _ticks_until_moved(app, by_hand["id"])
    row = await storage.order_by_id(app.state.db, by_hand["id"])
    assert row is not None and row["status"] == "confirmed"
    moved = await client.post(f"/admin/orders/{by_hand['id']}/advance", headers=owner,
                              json={})
    assert moved.status_code == 200, moved.text
    assert moved.json()["status"] == "processing"
    assert await storage.job(app.state.db, by_hand["id"]) is None  # no job after a hand move

    wrong = await client.patch(f"/admin/stores/{CERAMICS}", headers=owner,
                               json={"simulateFulfillment": "yes"})
    assert wrong.status_code == 400


def test_an_imported_store_is_not_simulated(make_db: object, tmp_path: Path) -> None:
    db = make_db("shop.db")  # type: ignore[operator]
    runner = CliRunner()
    assert runner.invoke(main, ["init", "--db", db]).exit_code == 0
    assert runner.invoke(main, ["catalog", "import", str(SHOPIFY), "--db", db]).exit_code == 0
    assert read_one(db, "SELECT simulate FROM stores")["simulate"] == 0
