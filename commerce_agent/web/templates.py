"""The Jinja2 environment of the web pages: templates load from the package, autoescaped."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from starlette.responses import HTMLResponse

from commerce_agent.web import present, static_files

if TYPE_CHECKING:
    from jinja2 import Environment

# Scripts and styles come only from this server; the API is called on the same origin.
# Images may come from anywhere: imported products keep their image URLs as given.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data: https: http:; connect-src 'self'; "
                           "form-action 'self'; "
                           "frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


@functools.cache
def environment() -> Environment:
    """Made on the first page served: a process that serves only the APIs never loads Jinja2."""
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=PackageLoader("commerce_agent.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update({
        "price": present.price, "when": present.when, "image": present.image_for,
        "gallery": present.gallery, "availability": present.availability, "ships": present.ships,
        "first_choice": present.first_choice, "variant_sold_out": present.variant_sold_out,
        "static": static_files.url, "has_static": static_files.exists,
    })
    return env


def render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The template `name` rendered as a whole page with the web app's security headers."""
    body = environment().get_template(name).render(**context)
    return HTMLResponse(body, status_code=status, headers=dict(HEADERS))
