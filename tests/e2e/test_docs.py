"""The README stays true: its curl walkthrough runs against a real server, and every command,
option and environment variable of the CLI is documented in it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from commerce_agent.cli import main
from tests.support.live import start_live_server

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        found[f"{prefix}{name}"] = command
        if isinstance(command, click.Group):
            found.update(_commands(command, f"{prefix}{name} "))
    return found


COMMANDS = _commands(main)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_and_option_is_in_the_readme(name: str) -> None:
    command = COMMANDS[name]
    if isinstance(command, click.Group):
        return
    assert f"commerce-agent {name}" in README, f"`commerce-agent {name}` is not in README.md"
    for param in command.params:
        if isinstance(param, click.Option):
            assert any(option in README for option in param.opts), \
                f"{name} {param.opts[0]} is not in README.md"
            for variable in [param.envvar] if isinstance(param.envvar, str) else \
                    param.envvar or []:
                assert variable in README, f"{variable} is not in README.md"


def test_the_curl_walkthrough_places_a_paid_order(tmp_path: Path) -> None:
    block = re.search(r"## Walkthrough with curl.*?```sh\n(.*?)```", README, re.S)
    assert block is not None
    server = start_live_server(str(tmp_path / "commerce-agent.db"))
    try:
        script = block.group(1).replace("http://127.0.0.1:8000", server.url)
        bin_dir = os.path.dirname(sys.executable)
        # As a reader pastes it: stop at the first failing command (`| head` may cut a pipe).
        result = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path,
                                capture_output=True, text=True, timeout=120,
                                env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    assert "HTTP/1.1 201 Created" in result.stdout
    assert re.search(r"(?im)^x-payment-response: \S+", result.stdout)
    assert (tmp_path / "402.json").exists()
