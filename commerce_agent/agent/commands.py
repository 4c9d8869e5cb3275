"""The agent's part of the CLI: `serve` options for the agent API, and `commerce-agent chat`."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
import httpx

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = [
    click.option("--agent-mount", default="/agent/v1", show_default=True,
                 envvar="COMMERCE_AGENT_AGENT_MOUNT",
                 help="Path prefix of the Agent Session Streaming API."),
    click.option("--journal", default="sqlite", show_default=True,
                 envvar="COMMERCE_AGENT_JOURNAL",
                 help="Where agent sessions are kept: memory, file[:DIR], sqlite (the --db "
                      "database, SQLite or PostgreSQL; also called database) or "
                      "redis://HOST:PORT/DB (needs the redis extra)."),
    click.option("--auth-secret", default="", envvar="COMMERCE_AGENT_AUTH_SECRET",
                 help="Require this bearer token on agent create, info and stream routes."),
    click.option("--openai-base-url", default="", envvar="COMMERCE_AGENT_OPENAI_BASE_URL",
                 help="OpenAI-compatible endpoint (e.g. https://api.openai.com/v1); enables "
                      "the openai-shopper agent."),
    click.option("--openai-api-key", default="", envvar="COMMERCE_AGENT_OPENAI_API_KEY",
                 help="API key sent to the OpenAI-compatible endpoint."),
    click.option("--openai-model", default="gpt-4o-mini", show_default=True,
                 envvar="COMMERCE_AGENT_OPENAI_MODEL",
                 help="Model name for the openai-shopper agent."),
    click.option("--openai-timeout", default=120.0, show_default=True,
                 type=click.FloatRange(1, 3600), envvar="COMMERCE_AGENT_OPENAI_TIMEOUT",
                 help="Seconds without a byte from the model endpoint before a retry."),
    click.option("--openai-max-retries", default=3, show_default=True,
                 type=click.IntRange(0, 10), envvar="COMMERCE_AGENT_OPENAI_MAX_RETRIES",
                 help="Retries of a model request after 429, 5xx, a timeout or a dropped "
                      "stream."),
    click.option("--openai-context-tokens", default=16000, show_default=True,
                 type=click.IntRange(1000), envvar="COMMERCE_AGENT_OPENAI_CONTEXT_TOKENS",
                 help="Estimated tokens the conversation may use; older tool results are "
                      "trimmed first. Set below the model's context length."),
    click.option("--agent-pace", default=0.0, show_default=True, type=click.FloatRange(0, 5),
                 envvar="COMMERCE_AGENT_AGENT_PACE",
                 help="Seconds the scripted agent waits between streamed reply fragments."),
]


def agent_options(command: F) -> F:
    """Add the agent options to a click command (they arrive as keyword arguments)."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def agent_settings(options: dict[str, Any]) -> dict[str, Any]:
    """Settings fields from the options `agent_options` added."""
    mount = "/" + str(options["agent_mount"]).strip("/")
    if mount == "/":
        raise click.UsageError("--agent-mount must be a path prefix such as /agent/v1")
    if options["journal"].startswith("redis"):
        from commerce_agent.agent.journals import redis as redis_journal

        if not redis_journal.available():
            raise click.UsageError(redis_journal.MISSING)
    return {"agent_mount": mount, "journal": options["journal"],
            "auth_secret": options["auth_secret"],
            "openai_base_url": options["openai_base_url"],
            "openai_api_key": options["openai_api_key"],
            "openai_model": options["openai_model"], "agent_pace": options["agent_pace"],
            "openai_timeout": options["openai_timeout"],
            "openai_max_retries": options["openai_max_retries"],
            "openai_context_tokens": options["openai_context_tokens"]}


def _write(text: str) -> None:
    click.echo(text, nl=False)
    sys.stdout.flush()


@click.command("chat")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True,
              envvar="COMMERCE_AGENT_URL", help="Base URL of a running commerce-agent server.")
@click.option("--agent", default=None, help="Agent name (default: the server's default agent).")
@click.option("--agent-mount", default="/agent/v1", show_default=True,
              envvar="COMMERCE_AGENT_AGENT_MOUNT", help="Path prefix of the agent API.")
@click.option("--token", default=None, envvar="COMMERCE_AGENT_AUTH_SECRET",
              help="Bearer token, when the server runs with --auth-secret.")
def chat_command(url: str, agent: str | None, agent_mount: str, token: str | None) -> None:
    """Chat with the shopping agent in the terminal."""
    from commerce_agent.agent.chat import chat

    try:
        code = asyncio.run(chat(url, agent, token, "/" + agent_mount.strip("/"), _write, input))
    except KeyboardInterrupt:
        code = 130
    except (OSError, httpx.HTTPError) as exc:
        click.echo(f"error: cannot reach {url}: {exc}", err=True)
        code = 1
    sys.exit(code)
