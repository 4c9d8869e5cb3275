"""`commerce-agent mcp`: the MCP server over stdio, for desktop clients and IDEs."""

from __future__ import annotations

import asyncio

import click

from commerce_agent.commerce.merchant import checked_database, require_existing
from commerce_agent.mcp import EXTRA_MISSING, available


@click.command("mcp")
@click.option("--url", default=None, envvar="COMMERCE_AGENT_MCP_URL",
              help="A running server to relay to (its base URL, or its /mcp endpoint).")
@click.option("--token", default=None, envvar="COMMERCE_AGENT_MCP_TOKEN",
              help="Bearer token of the customer to act for (without one: browsing only).")
@click.option("--db", "db_path", default=None, callback=checked_database,
              help="Run the tools in this process on this database (SQLite file or "
                   "postgresql:// URL) instead of --url; it must exist (serve makes it).")
def mcp_command(url: str | None, token: str | None, db_path: str | None) -> None:
    """Speak MCP on stdin/stdout: relay to --url's /mcp, or serve --db in-process."""
    if not available():
        raise click.ClickException(EXTRA_MISSING)
    if (url is None) == (db_path is None):
        raise click.UsageError("give either --url (a running server) or --db (a database file)")
    from commerce_agent.mcp import transports

    if db_path is not None:
        require_existing(db_path)
        asyncio.run(transports.serve_database(db_path, token))
        return
    assert url is not None
    endpoint = url.rstrip("/")
    if not endpoint.endswith("/mcp"):
        endpoint += "/mcp"
    asyncio.run(transports.bridge(endpoint, token))
