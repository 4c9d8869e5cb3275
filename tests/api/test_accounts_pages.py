"""The account pages as a browser without JavaScript uses them: form posts with CSRF tokens."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.pages import safe_next, sign_in_form
from tests.support.pages import browser_sign_in, csrf_of, form_post


def cookie_header(response: httpx.Response, name: str) -> str:
    headers = [value for value in response.headers.get_list("set-cookie")
               if value.startswith(f"{name}=")]
    assert headers, response.headers
    return headers[0]


async def test_sign_in_page_is_a_plain_form(client: httpx.AsyncClient) -> None:
    page = await client.get("/account/sign-in")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    # In the shop's layout (its stylesheet, header and footer), with no script and nothing
    # from another server.
    assert "<script" not in page.text.lower()
    assert not re.search(r'(href|src|action)="(https?:)?//', page.text)
    assert '<header class="top">' in page.text and '<footer class="bottom">' in page.text
    assert '<a class="brand" href="/">' in page.text and "Back to the shop" in page.text
    assert '<form method="post" action="/account/sign-in">' in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    nonce = cookie_header(page, "commerce_csrf").lower()
    assert "httponly" in nonce and "samesite=lax" in nonce


async def test_sign_in_sets_a_hashed_http_only_session_and_redirects(
        app: Starlette, client: httpx.AsyncClient) -> None:
    response = await browser_sign_in(client)
    assert response.status_code == 303
    assert response.headers["location"] == "/account/profile"
    cookie = cookie_header(response, "commerce_session")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert "secure" not in cookie.lower()  # http base URL
    value = cookie.split(";")[0].split("=", 1)[1]
    rows = await app.state.db.fetch_all("SELECT token_hash FROM web_sessions")
    assert len(rows) == 1 and rows[0]["token_hash"] != value
    profile = await client.get("/account/profile")
    assert profile.status_code == 200 and "alice@example.com" in profile.text


async def test_session_cookie_is_not_a_bearer_token(client: httpx.AsyncClient) -> None:
    response = await browser_sign_in(client)
    value = cookie_header(response, "commerce_session").split(";")[0].split("=", 1)[1]
    api = await client.get("/user/profile", headers={"Authorization": f"Bearer {value}"})
    assert api.status_code == 401
    # …and the JSON API ignores the cookie the client now holds.
    assert (await client.get("/user/profile")).status_code == 401


async def test_wrong_password_rerenders_the_form_with_401(client: httpx.AsyncClient) -> None:
    response = await browser_sign_in(client, password="nope-nope-nope")
    assert response.status_code == 401
    assert "Wrong email or password" in response.text
    assert 'value="alice@example.com"' in response.text
    assert "commerce_session" not in response.headers.get("set-cookie", "")


@pytest.mark.parametrize("token", [None, "0" * 64])
async def test_posts_without_the_csrf_token_are_refused(client: httpx.AsyncClient,
                                                        token: str | None) -> None:
    await client.get("/account/sign-in")  # the nonce cookie is set, but the token is wrong
    data = {"email": "alice@example.com", "password": "alice-demo-pass"}
    if token is not None:
        data["csrf_token"] = token
    response = await client.post("/account/sign-in", data=data)
    assert response.status_code == 403
    assert "commerce_session" not in response.headers.get("set-cookie", "")


async def test_a_token_from_another_browser_is_refused(app: Starlette) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as attacker, \
            httpx.AsyncClient(transport=transport, base_url="http://test") as victim:
        stolen = csrf_of(await attacker.get("/account/sign-in"))
        await victim.get("/account/sign-in")
        response = await victim.post("/account/sign-in", data={
            "csrf_token": stolen, "email": "alice@example.com", "password": "alice-demo-pass"})
        assert response.status_code == 403


async def test_non_form_posts_are_400(client: httpx.AsyncClient) -> None:
    await client.get("/account/sign-in")
    response = await client.post("/account/sign-in", json={"email": "alice@example.com"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")


async def test_next_goes_to_same_origin_paths_only(client: httpx.AsyncClient) -> None:
    response = await form_post(client, "/account/sign-in", "/account/sign-in?next=/orders",
                               email="alice@example.com", password="alice-demo-pass",
                               next="/orders?status=pending")
    assert response.headers["location"] == "/orders?status=pending"


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil",
                                    "javascript:alert(1)", "evil", "/a\nb", ""])
async def test_next_refuses_other_origins(client: httpx.AsyncClient, target: str) -> None:
    assert safe_next(target) is None
    response = await browser_sign_in(client, next=target)
    assert response.status_code == 303
    assert response.headers["location"] == "/account/profile"


def test_sign_in_form_renderer_escapes_and_drops_bad_next() -> None:
    html = sign_in_form(action="/agent/v1/consent/s/x", next_url="//evil", email='"><b>',
                        error="<oops>", extra='<button name="decision">Decline</button>')
    assert 'name="next"' not in html
    assert "&#34;&gt;&lt;b&gt;" in html and "&lt;oops&gt;" in html  # escaped (Jinja2)
    assert 'action="/agent/v1/consent/s/x"' in html and "Decline" in html
    kept = sign_in_form(action="/account/sign-in", next_url="/orders")
    assert 'name="next" value="/orders"' in kept


async def test_profile_page_requires_sign_in(client: httpx.AsyncClient) -> None:
    response = await client.get("/account/profile")
    assert response.status_code == 303
    assert response.headers["location"] == "/account/sign-in?next=/account/profile"
    post = await client.post("/account/profile", data={"action": "preferences",
                                                       "csrf_token": "from-an-old-page"})
    assert post.status_code == 303
    # Without its form (or the form's action or CSRF field) a post is refused, signed in or not.
    for data in ({}, {"csrf_token": "x"}, {"action": "preferences"}):
        assert (await client.post("/account/profile", data=data)).status_code == 400
    assert (await client.post("/account/profile")).status_code == 400


async def test_register_signs_in_and_the_new_account_works_everywhere(
        client: httpx.AsyncClient) -> None:
    response = await form_post(client, "/account/register", name="Dana Smith",
                               email="Dana@Example.com", password="correct horse battery")
    assert response.status_code == 303, response.text
    profile = await client.get("/account/profile")
    assert "dana@example.com" in profile.text
    tokens = await client.post("/auth/token", json={"email": "dana@example.com",
                                                    "password": "correct horse battery"})
    assert tokens.status_code == 200
    bearer = {"Authorization": f"Bearer {tokens.json()['accessToken']}"}
    body = (await client.get("/user/profile", headers=bearer)).json()
    assert body["savedAddresses"] == [] and body["consentGiven"] is False


async def test_register_stores_a_scrypt_hash(app: Starlette, client: httpx.AsyncClient) -> None:
    await form_post(client, "/account/register", name="Eve", email="eve@example.com",
                    password="a long passphrase")
    row = await app.state.db.fetch_one(
        "SELECT password_hash FROM users WHERE email = 'eve@example.com'")
    assert row["password_hash"].startswith("scrypt$")
    assert "a long passphrase" not in row["password_hash"]


@pytest.mark.parametrize(("fields", "status", "message"), [
    ({"name": "X", "email": "alice@example.com", "password": "long enough"}, 409,
     "already registered"),
    ({"name": "X", "email": "not-an-email", "password": "long enough"}, 400, "valid email"),
    ({"name": "X", "email": "x@example.com", "password": "short"}, 400, "8 to 256"),
    ({"name": " ", "email": "x@example.com", "password": "long enough"}, 400, "Name"),
])
async def test_register_problems_rerender_the_form(client: httpx.AsyncClient,
                                                   fields: dict[str, str], status: int,
                                                   message: str) -> None:
    response = await form_post(client, "/account/register", **fields)
    assert response.status_code == status
    assert message in response.text
    assert "commerce_session" not in response.headers.get("set-cookie", "")


async def test_sign_out_ends_the_session(app: Starlette, client: httpx.AsyncClient) -> None:
    await browser_sign_in(client)
    page = await client.get("/account/sign-out")
    assert "Signed in as alice@example.com" in page.text
    response = await client.post("/account/sign-out", data={"csrf_token": csrf_of(page)})
    assert response.status_code == 303
    assert response.headers["location"] == "/account/sign-in"
    assert 'commerce_session=""' in response.headers["set-cookie"]
    assert (await client.get("/account/profile")).status_code == 303
    rows = await app.state.db.fetch_all("SELECT revoked_at FROM web_sessions")
    assert [row["revoked_at"] is not None for row in rows] == [True]


async def test_sign_out_needs_the_csrf_token(client: httpx.AsyncClient) -> None:
    await browser_sign_in(client)
    response = await client.post("/account/sign-out", data={"confirm": "yes"})
    assert response.status_code == 403
    assert (await client.get("/account/profile")).status_code == 200


async def test_revoked_session_cookie_is_refused_even_if_replayed(
        client: httpx.AsyncClient) -> None:
    signed_in = await browser_sign_in(client)
    value = cookie_header(signed_in, "commerce_session").split(";")[0].split("=", 1)[1]
    page = await client.get("/account/sign-out")
    await client.post("/account/sign-out", data={"csrf_token": csrf_of(page)})
    client.cookies.set("commerce_session", value)
    assert (await client.get("/account/profile")).status_code == 303


async def profile_json(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    body: dict[str, Any] = (await client.get("/user/profile", headers=headers)).json()
    return body


ADDRESS = {"streetAddress": "1 Main St", "addressLocality": "Springfield",
           "addressRegion": "IL", "postalCode": "62701", "addressCountry": "US"}


async def test_profile_forms_edit_the_same_profile_as_the_api(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await browser_sign_in(client)
    saved = await form_post(client, "/account/profile", action="preferences", language="fr-FR",
                            currency="eur", notifications="on", consentGiven="on")
    assert saved.status_code == 303
    assert saved.headers["location"] == "/account/profile?saved=1"
    assert "Saved." in (await client.get(saved.headers["location"])).text
    await form_post(client, "/account/profile", action="billing", **ADDRESS)
    await form_post(client, "/account/profile", action="add_address", label="Home", **ADDRESS)
    await form_post(client, "/account/profile", action="add_address", label="Work",
                    **{**ADDRESS, "streetAddress": "2 Side St"})
    body = await profile_json(client, alice)
    assert body["preferences"] == {"language": "fr-FR", "currency": "EUR",
                                   "notifications": True}
    assert body["consentGiven"] is True
    assert body["defaultBillingAddress"] == ADDRESS
    assert [entry["label"] for entry in body["savedAddresses"]] == ["Home", "Work"]
    await form_post(client, "/account/profile", action="remove_address", index="0")
    await form_post(client, "/account/profile", action="clear_billing")
    body = await profile_json(client, alice)
    assert [entry["label"] for entry in body["savedAddresses"]] == ["Work"]
    assert "defaultBillingAddress" not in body


async def test_profile_form_validation_errors_change_nothing(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await browser_sign_in(client)
    before = await profile_json(client, alice)
    bad = await form_post(client, "/account/profile", action="preferences", language="zz-ZZ")
    assert bad.status_code == 400 and "Not saved" in bad.text
    missing = await form_post(client, "/account/profile", action="billing",
                              **{**ADDRESS, "postalCode": ""})
    assert missing.status_code == 400 and "postalCode" in missing.text
    assert await profile_json(client, alice) == before


async def test_profile_page_escapes_stored_text(client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    label = "<script>alert(1)</script>"
    patched = await client.patch("/user/profile", headers=alice, json={
        "savedAddresses": [{"label": label, "address": ADDRESS}]})
    assert patched.status_code == 200
    await browser_sign_in(client)
    page = await client.get("/account/profile")
    assert "<script>" not in page.text and "&lt;script&gt;" in page.text


async def test_consent_style_pages_can_reuse_the_sign_in(app: Starlette) -> None:
    from commerce_agent.auth.accounts import authenticate, authenticate_password

    db = app.state.db
    assert await authenticate_password(db, "alice@example.com", "alice-demo-pass") \
        == "user_alice"
    assert await authenticate_password(db, "alice@example.com", "bad") is None
    assert await authenticate_password(db, "ghost@example.com", "bad") is None
    principal = await authenticate(db, "BOB@example.com", "bob-demo-pass")
    assert principal is not None and principal.user_id == "user_bob"
