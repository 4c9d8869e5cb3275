"""The built-in `scripted` model: the dialogue manager behind the Model interface.

Each step folds the conversation into the dialogue state, asks the policy for the next tool
call(s) or the reply, and streams the reply in small fragments. Nothing but the messages and
the client context goes in, so a turn replayed after a crash takes the same steps (the model
keeps each session's folded past between steps, `folds`, which gives the replay's state).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

from commerce_agent.agent.models import fill
from commerce_agent.agent.models.base import (
    CallTool,
    ModelError,
    ModelOutput,
    ModelRequest,
    StructuredResult,
    TextDelta,
)
from commerce_agent.agent.models.scripted import state as dialogue_state
from commerce_agent.agent.models.scripted.folds import Folds
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.policy import decide


def fragments(text: str, size: int = 3) -> list[str]:
    """`text` in pieces of a few words; the pieces concatenate to exactly `text`."""
    words = re.findall(r"\s*\S+\s*|\s+", text)
    return ["".join(words[i:i + size]) for i in range(0, len(words), size)]


def plan(request: ModelRequest, folds: Folds | None = None) -> tuple[Decision, Planner]:
    """The next step; the state folded on from the session's kept past with `folds`, else
    replayed from the first message."""
    if folds is None:
        state = dialogue_state.fold(request.messages, request.client_context)
    else:
        state = folds.fold(request.session_id, request.messages, request.client_context)
    return decide(state, {tool.short_name: tool.name for tool in request.tools})


def output_facts(planner: Planner, reply: str) -> dict[str, Any]:
    """What the turn established, by the names a caller's output schema may use."""
    state, facts = planner.state, {}
    item = planner.extra.get("item") or planner.item(state.focus)
    if item:
        facts.update({"itemId": item.get("itemId"), "itemName": item.get("name"),
                      "productName": item.get("name"), "price": item.get("price"),
                      "storeId": item.get("storeId")})
    if state.results:
        facts.update(items=state.results, results=state.results, products=state.results,
                     count=len(state.results))
    carts = state.open_carts() or list(state.carts.values())
    if carts:
        cart = carts[0]
        facts.update(cartId=cart["cartId"], cartTotal=cart["total"], total=cart["total"],
                     itemCount=cart["itemCount"])
    order = state.orders.get(state.last_order or "")
    if order:
        facts.update(orderId=order.get("orderId"), status=order.get("status"),
                     orderStatus=order.get("status"), total=order.get("total"))
    for key in ("query", "quantity"):
        if key in planner.extra:
            facts[key] = planner.extra[key]
    for key in ("message", "reply", "text", "answer", "summary", "response"):
        facts[key] = reply
    return facts


class ScriptedModel:
    name = "scripted"

    def __init__(self, pace: float = 0.0) -> None:
        # Seconds between streamed fragments (0 streams everything at once).
        self.pace = pace
        self.folds = Folds()

    async def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        decision, planner = plan(request, self.folds)
        if isinstance(decision, CallTool):
            yield decision
            return
        if isinstance(decision, list):
            for call in decision:
                yield call
            return
        for index, piece in enumerate(fragments(decision)):
            if self.pace and index:
                await asyncio.sleep(self.pace)
            yield TextDelta(piece)
        if request.output_schema is not None:
            try:
                yield StructuredResult(fill.fill(request.output_schema,
                                                 output_facts(planner, decision)))
            except fill.Unfillable as missing:
                names = ", ".join(repr(name) for name in missing.fields)
                raise ModelError(
                    f"The scripted model cannot fill the required field(s) {names} of the "
                    "output schema from this conversation.") from None
