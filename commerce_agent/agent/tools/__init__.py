"""Agent tools: the Commerce API's own operations, called in-process through its services."""

from __future__ import annotations

from commerce_agent.agent.tools.base import COMMERCE, Tool, ToolContext, ToolFailure
from commerce_agent.agent.tools.registry import all_tools

__all__ = ["COMMERCE", "Tool", "ToolContext", "ToolFailure", "all_tools"]
