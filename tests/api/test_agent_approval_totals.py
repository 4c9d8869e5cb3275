"""What an approval prompt says is what then happens: the discount, the tax and the total to
pay of an order prompt are those the placed order carries; a return's resolution and method
are named as asked; a resumed subscription names its next charge; a tip needs an amount."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.orders import model
from commerce_agent.operations import ToolContext, ToolFailure, all_tools, policy
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.helpers import US_ADDRESS, add_item, new_cart, pay_and_order
from tests.support.lifecycle_support import complete, digital_order, kitchen_order, mug_order

pytestmark = pytest.mark.both_backends

TOOLS = {tool.short_name: tool for tool in all_tools()}
MUG = "item_limited_glaze_mug"


async def prompt(app: Starlette, tool: str, args: dict[str, Any], locale: str = "en") -> str:
    state = app.state
    ctx = ToolContext(state.db, state.settings, state.pay_to,
                      Principal("user_alice", "alice@example.com", "Alice Martin"), "k")
    return await policy.prompt(TOOLS[tool], ctx, args, locale)


def dollars(text: str, label: str) -> str:
    """The dollar amount after `label` in a prompt ("Total to pay: $57.10, …" → "57.10")."""
    found = re.search(re.escape(label) + r"[^$\n]*\$([\d,]+\.\d\d)", text)
    assert found is not None, (label, text)
    return found.group(1).replace(",", "")


async def test_a_discounted_order_prompt_names_the_total_the_order_then_carries(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], MUG, 3)
    applied = await client.post(f"/carts/{cart['id']}/promotions", headers=alice,
                                json={"type": "promo_code", "value": "WELCOME10"})
    assert applied.status_code == 200, applied.text
    args = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    text = await prompt(app, "place_order", args)
    assert dollars(text, "Discount") == "5.40"
    assert "Tax" not in text
    placed = await pay_and_order(client, alice, args)
    assert placed.status_code == 201, placed.text
    order = placed.json()
    assert order["discount"]["amount"] == "5.40"
    assert dollars(text, "Total to pay:") == order["total"]["amount"]


async def test_a_taxed_order_prompt_names_the_rate_and_the_tax_the_order_carries(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    taxed = await client.patch(f"/admin/stores/{CERAMICS}", headers=owner, json={
        "taxation": {"rate": 8.25, "taxOnShipping": True, "name": "Sales tax"}})
    assert taxed.status_code == 200, taxed.text
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], MUG, 2)
    args = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    text = await prompt(app, "place_order", args)
    assert "Tax (8.25 %):" in text
    assert "8,25" in await prompt(app, "place_order", args, "fr")
    placed = await pay_and_order(client, alice, args)
    assert placed.status_code == 201, placed.text
    order = placed.json()
    assert dollars(text, "Tax (8.25 %):") == order["tax"]["amount"]
    assert dollars(text, "Shipping (") == order["shipping"]["amount"]
    assert dollars(text, "Total to pay:") == order["total"]["amount"]


@pytest.mark.parametrize(("resolution", "method", "said"), [
    ("store_credit", "in_store", ["Estimated store credit: $18.00",
                                  "You bring the items back to the store."]),
    ("exchange", "pickup", ["Exchange of items worth $18.00",
                            "The store collects the items from you."]),
    (None, None, ["Estimated refund: $18.00", "You send the items back by post."]),
])
async def test_a_return_prompt_names_the_resolution_and_method_asked(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        resolution: str | None, method: str | None, said: list[str]) -> None:
    placed = await mug_order(client, alice)
    await complete(app, placed["id"])
    args: dict[str, Any] = {"orderId": placed["id"]}
    if resolution:
        args["preferredResolution"] = resolution
    if method:
        args["returnMethod"] = method
    text = await prompt(app, "start_return", args)
    assert text.startswith(f"Return these items of order {placed['id']}")
    assert "1 × Limited Edition Glaze Mug" in text
    for sentence in said:
        assert sentence in text


async def test_resuming_names_the_next_charge_and_its_amount(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    folio = await digital_order(client, alice, "item_folio_unlimited_monthly")
    paused = await client.post(f"/orders/{folio['id']}/subscription/pause", headers=alice,
                               json={})
    assert paused.status_code == 200, paused.text
    due = clock.parse(paused.json()["metadata"][model.SUBSCRIPTION]["nextBillingDate"])
    text = await prompt(app, "change_subscription", {"orderId": folio["id"],
                                                     "action": "resume"})
    assert text.startswith(f"Resume the subscription of order {folio['id']}")
    price = folio["items"][0]["lineTotal"]["amount"]
    day = f"{due:%B} {due.day}, {due.year}"
    assert f"Billing starts again: the next charge of €{price} is on {day}." in text


async def test_a_tip_prompt_needs_an_amount_or_a_percentage(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await kitchen_order(client, alice)
    await complete(app, placed["id"])
    with pytest.raises(ToolFailure) as refused:
        await prompt(app, "tip_order", {"orderId": placed["id"]})
    assert refused.value.code == "invalid_arguments"
    fixed = await prompt(app, "tip_order", {"orderId": placed["id"],
                                            "amount": {"amount": "3", "currency": "usd"}})
    assert fixed.startswith(f"Add a tip of $3.00 to order {placed['id']}")
