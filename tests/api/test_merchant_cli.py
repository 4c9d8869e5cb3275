"""`merchant create` and the merchant order commands, which call the admin API's services."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from commerce_agent import workers
from commerce_agent.app import create_app
from commerce_agent.cli import main
from commerce_agent.settings import Settings
from tests.support.elsewhere import read_one, write

pytestmark = pytest.mark.both_backends

SHOPIFY = Path(__file__).parents[1] / "data" / "shopify_products.csv"


def test_merchant_create_makes_an_account_that_runs_the_store(
        make_db: Callable[[str], str], monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db("shop.db")
    runner = CliRunner()
    assert runner.invoke(main, ["init", "--db", db]).exit_code == 0
    assert runner.invoke(main, ["catalog", "import", str(SHOPIFY), "--db", db]).exit_code == 0
    missing = runner.invoke(main, ["merchant", "create", "--email", "me@birch.example",
                                   "--store", "store_nope", "--password", "long-enough-1",
                                   "--db", db])
    assert missing.exit_code == 1 and "store_not_found" in missing.output
    created = runner.invoke(main, ["merchant", "create", "--email", "Me@Birch.example",
                                   "--store", "store_birch_loom", "--db", db],
                            input="long-enough-1\nlong-enough-1\n")
    assert created.exit_code == 0, created.output
    assert "Created merchant account me@birch.example" in created.output
    token = created.output.rsplit("Admin API token: ", 1)[1].strip()
    assert read_one(db, "SELECT role FROM users WHERE email = 'me@birch.example'"
                    )["role"] == "merchant"
    assert read_one(db, "SELECT COUNT(*) AS n FROM users")["n"] == 1
    again = runner.invoke(main, ["merchant", "create", "--email", "me@birch.example",
                                 "--store", "store_birch_loom", "--db", db])
    assert again.exit_code == 0 and "Merchant account me@birch.example" in again.output
    served = serve_output(db, monkeypatch)
    assert "Stores: store_birch_loom." in served and "Your shop is empty" not in served
    app = create_app(Settings(db_path=db, simulate=False), seed_data=False)

    async def admin_stores() -> Any:
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                         base_url="http://test") as client:
                return (await client.get("/admin/stores", headers={
                    "Authorization": f"Bearer {token}"})).json()

    stores = asyncio.run(admin_stores())
    assert [store["id"] for store in stores["stores"]] == ["store_birch_loom"]


def test_orders_advance_ships_with_a_tracking_number(make_db: Callable[[str], str]) -> None:
    from commerce_agent.commerce.merchant import advance_order

    db = make_db("cli.db")
    runner = CliRunner()
    assert runner.invoke(main, ["seed", "--db", db]).exit_code == 0
    # A paid, confirmed order of a mug, as the API stores it (placing one is tested
    # elsewhere): copy the shape the shipping plan needs.
    doc = {"id": "ord_cli", "status": "confirmed", "items": [
        {"id": "line_1", "itemId": "item_limited_glaze_mug", "quantity": 1,
         "fulfillmentType": "physical", "lineTotal": {"amount": "18.00", "currency": "USD"}}],
           "total": {"amount": "18.00", "currency": "USD"},
           "subtotal": {"amount": "18.00", "currency": "USD"},
           "fulfillment": {"method": "shipping", "carrier": "Sandbox Post",
                           "returnWindowDays": 30},
           "metadata": {}, "createdAt": "2026-01-01T00:00:00Z",
           "updatedAt": "2026-01-01T00:00:00Z"}
    write(db, "INSERT INTO orders (id, owner_id, store_id, status, doc, created_at, updated_at) "
              "VALUES ('ord_cli', 'user_alice', 'store_ceramics', 'confirmed', :doc, :at, :at)",
          {"doc": json.dumps(doc), "at": doc["createdAt"]})
    result = runner.invoke(advance_order, ["ord_cli", "--carrier", "DHL", "--tracking-number",
                                           "JD014600006281230704", "--db", db])
    assert result.exit_code == 0, result.output
    assert "ord_cli: confirmed -> in_transit" in result.output
    stored = json.loads(read_one(db, "SELECT doc FROM orders WHERE id = 'ord_cli'")["doc"])
    shipment = stored["metadata"]["dev.commerce.order.shipment_tracking"][0]
    assert (shipment["carrier"], shipment["trackingNumber"]) == ("DHL", "JD014600006281230704")
    refused = runner.invoke(advance_order, ["ord_cli", "--tracking-number", "X1", "--db", db])
    assert refused.exit_code == 1 and "invalid_transition" in refused.output


def serve_output(db: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """What `serve --no-samples` prints before serving (uvicorn itself is not started)."""
    served: list[Any] = []
    monkeypatch.setattr(workers.uvicorn, "run", lambda app, **options: served.append(app))
    result = CliRunner().invoke(main, ["serve", "--no-samples", "--no-simulate", "--db", db])
    assert result.exit_code == 0, result.output
    assert len(served) == 1
    return result.output


def test_serve_no_samples_starts_empty_and_says_what_to_do(
        make_db: Callable[[str], str], monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db("empty.db")
    output = serve_output(db, monkeypatch)
    assert "catalog import" in output and "merchant create" in output
    assert "alice@example.com" not in output
    assert read_one(db, "SELECT COUNT(*) AS n FROM users")["n"] == 0
    assert read_one(db, "SELECT COUNT(*) AS n FROM stores")["n"] == 0
