"""End to end: the scripted agent finds an item, is authorized through the consent page, builds
a cart, asks for approval, places and pays the order and reports its status; the order exists
in the Commerce API exactly once."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.applications import Starlette

from commerce_agent.client import AgentClient, Session
from tests.support.agent_support import consent


async def turn(client: AgentClient, session: Session) -> list[dict[str, Any]]:
    """One in-process stream: it ends at the turn's next pause or end."""
    return [event async for event in client.events(session)]


def said(events: list[dict[str, Any]]) -> str:
    return "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")


def tools_run(events: list[dict[str, Any]]) -> list[str]:
    return [e["data"]["tool"]["name"].rsplit("__", 1)[-1] for e in events
            if e["type"] == "agent.tool_result" and not e["data"]["isError"]]


async def test_the_agent_buys_a_mug_end_to_end(app: Starlette, client: httpx.AsyncClient,
                                               alice: dict[str, str]) -> None:
    stock_sql = "SELECT quantity FROM stock WHERE item_id = 'item_limited_glaze_mug'"
    stock_before = (await app.state.db.fetch_one(stock_sql))["quantity"]
    agent = AgentClient("http://test", http=client)
    session = await agent.create("find a ceramic mug under $20")
    found = await turn(agent, session)
    assert tools_run(found) == ["search_products"]
    assert "Limited Edition Glaze Mug" in said(found) and "18.00 USD" in said(found)

    await agent.send(session, "add two to my cart")
    parked = await turn(agent, session)
    assert parked[-1]["type"] == "authorization.required"
    consent_url = parked[-1]["data"]["authUrl"]
    assert 'name="password"' in (await client.get(consent_url)).text
    approved = await consent(client, consent_url)
    assert approved.status_code == 200 and "Signed in as alice@example.com" in approved.text
    built = await turn(agent, session)
    assert built[0]["type"] == "authorization.granted"
    assert tools_run(built) == ["create_cart", "add_to_cart"]
    assert "Added 2 × Limited Edition Glaze Mug" in said(built)

    await agent.send(session, "check out")
    asked = await turn(agent, session)
    assert "Where should I deliver it?" in said(asked) and asked[-1]["type"] == \
        "session.waiting"
    await agent.send(session, "1 Main St, Springfield, US")
    approval = await turn(agent, session)
    request = approval[-1]
    assert request["type"] == "input.requested" and request["data"]["type"] == "approval"
    assert "Total to pay: $44.50" in request["data"]["prompt"]
    assert (await client.get("/orders", headers=alice)).json()["orders"] == []

    await agent.approve(session, request["data"]["requestId"])
    placed = await turn(agent, session)
    assert placed[0]["type"] == "input.resolved"
    assert tools_run(placed) == ["place_order"]
    order_result = next(e["data"]["result"] for e in placed
                        if e["type"] == "agent.tool_result"
                        and e["data"]["tool"]["name"].endswith("place_order"))
    order_id = order_result["orderId"]
    assert f"order {order_id} is placed and paid" in said(placed)
    assert "Its status is confirmed" in said(placed)

    await agent.send(session, "where is my order")
    status = await turn(agent, session)
    assert f"Your order {order_id}" in said(status) and "confirmed" in said(status)

    orders = (await client.get("/orders", headers=alice)).json()["orders"]
    assert [order["id"] for order in orders] == [order_id]
    order = orders[0]
    assert order["total"] == {"amount": "44.50", "currency": "USD"}
    assert order["payment"]["scheme"] == "fiat_intent"
    assert [(line["itemId"], line["quantity"]) for line in order["items"]] == [
        ("item_limited_glaze_mug", 2)]
    assert (await app.state.db.fetch_one(stock_sql))["quantity"] == stock_before - 2
    everything = [e async for e in agent.events(Session(session.session_id, ""))]
    assert [e["streamIndex"] for e in everything] == list(range(len(everything)))


async def test_a_repeated_place_order_call_is_a_replay(app: Starlette,
                                                       client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    """The tool itself, called twice with one idempotency key (a turn resumed after a crash
    between placing the order and journaling the result): one order, the same answer."""
    from commerce_agent.auth.tokens import Principal
    from commerce_agent.operations import ToolContext, all_tools

    cart = (await client.post("/carts", json={"storeId": "store_ceramics"},
                              headers=alice)).json()
    await client.post(f"/carts/{cart['id']}/items",
                      json={"itemId": "item_limited_glaze_mug", "quantity": 1}, headers=alice)
    tool = next(t for t in all_tools() if t.short_name == "place_order")
    state = app.state
    context = ToolContext(state.db, state.settings, state.pay_to,
                          Principal("user_alice", "alice@example.com", "Alice Martin"),
                          "agent-ses_x-call_3_1_0")
    args = {"cartId": cart["id"], "deliveryAddress": {"address": "1 Main St, Springfield, US",
                                                      "countryCode": "US"}}
    first = await tool.run(context, args)
    again = await tool.run(context, args)
    assert first == again
    orders = (await client.get("/orders", headers=alice)).json()["orders"]
    assert [order["id"] for order in orders] == [first["orderId"]]


async def bought(app: Starlette, client: httpx.AsyncClient) -> tuple[AgentClient, Session]:
    """A session that has bought two mugs (authorized as Alice, approved)."""
    agent = AgentClient("http://test", http=client)
    session = await agent.create("find a ceramic mug under $20", client_context={
        "deliveryAddress": {"address": "1 Main St, Springfield, US", "countryCode": "US"}})
    await turn(agent, session)
    await agent.send(session, "add two to my cart")
    parked = await turn(agent, session)
    assert (await consent(client, parked[-1]["data"]["authUrl"])).status_code == 200
    await turn(agent, session)
    await agent.send(session, "check out")
    request = (await turn(agent, session))[-1]
    await agent.approve(session, request["data"]["requestId"])
    assert tools_run(await turn(agent, session)) == ["place_order"]
    return agent, session


async def test_the_agent_cancels_the_order(app: Starlette, client: httpx.AsyncClient,
                                           alice: dict[str, str]) -> None:
    agent, session = await bought(app, client)
    await agent.send(session, "cancel my order")
    asked = await turn(agent, session)
    assert asked[-1]["type"] == "input.requested" and tools_run(asked) == []
    [order] = (await client.get("/orders", headers=alice)).json()["orders"]
    assert order["status"] == "confirmed"
    assert f"Cancel order {order['id']}" in asked[-1]["data"]["prompt"]
    assert "Refund: $44.50" in asked[-1]["data"]["prompt"]  # the goods and their shipping
    await agent.approve(session, asked[-1]["data"]["requestId"])
    events = await turn(agent, session)
    assert tools_run(events) == ["cancel_order"]
    [order] = (await client.get("/orders", headers=alice)).json()["orders"]
    assert order["status"] == "cancelled"
    assert f"Order {order['id']} is cancelled" in said(events)


async def test_the_agent_starts_a_return_of_a_completed_order(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    from commerce_agent.commerce.orders import lifecycle

    agent, session = await bought(app, client)
    [order] = (await client.get("/orders", headers=alice)).json()["orders"]
    async with app.state.db.transaction() as tx:
        for status in ("processing", "in_transit", "completed"):
            await lifecycle.change_order(tx, order["id"], to=status)
    await agent.send(session, "return it")
    asked = await turn(agent, session)
    assert tools_run(asked) == ["get_order"] and asked[-1]["type"] == "input.requested"
    # the goods: shipping is not refunded on a return
    assert "Estimated refund: $36.00" in asked[-1]["data"]["prompt"]
    await agent.approve(session, asked[-1]["data"]["requestId"])
    events = await turn(agent, session)
    assert tools_run(events) == ["start_return"]
    result = [e["data"]["result"] for e in events if e["type"] == "agent.tool_result"][-1]
    assert result["orderId"] == order["id"] and result["status"] == "requested"
    assert [(item["quantity"]) for item in result["items"]] == [2]
    assert f"Return {result['returnId']} is requested" in said(events)


async def test_a_tip_that_is_not_allowed_asks_nothing(app: Starlette,
                                                      client: httpx.AsyncClient) -> None:
    agent, session = await bought(app, client)
    await agent.send(session, "tip 5 dollars")
    events = await turn(agent, session)
    assert "input.requested" not in [e["type"] for e in events]
    result = next(e["data"] for e in events if e["type"] == "agent.tool_result")
    assert result["isError"] and result["result"]["code"] == "tip_not_allowed"
    assert events[-1]["type"] == "session.waiting"


async def asked_to_tip(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                       ) -> tuple[AgentClient, Session, str, dict[str, Any]]:
    """A completed restaurant order of Alice's, and a session paused at the tip's approval."""
    from tests.support.lifecycle_support import complete, kitchen_order

    placed = await kitchen_order(client, alice)
    await complete(app, placed["id"])
    agent = AgentClient("http://test", http=client)
    session = await agent.create("tip 5 dollars")
    parked = await turn(agent, session)
    assert parked[-1]["type"] == "authorization.required"
    assert (await consent(client, parked[-1]["data"]["authUrl"])).status_code == 200
    asked = await turn(agent, session)
    assert tools_run(asked) == ["list_orders"]
    assert asked[-1]["type"] == "input.requested"
    return agent, session, placed["id"], asked[-1]["data"]


async def tipping(client: httpx.AsyncClient, alice: dict[str, str], order_id: str) -> Any:
    order = (await client.get(f"/orders/{order_id}", headers=alice)).json()
    return order["metadata"].get("dev.commerce.order.tipping")


async def test_a_tip_is_applied_only_after_approval(app: Starlette, client: httpx.AsyncClient,
                                                    alice: dict[str, str]) -> None:
    agent, session, order_id, request = await asked_to_tip(app, client, alice)
    assert request["type"] == "approval" and request["options"] == ["approve", "reject"]
    assert request["prompt"].startswith(
        f"Add a tip of $5.00 to order {order_id} from Trattoria Fiamma, charged to the "
        "order's payment method?\nItems:\n- ")
    assert await tipping(client, alice, order_id) is None

    await agent.approve(session, request["requestId"])
    tipped = await turn(agent, session)
    assert tipped[0]["type"] == "input.resolved"
    assert tools_run(tipped) == ["tip_order"]
    assert f"tip was added to order {order_id}" in said(tipped)
    tip = await tipping(client, alice, order_id)
    assert tip["tip"] == {"amount": "5.00", "currency": "USD"}


async def test_a_rejected_tip_is_not_applied(app: Starlette, client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    agent, session, order_id, request = await asked_to_tip(app, client, alice)
    await agent.reject(session, request["requestId"])
    refused = await turn(agent, session)
    result = next(e["data"] for e in refused if e["type"] == "agent.tool_result")
    assert result["isError"] and result["result"]["code"] == "rejected_by_user"
    assert "didn't go ahead" in said(refused) and refused[-1]["type"] == "session.waiting"
    assert await tipping(client, alice, order_id) is None
