"""The agent settings `serve` checks before starting: the mount as a path prefix, and the
redis extra when a redis journal is asked for."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from commerce_agent.agent import commands
from commerce_agent.agent.journals import redis as redis_journal
from commerce_agent.cli import main
from commerce_agent.settings import Settings


@pytest.mark.parametrize(("given", "mount"), [
    ("agent/v2", "/agent/v2"), ("/agent/v2/", "/agent/v2"), ("//x//", "/x"),
    ("/a/b", "/a/b"),
])
def test_the_mount_becomes_one_path_prefix(given: str, mount: str) -> None:
    fields = commands.check_agent({"agent_mount": given, "journal": "memory", "other": 1})
    assert fields == {"agent_mount": mount, "journal": "memory", "other": 1}


def test_without_a_mount_the_default_is_used() -> None:
    assert commands.check_agent({})["agent_mount"] == Settings().agent_mount


@pytest.mark.parametrize("given", ["/", "//", ""])
def test_the_root_is_not_a_mount(given: str) -> None:
    with pytest.raises(click.UsageError, match="must be a path prefix"):
        commands.check_agent({"agent_mount": given})


def test_a_redis_journal_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redis_journal, "aioredis", None)  # as if `redis` were not installed
    with pytest.raises(click.UsageError) as refused:
        commands.check_agent({"journal": "redis://127.0.0.1:6379/0"})
    assert refused.value.message == redis_journal.MISSING
    assert commands.check_agent({"journal": "file:/tmp/x"})["journal"] == "file:/tmp/x"
    result = CliRunner().invoke(main, ["serve", "--journal", "redis://127.0.0.1:6379/0"])
    assert result.exit_code == 2 and "commerce-agent[redis]" in result.output


def test_chat_documents_its_options() -> None:
    result = CliRunner().invoke(main, ["chat", "--help"])
    assert result.exit_code == 0
    for option in ("--url", "--agent", "--agent-mount", "--token"):
        assert option in result.output
