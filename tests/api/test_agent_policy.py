"""The approval policy: a model that calls a tool changing an order, a return, a subscription
or moving money gets `input.requested` first; a rejection changes nothing (read back through
the Commerce API); an approval does it once; a crash in between does not skip the approval."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.agent.conversation import Conversation, call_id
from commerce_agent.agent.events import event
from commerce_agent.agent.models.base import CallTool, ModelOutput, ModelRequest, TextDelta
from commerce_agent.agent.records import SessionRecord
from commerce_agent.agent.runner import HOST
from commerce_agent.agent.sessions import hash_secret, user_message
from commerce_agent.auth.tokens import Principal
from commerce_agent.ids import new_id
from commerce_agent.operations import ToolContext, all_tools, policy
from commerce_agent.operations.base import CART, CHANGES, READS, Tool
from tests.support.agent_support import consent, ndjson
from tests.support.helpers import US_ADDRESS, add_item, new_cart
from tests.support.lifecycle_support import (
    complete,
    digital_order,
    get_order,
    kitchen_order,
    mug_order,
)

pytestmark = pytest.mark.both_backends

MOUNT = "/agent/v1"
PREFIX = "connection__commerce__"
DEAD_OWNER = f"{HOST}:99999999:dead"  # a process of this host that is gone
SUBSCRIPTION = "dev.commerce.order.subscription"
CHANGING = {"place_order", "tip_order", "cancel_order", "start_return", "change_subscription",
            "rate_order"}


class Direct:
    """A model that calls one tool with fixed arguments as soon as the user speaks, and says
    "Done." once the call has a result: no understanding, no goodwill."""

    name = "direct"

    def __init__(self, tool: str, args: dict[str, Any]) -> None:
        self.tool, self.args = tool, args

    async def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        said = max(i for i, message in enumerate(request.messages) if message.role == "user")
        if any(message.role == "tool" for message in request.messages[said:]):
            yield TextDelta("Done.")
            return
        yield CallTool(PREFIX + self.tool, self.args)


class Chat:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.session_id = ""
        self.token = ""
        self.events: list[dict[str, Any]] = []

    async def say(self, message: str, headers: dict[str, str] | None = None,
                  **body: Any) -> list[dict[str, Any]]:
        if not self.session_id:
            created = await self.client.post(f"{MOUNT}/session",
                                             json={"message": message, **body},
                                             headers=headers or {})
            assert created.status_code == 202, created.text
            self.session_id = created.json()["sessionId"]
            self.token = created.json()["continuationToken"]
        else:
            await self.post(message=message)
        return await self.read()

    async def post(self, **body: Any) -> None:
        response = await self.client.post(
            f"{MOUNT}/session/{self.session_id}", json={"continuationToken": self.token, **body},
            headers={"Authorization": f"Bearer {self.token}"})
        assert response.status_code == 200, response.text

    async def read(self) -> list[dict[str, Any]]:
        response = await self.client.get(f"{MOUNT}/session/{self.session_id}/stream",
                                         params={"startIndex": len(self.events)})
        new = ndjson(response.text)
        self.events += new
        return new

    async def answer(self, request_id: str, choice: str) -> list[dict[str, Any]]:
        await self.post(inputResponses={request_id: choice})
        return await self.read()

    async def signed_in(self, message: str, **body: Any) -> list[dict[str, Any]]:
        """Say `message` and grant the commerce connection as Alice when asked."""
        parked = await self.say(message, **body)
        assert parked[-1]["type"] == "authorization.required", parked[-1]
        assert (await consent(self.client, parked[-1]["data"]["authUrl"])).status_code == 200
        return await self.read()


def results(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == "agent.tool_result"]


# -- one case per changing tool: how to get something to change, and how to read it back -----

Prepare = Callable[[Starlette, httpx.AsyncClient, dict[str, str]], Awaitable[dict[str, Any]]]
State = Callable[[httpx.AsyncClient, dict[str, str], dict[str, Any]], Awaitable[Any]]


@dataclass(frozen=True)
class Case:
    tool: str
    prepare: Prepare
    state: State
    changed: Any  # the state once the call ran (once)


async def _cart(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                ) -> dict[str, Any]:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], "item_limited_glaze_mug", 1)
    return {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}


async def _orders(client: httpx.AsyncClient, alice: dict[str, str], args: dict[str, Any]
                  ) -> Any:
    orders = (await client.get("/orders", headers=alice)).json()["orders"]
    cart = await client.get(f"/carts/{args['cartId']}", headers=alice)
    return len(orders), cart.status_code  # a submitted cart is no longer an open one


async def _placed(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                  ) -> dict[str, Any]:
    return {"orderId": (await mug_order(client, alice))["id"]}


async def _cancelled(client: httpx.AsyncClient, alice: dict[str, str], args: dict[str, Any]
                     ) -> Any:
    doc = await get_order(client, alice, args["orderId"])
    return doc["status"], len(doc["metadata"].get("dev.commerce.order.refunds", []))


async def _completed(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                     ) -> dict[str, Any]:
    placed = await mug_order(client, alice)
    await complete(app, placed["id"])
    return {"orderId": placed["id"]}


async def _returns(client: httpx.AsyncClient, alice: dict[str, str], args: dict[str, Any]
                   ) -> Any:
    doc = await get_order(client, alice, args["orderId"])
    for summary in doc.get("returns", []):
        assert (await client.get(f"/returns/{summary['id']}", headers=alice)).status_code == 200
    return len(doc.get("returns", []))


async def _kitchen(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                   ) -> dict[str, Any]:
    placed = await kitchen_order(client, alice)
    await complete(app, placed["id"])
    return {"orderId": placed["id"], "amount": {"amount": "5.00", "currency": "USD"}}


async def _tip(client: httpx.AsyncClient, alice: dict[str, str], args: dict[str, Any]) -> Any:
    doc = await get_order(client, alice, args["orderId"])
    return doc["metadata"].get("dev.commerce.order.tipping", {}).get("tip")


async def _to_rate(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                   ) -> dict[str, Any]:
    return {**await _completed(app, client, alice), "overall": 4}


async def _rating(client: httpx.AsyncClient, alice: dict[str, str], args: dict[str, Any]
                  ) -> Any:
    doc = await get_order(client, alice, args["orderId"])
    return doc["metadata"].get("dev.commerce.order.ratings", {}).get("overall")


async def _subscribed(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
                      ) -> dict[str, Any]:
    placed = await digital_order(client, alice, "item_folio_unlimited_monthly")
    return {"orderId": placed["id"], "action": "pause"}


async def _subscription(client: httpx.AsyncClient, alice: dict[str, str],
                        args: dict[str, Any]) -> Any:
    doc = await get_order(client, alice, args["orderId"])
    return doc["metadata"][SUBSCRIPTION]["status"]


CASES = [
    Case("place_order", _cart, _orders, (1, 404)),
    Case("cancel_order", _placed, _cancelled, ("cancelled", 1)),
    Case("start_return", _completed, _returns, 1),
    Case("tip_order", _kitchen, _tip, {"amount": "5.00", "currency": "USD"}),
    Case("rate_order", _to_rate, _rating, 4),
    Case("change_subscription", _subscribed, _subscription, "paused"),
]
IDS = [case.tool for case in CASES]


# -- the registry and the Tool type --------------------------------------------------------

def test_every_tool_declares_its_effect_and_the_changing_ones_ask() -> None:
    tools = {tool.short_name: tool for tool in all_tools()}
    changing = {name for name, tool in tools.items() if policy.needs_approval(tool)}
    assert changing == CHANGING
    assert all(tools[name].approval is not None for name in changing)
    assert {name for name, tool in tools.items() if tool.effect == READS} >= {
        "search_products", "get_item", "view_cart", "get_order", "list_orders"}
    assert {name for name, tool in tools.items() if tool.effect == CART} == {
        "create_cart", "add_to_cart", "update_cart_item", "remove_cart_item",
        "apply_promotion"}


async def _run(ctx: Any, args: dict[str, Any]) -> Any:
    return {}


def test_a_changing_tool_cannot_be_built_without_its_prompt() -> None:
    with pytest.raises(ValueError, match="approval-prompt writer"):
        Tool("refund_everything", "Refunds.", {"type": "object"}, _run, effect=CHANGES)
    with pytest.raises(TypeError):
        Tool("mystery", "Does something.", {"type": "object"}, _run)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="only CHANGES tools"):
        Tool("peek", "Reads.", {"type": "object"}, _run, effect=READS,
             approval=lambda ctx, args, locale: _run(ctx, args))  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize(("decision", "verdict"), [(None, "ask"), ("approve", "run"),
                                                    ("reject", "rejected"),
                                                    ("maybe", "rejected")])
def test_the_verdict_comes_from_the_effect_alone(decision: str | None, verdict: str) -> None:
    tools = {tool.short_name: tool for tool in all_tools()}
    assert policy.verdict(tools["cancel_order"], decision) == verdict
    assert policy.verdict(tools["get_order"], decision) == "run"
    assert policy.verdict(tools["add_to_cart"], decision) == "run"


# -- through the Agent Session API ---------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_a_changing_tool_waits_for_approval(case: Case, app: Starlette,
                                                  client: httpx.AsyncClient,
                                                  alice: dict[str, str]) -> None:
    args = await case.prepare(app, client, alice)
    before = await case.state(client, alice, args)
    app.state.agent.agents["shopper"].model = Direct(case.tool, args)
    chat = Chat(client)

    asked = await chat.signed_in("go")
    request = asked[-1]
    assert request["type"] == "input.requested" and request["data"]["type"] == "approval"
    assert request["data"]["options"] == ["approve", "reject"]
    call = [e["data"] for e in chat.events if e["type"] == "agent.tool_call"][-1]
    assert call["tool"]["name"] == PREFIX + case.tool
    assert request["data"]["toolCallId"] == call["toolCallId"]
    assert results(chat.events) == []
    assert await case.state(client, alice, args) == before

    rejected = await chat.answer(request["data"]["requestId"], "reject")
    [result] = results(rejected)
    assert result["isError"] is True
    assert result["result"]["code"] == "rejected_by_user"
    assert result["result"]["changed"] is False and result["result"]["tool"] == case.tool
    target = args.get("orderId") or args["cartId"]
    assert target in result["result"]["message"]
    assert rejected[-1]["type"] == "session.waiting"
    assert await case.state(client, alice, args) == before

    again = await chat.say("go")
    assert again[-1]["type"] == "input.requested" and results(again) == []
    done = await chat.answer(again[-1]["data"]["requestId"], "approve")
    [result] = results(done)
    assert result["isError"] is False, result
    assert done[-1]["type"] == "session.waiting"
    assert await case.state(client, alice, args) == case.changed


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_a_crash_does_not_skip_the_approval(case: Case, app: Starlette,
                                                  client: httpx.AsyncClient,
                                                  alice: dict[str, str]) -> None:
    """A turn whose process died right after journaling the model's call is resumed by
    another: it asks. One that died right after the approval was journaled runs it, once."""
    args = await case.prepare(app, client, alice)
    before = await case.state(client, alice, args)
    agent = app.state.agent
    agent.agents["shopper"].model = Direct(case.tool, args)
    tool = agent.agents["shopper"].tools[PREFIX + case.tool]
    conversation = Conversation()
    journaled = [event("session.started", {}), event("agent.start"), user_message(1, "go")]
    for item in journaled:
        conversation.apply(item)
    called = event("agent.tool_call", {"toolCallId": call_id(1, 0, 0),
                                       "tool": tool.describe(), "args": args})
    conversation.apply(called)
    journaled += [called, event("message.appended", conversation.assistant_state())]
    record = SessionRecord(id=new_id("ses"), token_hash=hash_secret("ct_x"),
                           created_at="2026-01-01T00:00:00Z", agent="shopper",
                           owner=DEAD_OWNER, lease_until=time.time() + 60,
                           user_id="user_alice")
    await agent.journal.create(record, journaled)

    await agent.runner.scan()
    await agent.runner.idle()
    stream = f"{MOUNT}/session/{record.id}/stream"
    events = ndjson((await client.get(stream)).text)
    assert events[-1]["type"] == "input.requested", events[-1]
    assert results(events) == []
    assert await case.state(client, alice, args) == before

    # The answer is journaled, then the process dies before running the call.
    parked = await agent.journal.load(record.id)
    [request_id] = parked.pending_input
    answered, changes = agent._answers(parked, {request_id: "approve"}, None)
    await agent.journal.commit(parked, answered, status="running", owner=DEAD_OWNER,
                               lease_until=time.time() + 60, **changes)
    await agent.runner.scan()
    await agent.runner.idle()
    events = ndjson((await client.get(stream)).text)
    assert events[-1]["type"] == "session.waiting"
    [result] = results(events)
    assert result["isError"] is False, result
    assert await case.state(client, alice, args) == case.changed
    await agent.runner.scan()  # nothing left to resume: it does not run again
    await agent.runner.idle()
    assert len(results(ndjson((await client.get(stream)).text))) == 1
    assert await case.state(client, alice, args) == case.changed


async def test_a_call_that_cannot_happen_asks_nobody(app: Starlette,
                                                     client: httpx.AsyncClient,
                                                     alice: dict[str, str]) -> None:
    args = await _completed(app, client, alice)  # a completed order cannot be cancelled
    app.state.agent.agents["shopper"].model = Direct("cancel_order", args)
    events = await Chat(client).signed_in("go")
    assert "input.requested" not in [e["type"] for e in events]
    [result] = results(events)
    assert result["isError"] and result["result"]["code"] == "cancellation_window_expired"
    assert (await get_order(client, alice, args["orderId"]))["status"] == "completed"


@pytest.mark.parametrize(("message", "body", "headers", "expected"), [
    ("go", {}, {"Accept-Language": "fr-FR,fr;q=0.9"}, "Annuler la commande"),
    ("annulez ma commande s'il vous plaît", {}, {}, "Annuler la commande"),
    ("注文をキャンセルしてください", {}, {}, "をキャンセルしますか"),
    ("cancel my order please", {"clientContext": {"locale": "ja"}},
     {"Accept-Language": "fr"}, "をキャンセルしますか"),
    ("cancel my order please", {}, {}, "Cancel order"),
])
async def test_the_prompt_is_in_the_shoppers_language(
        message: str, body: dict[str, Any], headers: dict[str, str], expected: str,
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    args = await _placed(app, client, alice)
    app.state.agent.agents["shopper"].model = Direct("cancel_order", args)
    chat = Chat(client)
    parked = await chat.say(message, headers=headers, **body)
    assert (await consent(client, parked[-1]["data"]["authUrl"])).status_code == 200
    asked = await chat.read()
    prompt = asked[-1]["data"]["prompt"]
    assert expected in prompt and args["orderId"] in prompt


async def test_an_approval_of_what_changed_since_is_asked_again(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """The person approves what the prompt said: if the cart changed before the answer, the
    call is not run on the new cart; the new prompt is asked, with a new request id."""
    args = await _cart(app, client, alice)
    app.state.agent.agents["shopper"].model = Direct("place_order", args)
    chat = Chat(client)
    first = (await chat.signed_in("go"))[-1]["data"]
    assert "Total to pay: $26.50" in first["prompt"]  # with shipping
    await add_item(client, alice, args["cartId"], "item_stoneware_dinner_plate", 2)
    again = await chat.answer(first["requestId"], "approve")
    asked = again[-1]
    assert asked["type"] == "input.requested" and results(again) == []
    assert asked["data"]["requestId"] != first["requestId"]
    assert asked["data"]["toolCallId"] == first["toolCallId"]
    assert "Stoneware Dinner Plate" in asked["data"]["prompt"]
    assert "Total to pay: $26.50" not in asked["data"]["prompt"]
    assert (await client.get("/orders", headers=alice)).json()["orders"] == []
    stale = await client.post(
        f"{MOUNT}/session/{chat.session_id}",
        json={"continuationToken": chat.token, "inputResponses": {first["requestId"]: "approve"}},
        headers={"Authorization": f"Bearer {chat.token}"})
    assert stale.status_code == 409
    done = await chat.answer(asked["data"]["requestId"], "approve")
    [result] = results(done)
    assert result["isError"] is False
    [placed] = (await client.get("/orders", headers=alice)).json()["orders"]
    assert len(placed["items"]) == 2 and placed["id"] == result["result"]["orderId"]


async def test_an_approved_call_that_can_no_longer_happen_fails_without_change(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    args = await _placed(app, client, alice)
    app.state.agent.agents["shopper"].model = Direct("cancel_order", args)
    chat = Chat(client)
    asked = (await chat.signed_in("go"))[-1]["data"]
    await complete(app, args["orderId"])  # the store finished it meanwhile
    answered = await chat.answer(asked["requestId"], "approve")
    [result] = results(answered)
    assert result["isError"] and result["result"]["code"] == "cancellation_window_expired"
    assert answered[-1]["type"] == "session.waiting"
    assert await _cancelled(client, alice, args) == ("completed", 0)


async def test_a_call_that_crashed_while_running_is_replayed_not_asked(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """Approved, started, done, and the process died before the result was journaled: the
    resumed turn neither asks again nor cancels twice (the call's idempotency key)."""
    args = await _placed(app, client, alice)
    agent = app.state.agent
    agent.agents["shopper"].model = Direct("cancel_order", args)
    chat = Chat(client)
    asked = (await chat.signed_in("go"))[-1]["data"]
    record = await agent.journal.load(chat.session_id)
    answered, changes = agent._answers(record, {asked["requestId"]: "approve"}, None)
    changes["decisions"][policy.started_key(asked["toolCallId"])] = "1"
    await agent.journal.commit(record, answered, status="running", owner=DEAD_OWNER,
                               lease_until=time.time() + 60, **changes)
    tool = agent.agents["shopper"].tools[PREFIX + "cancel_order"]
    # The call's own context, as the turn builds it: its idempotency key is the call's.
    context = ToolContext(app.state.db, app.state.settings, app.state.pay_to,
                          Principal("user_alice", "alice@example.com", "Alice Martin"),
                          f"agent-{chat.session_id}-{asked['toolCallId']}")
    ran = await tool.run(context, args)
    assert ran["status"] == "cancelled"
    await agent.runner.scan()
    await agent.runner.idle()
    events = await chat.read()
    assert "input.requested" not in [e["type"] for e in events]
    [result] = results(events)
    assert result["isError"] is False and result["result"] == ran
    assert await _cancelled(client, alice, args) == ("cancelled", 1)
