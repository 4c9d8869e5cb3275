"""The one error-code table (commerce_agent/error_codes.py): every code the source raises is in
it with the status it is raised with, and every code answers in its API's one error shape."""

from __future__ import annotations

import ast
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent import error_codes
from commerce_agent.agent.errors import AgentError, handle
from commerce_agent.errors import CommerceError
from commerce_agent.routing import Route
from tests.support.i18n_codes import ROOT, walk

SHAPE = {"code", "message", "details", "userMessage", "nextActions", "type", "title", "status",
         "detail", "instance", "timestamp"}


def _raised() -> dict[str, list[tuple[str, str, int]]]:
    """(exception type, file:line, status) of every raise site whose status and code are
    literals, by code."""
    found: dict[str, list[tuple[str, str, int]]] = {}
    for path in Path(ROOT).rglob("*.py"):
        for call in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(call, ast.Call) or len(call.args) < 2:
                continue
            name = getattr(call.func, "id", getattr(call.func, "attr", ""))
            status, code = call.args[0], call.args[1]
            if name in ("CommerceError", "AgentError") and isinstance(status, ast.Constant) \
                    and isinstance(code, ast.Constant) and isinstance(code.value, str):
                site = f"{path.relative_to(ROOT)}:{call.lineno}"
                found.setdefault(code.value, []).append((name, site, int(status.value)))
    return found


RAISED = _raised()
AGENT_CODES = sorted(code for code, sites in RAISED.items()
                     if all(kind == "AgentError" for kind, _, _ in sites))
COMMERCE_CODES = sorted(set(error_codes.STATUS) - set(AGENT_CODES))


def test_every_raised_code_is_in_the_table_with_its_status() -> None:
    wrong = [f"{site}: {code} raised with {status}, the table says "
             f"{error_codes.STATUS.get(code)}"
             for code, sites in RAISED.items() for _, site, status in sites
             if error_codes.STATUS.get(code) != status]
    assert wrong == []


def test_every_traced_code_is_in_the_table() -> None:
    # Codes built by helpers (not_found("kind", id), a code passed through) included.
    traced = set(walk().codes) - {error_codes.SERVER_ERROR}
    assert sorted(traced - set(error_codes.STATUS)) == []


def test_the_table_holds_no_code_nothing_raises() -> None:
    assert sorted(set(error_codes.STATUS) - set(walk().codes) - set(RAISED)) == []


@pytest.mark.parametrize(("status", "code"), [
    (404, "not_found"), (405, "method_not_allowed"), (406, "not_acceptable"),
    (413, "payload_too_large"), (415, "unsupported_media_type"), (400, "bad_request"),
    (409, "bad_request"), (502, "error")])
def test_an_http_error_without_a_code_takes_the_tables(status: int, code: str) -> None:
    assert error_codes.for_status(status) == code


async def _raise(request: Request) -> Response:
    code = request.path_params["code"]
    raise CommerceError(error_codes.STATUS[code], code, f"Message for {code}.")


@pytest.fixture
def raising_route(app: Starlette) -> None:
    app.router.routes[:0] = [Route("/carts/test-error/{code}", _raise)]


async def test_every_commerce_code_answers_in_the_one_error_shape(
        client: httpx.AsyncClient, raising_route: None) -> None:
    assert "cart_not_found" in COMMERCE_CODES and "session_not_found" not in COMMERCE_CODES
    for code in COMMERCE_CODES:
        response = await client.get(f"/carts/test-error/{code}")
        status = error_codes.STATUS[code]
        assert response.status_code == status, code
        assert response.headers["content-type"].startswith("application/commerce+json")
        body = response.json()
        assert SHAPE <= body.keys(), code
        assert (body["code"], body["status"]) == (code, status)
        assert body["type"].endswith(f"/errors/{code}")
        assert body["instance"] == f"/carts/test-error/{code}"
        assert body["userMessage"]["localizationKey"] == f"error.{code}"
        assert body["message"] == body["detail"] and body["message"]


async def test_every_agent_code_answers_in_the_agent_error_shape() -> None:
    assert "session_not_found" in AGENT_CODES
    request = Request({"type": "http", "method": "GET", "path": "/agent/v1/x", "headers": []})
    for code in AGENT_CODES:
        response = await handle(request, AgentError(error_codes.STATUS[code], code, "Why."))
        assert response.status_code == error_codes.STATUS[code]
        assert bytes(response.body) == (b'{"error":{"code":"%s","message":"Why."}}'
                                        % code.encode())
