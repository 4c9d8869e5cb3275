"""Content-Language names the language the text is in, not merely the one negotiated."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from commerce_agent.errors import CommerceError
from commerce_agent.i18n import DEFAULT_LOCALE


async def untranslated(request: Request) -> Response:
    raise CommerceError(418, "teapot", "I am a teapot.")  # no catalog has error.teapot


async def lacking_param(request: Request) -> Response:
    raise CommerceError(404, "store_not_found", "No store with id 'x'.")  # template needs {id}


async def test_an_error_without_translation_is_labelled_english(
        app: Starlette, client: httpx.AsyncClient) -> None:
    app.router.routes += [Route("/test/teapot", untranslated),
                          Route("/test/lacking", lacking_param)]
    for path in ("/test/teapot", "/test/lacking"):
        response = await client.get(path, headers={"Accept-Language": "fr"})
        body = response.json()
        assert body["message"].startswith(("I am", "No store"))
        assert body["userMessage"]["locale"] == DEFAULT_LOCALE
        assert response.headers["content-language"] == DEFAULT_LOCALE
        assert "Accept-Language" in ",".join(
            response.headers.get_list("vary")).replace(" ", "").split(",")


async def test_a_translated_error_is_labelled_with_its_language(
        client: httpx.AsyncClient) -> None:
    response = await client.get("/stores/store_nope", headers={"Accept-Language": "ja"})
    assert response.json()["userMessage"]["locale"] == "ja"
    assert response.headers["content-language"] == "ja"


@pytest.mark.parametrize(("path", "asked", "language"), [
    ("/stores/store_trattoria", "ar", "en"),  # no Arabic: English whatever was negotiated
    ("/stores/store_trattoria", "fr", "fr"),
    ("/stores/store_ceramics", "fr", "fr"),
    ("/items/item_classic_mug", "ja", "ja"),
    ("/stores", "ar", "ar, en"),              # some stores translated, the others as written
])
async def test_catalog_text_is_labelled_with_the_language_it_is_in(
        client: httpx.AsyncClient, path: str, asked: str, language: str) -> None:
    response = await client.get(path, headers={"Accept-Language": asked})
    assert response.status_code == 200
    assert response.headers["content-language"] == language
