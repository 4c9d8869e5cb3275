"""What MCP handlers work with: the database and settings of the server, and who is calling.

Over HTTP each request carries its caller (the bearer token, checked by `http.McpEndpoint` and
left in the ASGI scope); over stdio the process acts for the one person whose token it was
started with (or nobody: public tools only).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.orders.feed import OrderFeed
from commerce_agent.db import Database
from commerce_agent.operations import ToolContext, policy
from commerce_agent.settings import Settings

# Where the HTTP endpoint leaves the caller in the ASGI scope's state.
PRINCIPAL_KEY = "mcp_principal"


@dataclass
class Shop:
    db: Database
    settings: Settings
    pay_to: str
    order_feed: OrderFeed
    max_promotions: int
    # stdio only: the person this process acts for.
    principal: Principal | None = None

    @classmethod
    def of_app(cls, app: Any) -> Shop:
        state = app.state
        return cls(state.db, state.settings, state.pay_to, state.order_feed,
                   state.max_promotions)

    def caller(self, request: Any) -> Principal | None:
        """The caller of one MCP request: its HTTP request's, else the process's."""
        if request is None:
            return self.principal
        principal: Principal | None = request.scope.get("state", {}).get(PRINCIPAL_KEY)
        return principal

    def locale(self, request: Any) -> str:
        """The language an MCP request's Accept-Language names, if any ("" over stdio)."""
        if request is None:
            return ""
        return policy.session_locale(None, request.headers.get("accept-language"))

    def context(self, principal: Principal | None, key: str | None = None) -> ToolContext:
        """A tool context; each call without a key of its own is a new operation."""
        return ToolContext(self.db, self.settings, self.pay_to, principal,
                           key or f"mcp-{secrets.token_hex(12)}", self.max_promotions)
