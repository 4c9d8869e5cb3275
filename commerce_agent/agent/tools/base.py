"""What a tool is: a name, a description, JSON Schema parameters and a coroutine to run.

Tools acting for a user belong to a connection (`commerce`); their public name carries the
`connection__<connection>__` prefix and they run as the user who granted the connection.
Tools that spend money name a `confirm` coroutine that writes the approval prompt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import jsonschema

from commerce_agent.agent import storage
from commerce_agent.auth.tokens import Principal
from commerce_agent.db import Database
from commerce_agent.settings import Settings

COMMERCE = "commerce"


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

    def scope(self, method: str, route: str) -> storage.Scope:
        return storage.Scope(self.user().user_id, method, route, self.idempotency_key)


Run = Callable[[ToolContext, dict[str, Any]], Awaitable[Any]]
Confirm = Callable[[ToolContext, dict[str, Any]], Awaitable[str]]


@dataclass(frozen=True)
class Tool:
    short_name: str
    description: str
    parameters: dict[str, Any]
    run: Run
    connection: str | None = None
    # Present on tools that spend money: the approval prompt (what, and how much).
    confirm: Confirm | None = None
    # For MCP clients (commerce_agent/mcp): a display title, and whether the tool only reads
    # (readOnlyHint) or may remove or undo something (destructiveHint; spending tools always).
    title: str = ""
    read_only: bool = False
    destructive: bool = False

    @property
    def display_title(self) -> str:
        return self.title or self.short_name.replace("_", " ").capitalize()

    @property
    def spends(self) -> bool:
        return self.confirm is not None

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
