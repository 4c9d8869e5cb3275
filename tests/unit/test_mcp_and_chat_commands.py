"""`commerce-agent mcp` and `commerce-agent chat` up to the point where they would talk: which
endpoint the bridge relays to, what each needs given, and what an unreachable server or a
bad database answers (no servers: the transports are replaced where they would start)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from commerce_agent.agent.commands import check_agent
from commerce_agent.cli import main
from commerce_agent.mcp import transports


@pytest.fixture
def relayed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    calls: list[tuple[str, str | None]] = []

    async def bridge(url: str, token: str | None) -> None:
        calls.append((url, token))

    monkeypatch.setattr(transports, "bridge", bridge)
    return calls


@pytest.mark.parametrize(("given", "endpoint"), [
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000/mcp"),
    ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/mcp"),
    ("http://127.0.0.1:8000/mcp", "http://127.0.0.1:8000/mcp"),
    ("http://127.0.0.1:8000/mcp/", "http://127.0.0.1:8000/mcp"),
    ("https://shop.example/base", "https://shop.example/base/mcp"),
])
def test_the_bridge_relays_to_the_servers_mcp_endpoint(
        relayed: list[tuple[str, str | None]], given: str, endpoint: str) -> None:
    result = CliRunner().invoke(main, ["mcp", "--url", given, "--token", "tok_1"])
    assert result.exit_code == 0, result.output
    assert relayed == [(endpoint, "tok_1")]


def test_the_token_may_come_from_the_environment(
        relayed: list[tuple[str, str | None]]) -> None:
    result = CliRunner().invoke(main, ["mcp", "--url", "http://127.0.0.1:8000"],
                                env={"COMMERCE_AGENT_MCP_TOKEN": "tok_env"})
    assert result.exit_code == 0, result.output
    assert relayed == [("http://127.0.0.1:8000/mcp", "tok_env")]
    anonymous = CliRunner().invoke(main, ["mcp", "--url", "http://127.0.0.1:8000"], env={})
    assert anonymous.exit_code == 0 and relayed[-1][1] is None


def test_either_a_server_or_a_database_is_needed(relayed: list[tuple[str, str | None]],
                                                 tmp_path: Path) -> None:
    neither = CliRunner().invoke(main, ["mcp"])
    assert neither.exit_code == 2 and "either --url" in neither.output
    both = CliRunner().invoke(main, ["mcp", "--url", "http://x", "--db",
                                     str(tmp_path / "shop.db")])
    assert both.exit_code == 2
    assert relayed == []


def test_a_missing_database_file_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    result = CliRunner().invoke(main, ["mcp", "--db", str(missing)])
    assert result.exit_code != 0
    assert not missing.exists()


async def test_an_unknown_token_ends_the_in_process_server(settings: Any, app: Any) -> None:
    with pytest.raises(SystemExit) as ended:
        await transports.serve_database(settings.db_path, "not-a-token")
    assert "unknown, expired or revoked" in str(ended.value)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_chat_with_no_server_says_it_cannot_reach_it() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    result = CliRunner().invoke(main, ["chat", "--url", url], input="hello\n")
    assert result.exit_code == 1
    assert f"error: cannot reach {url}" in result.output


@pytest.mark.parametrize(("mount", "kept"), [("agent/v1", "/agent/v1"), ("/agent/v1/", "/agent/v1"),
                                           ("//a//", "/a")])
def test_the_agent_mount_is_one_path_prefix(mount: str, kept: str) -> None:
    assert check_agent({"agent_mount": mount})["agent_mount"] == kept


@pytest.mark.parametrize("mount", ["/", "", "///"])
def test_a_mount_that_is_no_prefix_is_refused(mount: str) -> None:
    with pytest.raises(click.UsageError, match="path prefix"):
        check_agent({"agent_mount": mount})
