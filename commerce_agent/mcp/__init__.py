"""The commerce tools as a Model Context Protocol server (the optional `mcp` extra).

One registry (commerce_agent.agent.tools), two front ends: the built-in agent calls the tools
from its turns, and any MCP client calls the same tools through `server.build_server`, served
over streamable HTTP at /mcp (`http`) or over stdio by `commerce-agent mcp` (`stdio`).
"""

from __future__ import annotations

import importlib.util

EXTRA_MISSING = ("MCP support needs the optional `mcp` extra: "
                 "pip install 'commerce-agent[mcp]'")


def available() -> bool:
    """Whether the `mcp` SDK is installed (the extra)."""
    return importlib.util.find_spec("mcp") is not None and \
        importlib.util.find_spec("mcp.server.lowlevel") is not None
