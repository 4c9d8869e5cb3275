"""Click options and README documentation, generated from the settings table (settings.py).

`options(Settings)` decorates a command with one option per field: `--cart-lifetime` for
`cart_lifetime_seconds` (its `option`), the field's default (or `cli_default`), its help, its
bounds as a range, its Literal as choices, a bool as `--x/--no-x` (or a flag), and the
environment variable COMMERCE_AGENT_<OPTION>. The values arrive as keyword arguments named
after the fields; `values(Settings, kwargs)` picks them out.

`python -m commerce_agent.setting_options README.md` rewrites the README's block between
`<!-- settings -->` and `<!-- /settings -->`; tests/unit/test_setting_options.py checks it is
current.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import click
import msgspec
import msgspec.inspect as inspect

from commerce_agent.settings import ENV_PREFIX, ServerSettings, Settings

F = TypeVar("F", bound=Callable[..., Any])
Callback = Callable[[click.Context, click.Parameter, Any], Any]
BEGIN, END = "<!-- settings -->", "<!-- /settings -->"


class Setting(NamedTuple):
    """One row of the table: a field with what its option and its docs need."""

    field: str
    option: str  # without the dashes
    default: Any  # the option's default (None: computed when the command runs)
    help: str
    kind: inspect.Type
    extra: dict[str, Any]

    @property
    def envvar(self) -> str:
        return ENV_PREFIX + self.option.upper().replace("-", "_")


def table(struct: type[msgspec.Struct]) -> Iterator[Setting]:
    info = inspect.type_info(struct)
    assert isinstance(info, inspect.StructType)
    for field in info.fields:
        meta = field.type
        assert isinstance(meta, inspect.Metadata), f"{field.name} has no help text"
        extra = dict(meta.extra or {})
        help_text = (meta.extra_json_schema or {})["description"]
        yield Setting(field.name, extra.get("option", field.name.replace("_", "-")),
                      extra.get("cli_default", field.default), help_text, meta.type, extra)


def _click_type(kind: inspect.Type) -> Any:
    if isinstance(kind, inspect.LiteralType):
        return click.Choice([str(value) for value in kind.values])
    if isinstance(kind, inspect.IntType):
        return click.IntRange(kind.ge, kind.le) if (kind.ge, kind.le) != (None, None) else int
    if isinstance(kind, inspect.FloatType):
        return click.FloatRange(kind.ge, kind.le) \
            if (kind.ge, kind.le) != (None, None) else float
    return str


def click_option(setting: Setting, callback: Callback | None = None) -> Callable[[F], F]:
    names: list[str] = [f"--{setting.option}", setting.field]
    options: dict[str, Any] = {"help": setting.help, "envvar": setting.envvar,
                               "callback": callback}
    if isinstance(setting.kind, inspect.BoolType):
        if setting.extra.get("flag"):
            options["is_flag"] = True
        else:
            names[0] = f"--{setting.option}/--no-{setting.option}"
            options.update(default=setting.default, show_default=True)
    else:
        options.update(default=setting.default, type=_click_type(setting.kind),
                       show_default=setting.default not in (None, ""))
    decorator: Callable[[F], F] = click.option(*names, **options)
    return decorator


def options(*structs: type[msgspec.Struct],
            callbacks: dict[str, Callback] | None = None) -> Callable[[F], F]:
    """Add an option for every field of `structs` to a click command, in table order."""
    rows = [row for struct in structs for row in table(struct)]

    def decorate(command: F) -> F:
        for row in reversed(rows):
            command = click_option(row, (callbacks or {}).get(row.field))(command)
        return command

    return decorate


def option(struct: type[msgspec.Struct], field: str, callback: Callback | None = None, *,
           name: str | None = None, help_text: str | None = None) -> Callable[[F], F]:
    """The option of one field (e.g. `--db` for commands that only open the database); a
    client command may call it `--name` and say it in its own words (`help_text`), keeping
    the field's variable: `chat --token` is the server's `auth_secret`."""
    row = next(row for row in table(struct) if row.field == field)
    if name is not None or help_text is not None:
        variable = row.envvar
        row = row._replace(option=name or row.option, help=help_text or row.help)
        decorator: Callable[[F], F] = click.option(
            f"--{row.option}", row.field, default=row.default or None, help=row.help,
            envvar=variable, callback=callback)
        return decorator
    return click_option(row, callback)


def values(struct: type[msgspec.Struct], given: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of `struct`'s fields among a command's option values (None: the
    field's own default)."""
    return {row.field: given[row.field] for row in table(struct)
            if row.field in given and given[row.field] is not None}


def _default_text(row: Setting) -> str:
    if row.default is None:
        return "computed"
    if isinstance(row.kind, inspect.BoolType):
        return f"`--{row.option}`" if row.default else f"`--no-{row.option}`" \
            if not row.extra.get("flag") else "off"
    return f"`{row.default}`" if row.default != "" else "empty"


def readme_block() -> str:
    """The README's settings section: one row per option of `serve`."""
    lines = ["| option | environment variable | default | what it sets |", "|---|---|---|---|"]
    for struct in (ServerSettings, Settings):
        for row in table(struct):
            name = f"--{row.option}" if not isinstance(row.kind, inspect.BoolType) \
                or row.extra.get("flag") else f"--{row.option}/--no-{row.option}"
            text = row.help.replace("|", "\\|")
            lines.append(f"| `{name}` | `{row.envvar}` | {_default_text(row)} | {text} |")
    return "\n".join(lines)


def rewrite(text: str) -> str:
    """`text` with its settings block replaced by the current one."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError(f"no {BEGIN} … {END} block")
    return pattern.sub(lambda _: f"{BEGIN}\n{readme_block()}\n{END}", text)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m commerce_agent.setting_options README.md", file=sys.stderr)
        return 2
    path = Path(argv[0])
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
