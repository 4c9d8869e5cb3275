"""The one policy between every model (and every MCP client) and the tools.

A tool's declared effect alone decides: a CHANGES tool (it changes an existing order, return
or subscription, or moves money) runs only after the person approved that very call, with
the prompt its approval writer made from the data the call will act on. A rejected call, or
one never answered, changes nothing, and its result says so unambiguously. Nothing here looks
at which model asked, what the tool is called or what the conversation said: a model cannot
talk its way past it, and a tool added later is covered by declaring its effect.

The agent's turn (commerce_agent.agent.turn) and MCP's confirmation
(commerce_agent.mcp.checkout) both ask this module; neither has its own rule. It lives beside
the operations (commerce_agent.operations), not in either front end.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, choose, names_a_language
from commerce_agent.operations.base import CHANGES, Tool, ToolContext

APPROVE = "approve"
REJECT = "reject"
OPTIONS = [APPROVE, REJECT]
REJECTED = "rejected_by_user"
# The languages the approval prompts are written in (commerce_agent/i18n/catalogs).
PROMPT_LOCALES = ("en", "fr", "ja")

Verdict = Literal["run", "ask", "rejected"]


def needs_approval(tool: Tool) -> bool:
    return tool.effect == CHANGES


def verdict(tool: Tool, decision: str | None) -> Verdict:
    """What to do with a call of `tool` given the person's answer to it (None: not asked)."""
    if not needs_approval(tool):
        return "run"
    if decision is None:
        return "ask"
    return "run" if decision == APPROVE else "rejected"


async def prompt(tool: Tool, ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    """The approval prompt for one call, in `locale`; raises when the call cannot happen."""
    assert tool.approval is not None  # Tool refuses a CHANGES tool without one
    return await tool.approval(ctx, args, prompt_locale(locale))


def _target(tool: Tool, args: dict[str, Any]) -> tuple[str, str]:
    if "orderId" in args:
        return "orderId", str(args["orderId"])
    if "cartId" in args:
        return "cartId", str(args["cartId"])
    return "", ""


def rejected(tool: Tool, args: dict[str, Any]) -> dict[str, Any]:
    """The tool result of a call the person rejected: nothing changed, and on what."""
    key, value = _target(tool, args)
    if key == "cartId":
        what = f"No order was placed from cart {value} and nothing was charged"
    elif key == "orderId":
        what = f"Order {value} was not changed and nothing was charged or refunded"
    else:
        what = "Nothing was changed"
    result: dict[str, Any] = {
        "code": REJECTED, "tool": tool.short_name, "changed": False,
        "message": f"The user rejected {tool.short_name}. {what}."}
    if key:
        result[key] = value
    return result


# Keys of the session record's `decisions` beside `<toolCallId>` → the answer: the digest of the
# prompt the person answered, how often the call was asked, and that the approved call started.
def approved_key(tool_call_id: str) -> str:
    return f"approved:{tool_call_id}"


def asked_key(tool_call_id: str) -> str:
    return f"asked:{tool_call_id}"


def started_key(tool_call_id: str) -> str:
    return f"started:{tool_call_id}"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def still_approved(decisions: dict[str, str], tool_call_id: str, prompt_now: str) -> bool:
    """Whether the prompt written now is the one the person approved: what the call will act
    on has not changed since they answered."""
    return decisions.get(approved_key(tool_call_id)) == digest(prompt_now)


def prompt_locale(locale: str | None) -> str:
    """`locale` (a language tag) as one of PROMPT_LOCALES, else the default."""
    language = (locale or "").replace("_", "-").split("-")[0].lower()
    return language if language in PROMPT_LOCALES else DEFAULT_LOCALE


def session_locale(stated: Any, accept_language: str | None) -> str:
    """The locale a new session carries: its clientContext's `locale` (a language tag), else
    the creating request's Accept-Language when that names a language; "" for neither."""
    for value in (stated, accept_language):
        if isinstance(value, str) and names_a_language(value):
            found = choose(value, PROMPT_LOCALES, "")
            if found:
                return found
    return ""
