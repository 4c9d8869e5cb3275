"""The scripted agent's checkout with delivery details in the shopper's words: the address kept
apart from the request, corrections, incomplete addresses, countries a store does not serve,
pickup, and the cart meant among several."""

from __future__ import annotations

from itertools import count
from typing import Any

from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelRequest,
    TextDelta,
    ToolCallRecord,
)
from commerce_agent.agent.models.scripted import ScriptedModel
from commerce_agent.agent.models.scripted.state import State
from commerce_agent.operations import all_tools

MUG_LINE = {"cartItemId": "line_1", "itemId": "item_limited_glaze_mug",
            "name": "Limited Edition Glaze Mug", "quantity": 1, "fulfillmentType": "physical",
            "price": {"amount": "18.00", "currency": "USD"},
            "lineTotal": {"amount": "18.00", "currency": "USD"}}
CART = {"cartId": "cart_1", "storeId": "store_ceramics", "status": "active", "items": [MUG_LINE],
        "discount": {"amount": "0.00", "currency": "USD"},
        "total": {"amount": "18.00", "currency": "USD"}, "itemCount": 1}
MAT_CART = {"cartId": "cart_2", "storeId": "store_lumen_studio", "status": "active",
            "items": [{**MUG_LINE, "cartItemId": "line_2", "itemId": "item_cork_yoga_mat",
                       "name": "Cork & Natural Rubber Yoga Mat"}],
            "discount": {"amount": "0.00", "currency": "GBP"},
            "total": {"amount": "68.00", "currency": "GBP"}, "itemCount": 1}
PIZZA_CART = {**CART, "cartId": "cart_3", "storeId": "store_trattoria",
              "items": [{**MUG_LINE, "itemId": "item_tiramisu", "name": "Tiramisù",
                         "fulfillmentType": "pickup"}]}
_ids = count()


def called(name: str, args: dict[str, Any], result: Any, error: bool = False) -> list[Message]:
    call_id = f"call_9_{next(_ids)}_0"
    full = name if name in ("get_store", "list_stores") else f"connection__commerce__{name}"
    return [Message("assistant", tool_calls=[ToolCallRecord(call_id, full, args)]),
            Message("tool", tool_call_id=call_id, name=full, result=result, is_error=error)]


def with_cart(*texts: str, cart: dict[str, Any] = CART) -> list[Message]:
    """A cart, then `texts` (the stores are listed already: no store is named here)."""
    return [*called("list_stores", {}, {"stores": []}), Message("user", "add it"),
            *called("add_to_cart", {"itemId": "x"}, cart), Message("assistant", "Added."),
            *(Message("user", text) for text in texts)]


async def step(messages: list[Message]) -> list[Any]:
    request = ModelRequest("", messages, all_tools(), None, {})
    return [output async for output in ScriptedModel().step(request)]


async def reply(messages: list[Message]) -> str:
    return "".join(o.text for o in await step(messages) if isinstance(o, TextDelta))


def test_the_address_is_kept_apart_from_the_request() -> None:
    state = State()
    state.hear("buy the glaze mug and ship it to 12 Oak St, Portland, OR 97202, thanks!")
    assert state.frame is not None and state.frame.intent == "buy"
    assert state.frame.texts[0].startswith("buy the glaze mug") and "Oak" not in \
        state.frame.texts[0]
    assert state.address == {"address": "12 Oak St, Portland, OR 97202", "countryCode": "US"}


def test_a_correction_amends_the_address_and_checks_out() -> None:
    state = State()
    state.hear("send it to 500 Valencia St, San Francisco, CA 94103")
    state.hear("wrong zip, it should be 94110")
    assert state.frame is not None and state.frame.intent == "checkout"
    assert state.address == {"address": "500 Valencia St, San Francisco, CA 94110",
                             "countryCode": "US"}


def test_pickup_words_about_an_open_cart_are_about_pickup() -> None:
    state = State()
    state.hear("I'd like the studio seconds box for pickup")  # no cart yet: an order
    assert state.frame is not None and state.frame.intent == "add"
    state.carts, state.cart_stores = {"store_ceramics": CART}, ["store_ceramics"]
    state.hear("can I pick it up at the shop instead?")
    assert state.frame is not None and state.frame.intent == "pickup"


async def test_the_approval_names_the_parsed_address() -> None:
    [call] = await step(with_cart(
        "checkout please, ship to Jane Doe, 400 Pine St, Seattle, WA 98101, jane@example.com"))
    assert call == CallTool("connection__commerce__place_order", {
        "cartId": "cart_1",
        "deliveryAddress": {"address": "400 Pine St, Seattle, WA 98101", "countryCode": "US"}})


async def test_a_street_alone_asks_for_the_city_then_orders() -> None:
    messages = with_cart("check out", "ship it to 12 Oak Street")
    asked = await reply(messages)
    assert "city" in asked and "12 Oak Street" in asked
    messages += [Message("assistant", asked), Message("user", "Portland, OR 97202")]
    [call] = await step(messages)
    assert isinstance(call, CallTool) and call.args["deliveryAddress"] == {
        "address": "12 Oak Street, Portland, OR 97202", "countryCode": "US"}


async def test_a_country_the_store_does_not_serve_is_said_without_a_call() -> None:
    messages = [*with_cart("what do you deliver to?"),
                *called("get_store", {"storeId": "store_ceramics"},
                        {"storeId": "store_ceramics", "name": "Hearth & Kiln Ceramics",
                         "deliveryAreas": ["US", "CA"]}),
                Message("assistant", "It delivers to the US and Canada."),
                Message("user", "ship it to 1-1 Marunouchi, Chiyoda-ku, Tokyo 100-0005, Japan")]
    said = await reply(messages)
    assert "Japan" in said and "United States" in said


async def test_a_shipped_item_has_no_pickup() -> None:
    said = await reply(with_cart("I'll collect it, check out"))
    assert "no pickup" in said and "Where should I deliver it?" in said


async def test_a_pickup_cart_is_ordered_without_an_address() -> None:
    [call] = await step(with_cart("I'll pick it up, check out please", cart=PIZZA_CART))
    assert call == CallTool("connection__commerce__place_order", {"cartId": "cart_3"})


async def test_the_cart_the_words_name_is_ordered() -> None:
    messages = [*with_cart(), *called("add_to_cart", {"itemId": "y"}, MAT_CART),
                Message("assistant", "Added."),
                Message("user", "check out my mug, ship to 1 Main St, Springfield, IL 62701")]
    [call] = await step(messages)
    assert isinstance(call, CallTool) and call.args["cartId"] == "cart_1"
