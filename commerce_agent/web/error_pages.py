"""Errors as HTML pages for browsers, JSON for everyone else (content negotiation).

A GET whose Accept header asks for text/html ahead of any JSON type is a browser following a
link: it gets a page in the shop's look with the error's status (404 for an unknown product,
store, order or path; 410 for a gone cart), and the error's code in a meta tag. API clients
(which send application/json, a JSON type first, or */*) get the one JSON error shape.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.errors import CommerceError
from commerce_agent.web.site_layout import layout_values
from commerce_agent.web.templates import render

HEADINGS = {404: "Not found", 410: "No longer here", 401: "Sign in needed",
            403: "Not allowed", 405: "Not allowed here"}
MESSAGES = {404: "There is nothing at this address: the link may be wrong, or the page was "
                 "removed.",
            410: "This is gone for good."}


def wants_html(request: Request) -> bool:
    if request.method not in ("GET", "HEAD"):
        return False
    accept = request.headers.get("accept", "").lower()
    html = accept.find("text/html")
    if html < 0:
        return False
    json = accept.find("json")
    return json < 0 or html < json


def error_page(request: Request, error: CommerceError) -> Response | None:
    """The HTML page for `error`, or None when the client wants JSON."""
    if not wants_html(request):
        return None
    values = layout_values(request, "error", None)
    heading = HEADINGS.get(error.status, "Something went wrong")
    message = MESSAGES.get(error.status, error.message)
    response = render("error.html", status=error.status, heading=heading, message=message,
                      code=error.code, **values)
    for name, value in (error.headers or {}).items():
        if name.lower() not in ("content-type", "cache-control"):
            response.headers[name] = value
    return response
