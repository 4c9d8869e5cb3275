"""The scripted model: intents, the plan it follows, its fragments and structured output."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models import fill
from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelError,
    ModelRequest,
    StructuredResult,
    TextDelta,
)
from commerce_agent.agent.models.scripted import Facts as ScriptedFacts
from commerce_agent.agent.models.scripted import ScriptedModel, _query, fragments, intent
from commerce_agent.agent.tools import all_tools

MUG = {"itemId": "item_limited_glaze_mug", "name": "Limited Edition Glaze Mug",
       "price": {"amount": "18.00", "currency": "USD"}, "storeId": "store_ceramics",
       "available": True, "fulfillmentType": "physical"}
CART = {"cartId": "cart_1", "storeId": "store_ceramics", "status": "active",
        "items": [{"cartItemId": "line_1", "itemId": MUG["itemId"], "name": MUG["name"],
                   "quantity": 2, "price": MUG["price"], "fulfillmentType": "physical",
                   "lineTotal": {"amount": "36.00", "currency": "USD"}}],
        "total": {"amount": "36.00", "currency": "USD"}, "itemCount": 2}
ORDER = {"orderId": "ord_abc", "status": "confirmed", "items": CART["items"],
         "total": CART["total"]}


def request(*messages: Message, schema: dict[str, Any] | None = None,
            context: dict[str, Any] | None = None) -> ModelRequest:
    return ModelRequest("", list(messages), all_tools(), schema, context or {})


def user(text: str) -> Message:
    return Message("user", text)


def tool(name: str, result: Any, error: bool = False) -> Message:
    return Message("tool", tool_call_id="c", name=name, result=result, is_error=error)


async def run(req: ModelRequest) -> list[Any]:
    return [output async for output in ScriptedModel().step(req)]


async def text_of(req: ModelRequest) -> str:
    return "".join(o.text for o in await run(req) if isinstance(o, TextDelta))


@pytest.mark.parametrize(("text", "expected"), [
    ("find a ceramic mug under $20", "search"),
    ("add two to my cart", "add"),
    ("check out", "checkout"),
    ("where is my order", "status"),
    ("return it", "return"),
    ("cancel my order", "cancel"),
    ("what's in my cart?", "cart"),
    ("apply code WELCOME10", "promotion"),
    ("which stores are there", "stores"),
    ("hello", "help"),
])
def test_intents(text: str, expected: str) -> None:
    assert intent(text, ScriptedFacts()) == expected


def test_query_and_price_limits() -> None:
    assert _query("find a ceramic mug under $20") == ("ceramic mug", {"maxPrice": "20"})
    assert _query("show me teapots over 30 dollars") == ("teapots", {"minPrice": "30"})


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=200))
def test_fragments_concatenate_to_the_text(text: str) -> None:
    pieces = fragments(text)
    assert "".join(pieces) == text
    assert all(len(piece.split()) <= 3 for piece in pieces)


async def test_search_calls_the_tool_then_reports_the_best_match() -> None:
    outputs = await run(request(user("find a ceramic mug under $20")))
    assert outputs == [CallTool("search_products",
                                {"query": "ceramic mug", "limit": 5, "maxPrice": "20"})]
    reply = await text_of(request(user("find a ceramic mug under $20"),
                                  tool("search_products", {"results": [MUG], "total": 1})))
    assert "Limited Edition Glaze Mug" in reply and "18.00 USD" in reply


async def test_add_creates_a_cart_then_adds_the_quantity() -> None:
    history = [user("find a mug"), tool("search_products", {"results": [MUG]}),
               user("add two to my cart")]
    assert await run(request(*history)) == [
        CallTool("connection__commerce__create_cart", {"storeId": "store_ceramics"})]
    empty = {**CART, "items": [], "itemCount": 0}
    history.append(tool("connection__commerce__create_cart", empty))
    assert await run(request(*history)) == [
        CallTool("connection__commerce__add_to_cart",
                 {"cartId": "cart_1", "itemId": MUG["itemId"], "quantity": 2})]
    history.append(tool("connection__commerce__add_to_cart", CART))
    assert "Added 2 × Limited Edition Glaze Mug" in await text_of(request(*history))


async def test_checkout_asks_for_an_address_when_none_is_known() -> None:
    history = [user("find a mug"), tool("search_products", {"results": [MUG]}),
               user("add it"), tool("connection__commerce__add_to_cart", CART),
               user("check out")]
    reply = await text_of(request(*history))
    assert "Where should I deliver it?" in reply
    history += [Message("assistant", reply), user("1 Main St, Springfield, US")]
    assert await run(request(*history)) == [CallTool(
        "connection__commerce__place_order",
        {"cartId": "cart_1", "deliveryAddress": {"address": "1 Main St, Springfield, US",
                                                 "countryCode": "US"}})]


async def test_checkout_places_then_reports_the_status() -> None:
    context = {"deliveryAddress": {"address": "1 Main St, Springfield, US",
                                   "countryCode": "US"}}
    history = [user("add it"), tool("connection__commerce__add_to_cart", CART),
               user("check out")]
    [call] = await run(request(*history, context=context))
    assert isinstance(call, CallTool) and call.args["deliveryAddress"] == context[
        "deliveryAddress"]
    history.append(tool("connection__commerce__place_order", ORDER))
    assert await run(request(*history, context=context)) == [
        CallTool("connection__commerce__get_order", {"orderId": "ord_abc"})]
    history.append(tool("connection__commerce__get_order", ORDER))
    reply = await text_of(request(*history, context=context))
    assert "ord_abc" in reply and "confirmed" in reply and "36.00 USD" in reply


async def test_a_failed_tool_ends_the_turn_with_its_reason() -> None:
    history = [user("check out"), tool("connection__commerce__place_order",
                                       {"code": "rejected_by_user", "message": "no"}, True)]
    assert "didn't go ahead" in await text_of(request(*history))


async def test_structured_output_fills_from_facts() -> None:
    schema = {"type": "object", "properties": {
        "orderId": {"type": "string"}, "status": {"type": "string"},
        "total": {"type": "number"}, "message": {"type": "string"}},
        "required": ["orderId", "status"]}
    history = [user("where is my order"), tool("connection__commerce__get_order", ORDER)]
    outputs = await run(request(*history, schema=schema))
    result = outputs[-1]
    assert isinstance(result, StructuredResult)
    assert result.value["orderId"] == "ord_abc" and result.value["total"] == 36.0
    assert result.value["status"] == "confirmed"


async def test_structured_output_never_invents_a_required_field() -> None:
    schema = {"type": "object", "properties": {"trackingNumber": {"type": "string"}},
              "required": ["trackingNumber"]}
    with pytest.raises(ModelError, match="trackingNumber"):
        await run(request(user("hello"), schema=schema))


def test_fill_converts_only_where_lossless() -> None:
    schema = {"type": "object", "properties": {
        "count": {"type": "integer"}, "price": {"type": "string"},
        "flag": {"type": "boolean"}, "kind": {"enum": ["a", "b"]}}}
    assert fill.fill(schema, {"count": "3", "price": {"amount": "1.50", "currency": "USD"},
                              "flag": "yes", "kind": "c"}) == {"count": 3, "price": "1.50"}
