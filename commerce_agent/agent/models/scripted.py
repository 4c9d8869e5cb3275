"""The built-in `scripted` shopping model: plain shopping requests, no network.

It reads the last user message for what is wanted (find, add, check out, order status, return,
cancel, cart, promotion codes, stores), reads the tool results of the conversation for what is
known (the items found, the open cart, the last order), and either asks for the next tool call
or writes its reply, streamed in small fragments. Everything it does is a function of the
conversation, so a turn replayed after a crash takes the same steps.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from commerce_agent.agent.models import fill
from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelError,
    ModelOutput,
    ModelRequest,
    StructuredResult,
    TextDelta,
)
from commerce_agent.agent.tools.base import money_text

NUMBERS = {"a": 1, "an": 1, "one": 1, "it": 1, "two": 2, "a couple of": 2, "a pair of": 2,
           "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}
ASK_ADDRESS = "Where should I deliver it?"
HELP = ("I can find products (“find a ceramic mug under $20”), add them to your cart (“add two "
        "to my cart”), check out, tell you where your order is and start a return.")
_FILLER = re.compile(
    r"^(?:(?:hi|hello|hey|please|can you|could you|would you|i'?m|i am|i'?d like to|i want to|"
    r"i want|i need|help me|looking for|look for|search for|search|find me|find|show me|"
    r"do you have|get me|some|a|an|the)\b[\s,]*)+")
_MAX = re.compile(r"\b(?:under|below|less than|cheaper than|up to|at most|max(?:imum)?|no more "
                  r"than)\s*\$?\s*(\d+(?:\.\d+)?)\s*(?:dollars|usd|\$)?")
_MIN = re.compile(r"\b(?:over|above|more than|at least|min(?:imum)?)\s*\$?\s*(\d+(?:\.\d+)?)"
                  r"\s*(?:dollars|usd|\$)?")
_ORDER_ID = re.compile(r"\bord_[0-9a-f]+\b")


@dataclass
class Facts:
    """What the conversation has established, from its tool results."""

    results: list[dict[str, Any]] = field(default_factory=list)
    item: dict[str, Any] | None = None
    cart: dict[str, Any] | None = None
    order: dict[str, Any] | None = None
    address: dict[str, Any] | None = None
    asked_address: bool = False

    def absorb(self, message: Message) -> None:
        if message.is_error or not isinstance(message.result, dict):
            return
        name, result = short(message.name), message.result
        if name == "search_products":
            self.results = list(result.get("results", []))
            self.item = self.results[0] if self.results else None
        elif name == "get_item":
            self.item = {"itemId": result.get("id"), **result}
        elif name in ("create_cart", "add_to_cart", "view_cart", "update_cart_item",
                      "remove_cart_item", "apply_promotion"):
            self.cart = result
        elif name == "place_order":
            self.order, self.cart = result, None
        elif name in ("get_order", "cancel_order", "tip_order"):
            self.order = result
        elif name == "list_orders" and result.get("orders"):
            self.order = result["orders"][0]


@dataclass
class Turn:
    raw: str
    text: str
    context: dict[str, Any]
    tools: dict[str, str]
    calls: list[Message]

    def done(self, name: str) -> Message | None:
        return next((m for m in reversed(self.calls) if short(m.name) == name), None)

    def call(self, name: str, **args: Any) -> CallTool:
        return CallTool(self.tools[name], args)


def short(name: str) -> str:
    return name.rsplit("__", 1)[-1]


def _quantity(text: str) -> int:
    match = re.search(r"\b(\d{1,3})\b", text)
    if match:
        return max(1, int(match.group(1)))
    for words, value in sorted(NUMBERS.items(), key=lambda pair: -len(pair[0])):
        if re.search(rf"\b{words}\b", text):
            return value
    return 1


def _query(text: str) -> tuple[str, dict[str, str]]:
    limits: dict[str, str] = {}
    if match := _MAX.search(text):
        limits["maxPrice"] = match.group(1)
    if match := _MIN.search(text):
        limits["minPrice"] = match.group(1)
    query = _MIN.sub(" ", _MAX.sub(" ", text))
    query = re.sub(r"[^\w\s'-]", " ", query)
    query = _FILLER.sub("", " ".join(query.split()))
    query = re.sub(r"\b(?:for me|please|thanks|thank you)\b", " ", query)
    return " ".join(query.split()), limits


def _address(raw: str, turn: Turn, facts: Facts) -> dict[str, Any] | None:
    match = re.search(r"\b(?:deliver(?:ed)?|ship(?:ped)?|send it)\s+to\s+(.+)$", raw,
                      re.IGNORECASE)
    text = match.group(1).strip(" .") if match else None
    if text is None and facts.asked_address and re.search(r"\d", raw) and "," in raw:
        text = raw.strip(" .")
    if text:
        found: dict[str, Any] = {"address": text}
        country = text.rsplit(",", 1)[-1].strip()
        if re.fullmatch(r"[A-Za-z]{2}", country):
            found["countryCode"] = country.upper()
        return found
    given = turn.context.get("deliveryAddress")
    if isinstance(given, str) and given.strip():
        return {"address": given.strip()}
    if isinstance(given, dict) and given.get("address"):
        return {key: given[key] for key in ("address", "countryCode") if key in given}
    return facts.address


def intent(text: str, facts: Facts) -> str:
    checks = [
        ("status", r"\bwhere(?:'s| is) my order\b|\border status\b|\btrack\b|\bstatus\b"),
        ("return", r"\breturn\b"),
        ("tip", r"\btip\b"),
        ("cancel", r"\bcancel\b"),
        ("checkout", r"\bcheck ?out\b|\bplace (?:the |my )?order\b|\bpay\b|\bbuy (?:it|them) now"),
        ("promotion", r"\b(?:code|coupon|promo)\b"),
        ("add", r"\badd\b|\bput\b|\bi'?ll take\b|\bbuy\b"),
        ("cart", r"\bcart\b|\bbasket\b"),
        ("stores", r"\bstores?\b|\bshops?\b"),
        ("search", r"\bfind\b|\bsearch\b|\blook(?:ing)? for\b|\bshow me\b|\bdo you have\b|"
                   r"\bi (?:want|need)\b"),
    ]
    for name, pattern in checks:
        if re.search(pattern, text):
            return name
    if facts.asked_address and re.search(r"\d", text) and "," in text:
        return "checkout"
    return "help"


def _lines(container: dict[str, Any]) -> str:
    parts = [f"{line['quantity']} × {line['name']}" for line in container.get("items", [])]
    return ", ".join(parts) if parts else "no items"


def _failure(message: Message) -> str:
    result = message.result if isinstance(message.result, dict) else {}
    code = result.get("code", "")
    if code == "authorization_declined":
        return ("I can't do that without access to your account: the connection was declined. "
                "Ask again whenever you want to sign in.")
    if code == "rejected_by_user":
        return "OK, I didn't go ahead. Nothing was charged; your cart is still there."
    if code == "cancelled":
        return "Stopped."
    return f"That didn't work: {result.get('message', 'the tool failed')}"


class Plans:
    """One method per intent: the next tool call, or the reply with its facts."""

    def __init__(self, turn: Turn, facts: Facts) -> None:
        self.turn = turn
        self.facts = facts
        self.extra: dict[str, Any] = {}

    def search(self) -> CallTool | str:
        query, limits = _query(self.turn.text)
        self.extra["query"] = query
        if not query:
            return "What are you looking for?"
        if self.turn.done("search_products") is None:
            return self.turn.call("search_products", query=query, limit=5, **limits)
        found = self.facts.results
        if not found:
            return f"I couldn't find anything matching “{query}”. Try other words?"
        top = found[0]
        listing = "; ".join(f"{item['name']} ({money_text(item['price'])})" for item in found[:3])
        return (f"I found {len(found)} match{'es' if len(found) > 1 else ''}: {listing}. "
                f"The best match is {top['name']} at {money_text(top['price'])}. "
                "Want me to add it to your cart?")

    def _chosen_item(self) -> dict[str, Any] | None:
        words = set(re.findall(r"\w+", self.turn.text))
        best, score = self.facts.item, 0
        for item in self.facts.results:
            overlap = len(words & set(re.findall(r"\w+", str(item.get("name", "")).lower())))
            if overlap > score:
                best, score = item, overlap
        return best

    def add(self) -> CallTool | str:
        item = self._chosen_item()
        if item is None:
            return "What should I add? Ask me to find something first, for example: " \
                   "“find a ceramic mug under $20”."
        quantity = _quantity(self.turn.text)
        self.extra.update(quantity=quantity, item=item)
        cart = self.facts.cart
        if cart is None or cart.get("storeId") != item.get("storeId"):
            if self.turn.done("create_cart") is None:
                return self.turn.call("create_cart", storeId=item["storeId"])
            return "I couldn't open a cart for that store."
        if self.turn.done("add_to_cart") is None:
            return self.turn.call("add_to_cart", cartId=cart["cartId"], itemId=item["itemId"],
                                  quantity=quantity)
        return (f"Added {quantity} × {item['name']} to your cart. It now holds "
                f"{cart['itemCount']} item{'s' if cart['itemCount'] != 1 else ''}, total "
                f"{money_text(cart['total'])}. Say “check out” when you're ready.")

    def checkout(self) -> CallTool | str:
        placed = self.turn.done("place_order")
        if placed is None:
            cart = self.facts.cart
            if cart is None or not cart.get("items"):
                return "Your cart is empty: add something first."
            needs_address = any(line.get("fulfillmentType") in (None, "physical", "hybrid")
                                for line in cart["items"])
            address = _address(self.turn.raw, self.turn, self.facts)
            if needs_address and address is None:
                return f"{ASK_ADDRESS} Give me an address such as “1 Main St, Springfield, US”."
            args: dict[str, Any] = {"cartId": cart["cartId"]}
            if needs_address and address is not None:
                args["deliveryAddress"] = address
            return self.turn.call("place_order", **args)
        order = self.facts.order
        if order is None:
            return "The order was not placed."
        if self.turn.done("get_order") is None:
            return self.turn.call("get_order", orderId=order["orderId"])
        return (f"Done: order {order['orderId']} is placed and paid ({_lines(order)}, total "
                f"{money_text(order['total'])}). Its status is {order['status']}.")

    def status(self) -> CallTool | str:
        named = _ORDER_ID.search(self.turn.text)
        order_id = named.group(0) if named else (self.facts.order or {}).get("orderId")
        if order_id is None:
            if self.turn.done("list_orders") is None:
                return self.turn.call("list_orders")
            return "You have no orders yet."
        if self.turn.done("get_order") is None:
            return self.turn.call("get_order", orderId=order_id)
        order = self.facts.order or {}
        return (f"Your order {order.get('orderId')} ({_lines(order)}, total "
                f"{money_text(order.get('total'))}) is {order.get('status')}.")

    def _order_action(self, tool: str, verb: str, **args: Any) -> CallTool | str:
        order = self.facts.order
        if order is None:
            if self.turn.done("list_orders") is None and "list_orders" in self.turn.tools:
                return self.turn.call("list_orders")
            return "I don't see an order to work with."
        if tool not in self.turn.tools:
            return f"I can't {verb} orders on this server yet."
        done = self.turn.done(tool)
        if done is None:
            return self.turn.call(tool, orderId=order["orderId"], **args)
        result = done.result if isinstance(done.result, dict) else {}
        state = result.get("status") or (result.get("return") or {}).get("status") or "requested"
        return f"I asked to {verb} order {order['orderId']}: it is now {state}."

    def return_(self) -> CallTool | str:
        return self._order_action("start_return", "return", reason="Requested by the customer")

    def cancel(self) -> CallTool | str:
        return self._order_action("cancel_order", "cancel", reason="Requested by the customer")

    def tip(self) -> CallTool | str:
        order = self.facts.order
        percent = re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", self.turn.text)
        fixed = re.search(r"\$\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:dollars|usd|eur|jpy)",
                          self.turn.text)
        if percent is None and fixed is None:
            return "How much should the tip be? For example “tip 5 dollars” or “tip 15%”."
        args: dict[str, Any] = {}
        if percent is not None:
            args["percentage"] = float(percent.group(1))
        elif fixed is not None and order is not None:
            currency = (order.get("total") or {}).get("currency", "USD")
            args["amount"] = {"amount": fixed.group(1) or fixed.group(2), "currency": currency}
        if self.turn.done("tip_order") is None:
            return self._order_action("tip_order", "tip", **args)
        return f"Done: the tip was added to order {(order or {}).get('orderId')}."

    def cart(self) -> CallTool | str:
        cart = self.facts.cart
        if cart is None:
            return "Your cart is empty."
        if self.turn.done("view_cart") is None:
            return self.turn.call("view_cart", cartId=cart["cartId"])
        return f"Your cart holds {_lines(cart)}; total {money_text(cart['total'])}."

    def promotion(self) -> CallTool | str:
        match = re.search(r"\b(?:code|coupon|promo)\s+([A-Za-z0-9_-]+)", self.turn.raw)
        cart = self.facts.cart
        if match is None or cart is None:
            return "Tell me the code once you have a cart, e.g. “apply code WELCOME10”."
        if self.turn.done("apply_promotion") is None:
            return self.turn.call("apply_promotion", cartId=cart["cartId"], code=match.group(1))
        return f"Code applied: your cart total is now {money_text(cart['total'])}."

    def stores(self) -> CallTool | str:
        done = self.turn.done("list_stores")
        if done is None:
            return self.turn.call("list_stores")
        names = [store["name"] for store in done.result.get("stores", [])]
        return "The stores here: " + ", ".join(names) + "."

    def help(self) -> CallTool | str:
        return HELP


def _facts_for_output(plans: Plans, reply: str) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    item = plans.extra.get("item") or plans.facts.item
    if item:
        facts.update({"itemId": item.get("itemId"), "itemName": item.get("name"),
                      "productName": item.get("name"), "price": item.get("price"),
                      "storeId": item.get("storeId")})
    if plans.facts.results:
        facts.update(items=plans.facts.results, results=plans.facts.results,
                     products=plans.facts.results, count=len(plans.facts.results))
    if plans.facts.cart:
        cart = plans.facts.cart
        facts.update(cartId=cart["cartId"], cartTotal=cart["total"], total=cart["total"],
                     itemCount=cart["itemCount"])
    if plans.facts.order:
        order = plans.facts.order
        facts.update(orderId=order.get("orderId"), status=order.get("status"),
                     orderStatus=order.get("status"), total=order.get("total"))
    for key in ("query", "quantity"):
        if key in plans.extra:
            facts[key] = plans.extra[key]
    for key in ("message", "reply", "text", "answer", "summary", "response"):
        facts[key] = reply
    return facts


def fragments(text: str, size: int = 3) -> list[str]:
    """`text` in pieces of a few words; the pieces concatenate to exactly `text`."""
    words = re.findall(r"\s*\S+\s*|\s+", text)
    return ["".join(words[i:i + size]) for i in range(0, len(words), size)]


class ScriptedModel:
    name = "scripted"

    def __init__(self, pace: float = 0.0) -> None:
        # Seconds between streamed fragments (0 streams everything at once).
        self.pace = pace

    def plan(self, request: ModelRequest) -> tuple[CallTool | str, Plans]:
        last_user = max((i for i, m in enumerate(request.messages) if m.role == "user"),
                        default=-1)
        facts = Facts()
        for position, message in enumerate(request.messages):
            if message.role == "tool":
                facts.absorb(message)
            elif message.role == "assistant" and position < last_user and message.content:
                facts.asked_address = ASK_ADDRESS in message.content
        raw = request.messages[last_user].content if last_user >= 0 else ""
        turn = Turn(raw, raw.lower(), request.client_context,
                    {tool.short_name: tool.name for tool in request.tools},
                    [m for m in request.messages[last_user + 1:] if m.role == "tool"])
        plans = Plans(turn, facts)
        if turn.calls and turn.calls[-1].is_error:
            return _failure(turn.calls[-1]), plans
        name = intent(turn.text, facts)
        step = {"return": plans.return_}.get(name) or getattr(plans, name)
        decision: CallTool | str = step()
        return decision, plans

    async def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        decision, plans = self.plan(request)
        if isinstance(decision, CallTool):
            yield decision
            return
        for index, piece in enumerate(fragments(decision)):
            if self.pace and index:
                await asyncio.sleep(self.pace)
            yield TextDelta(piece)
        if request.output_schema is not None:
            try:
                yield StructuredResult(fill.fill(request.output_schema,
                                                 _facts_for_output(plans, decision)))
            except fill.Unfillable as missing:
                names = ", ".join(repr(name) for name in missing.fields)
                raise ModelError(
                    f"The scripted model cannot fill the required field(s) {names} of the "
                    "output schema from this conversation.") from None
