"""Every setting from its COMMERCE_AGENT_* environment variable, generated from the settings
table (not listed by hand): a value other than the default reaches the struct through the
variable alone, an option given on the command line wins over it, a value past a bound or
outside a choice is refused naming the option; and `serve --workers N` hands every setting
to its worker processes unchanged (workers.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import msgspec
import msgspec.inspect as inspect
import pytest
import uvicorn
from click.testing import CliRunner

from commerce_agent import setting_options, workers
from commerce_agent.setting_options import Setting, table
from commerce_agent.settings import ServerSettings, Settings

ROWS = [(struct, row) for struct in (Settings, ServerSettings) for row in table(struct)]
IDS = [row.field for _, row in ROWS]


def other_value(row: Setting) -> tuple[str, Any]:
    """A valid value of the field other than its default: (the variable's text, the value)."""
    kind, default = row.kind, row.default
    if isinstance(kind, inspect.LiteralType):
        choice = next(value for value in kind.values if value != default)
        return str(choice), choice
    if isinstance(kind, inspect.BoolType):
        return ("false", False) if default else ("true", True)
    if isinstance(kind, inspect.IntType):
        low = kind.ge if kind.ge is not None else 0
        value = low + 1 if default != low + 1 else low + 2
        return str(value), value
    if isinstance(kind, inspect.FloatType):
        low = kind.ge if kind.ge is not None else 0.0
        value = low + 0.25 if default != low + 0.25 else low + 0.5
        return repr(value), value
    assert isinstance(kind, inspect.StrType), (row.field, kind)
    value = f"from-the-environment-{row.field}"
    return value, value


def _made(struct: type[msgspec.Struct], args: list[str], env: dict[str, str | None]
          ) -> tuple[int, str, Any]:
    made: list[Any] = []

    @click.command()
    @setting_options.options(struct)
    def command(**given: Any) -> None:
        made.append(struct(**setting_options.values(struct, given)))

    result = CliRunner().invoke(command, args, env=env)
    return result.exit_code, result.output, made[0] if made else None


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No COMMERCE_AGENT_* variable of the machine's leaks into a test."""
    for _, row in ROWS:
        monkeypatch.delenv(row.envvar, raising=False)
    yield


def test_the_table_has_every_field_of_both_structs() -> None:
    assert len(ROWS) == len(Settings.__struct_fields__) + len(ServerSettings.__struct_fields__)
    assert len({row.envvar for _, row in ROWS}) == len(ROWS)
    assert all(row.envvar.startswith("COMMERCE_AGENT_") for _, row in ROWS)


@pytest.mark.parametrize(("struct", "row"), ROWS, ids=IDS)
def test_each_setting_is_read_from_its_environment_variable(
        struct: type[msgspec.Struct], row: Setting) -> None:
    text, value = other_value(row)
    code, output, made = _made(struct, [], {row.envvar: text})
    assert code == 0, output
    assert getattr(made, row.field) == value
    # Nothing else moved: the struct is its defaults but for this field.
    assert made == msgspec.structs.replace(struct(), **{row.field: value})


@pytest.mark.parametrize(("struct", "row"),
                         [(s, r) for s, r in ROWS
                          if not isinstance(r.kind, inspect.BoolType) or not r.extra.get("flag")],
                         ids=[r.field for s, r in ROWS
                              if not isinstance(r.kind, inspect.BoolType)
                              or not r.extra.get("flag")])
def test_the_option_wins_over_the_variable(struct: type[msgspec.Struct], row: Setting) -> None:
    text, value = other_value(row)
    if isinstance(row.kind, inspect.BoolType):
        args = [f"--{row.option}" if row.default else f"--no-{row.option}"]
        expected = row.default
    elif isinstance(row.kind, inspect.StrType):
        expected = f"from-the-option-{row.field}"
        args = [f"--{row.option}", expected]
    else:  # the default, given on the command line, over another value in the variable
        args, expected = [f"--{row.option}", str(row.default)], row.default
    code, output, made = _made(struct, args, {row.envvar: text})
    assert code == 0, output
    assert getattr(made, row.field) == expected != value


BOUNDED = [(struct, row) for struct, row in ROWS
           if isinstance(row.kind, (inspect.IntType, inspect.FloatType))
           and (row.kind.ge is not None or row.kind.le is not None)]


@pytest.mark.parametrize(("struct", "row"), BOUNDED, ids=[row.field for _, row in BOUNDED])
def test_a_variable_past_a_bound_is_refused_naming_the_option(
        struct: type[msgspec.Struct], row: Setting) -> None:
    kind = row.kind
    assert isinstance(kind, (inspect.IntType, inspect.FloatType))
    outside = [str(kind.ge - 1)] if kind.ge is not None else []
    outside += [str(kind.le + 1)] if kind.le is not None else []
    for text in [*outside, "not-a-number"]:
        code, output, made = _made(struct, [], {row.envvar: text})
        assert code == 2 and made is None, (text, output)
        assert f"--{row.option}" in output


CHOICES = [(struct, row) for struct, row in ROWS if isinstance(row.kind, inspect.LiteralType)]


@pytest.mark.parametrize(("struct", "row"), CHOICES, ids=[row.field for _, row in CHOICES])
def test_a_variable_outside_the_choices_is_refused(struct: type[msgspec.Struct],
                                                   row: Setting) -> None:
    code, output, made = _made(struct, [], {row.envvar: "none-of-these"})
    assert code == 2 and made is None and f"--{row.option}" in output


@pytest.mark.parametrize(("text", "value"), [("1", True), ("yes", True), ("on", True),
                                             ("0", False), ("no", False), ("off", False)])
def test_a_boolean_variable_reads_the_usual_spellings(text: str, value: bool) -> None:
    code, output, made = _made(Settings, [], {"COMMERCE_AGENT_SIMULATE": text})
    assert code == 0 and made.simulate is value, output
    code, output, _ = _made(Settings, [], {"COMMERCE_AGENT_SIMULATE": "maybe"})
    assert code == 2 and "--simulate" in output


def test_secrets_from_the_environment_are_masked_in_the_repr() -> None:
    code, _, made = _made(Settings, [], {
        "COMMERCE_AGENT_AUTH_SECRET": "agent-secret-1",
        "COMMERCE_AGENT_OPENAI_API_KEY": "sk-live-2",
        "COMMERCE_AGENT_SMTP": "smtp://mailer:mail-pass-3@mail.example:587"})
    assert code == 0
    shown = repr(made)
    for secret in ("agent-secret-1", "sk-live-2", "mail-pass-3"):
        assert secret not in shown
    assert "smtp://mailer:***@mail.example:587" in shown


# --- workers: the settings travel to every process ----------------------------------------


def every_field_changed(db_path: str) -> Settings:
    values = {row.field: other_value(row)[1] for row in table(Settings)}
    # Those the app checks when it starts: other values it accepts.
    values.update(db_path=db_path, sqlite_synchronous="NORMAL", journal="sqlite",
                  payments="sandbox", x402_network="base-sepolia", x402_asset="",
                  x402_asset_name="", x402_asset_version="", x402_facilitator="",
                  simulate=False, agent_mount="/agents/v2", base_url="http://shop.example",
                  openai_base_url="http://127.0.0.1:9/v1", smtp="", stripe_api_base="",
                  mail_from="orders@shop.example",
                  pay_to="0x000000000000000000000000000000000000dEaD")
    assert sum(values[row.field] != row.default for row in table(Settings)) >= 20
    return Settings(**values)


@pytest.fixture
def uvicorn_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, dict[str, Any]]]]:
    """What `serve` hands uvicorn (which would listen, and not return, in a test). gc as the
    test found it afterwards: serving tunes it for the whole process."""
    calls: list[tuple[Any, dict[str, Any]]] = []
    threshold = gc.get_threshold()
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))
    monkeypatch.delenv(workers.SETTINGS_VARIABLE, raising=False)
    monkeypatch.delenv(workers.SUPERVISOR_VARIABLE, raising=False)
    yield calls
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_several_workers_get_every_setting_through_the_environment(
        tmp_path: Path, uvicorn_runs: list[tuple[Any, dict[str, Any]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = every_field_changed(str(tmp_path / "w.db"))
    workers.serve(settings, host="127.0.0.1", port=0, workers=3, log_level="warning")
    [(app, options)] = uvicorn_runs
    assert app == workers.FACTORY and options["factory"] is True
    assert (options["workers"], options["access_log"]) == (3, False)
    assert options["timeout_graceful_shutdown"] == workers.GRACEFUL_SHUTDOWN_SECONDS
    encoded = workers.os.environ[workers.SETTINGS_VARIABLE]
    assert msgspec.json.decode(encoded, type=Settings) == settings
    # A worker started by hand (no supervisor) builds its app from them, without seeding.
    monkeypatch.delenv(workers.SUPERVISOR_VARIABLE)
    worker_app = workers.app_from_environment()
    assert worker_app.state.settings == settings


async def test_a_worker_does_not_seed_the_database(
        tmp_path: Path, uvicorn_runs: list[tuple[Any, dict[str, Any]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(db_path=str(tmp_path / "empty.db"), simulate=False,
                        sqlite_synchronous="NORMAL")
    monkeypatch.setenv(workers.SETTINGS_VARIABLE, msgspec.json.encode(settings).decode())
    app = workers.app_from_environment()
    async with app.router.lifespan_context(app):
        rows = await app.state.db.fetch_all("SELECT id FROM stores")
    assert rows == []  # the parent seeds once, before any worker starts


def test_one_worker_serves_the_app_in_this_process_and_logs_requests_at_info(
        tmp_path: Path, uvicorn_runs: list[tuple[Any, dict[str, Any]]]) -> None:
    settings = Settings(db_path=str(tmp_path / "one.db"), simulate=False)
    workers.serve(settings, host="127.0.0.1", port=0, workers=1, log_level="info")
    [(app, options)] = uvicorn_runs
    assert app.state.settings == settings and options["factory"] is False
    assert options["access_log"] is True
    assert workers.SETTINGS_VARIABLE not in workers.os.environ
    assert gc.get_threshold()[0] == 20_000  # tuned for serving


def test_a_worker_started_by_another_kind_of_process_is_told_how(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(workers.SETTINGS_VARIABLE, raising=False)
    with pytest.raises(RuntimeError, match="commerce-agent serve --workers N"):
        workers.app_from_environment()
    assert workers.die_with_supervisor(0) is None  # not started by serve: nothing to watch
