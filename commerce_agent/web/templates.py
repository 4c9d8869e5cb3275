"""The web pages' templates (commerce_agent/web/templates) and their security headers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from starlette.responses import HTMLResponse

from commerce_agent import templating
from commerce_agent.web import present, static_files

if TYPE_CHECKING:
    from jinja2 import Environment

PACKAGE = "commerce_agent.web"
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


def environment(*first: str) -> Environment:
    """The web pages' environment (commerce_agent/web/templates, after the templates of the
    packages `first`), with the shop's filters."""
    env = templating.environment(*first, PACKAGE)
    env.filters.update({
        "price": present.price, "when": present.when, "image": present.image_for,
        "gallery": present.gallery, "availability": present.availability, "ships": present.ships,
        "first_choice": present.first_choice, "variant_sold_out": present.variant_sold_out,
        "line_details": present.line_details,
        "static": static_files.url, "has_static": static_files.exists,
    })
    return env


def render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The template `name` rendered as a whole page with the web app's security headers."""
    return render_with((), name, status=status, headers=HEADERS, **context)


def render_with(packages: tuple[str, ...], name: str, /, *, status: int,
                headers: Mapping[str, str], **context: Any) -> HTMLResponse:
    """The template `name` of `packages` (or of the web app), which may extend base.html."""
    environment(*packages)  # the shop's filters registered on that environment
    return templating.render((*packages, PACKAGE), name, status=status, headers=headers,
                             **context)
