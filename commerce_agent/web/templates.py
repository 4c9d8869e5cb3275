"""The web pages' templates (commerce_agent/web/templates) and their security headers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.responses import HTMLResponse

from commerce_agent import templating

if TYPE_CHECKING:
    from jinja2 import Environment

PACKAGE = "commerce_agent.web"
# Scripts and styles come only from this server; the API is called on the same origin.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                           "frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


def environment() -> Environment:
    """The web pages' environment (commerce_agent/web/templates)."""
    return templating.environment(PACKAGE)


def render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The template `name` rendered as a whole page with the web app's security headers."""
    return templating.render((PACKAGE,), name, status=status, headers=HEADERS, **context)
