"""Only `serve`, `seed` and `init` create a database. Every other command, run where there is
none, fails at once naming the path it looked at and how to name the right one (`--db`,
COMMERCE_AGENT_DB), and creates nothing. `serve` says which `--db` other terminals use."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from commerce_agent import workers
from commerce_agent.cli import main
from tests.support.pg import fresh_database, require_postgres

COMMANDS = (["token", "create", "--user", "alice@example.com"], ["orders", "list"],
            ["orders", "advance", "ord_x"], ["returns", "list"], ["catalog", "export"],
            ["merchant", "create", "--email", "a@b.example", "--store", "store_x"],
            ["mcp"])


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_command_without_a_database_names_where_it_looked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*command, "--db", "./commerce-agent.db"])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert str(tmp_path / "commerce-agent.db") in text
    assert "--db" in text and "COMMERCE_AGENT_DB" in text
    assert os.listdir(tmp_path) == []  # nothing created


def test_the_default_and_the_environment_are_checked_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    default = runner.invoke(main, ["orders", "list"])
    assert default.exit_code == 2 and "commerce-agent.db" in default.output
    elsewhere = str(tmp_path / "shop" / "live.db")
    named = runner.invoke(main, ["orders", "list"], env={"COMMERCE_AGENT_DB": elsewhere})
    assert named.exit_code == 2 and elsewhere in " ".join(named.output.split())
    assert os.listdir(tmp_path) == []


def test_an_existing_database_is_used_from_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "shop.db")
    runner = CliRunner()
    assert runner.invoke(main, ["seed", "--db", db]).exit_code == 0
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    minted = runner.invoke(main, ["token", "create", "--user", "alice@example.com"],
                           env={"COMMERCE_AGENT_DB": db})
    assert minted.exit_code == 0 and minted.output.startswith("cat_"), minted.output
    assert os.listdir(tmp_path / "elsewhere") == []


def test_an_unmigrated_or_absent_postgres_database_is_refused() -> None:
    require_postgres()
    with fresh_database() as blank:
        result = CliRunner().invoke(main, ["orders", "list", "--db", blank])
        assert result.exit_code == 2, result.output
        assert "no commerce-agent database" in result.output and "--db" in result.output
        gone = blank.rsplit("/", 1)[0] + "/ca_test_no_such_database"
        assert CliRunner().invoke(main, ["orders", "list", "--db", gone]).exit_code == 2


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_serve_prints_the_console_and_the_db_for_other_terminals(
        make_db: Callable[[str], str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        backend: str) -> None:
    monkeypatch.chdir(tmp_path)
    db = "shop.db" if backend == "sqlite" else make_db("shop.db")
    monkeypatch.setattr(workers.uvicorn, "run", lambda app, **options: None)
    result = CliRunner().invoke(main, ["serve", "--no-samples", "--no-simulate", "--db", db,
                                       "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "Console: http://127.0.0.1:8123/console" in result.output
    expected = str(tmp_path / "shop.db") if backend == "sqlite" else db
    assert f"--db {expected}" in result.output
