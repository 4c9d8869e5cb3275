"""The agent's CLI options on `serve` and the `chat` command."""

from __future__ import annotations

from click.testing import CliRunner

from commerce_agent.cli import main


def test_serve_documents_the_agent_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--agent-mount", "--journal", "--auth-secret", "--openai-base-url",
                   "--openai-api-key", "--openai-model", "--agent-pace"):
        assert option in result.output


def test_a_root_agent_mount_is_refused() -> None:
    result = CliRunner().invoke(main, ["serve", "--agent-mount", "/"])
    assert result.exit_code == 2 and "--agent-mount must be a path prefix" in result.output


def test_chat_reports_an_unreachable_server() -> None:
    result = CliRunner().invoke(main, ["chat", "--url", "http://127.0.0.1:9"], input="")
    assert result.exit_code == 1 and "cannot reach http://127.0.0.1:9" in result.output
