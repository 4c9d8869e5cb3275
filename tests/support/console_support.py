"""The merchant console as a browser without JavaScript uses it: sign in through the account
form, read a page's CSRF token, post a console form (no redirect followed)."""

from __future__ import annotations

import re
from typing import Any

import httpx
from starlette.applications import Starlette

from commerce_agent.commerce.shop import merchants

MERCHANT = "owner@hearth.example"
OTHER_MERCHANT = "owner@ebooks.example"
PASSWORD = "merchant-pass-123"  # noqa: S105 - a test account
CSRF = re.compile(r'(?:name="csrf_token" value|data-csrf)="([0-9a-f]{64})"')


def csrf_of(page: httpx.Response) -> str:
    match = CSRF.search(page.text)
    assert match, page.text
    return match.group(1)


async def sign_in(client: httpx.AsyncClient, email: str, password: str) -> None:
    client.cookies.clear()  # whoever was signed in before
    page = await client.get("/account/sign-in")
    signed = await client.post("/account/sign-in", data={
        "csrf_token": csrf_of(page), "email": email, "password": password})
    assert signed.status_code == 303, signed.text


async def sign_in_merchant(app: Starlette, client: httpx.AsyncClient,
                           email: str = MERCHANT, store: str = "store_ceramics") -> str:
    """A merchant account running `store`, signed in; its user id."""
    merchant = await merchants.create(app.state.db, email, [store], password=PASSWORD)
    await sign_in(client, email, PASSWORD)
    return merchant.user_id


async def post_form(client: httpx.AsyncClient, page: str, action: str,
                    fields: dict[str, str] | None = None,
                    files: dict[str, Any] | None = None) -> httpx.Response:
    """GET `page` (for its CSRF token), then POST `fields` (and `files`, as multipart) to
    `action`, as the page's form does; the redirect is not followed."""
    shown = await client.get(page)
    assert shown.status_code == 200, shown.text
    data = {"csrf_token": csrf_of(shown), **(fields or {})}
    if files:
        return await client.post(action, data=data, files=files, follow_redirects=False)
    return await client.post(action, data=data, follow_redirects=False)


def field_error(page: httpx.Response, form_id: str, name: str) -> str:
    """The problem shown beside the field `name` of form `form_id` ("" when none)."""
    control = f'id="{form_id}-{name}"'
    assert control in page.text, (control, page.text)
    match = re.search(rf'<span class="field-error error" id="{re.escape(form_id)}-'
                      rf'{re.escape(name)}-error">([^<]*)</span>', page.text)
    if match is None:
        return ""
    # The field points at its problem.
    assert re.search(rf'id="{re.escape(form_id)}-{re.escape(name)}"[^>]*aria-invalid="true"',
                     page.text, re.S), page.text
    return match.group(1)
