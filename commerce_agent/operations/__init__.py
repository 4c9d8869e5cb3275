"""The operations the front ends offer: the Commerce API's own operations, called in-process
through its services, as one registry of tools.

The built-in agent (commerce_agent.agent) and the MCP server (commerce_agent.mcp) both adapt
this registry, and both ask its approval policy (`policy`) before an order changes or money
moves; neither imports the other, and nothing here imports either.
"""

from __future__ import annotations

from commerce_agent.operations.base import COMMERCE, Tool, ToolContext, ToolFailure
from commerce_agent.operations.registry import all_tools

__all__ = ["COMMERCE", "Tool", "ToolContext", "ToolFailure", "all_tools"]
