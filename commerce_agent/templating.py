"""The Jinja2 environments of the server-rendered pages: templates load from the package that
serves them (its `templates/` folder, shipped in the wheel), autoescaped, undefined names an
error. Made on the first page served: a process that serves only the APIs never loads Jinja2.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from starlette.responses import HTMLResponse

if TYPE_CHECKING:
    from jinja2 import Environment


@functools.cache
def environment(*packages: str) -> Environment:
    """The environment over the templates of `packages` (the first that has a name wins)."""
    from jinja2 import (
        ChoiceLoader,
        Environment,
        PackageLoader,
        StrictUndefined,
        select_autoescape,
    )

    return Environment(
        loader=ChoiceLoader([PackageLoader(package, "templates") for package in packages]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(packages: tuple[str, ...], name: str, /, *, status: int = 200,
           headers: Mapping[str, str], **context: Any) -> HTMLResponse:
    """The template `name` rendered as a whole page, with `headers`."""
    body = environment(*packages).get_template(name).render(**context)
    return HTMLResponse(body, status_code=status, headers=dict(headers))
