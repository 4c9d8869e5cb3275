"""Errors of the agent routes: one exception, rendered as {error: {code, message}}.

The agent API has its own error shape (not the Commerce API's), so its mount renders every
failure itself: AgentError, the Commerce errors raised by shared helpers (413, 415), unknown
routes and methods (404, 405), and anything unexpected (500).
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from commerce_agent import error_codes
from commerce_agent.errors import CommerceError

log = logging.getLogger("commerce_agent.agent")


class AgentError(Exception):
    def __init__(self, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def not_found(session_id: str) -> AgentError:
    return AgentError(404, "session_not_found", f"Session {session_id!r} was not found.")


def unauthorized(message: str) -> AgentError:
    return AgentError(401, "unauthorized", message,
                      headers={"WWW-Authenticate": 'Bearer realm="agent"'})


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


async def handle(request: Request, exc: Exception) -> Response:
    if isinstance(exc, AgentError):
        return error_response(exc.status, exc.code, exc.message, exc.headers)
    if isinstance(exc, CommerceError):
        return error_response(exc.status, exc.code, exc.message, exc.headers)
    if isinstance(exc, HTTPException):
        code = error_codes.for_status(exc.status_code)
        message = exc.detail or HTTPStatus(exc.status_code).phrase
        return error_response(exc.status_code, code, message, dict(exc.headers or {}))
    log.exception("agent route failed", exc_info=exc)
    return error_response(500, "internal_error", "The server failed to handle this request.")
