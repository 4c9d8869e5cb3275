"""Every tool the agents can use, in the order `info` lists them."""

from __future__ import annotations

from commerce_agent.operations import carts, catalog, lifecycle, orders, stores
from commerce_agent.operations.base import Tool


def all_tools() -> list[Tool]:
    return [*catalog.tools(), *stores.tools(), *carts.tools(), *orders.tools(), *lifecycle.tools()]
