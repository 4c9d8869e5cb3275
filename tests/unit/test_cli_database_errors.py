"""What the `commerce-agent` commands say when the database or their input is wrong: a
database that cannot be opened (no server on the port, a folder that does not exist) is one
line naming it, its password hidden, exit 1 and no traceback; a command that needs a database
that is not there names where it looked and creates nothing; the catalog commands name the
file, store or currency at fault and change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from commerce_agent.cli import main
from tests.support.seeded import copy_seeded

UNREACHABLE = "postgresql://shop:s3cret-pw@127.0.0.1:1/shop"  # nothing listens on port 1
NO_DB_ENV = {"COMMERCE_AGENT_DB": None}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env=NO_DB_ENV)


def said(result: Result) -> str:
    return " ".join(result.output.split())


@pytest.fixture
def seeded(tmp_path: Path, seeded_sqlite: Path) -> str:
    target = str(tmp_path / "shop.db")
    copy_seeded(seeded_sqlite, target)
    return target


@pytest.mark.parametrize("command", [["seed"], ["init"], ["serve", "--no-simulate"]])
def test_a_database_server_that_does_not_answer_is_one_line(command: list[str]) -> None:
    result = run(*command, "--db", UNREACHABLE)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert said(result).startswith(
        "Error: cannot open the database postgresql://shop:***@127.0.0.1:1/shop:")
    assert "s3cret-pw" not in result.output and "Traceback" not in result.output
    assert "Demo users" not in result.output


@pytest.mark.parametrize("command", [["seed"], ["init"]])
def test_a_database_file_that_cannot_be_made_names_its_path(tmp_path: Path,
                                                            command: list[str]) -> None:
    target = tmp_path / "no" / "such" / "folder" / "shop.db"
    result = run(*command, "--db", str(target))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert said(result) == f"Error: cannot open the database {target}: unable to open " \
        "database file"
    assert not target.parent.exists()


@pytest.mark.parametrize("command", [
    ["token", "create", "--user", "alice@example.com"],
    ["catalog", "export"],
    ["catalog", "import", "products.csv"],
    ["orders", "list"],
    ["returns", "list"],
    ["merchant", "create", "--email", "owner@example.com", "--store", "store_x"],
])
def test_a_command_needing_a_database_that_is_not_there_creates_none(
        tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "missing.db"
    result = run(*command, "--db", str(missing))
    assert result.exit_code == 2, result.output
    assert f"no commerce-agent database at {missing}" in said(result)
    assert "COMMERCE_AGENT_DB" in said(result)
    assert not missing.exists() and list(tmp_path.iterdir()) == []
    unreachable = run(*command, "--db", UNREACHABLE)
    assert unreachable.exit_code == 2 and "s3cret-pw" not in unreachable.output


def test_the_environment_names_the_database_when_no_option_does(seeded: str) -> None:
    result = CliRunner().invoke(main, ["token", "create", "--user", "nobody@example.com"],
                                env={"COMMERCE_AGENT_DB": seeded})
    assert result.exit_code == 1
    assert said(result) == "error: no user with email 'nobody@example.com'"


def test_init_then_the_first_steps_name_the_same_database(tmp_path: Path) -> None:
    target = str(tmp_path / "own.db")
    result = run("init", "--db", target)
    assert result.exit_code == 0, result.output
    assert f"Database ready: {target} (no sample stores)." in result.output
    assert f"--store-name \"My Shop\" --db {target}" in result.output
    export = run("catalog", "export", "--db", target)
    assert export.exit_code == 1
    assert said(export) == "error: name the store with --store (stores: none)"
    seeded = run("seed", "--db", target)
    assert seeded.exit_code == 0 and said(seeded) == "Seeded the sample stores."
    assert said(run("seed", "--db", target)) == "Sample stores already present."


def test_export_without_a_store_lists_them_and_with_one_writes_it(seeded: str,
                                                                   tmp_path: Path) -> None:
    listed = run("catalog", "export", "--db", seeded)
    assert listed.exit_code == 1 and "store_ceramics" in listed.output
    assert said(run("catalog", "export", "--store", "store_none", "--db", seeded)) == \
        "error: name the store with --store (stores: none)"
    output = tmp_path / "ceramics.json"
    written = run("catalog", "export", "--store", "store_ceramics", "--output", str(output),
                  "--db", seeded)
    assert written.exit_code == 0 and said(written) == f"Wrote {output}."
    store = json.loads(output.read_text(encoding="utf-8"))
    assert store["id"] == "store_ceramics" and store["catalogs"]
    stdout = run("catalog", "export", "--store", "store_ceramics", "--db", seeded)
    assert json.loads(stdout.output) == store


def _items_of(db: str) -> str:
    exported = run("catalog", "export", "--store", "store_ceramics", "--db", db)
    assert exported.exit_code == 0, exported.output
    return exported.output


@pytest.mark.parametrize(("args", "says"), [
    (["--store", "store_none"], "column '--store': no store with id 'store_none'"),
    (["--currency", "XYZ"], "column '--currency':"),
    (["--currency", "usd1"], "column '--currency':"),
])
def test_import_refusals_name_the_option_and_change_nothing(
        seeded: str, tmp_path: Path, args: list[str], says: str) -> None:
    csv = tmp_path / "products.csv"
    csv.write_text("Handle,Title,Variant Price\nmug,Mug,9.00\n", encoding="utf-8")
    before = _items_of(seeded)
    result = run("catalog", "import", str(csv), "--store-name", "Brand New", *args,
                 "--db", seeded)
    assert result.exit_code == 1, result.output
    assert says in said(result) and "Nothing was imported" in result.output
    assert _items_of(seeded) == before
    assert "Brand New" not in run("catalog", "export", "--db", seeded).output


def test_every_problem_of_an_import_is_a_line_of_its_own(seeded: str, tmp_path: Path) -> None:
    csv = tmp_path / "bad.csv"
    csv.write_text("Handle,Title,Variant Price\na,A,-1\nb,,2\nc,C,x\n", encoding="utf-8")
    result = run("catalog", "import", str(csv), "--store", "store_ceramics", "--db", seeded)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert [line.split(": ", 1)[1].split(" ", 1)[0] for line in lines[:-1]] == [
        f"{csv}:3:", f"{csv}:2:", f"{csv}:4:"]
    assert lines[-1] == "Nothing was imported (3 problem(s))."


def test_a_dry_run_counts_and_the_import_then_does_what_it_said(seeded: str,
                                                               tmp_path: Path) -> None:
    csv = tmp_path / "products.csv"
    csv.write_text("Handle,Title,Variant Price\nmug,Mug,9.00\nbowl,Bowl,5.00\n",
                   encoding="utf-8")
    dry = run("catalog", "import", str(csv), "--store-name", "Pottery Shed", "--dry-run",
              "--db", seeded)
    assert dry.exit_code == 0, dry.output
    assert said(dry) == f"Would import {csv} into store_pottery_shed (new store): 2 created, " \
        "0 updated, 0 unchanged."
    assert "store_pottery_shed" not in run("catalog", "export", "--db", seeded).output
    done = run("catalog", "import", str(csv), "--store-name", "Pottery Shed", "--db", seeded)
    assert said(done) == f"Imported {csv} into store_pottery_shed (new store): 2 created, " \
        "0 updated, 0 unchanged."
    again = run("catalog", "import", str(csv), "--store-name", "Pottery Shed", "--db", seeded)
    assert said(again) == f"Imported {csv} into store_pottery_shed: 0 created, 0 updated, " \
        "2 unchanged."
