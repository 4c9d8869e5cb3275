"""The one error shape, rendered without an app: titles for any status, a browser's HTML page
or the JSON body through the localizer, the headers an error carries, HTTP errors without a
code, and the 503 and 500 answers."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from commerce_agent import errors
from commerce_agent.db.base import RETRY_AFTER_SECONDS, DatabaseUnavailable


def _request(path: str = "/carts/cart_1", **state: Any) -> Request:
    app = SimpleNamespace(state=SimpleNamespace(**state))
    return Request({"type": "http", "method": "GET", "path": path, "headers": [],
                    "query_string": b"", "app": app, "server": ("test", 80),
                    "scheme": "http"})


def _body(response: Response) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(bytes(response.body))
    return found


def test_the_body_names_code_status_and_instance() -> None:
    error = errors.CommerceError(409, "cart_locked", "The cart is locked.",
                                 params={"id": "cart_1"}, next_actions=[{"rel": "retry"}])
    body = errors.error_body(error, "/carts/cart_1")
    assert {key: body[key] for key in ("code", "status", "title", "detail", "instance",
                                       "type", "localizationKey", "nextActions")} == {
        "code": "cart_locked", "status": 409, "title": "Conflict",
        "detail": "The cart is locked.", "instance": "/carts/cart_1",
        "type": "https://commerce-agent.dev/errors/cart_locked",
        "localizationKey": "error.cart_locked", "nextActions": [{"rel": "retry"}]}
    assert body["userMessage"] == {"localizationKey": "error.cart_locked",
                                   "params": {"id": "cart_1"}}
    assert body["timestamp"].endswith("Z") and "+" not in body["timestamp"]


def test_a_status_http_does_not_name_is_titled_error() -> None:
    assert errors.error_body(errors.CommerceError(499, "x", "y"), "/")["title"] == "Error"


def test_validation_and_not_found_errors() -> None:
    invalid = errors.validation_error("/lines/0/quantity", "must be at least 1", 0)
    assert (invalid.status, invalid.message) == (
        400, "Invalid request: /lines/0/quantity must be at least 1.")
    assert invalid.details == [{"type": "validation", "field": "/lines/0/quantity",
                                "reason": "must be at least 1", "value": 0}]
    assert "value" not in errors.validation_error("/x", "is required").details[0]
    missing = errors.not_found("cart_item", "line_9")
    assert (missing.status, missing.code, missing.message) == (
        404, "cart_item_not_found", "No cart item with id 'line_9'.")


def test_json_goes_through_the_localizer_with_the_errors_headers() -> None:
    def localize(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        return {**body, "message": "traduit"}

    error = errors.CommerceError(429, "too_many_attempts", "Slow down.",
                                 headers={"Retry-After": "60"})
    response = errors.render_error(_request(localize_error=localize), error)
    assert response.status_code == 429 and response.headers["retry-after"] == "60"
    assert _body(response)["message"] == "traduit"
    assert _body(errors.render_error(_request(), error))["message"] == "Slow down."


def test_a_browser_page_wins_unless_it_declines() -> None:
    error = errors.CommerceError(404, "not_found", "Nothing here.")
    page = HTMLResponse("<h1>Not found</h1>", status_code=404)
    shown = errors.render_error(_request(error_page=lambda request, exc: page), error)
    assert shown is page
    declined = errors.render_error(_request(error_page=lambda request, exc: None), error)
    assert _body(declined)["code"] == "not_found"


async def test_an_http_error_without_a_code_takes_the_tables() -> None:
    response = await errors.http_error_handler(
        _request(), HTTPException(405, headers={"Allow": "GET, POST"}))
    assert response.headers["allow"] == "GET, POST"
    assert (_body(response)["code"], _body(response)["message"]) == (
        "method_not_allowed", "Method Not Allowed")
    told = await errors.http_error_handler(_request(), HTTPException(400, "Bad query."))
    assert (_body(told)["code"], _body(told)["message"]) == ("bad_request", "Bad query.")


async def test_an_unavailable_database_is_a_503_to_retry() -> None:
    response = await errors.database_unavailable_handler(_request(), DatabaseUnavailable("x"))
    assert response.status_code == 503
    assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert response.headers["cache-control"] == "no-store"
    assert _body(response)["code"] == "service_unavailable"


async def test_an_unexpected_error_says_nothing_of_itself() -> None:
    response = await errors.internal_error_handler(_request("/orders"),
                                                   RuntimeError("password=hunter2"))
    body = _body(response)
    assert response.status_code == 500 and body["code"] == "internal_error"
    assert b"hunter2" not in bytes(response.body) and body["instance"] == "/orders"
