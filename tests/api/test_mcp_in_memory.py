"""The MCP server in-process, through the SDK's own client connected in memory (as over stdio,
the server acts for one person): checkout quotes and their confirmation under the agent's
approval policy, order-update subscriptions, and the protocol errors of bad calls."""

from __future__ import annotations

import json
import warnings
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.mcp import checkout, tools
from commerce_agent.operations import policy
from tests.support.mcp_support import (
    ADDRESS,
    call,
    filled_cart,
    in_memory,
    quote_then_change_the_cart,
    quoted_cart,
    read_json,
    structured,
)

ALICE = Principal("user_alice", "alice@example.com", "Alice")
BOB = Principal("user_bob", "bob@example.com", "Bob")


def error_of(result: Any) -> dict[str, Any]:
    assert result.is_error, result
    error: dict[str, Any] = structured(result)["error"]
    return error


class Person:
    """Answers elicitation requests as told, keeping the prompts it was shown."""

    def __init__(self, *answers: types.ElicitResult) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    async def __call__(self, context: object, params: types.ElicitRequestParams
                       ) -> types.ElicitResult:
        self.prompts.append(params.message)
        return self.answers.pop(0)


ACCEPT = types.ElicitResult(action="accept", content={"confirm": True})
UNTICKED = types.ElicitResult(action="accept", content={"confirm": False})
DECLINE = types.ElicitResult(action="decline")
CANCEL = types.ElicitResult(action="cancel")


async def order_count(client: Any) -> int:
    return len((await read_json(client, "commerce://orders"))["orders"])


# -- quotes confirmed by quoteId ---------------------------------------------------------------

async def test_a_quote_changes_nothing_and_its_confirmation_pays_once(app: Starlette) -> None:
    async with in_memory(app, ALICE, mode="legacy") as client:
        before = await order_count(client)
        cart_id = await filled_cart(client)
        quoted = await call(client, "place_order", {"cartId": cart_id,
                                                    "deliveryAddress": ADDRESS})
        assert quoted["status"] == "confirmation_required"
        quote = quoted["quote"]
        assert quote["tool"] == "place_order" and quote["arguments"]["cartId"] == cart_id
        assert quote["total"] == {"amount": "26.50", "currency": "USD"}
        assert quote["payment"]["default"] == "sandbox test card"
        assert [offer["scheme"] for offer in quote["payment"]["x402"]] == ["exact"]
        assert "Total to pay: $26.50" in quote["prompt"]
        assert f"quoteId {quote['quoteId']!r}" in quoted["message"]
        assert await order_count(client) == before  # a quote is not an order
        assert (await read_json(client, f"commerce://carts/{cart_id}"))["status"] == "active"

        order = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        again = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        assert order["status"] == "confirmed" and again["orderId"] == order["orderId"]
        assert await order_count(client) == before + 1


async def test_a_quote_is_its_callers_and_its_tools_only(app: Starlette) -> None:
    async with in_memory(app, ALICE, mode="legacy") as alice:
        cart_id = await filled_cart(alice)
        quote = (await call(alice, "place_order", {"cartId": cart_id,
                                                   "deliveryAddress": ADDRESS}))["quote"]
        other_tool = await alice.call_tool("cancel_order", {"quoteId": quote["quoteId"]})
        assert error_of(other_tool)["code"] == "quote_not_found"
        unknown = await alice.call_tool("place_order", {"quoteId": "quote_nope"})
        assert error_of(unknown)["message"] == "No place_order quote with id 'quote_nope'."
    async with in_memory(app, BOB, mode="legacy") as bob:
        stolen = await bob.call_tool("place_order", {"quoteId": quote["quoteId"]})
        assert error_of(stolen)["code"] == "quote_not_found"
    async with in_memory(app, ALICE, mode="legacy") as alice:
        assert (await read_json(alice, f"commerce://carts/{cart_id}"))["status"] == "active"


async def test_a_quote_lapses_when_it_expires(app: Starlette,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    async with in_memory(app, ALICE, mode="legacy") as client:
        _, quote = await quoted_cart(client)
        now = clock.seconds()
        monkeypatch.setattr(clock, "seconds", lambda: now + checkout.QUOTE_LIFETIME + 1)
        lapsed = await client.call_tool("place_order", {"quoteId": quote["quoteId"]})
        assert error_of(lapsed)["code"] == "quote_expired"
        monkeypatch.setattr(clock, "seconds", lambda: now + checkout.QUOTE_LIFETIME - 5)
        order = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        assert order["status"] == "confirmed"


async def test_a_quote_lapses_when_the_cart_changes(app: Starlette) -> None:
    async with in_memory(app, ALICE, mode="legacy") as client:
        args, quote = await quote_then_change_the_cart(client, quantity=3)
        mismatch = await client.call_tool("place_order", {**args, "deliveryAddress": {
            "address": "2 Other St, Springfield", "countryCode": "US"},
            "quoteId": quote["quoteId"]})
        assert error_of(mismatch)["code"] == "quote_mismatch"
        # The same arguments with the quote confirm it (only the cart's change stops it).
        same = await client.call_tool("place_order", {**args, "quoteId": quote["quoteId"]})
        assert error_of(same)["code"] == "quote_changed"
        fresh = (await call(client, "place_order", args))["quote"]
        assert fresh["total"]["amount"] != quote["total"]["amount"]
        assert (await call(client, "place_order", {"quoteId": fresh["quoteId"]}))[
            "status"] == "confirmed"


async def test_a_payment_that_is_not_an_x402_payload_places_nothing(app: Starlette) -> None:
    async with in_memory(app, ALICE, mode="legacy") as client:
        before = await order_count(client)
        _, quote = await quoted_cart(client)
        refused = await client.call_tool("place_order", {"quoteId": quote["quoteId"],
                                                         "x402Payment": "bm90IGEgcGF5bWVudA=="})
        assert refused.is_error
        assert await order_count(client) == before
        too_long = await client.call_tool("place_order", {"quoteId": quote["quoteId"],
                                                          "x402Payment": "x" * 8001})
        assert error_of(too_long)["code"] == "invalid_arguments"


# -- confirmation by elicitation ---------------------------------------------------------------

@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("refusal", [DECLINE, UNTICKED, CANCEL], ids=["decline", "unticked",
                                                                     "cancel"])
async def test_only_a_ticked_acceptance_places_the_order(app: Starlette, mode: str,
                                                         refusal: types.ElicitResult) -> None:
    person = Person(refusal, ACCEPT)
    async with in_memory(app, ALICE, mode=mode, elicitation_callback=person) as client:
        before = await order_count(client)
        cart_id = await filled_cart(client)
        args = {"cartId": cart_id, "deliveryAddress": ADDRESS}
        refused = error_of(await client.call_tool("place_order", args))
        assert refused["code"] == "rejected_by_user"
        assert refused["details"][0]["changed"] is False
        assert await order_count(client) == before
        order = await call(client, "place_order", args)
        assert order["status"] == "confirmed" and await order_count(client) == before + 1
    assert len(person.prompts) == 2 and "Total to pay: $26.50" in person.prompts[0]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_cancel_asks_with_the_policys_prompt_and_a_no_changes_nothing(
        app: Starlette, mode: str) -> None:
    person = Person(DECLINE, ACCEPT)
    async with in_memory(app, ALICE, mode="legacy") as buyer:
        cart_id = await filled_cart(buyer)
        quote = (await call(buyer, "place_order", {"cartId": cart_id,
                                                   "deliveryAddress": ADDRESS}))["quote"]
        order_id = (await call(buyer, "place_order", {"quoteId": quote["quoteId"]}))["orderId"]
    uri = f"commerce://orders/{order_id}"
    async with in_memory(app, ALICE, mode=mode, elicitation_callback=person) as client:
        declined = error_of(await client.call_tool("cancel_order", {"orderId": order_id}))
        assert declined["details"] == [{"tool": "cancel_order", "changed": False,
                                        "orderId": order_id}]
        assert (await read_json(client, uri))["status"] == "confirmed"
        cancelled = await call(client, "cancel_order", {"orderId": order_id})
        assert cancelled["status"] == "cancelled"
    expected = policy.rejected(next(t for t in tools.registry().values()
                                    if t.short_name == "cancel_order"), {"orderId": order_id})
    assert declined["message"] == expected["message"]
    assert person.prompts[0] == person.prompts[1]
    assert f"Cancel order {order_id}" in person.prompts[0]


# -- protocol errors -------------------------------------------------------------------------

async def test_bad_calls_get_clear_answers(app: Starlette) -> None:
    async with in_memory(app, None, mode="legacy") as anonymous:
        names = {tool.name for tool in (await anonymous.list_tools()).tools}
        assert "search_products" in names and "place_order" not in names
        signed_out = await anonymous.call_tool("create_cart", {"storeId": "store_ceramics"})
        assert error_of(signed_out)["code"] == "authorization_required"
        with pytest.raises(MCPError) as unknown:
            await anonymous.call_tool("drop_tables", {})
        assert unknown.value.error.code == types.INVALID_PARAMS
        assert "Unknown tool: drop_tables" in unknown.value.error.message
    async with in_memory(app, ALICE, mode="legacy") as client:
        deep: dict[str, Any] = {}
        for _ in range(200):
            deep = {"a": deep}
        nested = await client.call_tool("search_products", {"query": "mug", "filters": deep})
        assert error_of(nested)["code"] == "invalid_arguments"
        wrong_type = await client.call_tool("search_products", {"query": 7})
        assert error_of(wrong_type)["code"] == "invalid_arguments"
        with pytest.raises(MCPError) as nul:
            await client.read_resource("commerce://orders/ord_\x00")
        assert nul.value.error.data == {"uri": "commerce://orders/ord_\\u0000"}


async def test_an_unexpected_failure_is_an_internal_error_in_the_api_shape(
        app: Starlette, monkeypatch: pytest.MonkeyPatch) -> None:
    from commerce_agent.mcp import resources

    async def broken(*args: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(resources, "listing", broken)
    async with in_memory(app, ALICE, mode="legacy") as client:
        with pytest.raises(MCPError) as failed:
            await client.list_resources()
    assert failed.value.error.code == types.INTERNAL_ERROR
    assert failed.value.error.data == {"code": tools.INTERNAL_ERROR,
                                       "message": tools.INTERNAL_MESSAGE, "details": []}
    assert "disk on fire" not in json.dumps(failed.value.error.data)


# -- order updates -----------------------------------------------------------------------------

async def placed_order(client: Any) -> str:
    _, quote = await quoted_cart(client)
    return str((await call(client, "place_order", {"quoteId": quote["quoteId"]}))["orderId"])


async def advance(app: Starlette, order_id: str) -> str:
    async with app.state.db.transaction() as tx:
        after = await simulator.advance(tx, order_id, "http://test", None)
    return str(after["status"])


async def test_a_listen_stream_hears_only_the_callers_orders(app: Starlette) -> None:
    async with in_memory(app, BOB, mode="legacy") as bob:
        bobs = await placed_order(bob)
    async with in_memory(app, ALICE) as client:
        order_id = await placed_order(client)
        mine, theirs = f"commerce://orders/{order_id}", f"commerce://orders/{bobs}"
        async with client.listen(resource_subscriptions=[
                theirs, mine, mine, "commerce://carts/x", "https://x/orders/1"]) as updates:
            assert updates.honored.resource_subscriptions == [mine]
            await advance(app, bobs)
            status = await advance(app, order_id)
            with anyio.fail_after(10):
                event = await updates.__anext__()
        assert event.uri == mine
        assert (await read_json(client, mine))["status"] == status


async def test_legacy_subscriptions_notify_until_unsubscribed(app: Starlette) -> None:
    heard: list[str] = []
    arrived = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(str(message.params.uri))
            arrived.set()

    async with in_memory(app, ALICE, mode="legacy", message_handler=on_message) as client:
        order_id = await placed_order(client)
        uri = f"commerce://orders/{order_id}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.subscribe_resource(uri)
            await client.subscribe_resource(uri)  # twice: still one follower
            await client.subscribe_resource("commerce://orders/ord_someone_elses")
        await advance(app, order_id)
        with anyio.fail_after(10):
            await arrived.wait()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.unsubscribe_resource(uri)
        await advance(app, order_id)
        await anyio.sleep(0.2)  # a notification after unsubscribing would arrive by now
    assert heard == [uri]


async def test_an_x402_payload_signed_for_the_quote_pays_it(app: Starlette) -> None:
    from eth_account import Account

    from commerce_agent.commerce.payments.exact import sign_exact_payment

    wallet = Account.create()
    async with in_memory(app, ALICE, mode="legacy") as client:
        _, quote = await quoted_cart(client)
        proof = sign_exact_payment(wallet.key.hex(), quote["payment"]["x402"][0])
        order = await call(client, "place_order", {"quoteId": quote["quoteId"],
                                                   "x402Payment": proof})
        again = await call(client, "place_order", {"quoteId": quote["quoteId"],
                                                   "x402Payment": proof})
    assert order["status"] == "confirmed"
    assert order["payment"]["payer"].lower() == wallet.address.lower()
    assert again["orderId"] == order["orderId"]  # the same payload pays once
