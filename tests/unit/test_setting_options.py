"""The settings table (settings.py) and what is generated from it: the click options of every
command, their environment variables, and the README's settings section."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import httpx
import msgspec
import pytest
from click.testing import CliRunner

from commerce_agent import setting_options
from commerce_agent.app import create_app
from commerce_agent.cli import main
from commerce_agent.settings import ServerSettings, Settings

README = Path(__file__).resolve().parents[2] / "README.md"
ROWS = [*setting_options.table(ServerSettings), *setting_options.table(Settings)]


def test_the_readme_settings_section_is_current() -> None:
    text = README.read_text(encoding="utf-8")
    assert setting_options.rewrite(text) == text, (
        "run: python -m commerce_agent.setting_options README.md")


def test_every_field_has_help_an_option_and_an_environment_variable() -> None:
    fields = [field.name for struct in (ServerSettings, Settings)
              for field in msgspec.structs.fields(struct)]
    assert [row.field for row in ROWS] == fields
    for row in ROWS:
        assert row.help.endswith(".") and len(row.help) > 10, row.field
        assert row.envvar == "COMMERCE_AGENT_" + row.option.upper().replace("-", "_")
    assert {"pay_to", "max_promotions"} <= {row.field for row in ROWS}


def test_serve_takes_every_setting_as_an_option() -> None:
    serve = main.commands["serve"]
    params = {param.name: param for param in serve.params if isinstance(param, click.Option)}
    assert set(params) == {row.field for row in ROWS}
    for row in ROWS:
        assert params[row.field].envvar == row.envvar
        assert params[row.field].help == row.help
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "--max-promotions" in result.output
    assert "--cart-lifetime" in result.output and "--simulate / --no-simulate" in result.output


def _settings_from(args: list[str], env: dict[str, str]) -> tuple[int, str, Settings | None]:
    made: list[Settings] = []

    @click.command()
    @setting_options.options(Settings)
    def command(**given: Any) -> None:
        made.append(Settings(**setting_options.values(Settings, given)))

    result = CliRunner().invoke(command, args, env=env)
    return result.exit_code, result.output, made[0] if made else None


def test_options_and_environment_fill_the_settings() -> None:
    code, output, settings = _settings_from(
        ["--max-promotions", "5", "--no-simulate", "--cart-lifetime", "60"],
        {"COMMERCE_AGENT_PAY_TO": "0x000000000000000000000000000000000000dEaD",
         "COMMERCE_AGENT_OPENAI_TIMEOUT": "30", "COMMERCE_AGENT_SQLITE_SYNCHRONOUS": "NORMAL"})
    assert code == 0, output
    assert settings == Settings(max_promotions=5, simulate=False, cart_lifetime_seconds=60,
                                pay_to="0x000000000000000000000000000000000000dEaD",
                                openai_timeout=30.0, sqlite_synchronous="NORMAL",
                                base_url=Settings().base_url)


def test_nothing_given_is_the_structs_defaults() -> None:
    code, output, settings = _settings_from([], {})
    assert code == 0, output
    assert settings == Settings()


@pytest.mark.parametrize(("args", "message"), [
    (["--max-promotions", "0"], "--max-promotions"),
    (["--cart-lifetime", "abc"], "--cart-lifetime"),
    (["--sqlite-synchronous", "SOMETIMES"], "--sqlite-synchronous"),
    (["--openai-timeout", "9999"], "--openai-timeout"),
])
def test_bounds_and_choices_come_from_the_table(args: list[str], message: str) -> None:
    code, output, settings = _settings_from(args, {})
    assert code == 2 and message in output and settings is None


async def test_max_promotions_and_pay_to_reach_the_app(tmp_path: Path) -> None:
    pay_to = "0x000000000000000000000000000000000000dEaD"
    settings = Settings(db_path=str(tmp_path / "s.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", max_promotions=7,
                        pay_to=pay_to)
    app = create_app(settings)
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        capabilities = (await client.get("/capabilities")).text
    assert app.state.pay_to == pay_to and app.state.max_promotions == 7
    assert '"maxPromotions":7' in json.dumps(json.loads(capabilities), separators=(",", ":"))


def test_chat_takes_its_mount_and_token_from_the_table() -> None:
    chat = main.commands["chat"]
    params = {param.name: param for param in chat.params if isinstance(param, click.Option)}
    assert params["agent_mount"].opts == ["--agent-mount"]
    assert params["agent_mount"].envvar == "COMMERCE_AGENT_AGENT_MOUNT"
    assert params["auth_secret"].opts == ["--token"]
    assert params["auth_secret"].envvar == "COMMERCE_AGENT_AUTH_SECRET"
    assert params["auth_secret"].default is None


def test_every_db_option_is_the_tables() -> None:
    db = next(row for row in ROWS if row.field == "db_path")
    for name in ("seed", "init"):
        option = next(param for param in main.commands[name].params
                      if param.name == "db_path")
        assert isinstance(option, click.Option)
        assert (option.opts, option.envvar, option.default) == (["--db"], db.envvar,
                                                                db.default)
