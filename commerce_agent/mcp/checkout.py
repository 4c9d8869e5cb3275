"""Tools that need approval over MCP: the person confirms before an order changes or money moves.

Which tools those are is the agent's policy (commerce_agent.operations.policy: every CHANGES tool,
place_order, tip_order, cancel_order, start_return, rate_order, change_subscription), and the
prompt is the one the agent's approval request shows, in the request's Accept-Language. Every
such call first becomes a quote, stored for its caller (migration 0011): the prompt, the
arguments, and for place_order the cart and how it can be paid. Then:

- a client that supports elicitation is asked: inline (`elicitation/create`) on 2025-era
  connections, or by returning `input_required` with the quote as `requestState` on 2026-07-28
  ones; an accepted answer confirms the quote;
- any other client gets the quote back and confirms it by calling the tool again with
  `quoteId`.

A confirmed quote runs the registry's tool with the quote's own arguments under the idempotency
key `mcp-<quote id>`: for place_order the same 402 flow as POST /orders (sandbox test card by
default, or the x402 `exact` payload given as `x402Payment`), and confirming it again returns
the same result instead of paying or changing twice. A declined confirmation changes nothing
and says so (policy.rejected). A quote lapses after QUOTE_LIFETIME, or for place_order as soon
as the cart changes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from decimal import Decimal
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from commerce_agent import clock
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import idempotency, money
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.services.carts import cart as carts
from commerce_agent.commerce.services.checkout.placement import (
    amount_due,
    place_order,
    preflight,
    prepare_payment,
)
from commerce_agent.db import Transaction
from commerce_agent.mcp import storage
from commerce_agent.mcp.shop import Shop
from commerce_agent.operations import Tool, ToolContext, ToolFailure, policy
from commerce_agent.operations.approvals import order_request_from_args
from commerce_agent.operations.carts import cart_summary
from commerce_agent.operations.orders import order_summary

QUOTE_LIFETIME = 15 * 60
CONFIRM_KEY = "confirm"
PLACE_ORDER = "place_order"
HOW_TO_CONFIRM = (
    " The person approves first: a client that supports elicitation asks them; otherwise the "
    "call returns a quote (status confirmation_required) to show them, and once they agree "
    "the tool is called again with quoteId.")
_QUOTE_ID = {"type": "string", "maxLength": 100,
             "description": "Confirms an earlier quote of this tool (the person agreed to it)."}
_X402 = {"type": "string", "maxLength": 8000,
         "description": "An x402 `exact` payment payload (the X-PAYMENT header value) signed "
                        "for the quote's payment requirements; omit to pay with the sandbox "
                        "test card."}
CONFIRM_SCHEMA = {"type": "object", "required": [CONFIRM_KEY], "properties": {
    CONFIRM_KEY: {"type": "boolean", "title": "Confirm",
                  "description": "Yes: go ahead, as the message says."}}}


def input_schema(tool: Tool) -> dict[str, Any]:
    """The registry's schema plus quoteId (and x402Payment); nothing is required up front,
    since a confirming call may carry only quoteId."""
    properties = {**tool.parameters["properties"], "quoteId": _QUOTE_ID}
    if tool.short_name == PLACE_ORDER:
        properties["x402Payment"] = _X402
    return {**tool.parameters, "properties": properties, "required": []}


class Call:
    """One call of a tool that needs approval, by `principal`, in `locale`."""

    def __init__(self, shop: Shop, tool: Tool, principal: Principal,
                 params: types.CallToolRequestParams, locale: str = "") -> None:
        self.shop, self.tool, self.principal, self.params = shop, tool, principal, params
        self.locale = locale
        args = dict(params.arguments or {})
        # The MCP schema (sizes of quoteId and x402Payment too); the registry's is checked
        # again when the call is not a confirmation.
        dataclasses.replace(tool, parameters=input_schema(tool)).check_args(args)
        self.quote_id: str | None = args.pop("quoteId", None)
        self.payment: str | None = args.pop("x402Payment", None) \
            if tool.short_name == PLACE_ORDER else None
        self.args = args

    async def run(self, ctx: ServerRequestContext[Any, Any]
                  ) -> types.CallToolResult | types.InputRequiredResult | dict[str, Any]:
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        if self.quote_id is None and modern and self.params.request_state:
            answer = (self.params.input_responses or {}).get(CONFIRM_KEY)
            if not _accepted(answer):
                raise await self._rejected(self.params.request_state)
            self.quote_id = self.params.request_state
        if self.quote_id is not None:
            return await self.confirm(self.quote_id)
        self.tool.check_args(self.args)
        quote = await self.quote()
        if not _can_elicit(ctx):
            return {"status": "confirmation_required", "quote": quote,
                    "message": f"{quote['prompt']} If the person agrees, call "
                               f"{self.tool.short_name} again with quoteId "
                               f"{quote['quoteId']!r}."}
        request = types.ElicitRequest(params=types.ElicitRequestFormParams(
            message=quote["prompt"], requested_schema=CONFIRM_SCHEMA))
        if modern:
            return types.InputRequiredResult(input_requests={CONFIRM_KEY: request},
                                             request_state=quote["quoteId"])
        answer = await ctx.session.elicit_form(quote["prompt"], CONFIRM_SCHEMA,
                                               related_request_id=ctx.request_id)
        if not _accepted(answer):
            raise await self._rejected(quote["quoteId"])
        return await self.confirm(quote["quoteId"])

    def _context(self, key: str | None = None) -> ToolContext:
        return self.shop.context(self.principal, key)

    async def _rejected(self, quote_id: str) -> ToolFailure:
        """Nothing changed: the policy's rejection, naming what the quote was about."""
        args = self.args
        if not args:
            row = await storage.get_quote(self.shop.db, quote_id, self.principal.user_id)
            args = json.loads(row["args"]) if row is not None else {}
        result = policy.rejected(self.tool, args)
        details = {key: value for key, value in result.items()
                   if key not in ("code", "message")}
        return ToolFailure(result["code"], result["message"], details)

    async def quote(self) -> dict[str, Any]:
        prompt = await policy.prompt(self.tool, self._context(), self.args,
                                     policy.prompt_locale(self.locale))
        body: dict[str, Any] = {"tool": self.tool.short_name, "prompt": prompt,
                                "arguments": self.args}
        fingerprint = ""
        if self.tool.short_name == PLACE_ORDER:
            view = await carts.open_cart(self.shop.db, self.args["cartId"], self.principal)
            cart = view.render()
            fingerprint = _cart_print(cart)
            body["cart"] = cart_summary(cart)
            # What the order will cost with the shipping option the call names (the 402's).
            priced = preflight(view, order_request_from_args(self.args))
            body["total"] = money.money(amount_due(priced), view.currency)
            body["payment"] = {"default": ("sandbox test card"
                                           if providers.active().name == "sandbox" else
                                           "card on the payment page (link given at confirm)"),
                               "x402": await self._exact_offers(cart)}
        body["expiresAt"] = clock.later_iso(QUOTE_LIFETIME)
        async with self.shop.db.transaction() as tx:
            quote_id = await storage.insert_quote(tx, self.principal.user_id,
                                                  self.tool.short_name, self.args,
                                                  fingerprint, body, QUOTE_LIFETIME)
        return {"quoteId": quote_id, **body}

    async def _exact_offers(self, cart: dict[str, Any]) -> list[dict[str, Any]]:
        """The 402's x402 `exact` requirements for this cart (checked as POST /orders checks
        it: lines, stock, delivery), for a client that pays with its own wallet."""
        if Decimal(str(cart["total"]["amount"])) <= 0:
            return []
        settings = self.shop.settings
        async with self.shop.db.transaction() as tx:
            placed = await place_order(tx, self.principal, order_request_from_args(self.args), None,
                                       base_url=settings.base_url.rstrip("/"),
                                       pay_to=self.shop.pay_to)
        offers = placed.body.get("accepts", []) if placed.status == 402 else []
        return [offer for offer in offers if offer.get("scheme") == "exact"]

    async def confirm(self, quote_id: str) -> dict[str, Any]:
        row = await storage.get_quote(self.shop.db, quote_id, self.principal.user_id)
        if row is None or row["tool"] != self.tool.short_name:
            raise ToolFailure("quote_not_found", f"No {self.tool.short_name} quote with id "
                              f"{quote_id!r}.")
        args = json.loads(row["args"])
        if self.args and self.args != args:
            raise ToolFailure("quote_mismatch", "These arguments differ from the quote's; ask "
                              "for a new quote.")
        ctx = self._context(f"mcp-{quote_id}")
        if self.tool.short_name == PLACE_ORDER:
            done = await idempotency.call_lookup(self.shop.db, ctx.scope("POST", "/orders"), args)
            if done is not None:  # confirmed before: the same order, not a second payment
                return order_summary(done.body)
            cart = (await carts.open_cart(self.shop.db, args["cartId"],
                                          self.principal)).render()
            if _cart_print(cart) != row["fingerprint"]:
                raise ToolFailure("quote_changed", "The cart changed since this quote; ask "
                                  "for a new quote.")
        if row["expires_at"] <= clock.now_iso():
            raise ToolFailure("quote_expired", "This quote has expired; ask for a new one.")
        if self.payment is not None:
            return await self._pay_exact(ctx, args, self.payment)
        result: dict[str, Any] = await self.tool.run(ctx, args)
        return result

    async def _pay_exact(self, ctx: ToolContext, args: dict[str, Any], header: str
                         ) -> dict[str, Any]:
        settings = self.shop.settings
        order_request = order_request_from_args(args)
        payment = await prepare_payment(self.shop.db, header, self.shop.pay_to,
                                        base_url=settings.base_url.rstrip("/"),
                                        principal=self.principal, request=order_request)

        async def work(tx: Transaction) -> idempotency.Outcome:
            placed = await place_order(tx, self.principal, order_request, payment,
                                       base_url=settings.base_url.rstrip("/"),
                                       pay_to=self.shop.pay_to)
            return idempotency.Outcome(placed.status, placed.body)

        outcome = await idempotency.call_once(self.shop.db, ctx.scope("POST", "/orders"), args,
                                              work)
        if outcome.status != 201:
            raise ToolFailure("payment_failed", "The order was not created with this payment.")
        return order_summary(outcome.body)


def _cart_print(cart: dict[str, Any]) -> str:
    lines = [[line["itemId"], line.get("variantId"), line["quantity"], line["lineTotal"]]
             for line in cart["items"]]
    canonical = json.dumps([lines, cart["total"]], sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _can_elicit(ctx: ServerRequestContext[Any, Any]) -> bool:
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return False
    elicitation = capabilities.elicitation
    return elicitation.form is not None or elicitation.url is None  # {} means form


def _accepted(answer: Any) -> bool:
    return isinstance(answer, types.ElicitResult) and answer.action == "accept" \
        and (answer.content or {}).get(CONFIRM_KEY) is True
