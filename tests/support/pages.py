"""Driving the server-rendered pages as a browser would, in process: CSRF tokens of forms
and pages, and signing in through the form."""

from __future__ import annotations

import re

import httpx

CSRF_RE = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
# What a browser's navigation sends: pages answer HTML (and a refused form a page, not JSON).
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}



def csrf_of(page: httpx.Response) -> str:
    match = CSRF_RE.search(page.text)
    assert match, page.text
    return match.group(1)



async def form_csrf(client: httpx.AsyncClient,
                    path: str = "/shop/items/item_classic_mug") -> str:
    """The CSRF token of the forms on the page at `path`, fetched as a browser would."""
    return csrf_of(await client.get(path, headers=BROWSER))



async def form_post(client: httpx.AsyncClient, path: str, page_path: str | None = None,
                    **fields: str) -> httpx.Response:
    """GET the form page, then POST the fields with the page's CSRF token."""
    page = await client.get(page_path or path)
    assert page.status_code == 200, page.text
    return await client.post(path, data={"csrf_token": csrf_of(page), **fields})



async def browser_sign_in(client: httpx.AsyncClient, email: str = "alice@example.com",
                          password: str = "alice-demo-pass",  # noqa: S107 - demo user
                          **extra: str) -> httpx.Response:
    return await form_post(client, "/account/sign-in", email=email, password=password, **extra)


DATA_CSRF = re.compile(r'data-csrf="([0-9a-f]*)"')



def page_csrf(page: httpx.Response) -> str:
    match = DATA_CSRF.search(page.text)
    assert match, page.text
    return match.group(1)
