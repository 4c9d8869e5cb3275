"""Every console form, found in the web app's routes (not listed by hand), is guarded the same
way before it can change anything: a missing, wrong or another browser's CSRF token is 403
"Form expired"; a customer's post, even with a good token, is 403 "Merchant accounts only"; a
signed-out post goes to the sign-in; a body that is not a form is 400. Every console page asks
a stranger to sign in and refuses a customer. Each refusal leaves the database as it was."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from commerce_agent.web import paths
from commerce_agent.web.routes import routes
from tests.support.console_support import csrf_of, sign_in, sign_in_merchant
from tests.support.db_snapshot import contents
from tests.support.lifecycle_support import mug_order

CUSTOMER = ("alice@example.com", "alice-demo-pass")


def _console_routes(method: str) -> list[str]:
    found = [route.path for route in routes if isinstance(route, Route)
             and route.path.startswith(paths.CONSOLE) and method in (route.methods or ())]
    assert found, method
    return found


FORMS = _console_routes("POST")
PAGES = [path for path in _console_routes("GET") if "{" not in path]
# What each path parameter of a form is filled with: real things of the merchant's store
# where there are some, so that a guard that let a post through would change something.
ACTIONS = {paths.CONSOLE_ORDER_ACTION: "cancel", paths.CONSOLE_ITEM_ACTION: "archive",
           paths.CONSOLE_RETURN_ACTION: "approve"}


def test_the_forms_found_are_every_console_write() -> None:
    # A route table that lost its console forms would make every test here vacuous.
    assert len(FORMS) >= 10 and len(PAGES) >= 7
    assert paths.CONSOLE_SETTINGS in FORMS and paths.CONSOLE_NEW_ITEM in FORMS
    assert all(path in FORMS for path in ACTIONS)


def _fill(path: str, order_id: str) -> str:
    values = {"order_id": order_id, "item_id": "item_limited_glaze_mug",
              "store_id": "store_ceramics", "return_id": "ret_missing",
              "webhook_id": "wh_missing", "delivery_id": "dlv_missing", "code": "WELCOME10",
              "action": ACTIONS.get(path, "")}
    filled = re.sub(r"\{(\w+)\}", lambda match: values[match.group(1)], path)
    assert "{" not in filled and "//" not in filled, filled
    return filled


FIELDS = {"name": "Changed", "price": "1.00", "amount": "1.00", "quantity": "0",
          "url": "https://example.com/hook", "code": "NEW", "value": "5"}


async def _merchant_with_an_order(app: Starlette, client: httpx.AsyncClient,
                                   alice: dict[str, str]) -> tuple[str, str]:
    placed = await mug_order(client, alice)
    await sign_in_merchant(app, client)
    return placed["id"], csrf_of(await client.get(paths.CONSOLE))


@pytest.mark.parametrize("form", FORMS)
async def test_a_form_without_a_good_csrf_token_is_refused_and_changes_nothing(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], form: str) -> None:
    order_id, good = await _merchant_with_an_order(app, client, alice)
    action = _fill(form, order_id)
    other = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    async with other:
        anothers = csrf_of(await other.get("/account/sign-in"))
    before = await contents(app.state.db)
    for token in (None, "", "0" * 64, good[::-1], anothers, good.upper()):
        data = dict(FIELDS) if token is None else {**FIELDS, "csrf_token": token}
        refused = await client.post(action, data=data, follow_redirects=False)
        assert refused.status_code == 403, (token, refused.text)
        assert "Form expired" in refused.text and "Nothing was changed" in refused.text
    assert await contents(app.state.db) == before
    # The same post with the page's token gets past the guard (so the refusals above were
    # the token's): whatever the form then says, it is not "Form expired".
    accepted = await client.post(action, data={**FIELDS, "csrf_token": good},
                                 follow_redirects=False)
    assert "Form expired" not in accepted.text, accepted.text


@pytest.mark.parametrize("form", FORMS)
async def test_a_customers_form_with_a_good_token_is_merchants_only(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], form: str) -> None:
    placed = await mug_order(client, alice)
    await sign_in(client, *CUSTOMER)
    token = csrf_of(await client.get("/account/profile"))
    before = await contents(app.state.db)
    refused = await client.post(_fill(form, placed["id"]), data={**FIELDS, "csrf_token": token},
                                follow_redirects=False)
    assert refused.status_code == 403, refused.text
    assert "Merchant accounts only" in refused.text and 'id="console"' not in refused.text
    assert await contents(app.state.db) == before


@pytest.mark.parametrize("form", FORMS)
async def test_a_signed_out_form_goes_to_the_sign_in(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], form: str) -> None:
    placed = await mug_order(client, alice)
    token = csrf_of(await client.get("/account/sign-in"))
    before = await contents(app.state.db)
    answer = await client.post(_fill(form, placed["id"]), data={**FIELDS, "csrf_token": token},
                               follow_redirects=False)
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith("/account/sign-in?next=/console"), location
    assert await contents(app.state.db) == before


BODIES: list[tuple[str, dict[str, Any]]] = [
    ("json", {"json": {"csrf_token": "x", "name": "Changed"}}),
    ("text", {"content": b"csrf_token=x", "headers": {"Content-Type": "text/plain"}}),
    ("not utf-8", {"content": b"csrf_token=%FF",
                   "headers": {"Content-Type": "application/x-www-form-urlencoded"}}),
    ("nul", {"content": b"csrf_token=a%00b",
             "headers": {"Content-Type": "application/x-www-form-urlencoded"}}),
]


@pytest.mark.parametrize(("kind", "body"), BODIES, ids=[kind for kind, _ in BODIES])
async def test_a_body_that_is_not_a_form_is_400(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str], kind: str,
                                                body: dict[str, Any]) -> None:
    order_id, _ = await _merchant_with_an_order(app, client, alice)
    for form in FORMS:
        answer = await client.post(_fill(form, order_id), follow_redirects=False, **body)
        assert answer.status_code == 400, (kind, form, answer.text)
        assert "Cannot read this form" in answer.text


async def test_a_multipart_post_past_the_limit_is_413_before_it_is_read(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    order_id, token = await _merchant_with_an_order(app, client, alice)
    answer = await client.post(
        paths.CONSOLE_IMPORT, content=b"x",
        headers={"Content-Type": "multipart/form-data; boundary=b",
                 "Content-Length": str(12 * 1024 * 1024)})
    assert answer.status_code == 413, answer.text
    # A multipart body that cannot be parsed carries no token: refused as expired.
    broken = await client.post(paths.CONSOLE_IMPORT, content=b"--b\r\nnot a part",
                               headers={"Content-Type": "multipart/form-data; boundary=b"})
    assert broken.status_code == 403 and "Form expired" in broken.text
    assert order_id and token


@pytest.mark.parametrize("page", PAGES)
async def test_every_console_page_asks_strangers_to_sign_in_and_refuses_customers(
        client: httpx.AsyncClient, page: str) -> None:
    stranger = await client.get(page)
    assert stranger.status_code == 200
    assert 'href="/account/sign-in' in stranger.text
    assert 'id="console"' not in stranger.text
    await sign_in(client, *CUSTOMER)
    customer = await client.get(page)
    assert customer.status_code == 403
    assert "Merchant accounts only" in customer.text and 'id="console"' not in customer.text
