"""What `commerce-agent serve` refuses before it touches a database (usage errors, exit 2, the
option named), the settings' repr, and the README generator's own refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from commerce_agent import setting_options
from commerce_agent.cli import main
from commerce_agent.settings import Settings

NO_STRIPE = {"STRIPE_SECRET_KEY": None, "STRIPE_PUBLISHABLE_KEY": None,
             "STRIPE_WEBHOOK_SECRET": None}


@pytest.mark.parametrize(("args", "env", "says"), [
    (["--payments", "stripe"], NO_STRIPE, "--payments stripe needs STRIPE_SECRET_KEY"),
    (["--payments", "stripe"], {**NO_STRIPE, "STRIPE_SECRET_KEY": "sk_test_x"},
     "STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET"),
    (["--payments", "paypal"], {}, "'paypal' is not one of 'sandbox', 'stripe'"),
    (["--x402-network", "ethereum"], {}, "--x402-network"),
    (["--x402-network", "eip155:1337"], {}, "--x402-asset"),
    (["--x402-asset", "0x1234"], {}, "--x402-asset must be a token address"),
    (["--x402-facilitator", "ftp://facilitator.example"], {}, "must be an http(s) URL"),
    (["--agent-mount", "/"], {}, "--agent-mount must be a path prefix"),
    (["--workers", "2", "--journal", "memory"], {}, "--journal memory lives in one process"),
    (["--workers", "0"], {}, "--workers"),
    (["--port", "70000"], {}, "--port"),
    (["--log-level", "loud"], {}, "--log-level"),
])
def test_serve_refuses_a_misconfiguration_before_anything_runs(
        tmp_path: Path, args: list[str], env: dict[str, str | None], says: str) -> None:
    db = tmp_path / "never.db"
    result = CliRunner().invoke(main, ["serve", "--db", str(db), *args], env=env)
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split())
    assert "Demo users" not in result.output and not db.exists()


def test_the_environment_is_read_like_the_option(tmp_path: Path) -> None:
    db = tmp_path / "never.db"
    result = CliRunner().invoke(main, ["serve", "--db", str(db)],
                                env={"COMMERCE_AGENT_X402_NETWORK": "ethereum"})
    assert result.exit_code == 2 and "--x402-network" in result.output
    assert not db.exists()


def test_version_and_help_name_the_commands() -> None:
    runner = CliRunner()
    version = runner.invoke(main, ["--version"])
    assert version.exit_code == 0 and "version" in version.output
    listed = runner.invoke(main, ["--help"])
    assert listed.exit_code == 0
    for command in ("serve", "seed", "init", "token", "chat", "catalog", "orders", "returns",
                    "mcp"):
        assert f"  {command} " in listed.output or f"  {command}\n" in listed.output, command


def test_an_unknown_option_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["serve", "--cart-lifetime-seconds", "5"])
    assert result.exit_code == 2 and "No such option" in result.output


# --- the settings' repr ----------------------------------------------------------------------

def test_the_repr_masks_every_secret_and_keeps_the_rest() -> None:
    settings = Settings(auth_secret="agent-s3cret", openai_api_key="sk-live-key",
                        smtp="smtps://shop:hunter2@mail.example:465", max_promotions=4)
    shown = repr(settings)
    for secret in ("agent-s3cret", "sk-live-key", "hunter2"):
        assert secret not in shown
    assert "auth_secret='***'" in shown and "openai_api_key='***'" in shown
    assert "smtp='smtps://shop:***@mail.example:465'" in shown
    assert "max_promotions=4" in shown and shown.startswith("Settings(db_path=")


@pytest.mark.parametrize(("smtp", "shown"), [
    ("", ""),
    ("smtp://mail.example:25", "smtp://mail.example:25"),  # no user: nothing to hide
    ("smtp://shop@mail.example:25", "smtp://shop@mail.example:25"),  # no password
    ("smtp://shop:p@ss@mail.example", "smtp://shop:***@mail.example"),  # '@' in the password
    ("shop:secret@mail.example", "shop:secret@mail.example"),  # not a URL: left alone
])
def test_the_smtp_url_shows_its_user_never_its_password(smtp: str, shown: str) -> None:
    assert f"smtp={shown!r}" in repr(Settings(smtp=smtp))


def test_unset_secrets_stay_visibly_empty() -> None:
    shown = repr(Settings())
    assert "auth_secret=''" in shown and "openai_api_key=''" in shown


# --- the README generator --------------------------------------------------------------------

def test_rewrite_needs_the_settings_block() -> None:
    with pytest.raises(ValueError, match="no <!-- settings -->"):
        setting_options.rewrite("# A README without the block\n")
    rewritten = setting_options.rewrite("before\n<!-- settings -->\nstale\n<!-- /settings -->\n"
                                        "after\n")
    assert rewritten.startswith("before\n<!-- settings -->\n| option |")
    assert rewritten.endswith("<!-- /settings -->\nafter\n") and "stale" not in rewritten


def test_the_generator_rewrites_a_file_and_refuses_other_usage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("x\n<!-- settings -->\n<!-- /settings -->\n", encoding="utf-8")
    assert setting_options.main([str(readme)]) == 0
    assert "`--max-promotions`" in readme.read_text(encoding="utf-8")
    assert setting_options.main([]) == 2
    assert "usage:" in capsys.readouterr().err


def test_the_readme_rows_say_each_kind_of_default() -> None:
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip()
            for line in setting_options.readme_block().splitlines()[2:]}
    assert rows["`--simulate/--no-simulate`"] == "`--simulate`"  # a bool that is on
    assert rows["`--no-samples`"] == "off"  # a flag
    assert rows["`--base-url`"] == "computed"  # None: filled in when serve runs
    assert rows["`--smtp`"] == "empty"
    assert rows["`--max-promotions`"] == "`3`"
