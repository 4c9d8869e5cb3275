"""The sign-in throttle: 5 failures per email in 15 minutes, then 429 until the window ends."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.app import create_app
from commerce_agent.auth import throttle
from commerce_agent.i18n.messages import translate
from commerce_agent.settings import Settings
from tests.support.agent_support import consent
from tests.support.pages import browser_sign_in

pytestmark = pytest.mark.both_backends

ALICE = {"email": "alice@example.com", "password": "alice-demo-pass"}
WRONG = {"email": "alice@example.com", "password": "not-her-password"}


async def token(client: httpx.AsyncClient, credentials: dict[str, str],
                **headers: str) -> httpx.Response:
    return await client.post("/auth/token", json=credentials, headers=headers)


async def fail(client: httpx.AsyncClient, times: int,
               credentials: dict[str, str] = WRONG) -> None:
    for _ in range(times):
        assert (await token(client, credentials)).status_code == 401


def assert_locked(response: httpx.Response) -> int:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "too_many_attempts" and body["status"] == 429
    assert response.headers["cache-control"] == "no-store"
    retry_after = int(response.headers["retry-after"])
    assert 0 < retry_after <= throttle.WINDOW_SECONDS
    return retry_after


def later(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    moment = clock.seconds() + seconds
    monkeypatch.setattr(clock, "seconds", lambda: moment)


async def test_five_failures_lock_the_email_even_for_the_right_password(
        client: httpx.AsyncClient) -> None:
    await fail(client, throttle.MAX_FAILURES)
    assert_locked(await token(client, WRONG))
    assert_locked(await token(client, ALICE))  # a correct password during lockout too
    other = await token(client, {"email": "bob@example.com", "password": "bob-demo-pass"})
    assert other.status_code == 200  # one email's lockout is not another's


async def test_lockout_ends_with_the_window(client: httpx.AsyncClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    await fail(client, throttle.MAX_FAILURES)
    retry_after = assert_locked(await token(client, ALICE))
    later(monkeypatch, retry_after - 5)
    assert_locked(await token(client, ALICE))
    later(monkeypatch, retry_after + 1)
    assert (await token(client, ALICE)).status_code == 200


async def test_a_success_resets_the_count(client: httpx.AsyncClient) -> None:
    await fail(client, throttle.MAX_FAILURES - 1)
    assert (await token(client, ALICE)).status_code == 200
    await fail(client, throttle.MAX_FAILURES)  # a fresh allowance of five
    assert_locked(await token(client, WRONG))


async def test_unknown_emails_are_throttled_alike(client: httpx.AsyncClient) -> None:
    nobody = {"email": "nobody@example.com", "password": "whatever-it-is"}
    await fail(client, throttle.MAX_FAILURES, nobody)
    assert_locked(await token(client, nobody))
    # The email is matched as accounts match it (case and spaces do not make a new key).
    assert_locked(await token(client, {**nobody, "email": " NoBody@Example.com "}))


async def test_parallel_guesses_cannot_slip_past_the_limit(client: httpx.AsyncClient) -> None:
    answers = await asyncio.gather(*(token(client, WRONG) for _ in range(12)))
    statuses = sorted(response.status_code for response in answers)
    assert statuses == [401] * throttle.MAX_FAILURES + [429] * (12 - throttle.MAX_FAILURES)


async def test_only_a_hash_of_the_email_is_stored(app: Starlette,
                                                  client: httpx.AsyncClient) -> None:
    await fail(client, 2)
    rows = await app.state.db.fetch_all("SELECT * FROM sign_in_failures")
    assert [row["email_hash"] for row in rows] == [throttle.email_key(WRONG["email"])]
    assert "alice" not in repr([tuple(row) for row in rows])


async def test_the_count_is_shared_by_processes_on_one_file(
        settings: Settings, client: httpx.AsyncClient) -> None:
    other = create_app(settings, seed_data=False)  # a second server on the same database
    async with other.router.lifespan_context(other):
        transport = httpx.ASGITransport(app=other)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as second:
            await fail(client, 3)
            await fail(second, throttle.MAX_FAILURES - 3)
            assert_locked(await token(client, ALICE))
            assert_locked(await token(second, ALICE))


async def test_the_429_is_localized(client: httpx.AsyncClient) -> None:
    await fail(client, throttle.MAX_FAILURES)
    response = await token(client, WRONG, **{"Accept-Language": "fr"})
    assert_locked(response)
    body = response.json()
    assert response.headers["content-language"] == "fr"
    assert body["message"] == translate("fr", "error.too_many_attempts",
                                        {"minutes": body["userMessage"]["params"]["minutes"]})
    assert body["userMessage"]["params"]["minutes"] == throttle.WINDOW_SECONDS // 60


async def test_the_sign_in_page_says_so_with_429(client: httpx.AsyncClient) -> None:
    for _ in range(throttle.MAX_FAILURES):
        assert (await browser_sign_in(client, password="wrong-password")).status_code == 401
    page = await browser_sign_in(client)  # the right password, still refused
    assert page.status_code == 429
    assert page.headers["content-type"].startswith("text/html")
    assert 0 < int(page.headers["retry-after"]) <= throttle.WINDOW_SECONDS
    assert "Too many failed sign-in attempts" in page.text
    assert 'role="alert"' in page.text and "commerce_session" not in str(page.headers)
    # The page and the token API share one count: the API is locked too.
    assert_locked(await token(client, ALICE))



async def test_the_agent_consent_page_shares_the_throttle(client: httpx.AsyncClient) -> None:
    started = await client.post("/agent/v1/session",
                                json={"message": "find a ceramic mug under $20"})
    session = started.json()
    path = f"/agent/v1/session/{session['sessionId']}"
    await client.get(f"{path}/stream")  # the first turn has ended
    await client.post(path, json={"continuationToken": session["continuationToken"],
                                  "message": "add two to my cart"},
                      headers={"Authorization": f"Bearer {session['continuationToken']}"})
    stream = await client.get(f"{path}/stream")
    url = [json.loads(line) for line in stream.text.splitlines()
           if '"authorization.required"' in line][-1]["data"]["authUrl"]
    for _ in range(throttle.MAX_FAILURES):
        assert (await consent(client, url, password="wrong-password")).status_code == 401
    refused = await consent(client, url)  # the right password, still refused
    # A page for people: the form again, saying why, with the 429 and Retry-After.
    assert refused.status_code == 429
    assert refused.headers["content-type"].startswith("text/html")
    assert "Too many failed sign-in attempts" in refused.text and "<form" in refused.text
    assert 0 < int(refused.headers["retry-after"]) <= throttle.WINDOW_SECONDS
    assert_locked(await token(client, ALICE))
