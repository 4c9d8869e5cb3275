"""The commerce tools as a Model Context Protocol server (the optional `mcp` extra).

One registry (commerce_agent.operations), two front ends: the built-in agent calls the tools
from its turns, and any MCP client calls the same tools through `server.build_server`, served
over streamable HTTP at /mcp (`http`) or over stdio by `commerce-agent mcp` (`stdio`).
"""

from __future__ import annotations

import importlib.util
import os

EXTRA_MISSING = ("MCP support needs the optional `mcp` extra: "
                 "pip install 'commerce-agent[mcp]'")


def available() -> bool:
    """Whether the `mcp` SDK is installed (the extra), found without importing it: its import
    costs every process about 30 MB, paid only once somebody speaks MCP."""
    spec = importlib.util.find_spec("mcp")
    return spec is not None and any(
        os.path.isdir(os.path.join(folder, "server", "lowlevel"))
        for folder in spec.submodule_search_locations or ())
