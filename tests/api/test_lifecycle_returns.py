"""Returns: the flow from request to refund, the return state machine, and bad input."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

from commerce_agent.cli import main
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.errors import CommerceError
from commerce_agent.settings import Settings
from tests.support.helpers import US_ADDRESS, assert_error
from tests.support.lifecycle_support import (
    action_ids,
    complete,
    edit_doc,
    get_order,
    kitchen_order,
    mug_order,
    order,
    stock,
)

pytestmark = pytest.mark.both_backends

REFUNDS = "dev.commerce.order.refunds"


async def _advance(app: Starlette, return_id: str, to: str | None = None) -> dict[str, Any]:
    async with app.state.db.transaction() as tx:
        return await returns.advance(tx, return_id, to)


async def _completed_plates(app: Starlette, client: httpx.AsyncClient,
                            headers: dict[str, str]) -> dict[str, Any]:
    placed = await order(client, headers, "store_ceramics",
                         [("item_stoneware_dinner_plate", 4)], deliveryAddress=US_ADDRESS)
    await complete(app, placed["id"])
    return await get_order(client, headers, placed["id"])


def _request(done: dict[str, Any], quantity: int, **extra: Any) -> dict[str, Any]:
    return {"orderId": done["id"], "items": [{"cartItemId": done["items"][0]["id"],
                                              "quantity": quantity, "reason": "damaged"}],
            **extra}


async def test_return_flow_ends_in_a_refund(app: Starlette, client: httpx.AsyncClient,
                                            alice: dict[str, str]) -> None:
    done = await _completed_plates(app, client, alice)
    assert "initiate_return" in action_ids(done)
    assert done["returnableUntil"] > done["completedAt"]
    on_hand = await stock(app, "item_stoneware_dinner_plate")
    response = await client.post("/returns", json=_request(done, 1, reason="Chipped rim"),
                                 headers=alice)
    assert response.status_code == 201, response.text
    ret = response.json()
    assert response.headers["location"] == f"/returns/{ret['id']}"
    assert ret["status"] == "requested" and ret["orderId"] == done["id"]
    assert ret["orderHref"] == f"/orders/{done['id']}"
    assert ret["refundAmount"] == {"amount": "22.00", "currency": "USD"}
    assert ret["items"][0]["reason"] == "damaged" and ret["reason"] == "Chipped rim"
    assert ret["returnMethod"] == "ship" and ret["preferredResolution"] == "refund"
    fetched = await client.get(f"/returns/{ret['id']}", headers=alice)
    assert fetched.status_code == 200 and fetched.json() == ret
    shown = await get_order(client, alice, done["id"])
    assert shown["returns"] == [{"id": ret["id"], "status": "requested",
                                 "href": f"/returns/{ret['id']}",
                                 "items": [{"cartItemId": done["items"][0]["id"],
                                            "quantity": 1}]}]
    assert "initiate_return" in action_ids(shown)
    for expected in ("approved", "in_transit", "received", "processed"):
        assert (await _advance(app, ret["id"]))["status"] == expected
        assert (await get_order(client, alice, done["id"]))["returns"][0]["status"] == expected
    assert await stock(app, "item_stoneware_dinner_plate") == on_hand + 1
    assert REFUNDS not in (await get_order(client, alice, done["id"]))["metadata"]
    finished = await _advance(app, ret["id"])
    assert finished["status"] == "completed"
    refunded = await get_order(client, alice, done["id"])
    [refund] = refunded["metadata"][REFUNDS]
    assert refund["amount"] == {"amount": "22.00", "currency": "USD"}
    assert refund["returnId"] == ret["id"] and refund["status"] == "succeeded"
    assert finished["refund"] == {"id": refund["id"], "amount": refund["amount"]}
    assert (await client.get(f"/returns/{ret['id']}", headers=alice)).json()["status"] == \
        "completed"
    with pytest.raises(CommerceError) as error:
        await _advance(app, ret["id"])
    assert error.value.code == "invalid_transition"


async def test_return_state_machine(app: Starlette, client: httpx.AsyncClient,
                                    alice: dict[str, str]) -> None:
    done = await _completed_plates(app, client, alice)
    ret = (await client.post("/returns", json=_request(done, 1, returnMethod="in_store"),
                             headers=alice)).json()
    for refused in ("in_transit", "received", "processed", "completed", "requested"):
        with pytest.raises(CommerceError):
            await _advance(app, ret["id"], refused)
    await _advance(app, ret["id"], "approved")
    with pytest.raises(CommerceError):
        await _advance(app, ret["id"], "in_transit")
    assert (await _advance(app, ret["id"]))["status"] == "received"
    for refused in ("approved", "rejected", "completed", "in_transit"):
        with pytest.raises(CommerceError):
            await _advance(app, ret["id"], refused)
    shipped = (await client.post("/returns", json=_request(done, 1), headers=alice)).json()
    await _advance(app, shipped["id"], "approved")
    with pytest.raises(CommerceError):
        await _advance(app, shipped["id"], "received")
    rejected = (await client.post("/returns", json=_request(done, 2), headers=alice)).json()
    assert (await _advance(app, rejected["id"], "rejected"))["status"] == "rejected"
    for refused in returns.STATUSES:
        with pytest.raises(CommerceError):
            await _advance(app, rejected["id"], refused)
    with pytest.raises(CommerceError) as missing:
        await _advance(app, "ret_nope")
    assert missing.value.code == "return_not_found"


async def test_returnable_quantity(app: Starlette, client: httpx.AsyncClient,
                                   alice: dict[str, str]) -> None:
    done = await _completed_plates(app, client, alice)
    too_many = await client.post("/returns", json=_request(done, 5), headers=alice)
    body = assert_error(too_many, 400, "bad_request")
    assert body["details"][0]["field"] == "/items/0/quantity"
    first = (await client.post("/returns", json=_request(done, 3), headers=alice)).json()
    assert_error(await client.post("/returns", json=_request(done, 2), headers=alice), 400,
                 "bad_request")
    last = await client.post("/returns", json=_request(done, 1), headers=alice)
    assert last.status_code == 201
    assert "initiate_return" not in action_ids(await get_order(client, alice, done["id"]))
    assert_error(await client.post("/returns", json=_request(done, 1), headers=alice), 403,
                 "return_not_allowed")
    await _advance(app, first["id"], "rejected")
    assert "initiate_return" in action_ids(await get_order(client, alice, done["id"]))
    again = await client.post("/returns", json=_request(done, 3), headers=alice)
    assert again.status_code == 201


async def test_return_policy(app: Starlette, client: httpx.AsyncClient,
                             alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    assert "initiate_return" not in action_ids(placed)
    assert_error(await client.post("/returns", json=_request(placed, 1), headers=alice), 403,
                 "return_not_allowed")
    food = await kitchen_order(client, alice)
    food = await complete(app, food["id"])
    assert "returnableUntil" not in food
    assert "initiate_return" not in action_ids(await get_order(client, alice, food["id"]))
    assert_error(await client.post("/returns", json=_request(food, 1), headers=alice), 403,
                 "return_not_allowed")
    done = await complete(app, placed["id"])
    await edit_doc(app, done["id"],
                   lambda doc: doc.update(returnableUntil="2001-01-01T00:00:00.000Z"))
    assert "initiate_return" not in action_ids(await get_order(client, alice, done["id"]))
    assert_error(await client.post("/returns", json=_request(done, 1), headers=alice), 403,
                 "return_window_expired")


async def test_return_bad_input(app: Starlette, client: httpx.AsyncClient,
                                alice: dict[str, str], bob: dict[str, str]) -> None:
    done = await _completed_plates(app, client, alice)
    line = done["items"][0]["id"]
    bad_bodies = [
        {"orderId": done["id"], "items": []},
        {"orderId": done["id"]},
        {"items": [{"cartItemId": line, "quantity": 1}]},
        {"orderId": done["id"], "items": [{"cartItemId": line, "quantity": 0}]},
        {"orderId": done["id"], "items": [{"cartItemId": line, "quantity": 1,
                                           "reason": "meh"}]},
        {"orderId": done["id"], "items": [{"cartItemId": "line_x", "quantity": 1}]},
        {"orderId": done["id"], "items": [{"cartItemId": line, "quantity": 1},
                                          {"cartItemId": line, "quantity": 1}]},
        {"orderId": done["id"], "items": [{"cartItemId": line, "quantity": 1}],
         "returnMethod": "drone"},
        {"orderId": done["id"], "items": [{"cartItemId": line, "quantity": 1}], "extra": 1},
    ]
    for body in bad_bodies:
        assert_error(await client.post("/returns", json=body, headers=alice), 400,
                     "bad_request")
    raw = await client.post("/returns", content=b"{", headers={
        **alice, "Content-Type": "application/json"})
    assert_error(raw, 400, "bad_request")
    assert_error(await client.post("/returns", json=_request(done, 1), headers=bob), 404,
                 "order_not_found")
    ret = (await client.post("/returns", json=_request(done, 1), headers=alice)).json()
    assert_error(await client.get(f"/returns/{ret['id']}", headers=bob), 404,
                 "return_not_found")
    assert_error(await client.get("/returns/ret_nope", headers=alice), 404, "return_not_found")
    assert_error(await client.get(f"/returns/{ret['id']}"), 401, "unauthorized")


async def test_merchant_cli_for_returns(app: Starlette, client: httpx.AsyncClient,
                                        alice: dict[str, str], settings: Settings) -> None:
    done = await _completed_plates(app, client, alice)
    ret = (await client.post("/returns", json=_request(done, 2), headers=alice)).json()
    runner = CliRunner()

    async def cli(*args: str) -> Any:
        return await asyncio.to_thread(runner.invoke, main,
                                       [*args, "--db", settings.db_path])

    listed = await cli("returns", "list")
    assert listed.exit_code == 0 and ret["id"] in listed.output and "44.00" in listed.output
    for expected in ("approved", "in_transit", "received", "processed", "completed"):
        moved = await cli("returns", "advance", ret["id"])
        assert moved.exit_code == 0 and f"-> {expected}" in moved.output, moved.output
    refused = await cli("returns", "advance", ret["id"])
    assert refused.exit_code == 1 and "invalid_transition" in refused.output
    assert (await cli("returns", "list", "--status", "requested")).output.strip() == \
        "No returns."
    refunds = (await get_order(client, alice, done["id"]))["metadata"][REFUNDS]
    assert refunds[0]["amount"]["amount"] == "44.00"
