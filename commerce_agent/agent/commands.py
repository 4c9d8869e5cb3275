"""The agent's part of the CLI: checking the agent settings `serve` takes (their options come
from the settings table), and `commerce-agent chat`."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import click
import httpx

from commerce_agent import setting_options
from commerce_agent.settings import Settings


def check_agent(fields: dict[str, Any]) -> dict[str, Any]:
    """Settings fields from a command's options, with the agent's checked: the mount as a
    path prefix, the redis extra for a redis journal."""
    mount = "/" + str(fields.get("agent_mount", Settings().agent_mount)).strip("/")
    if mount == "/":
        raise click.UsageError("--agent-mount must be a path prefix such as /agent/v1")
    if str(fields.get("journal", "")).startswith("redis"):
        from commerce_agent.agent.journals import redis as redis_journal

        if not redis_journal.available():
            raise click.UsageError(redis_journal.MISSING)
    return {**fields, "agent_mount": mount}


def _write(text: str) -> None:
    click.echo(text, nl=False)
    sys.stdout.flush()


@click.command("chat")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True,
              envvar="COMMERCE_AGENT_URL", help="Base URL of a running commerce-agent server.")
@click.option("--agent", default=None, help="Agent name (default: the server's default agent).")
@setting_options.option(Settings, "agent_mount")
@setting_options.option(Settings, "auth_secret", name="token",
                        help_text="Bearer token, when the server runs with --auth-secret.")
def chat_command(url: str, agent: str | None, agent_mount: str, auth_secret: str | None
                 ) -> None:
    """Chat with the shopping agent in the terminal."""
    from commerce_agent.agent.chat import chat

    try:
        code = asyncio.run(chat(url, agent, auth_secret, "/" + agent_mount.strip("/"), _write,
                                input))
    except KeyboardInterrupt:
        code = 130
    except (OSError, httpx.HTTPError) as exc:
        click.echo(f"error: cannot reach {url}: {exc}", err=True)
        code = 1
    sys.exit(code)
