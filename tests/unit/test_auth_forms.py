"""The account pages' browser plumbing without a server: form bodies read (or refused) within
their limit, the CSRF token bound to the nonce cookie and the session, the guest cookie read
only when well formed, and cookies marked Secure only behind https."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message

from commerce_agent.auth import guests, web
from commerce_agent.auth.tokens import Principal

FORM = "application/x-www-form-urlencoded"
KEY = "k" * 32
NONCE = "n" * 24
ALICE = Principal("user_alice", "alice@example.com", "Alice")


def _request(body: bytes = b"", *, content_type: str = FORM, cookies: str = "",
             base_url: str = "http://localhost:8000") -> Request:
    chunks = [body[at:at + 4096] for at in range(0, len(body), 4096)] or [b""]

    async def receive() -> Message:
        chunk = chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    headers = [(b"content-type", content_type.encode())]
    if cookies:
        headers.append((b"cookie", cookies.encode()))
    app = SimpleNamespace(state=SimpleNamespace(settings=SimpleNamespace(base_url=base_url)))
    scope: dict[str, Any] = {"type": "http", "method": "POST", "path": "/", "headers": headers,
                             "query_string": b"", "app": app}
    return Request(scope, receive)


async def test_a_form_keeps_every_value_and_blank_fields() -> None:
    request = _request(b"size=S&size=M&note=&name=Zo%C3%AB+B")
    assert await web.read_form_fields(request) == {"size": ["S", "M"], "note": [""],
                                                   "name": ["Zoë B"]}
    assert await web.read_form(_request(b"size=S&size=M")) == {"size": "S"}


@pytest.mark.parametrize("content_type", ["application/json", "multipart/form-data", "",
                                          "text/plain"])
async def test_another_body_type_is_no_form(content_type: str) -> None:
    assert await web.read_form(_request(b"a=1", content_type=content_type)) is None


async def test_the_form_type_is_matched_without_case_or_charset() -> None:
    request = _request(b"a=1", content_type="Application/X-WWW-Form-Urlencoded; charset=UTF-8")
    assert await web.read_form(request) == {"a": "1"}


async def test_a_form_past_its_limit_is_refused_with_413() -> None:
    request = _request(b"a=" + b"x" * web.FORM_LIMIT)
    assert await web.read_form(request) is None
    assert request.state.form_too_large is True
    fitting = _request(b"a=" + b"x" * (web.FORM_LIMIT - 2))
    assert await web.read_form(fitting) == {"a": "x" * (web.FORM_LIMIT - 2)}


@pytest.mark.parametrize("body", [b"a=%FF", b"a=Zo%EB", b"a=\xff", b"a=1%00", b"a%00=1",
                                  b"&".join(b"f%d=1" % n for n in range(101))])
async def test_unreadable_forms_are_none(body: bytes) -> None:
    assert await web.read_form(_request(body)) is None


def _browser(request: Request, *, principal: Principal | None = ALICE, nonce: str = NONCE,
             fresh: bool = False) -> web.Browser:
    return web.Browser(request, KEY, principal, nonce, fresh)


def test_the_csrf_token_is_bound_to_nonce_and_session() -> None:
    signed_in = _browser(_request(cookies=f"{web.SESSION_COOKIE}=session-1"))
    token = signed_in.csrf_token()
    assert signed_in.csrf_ok({web.CSRF_FIELD: token})
    assert token == signed_in.csrf_token("session-1")
    assert token != signed_in.csrf_token("session-2")
    other_nonce = _browser(_request(cookies=f"{web.SESSION_COOKIE}=session-1"),
                           nonce="m" * 24)
    assert not other_nonce.csrf_ok({web.CSRF_FIELD: token})
    anonymous = _browser(_request(cookies=f"{web.SESSION_COOKIE}=session-1"), principal=None)
    assert anonymous.session is None  # a cookie without a live session binds nothing
    assert anonymous.csrf_token() == anonymous.csrf_token("") != token


@pytest.mark.parametrize("form", [{}, {web.CSRF_FIELD: ""}, {web.CSRF_FIELD: "0" * 64},
                                  {"other": "x"}])
def test_a_form_without_the_right_token_is_refused(form: dict[str, str]) -> None:
    assert not _browser(_request()).csrf_ok(form)


def test_a_fresh_nonce_refuses_every_form_and_is_set_as_a_cookie() -> None:
    browser = _browser(_request(), fresh=True)
    assert not browser.csrf_ok({web.CSRF_FIELD: browser.csrf_token()})
    cookie = browser.respond(Response()).headers["set-cookie"]
    assert cookie.startswith(f"{web.CSRF_COOKIE}={NONCE};")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    assert "set-cookie" not in _browser(_request()).respond(Response()).headers


@pytest.mark.parametrize(("base_url", "secure"), [("https://shop.example", True),
                                                  ("http://localhost:8000", False)])
def test_cookies_are_secure_behind_https_only(base_url: str, secure: bool) -> None:
    request = _request(base_url=base_url)
    setters: list[Callable[[Response], None]] = [
        lambda r: web.set_session_cookie(request, r, "v"),
        lambda r: web.set_guest_cookie(request, r, "v"),
        lambda r: web.clear_session_cookie(request, r),
        lambda r: web.clear_guest_cookie(request, r)]
    for set_cookie in setters:
        response = Response()
        set_cookie(response)
        header = response.headers["set-cookie"]
        assert ("Secure" in header) is secure and "HttpOnly" in header, header


def test_only_a_well_formed_guest_cookie_is_read() -> None:
    well = guests.mint_guest_token()
    assert web.guest_token(_request(cookies=f"{web.GUEST_COOKIE}={well}")) == well
    for bad in (well[:-1], well + "a", well[:-1] + "!", "cgx_" + well[4:]):
        assert web.guest_token(_request(cookies=f"{web.GUEST_COOKIE}={bad}")) is None
    assert web.guest_token(_request()) is None
