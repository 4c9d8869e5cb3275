"""The one exception type of the Commerce API and its renderer (one shape for every error)."""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent import error_codes
from commerce_agent.db.base import RETRY_AFTER_SECONDS, DatabaseUnavailable
from commerce_agent.responses import MEDIA_TYPE, json_response


class CommerceError(Exception):
    """An error the API answers with: status, code, message, details and recovery actions."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        details: list[dict[str, Any]] | None = None,
        next_actions: list[dict[str, Any]] | None = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or []
        self.next_actions = next_actions or []
        self.params = params or {}
        self.headers = headers or {}


def validation_error(field: str, reason: str, value: Any = None) -> CommerceError:
    """400 bad_request with one validation detail pointing at `field` (a JSON pointer)."""
    detail: dict[str, Any] = {"type": "validation", "field": field, "reason": reason}
    if value is not None:
        detail["value"] = value
    return CommerceError(400, "bad_request", f"Invalid request: {field} {reason}.",
                         details=[detail], params={"field": field})


def not_found(kind: str, resource_id: str) -> CommerceError:
    code = f"{kind}_not_found"
    return CommerceError(404, code, f"No {kind.replace('_', ' ')} with id {resource_id!r}.",
                         params={"id": resource_id})


def error_body(error: CommerceError, instance: str) -> dict[str, Any]:
    title = HTTPStatus(error.status).phrase if error.status in HTTPStatus._value2member_map_ \
        else "Error"
    return {
        "code": error.code,
        "message": error.message,
        "details": error.details,
        "userMessage": {"localizationKey": f"error.{error.code}", "params": error.params},
        "nextActions": error.next_actions,
        "type": f"https://commerce-agent.dev/errors/{error.code}",
        "title": title,
        "status": error.status,
        "detail": error.message,
        "instance": instance,
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "localizationKey": f"error.{error.code}",
    }


def render_error(request: Request, error: CommerceError) -> Response:
    localize = getattr(request.app.state, "localize_error", None)
    body = error_body(error, request.url.path)
    if localize is not None:
        body = localize(request, body)
    return json_response(body, status=error.status, headers=error.headers)


async def commerce_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CommerceError)
    return render_error(request, exc)


async def http_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = error_codes.for_status(exc.status_code)
    message = exc.detail if exc.detail else HTTPStatus(exc.status_code).phrase
    headers = dict(exc.headers or {})
    return render_error(request, CommerceError(exc.status_code, code, message, headers=headers))


def service_unavailable() -> CommerceError:
    """503 for a database that cannot answer now; the client retries after Retry-After."""
    return CommerceError(
        503, "service_unavailable",
        "The service cannot reach its database right now; try again shortly.",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"})


async def database_unavailable_handler(request: Request, exc: Exception) -> Response:
    """Every database failure that is not the request's fault (down, frozen, locked, a lost
    deadlock) becomes this one answer, whichever backend and route raised it."""
    assert isinstance(exc, DatabaseUnavailable)
    return render_error(request, service_unavailable())


async def internal_error_handler(request: Request, exc: Exception) -> Response:
    error = CommerceError(500, "internal_error", "The server failed to handle this request.")
    return json_response(error_body(error, request.url.path), status=500)


__all__ = ["MEDIA_TYPE", "CommerceError", "validation_error", "not_found", "render_error"]
