"""The conversation suite: shoppers' own words through the `scripted` agent, judged by the end
state the Commerce API reads back (orders, their items, currency, slots, subscriptions,
ratings, returns, and the open carts), never by the wording of replies."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.agent.models.base import ModelRequest
from commerce_agent.agent.models.scripted import plan
from tests.support.conversation_support import (
    RAW_ERRORS,
    Person,
    end_state,
    expected_state,
    load_all,
    reply_problems,
    with_order_ids,
)
from tests.support.long_lived import Checkpoints

# Each conversation runs on its own copy of the session's seeded file (the `app` fixture).
CONVERSATIONS = load_all()
STORES = {"store_ceramics", "store_ebooks", "store_trattoria", "store_midori",
          "store_lumen_studio"}
KINDS = {"variants", "customizations", "addons", "digital", "pickup", "hybrid", "preorder",
         "scheduled", "subscription", "currencies", "several-stores"}
INTENTS = {"search", "price-bounds", "store-filter", "category", "details", "add",
           "add-quantity-words", "add-it", "add-ordinal", "add-option-words", "add-by-name",
           "set-quantity", "remove", "view-cart", "empty-cart", "promotion", "discounts",
           "buy-now", "checkout", "status", "cancel", "return", "rate", "tip", "book",
           "subscribe", "pause", "resume", "cancel-subscription", "switch-store",
           "error-next-step"}


def test_the_suite_covers_every_store_kind_and_intent() -> None:
    assert len(CONVERSATIONS) >= 60
    names = [c["name"] for c in CONVERSATIONS]
    assert len(set(names)) == len(names)
    covered = {tag for c in CONVERSATIONS for tag in c["covers"]}
    assert STORES <= {c["store"] for c in CONVERSATIONS}
    assert KINDS - covered == set()
    assert INTENTS - covered == set()


CHECKPOINTS = Checkpoints()


@pytest.fixture(autouse=True)
def _long_lived_frozen() -> Iterator[None]:
    """After every few conversations (their apps torn down first: autouse fixtures are set up
    first, so torn down last), what the process keeps for good is frozen out of the garbage
    collector's full collections (tests/support/long_lived.py)."""
    yield
    CHECKPOINTS.passed()


def _case(conversation: dict[str, Any]) -> Any:
    """A conversation; one marked "knownFailure" is expected to fail for the reason given
    (strictly: once it passes, the mark must go)."""
    reason = conversation.get("knownFailure")
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(conversation, id=conversation["name"], marks=marks)


@pytest.mark.parametrize("conversation", [_case(c) for c in CONVERSATIONS])
async def test_conversation(conversation: dict[str, Any], app: Starlette,
                            client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    person = Person(app, client, alice)
    problems: list[str] = []
    for turn in conversation["turns"]:
        if isinstance(turn, str):
            turn = {"say": turn}
        if "merchant" in turn:
            await person.merchant(turn["merchant"])
            continue
        said = await with_order_ids(person, turn["say"])
        first = len(person.events)
        reply = await person.say(said, turn.get("approve", True),
                                 conversation.get("context"))
        if "reply" in turn:
            problems.extend(reply_problems(said, reply, turn["reply"]))
        if "prompt" in turn:  # the approval this turn raised names what will happen
            asked = "\n".join(e["data"].get("prompt", "") for e in person.events[first:]
                              if e["type"] == "input.requested")
            problems.extend(reply_problems(said, asked, turn["prompt"]) if asked else
                            [f"{said!r}: no approval was asked"])
        if conversation.get("lang"):  # every reply and approval prompt in the shopper's language
            prompts = [e["data"].get("prompt", "") for e in person.events[first:]
                       if e["type"] == "input.requested"]
            for text in (reply, *prompts):
                problems.extend(reply_problems(said, text, {"lang": conversation["lang"]}))
    transcript = "\n".join(f"> {t if isinstance(t, str) else t}\n< {r}" for t, r in zip(
        [t for t in conversation["turns"] if isinstance(t, str) or "say" in t],
        person.replies, strict=False))
    if os.environ.get("SHOW_CONVERSATIONS"):
        calls = [(e["data"]["tool"]["name"].rsplit("__", 1)[-1], e["data"]["args"])
                 for e in person.events if e["type"] == "agent.tool_call"]
        prompts = [e["data"].get("prompt", "") for e in person.events
                   if e["type"] == "input.requested"]
        print(f"\n== {conversation['name']}\n{transcript}\n{calls}\n" +
              "".join(f"?? {prompt}\n" for prompt in prompts))
    assert not [r for r in person.replies if any(raw in r for raw in RAW_ERRORS)], transcript
    assert "bad_request" not in person.tool_errors(), transcript
    assert not problems, f"{problems}\n{transcript}"
    found = await end_state(person)
    assert found == expected_state(conversation["expect"], found), transcript


async def test_a_replayed_step_takes_the_same_decision(app: Starlette,
                                                       client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    """The model's decisions are a function of the journal: re-planning every step of a
    finished conversation from the journal's messages before it gives the same tool calls."""
    person = Person(app, client, alice)
    for text in ("show me matcha", "add two to my cart", "ceremonial, 30 g", "check out",
                 "deliver to 1-1 Marunouchi, Chiyoda-ku, Tokyo, JP", "where is my order?"):
        await person.say(text)
    conversation = await app.state.agent.conversation(person.session_id)
    messages = conversation.messages
    tools = list(app.state.agent.agents["shopper"].tools.values())
    steps = [i for i, m in enumerate(messages) if m.role == "assistant" and m.tool_calls]
    assert len(steps) >= 6
    for index in steps:
        decision, _ = plan(ModelRequest("", messages[:index], tools, None, {}))
        assert not isinstance(decision, str), decision
        calls = decision if isinstance(decision, list) else [decision]
        assert [(c.name, c.args) for c in calls] == [
            (call.name, call.args) for call in messages[index].tool_calls]
