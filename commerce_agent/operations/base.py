"""What a tool is: a name, a description, JSON Schema parameters, its effect and a coroutine.

Tools acting for a user belong to a connection (`commerce`); their public name carries the
`connection__<connection>__` prefix and they run as the user who granted the connection.

Every tool declares its effect: it only reads (READS), it edits the user's open cart (CART),
or it changes an existing order, return or subscription or moves money (CHANGES). A CHANGES
tool cannot be built without its approval-prompt writer; commerce_agent.operations.policy decides
from the effect alone that such a call waits for the person's approval.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import jsonschema

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import idempotency
from commerce_agent.db import Database
from commerce_agent.settings import Settings

COMMERCE = "commerce"

Effect = Literal["reads", "cart", "changes"]
READS: Effect = "reads"
CART: Effect = "cart"
CHANGES: Effect = "changes"


class ToolFailure(Exception):
    """A tool call that failed in a way the agent should see (code and message)."""

    def __init__(self, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def as_result(self) -> dict[str, Any]:
        result: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            result["details"] = self.details
        return result


@dataclass
class ToolContext:
    db: Database
    settings: Settings
    pay_to: str
    principal: Principal | None
    # Unique to this session, turn and step: makes a repeated call (after a crash) a replay.
    idempotency_key: str
    max_promotions: int = 3

    def user(self) -> Principal:
        if self.principal is None:
            raise ToolFailure("authorization_required", "This tool needs the commerce connection.")
        return self.principal

    def scope(self, method: str, route: str) -> idempotency.Scope:
        return idempotency.Scope(self.user().user_id, method, route, self.idempotency_key)


Run = Callable[[ToolContext, dict[str, Any]], Awaitable[Any]]
# Writes the approval prompt of one call, in a locale ("en", "fr", "ja"), from the data the
# call will act on; raises (ToolFailure, CommerceError) when the call cannot happen.
Approval = Callable[[ToolContext, dict[str, Any], str], Awaitable[str]]


@dataclass(frozen=True)
class Tool:
    short_name: str
    description: str
    parameters: dict[str, Any]
    run: Run
    connection: str | None = None
    # What the tool does to the world; no default, so every tool says it.
    effect: Effect = field(kw_only=True)
    # Required on CHANGES tools (and only there): what the person is asked to approve.
    approval: Approval | None = field(default=None, kw_only=True)
    # For MCP clients (commerce_agent/mcp): a display title, and whether the tool may remove or
    # undo something (destructiveHint; CHANGES tools always).
    title: str = ""
    destructive: bool = False

    def __post_init__(self) -> None:
        if self.effect not in (READS, CART, CHANGES):
            raise ValueError(f"Tool {self.short_name!r}: unknown effect {self.effect!r}.")
        if self.effect == CHANGES and self.approval is None:
            raise ValueError(f"Tool {self.short_name!r} changes orders or moves money: it "
                             "needs an approval-prompt writer.")
        if self.effect != CHANGES and self.approval is not None:
            raise ValueError(f"Tool {self.short_name!r} has an approval prompt but its effect "
                             f"is {self.effect!r}; only CHANGES tools ask for approval.")

    @property
    def display_title(self) -> str:
        return self.title or self.short_name.replace("_", " ").capitalize()

    @property
    def read_only(self) -> bool:
        return self.effect == READS

    @property
    def name(self) -> str:
        if self.connection is None:
            return self.short_name
        return f"connection__{self.connection}__{self.short_name}"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "parameters": self.parameters}

    def check_args(self, args: dict[str, Any]) -> None:
        errors = sorted(jsonschema.Draft202012Validator(self.parameters).iter_errors(args),
                        key=lambda error: list(error.absolute_path))
        if errors:
            first = errors[0]
            where = "/" + "/".join(str(part) for part in first.absolute_path)
            raise ToolFailure("invalid_arguments", f"{where}: {first.message}")


def money_text(value: Any) -> str:
    """{amount, currency} as "18.00 USD" for prompts and replies."""
    if isinstance(value, dict) and "amount" in value:
        return f"{value['amount']} {value.get('currency', '')}".strip()
    return str(value)


def schema(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or [],
            "additionalProperties": False}
