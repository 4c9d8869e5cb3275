"""The signed-in user's saved language decides the locale when Accept-Language names none."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.tokens import revoke_token
from commerce_agent.i18n import DEFAULT_LOCALE, middleware
from commerce_agent.i18n.messages import translate
from commerce_agent.i18n.negotiation import names_a_language
from tests.support.app import token_for

pytestmark = pytest.mark.both_backends

CERAMICS_FR = "Hearth & Kiln Céramiques"


async def save_language(client: httpx.AsyncClient, headers: dict[str, str],
                        language: str | None) -> None:
    response = await client.patch("/user/profile", headers=headers,
                                  json={"preferences": {"language": language}})
    assert response.status_code == 200, response.text


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Tokens the middleware looked a saved language up for (the lookup still runs)."""
    seen: list[str] = []
    real = middleware.locale_for_token

    async def counting(db: Any, token: str, *state: Any, **options: Any) -> str | None:
        seen.append(token)
        return await real(db, token, *state, **options)

    monkeypatch.setattr(middleware, "locale_for_token", counting)
    return seen


@pytest.mark.parametrize("header", [None, "*", "", "*;q=0.5", ";;;"])
async def test_saved_language_decides_without_a_language_in_the_header(
        client: httpx.AsyncClient, alice: dict[str, str], header: str | None) -> None:
    await save_language(client, alice, "fr-CA")  # matched like the header: fr-CA → fr
    headers = {**alice, **({"Accept-Language": header} if header is not None else {})}
    store = await client.get("/stores/store_ceramics", headers=headers)
    assert store.headers["content-language"] == "fr"
    assert store.json()["name"] == CERAMICS_FR
    assert "Authorization" in ",".join(store.headers.get_list("vary")).replace(" ", "").split(",")
    error = await client.get("/carts/cart_missing", headers=headers)
    assert error.status_code == 404
    assert error.headers["content-language"] == "fr"
    assert error.json()["userMessage"]["locale"] == "fr"
    assert error.json()["message"] == translate("fr", "error.cart_not_found",
                                                {"id": "cart_missing"})


@pytest.mark.parametrize(("header", "expected"), [
    ("ja", "ja"),
    ("de", DEFAULT_LOCALE),           # names a language the server lacks: default, not saved
    ("fr;q=0", DEFAULT_LOCALE),       # rules French out: never overridden by the saved fr
    ("en", DEFAULT_LOCALE),
])
async def test_an_explicit_accept_language_always_wins(
        client: httpx.AsyncClient, alice: dict[str, str], lookups: list[str],
        header: str, expected: str) -> None:
    await save_language(client, alice, "fr")
    lookups.clear()
    response = await client.get("/stores/store_nope",  # errors are translated in every locale
                                headers={**alice, "Accept-Language": header})
    assert response.headers["content-language"] == expected
    assert response.json()["userMessage"]["locale"] == expected
    assert "Authorization" not in ",".join(
        response.headers.get_list("vary")).replace(" ", "").split(",")
    assert lookups == []  # no read at all when the header decides


async def test_saved_language_is_per_user(client: httpx.AsyncClient, alice: dict[str, str],
                                          bob: dict[str, str]) -> None:
    await save_language(client, alice, "ar-EG")
    await save_language(client, bob, "ja")
    for headers, locale in ((alice, "ar"), (bob, "ja"), ({}, DEFAULT_LOCALE)):
        response = await client.get("/stores/store_nope", headers=headers)
        assert response.headers["content-language"] == locale
        assert response.json()["userMessage"]["locale"] == locale


async def test_unset_or_unsupported_saved_language_gives_the_default(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    assert (await client.get("/stores", headers=alice)).headers["content-language"] == "en"
    await save_language(client, alice, "sw")
    assert (await client.get("/stores", headers=alice)).headers["content-language"] == "en"


async def test_bad_tokens_fall_back_and_stay_the_routes_business(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await save_language(client, alice, "fr")
    token = alice["Authorization"].split()[1]
    async with app.state.db.transaction() as tx:
        await revoke_token(tx, token)
    for headers in (alice, {"Authorization": "Bearer nonsense"}, {"Authorization": "Basic x"},
                    {"Authorization": "Bearer " + "x" * 5000}):
        public = await client.get("/stores", headers=headers)
        assert public.status_code == 200
        assert public.headers["content-language"] == DEFAULT_LOCALE
        private = await client.get("/orders", headers=headers)
        assert private.status_code == 401  # the route still refuses the token
        assert private.headers["content-language"] == DEFAULT_LOCALE


async def test_a_failing_lookup_never_fails_the_request(
        client: httpx.AsyncClient, alice: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    async def broken(db: Any, token: str, *state: Any) -> str | None:
        raise RuntimeError("database is locked")

    monkeypatch.setattr(middleware, "locale_for_token", broken)
    response = await client.get("/stores", headers=alice)
    assert response.status_code == 200
    assert response.headers["content-language"] == DEFAULT_LOCALE
    assert "saved language" in caplog.text


async def test_one_lookup_only_for_token_without_language(
        app: Starlette, client: httpx.AsyncClient, lookups: list[str]) -> None:
    await client.get("/stores")
    await client.get("/stores", headers={"Accept-Language": "fr"})
    assert lookups == []
    token = await token_for(app, "user_bob")
    await client.get("/stores", headers={"Authorization": f"Bearer {token}"})
    assert lookups == [token]
    await client.get("/agent/v1/health", headers={"Authorization": f"Bearer {token}"})
    assert lookups == [token]  # the agent API is not localized: no lookup there


def test_names_a_language() -> None:
    assert names_a_language("fr") and names_a_language("de, *") and names_a_language("fr;q=0")
    assert not any(names_a_language(h) for h in ("", "*", "*;q=0.3", "@@@", "fr" + ", de" * 600))


async def test_one_token_read_serves_locale_and_authentication(
        client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from commerce_agent.auth import bearer

    reads: list[str] = []
    real = bearer.token_owner

    async def counting(db: Any, token: str) -> Any:
        reads.append(token)
        return await real(db, token)

    monkeypatch.setattr(bearer, "token_owner", counting)
    await save_language(client, alice, "fr")
    reads.clear()
    # No Accept-Language, signed in: the 404's message comes in the saved language.
    response = await client.get("/carts/cart_missing", headers=alice)
    assert response.status_code == 404 and response.headers["content-language"] == "fr"
    assert len(reads) == 1
