"""The admin API's file uploads (a catalog file, an image) at their limits, however the body
arrives: a declared length past the limit is refused before the body is read, a body sent in
chunks without a length (or longer than it said) is refused as soon as it passes the limit, an
empty one names what was expected; each refusal changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.admin import image_routes, import_routes
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.db_snapshot import contents

IMPORT = f"/admin/stores/{CERAMICS}/catalog/import"
IMAGES = f"/admin/stores/{CERAMICS}/images"
PNG_START = b"\x89PNG\r\n\x1a\n"


async def chunks(total: int, first: bytes = b"", size: int = 4096) -> AsyncIterator[bytes]:
    """`total` bytes (starting with `first`) in chunks, with no Content-Length."""
    sent = 0
    if first:
        yield first
        sent = len(first)
    while sent < total:
        part = min(size, total - sent)
        yield b"x" * part
        sent += part


@pytest.fixture
async def owner(app: Starlette) -> dict[str, str]:
    return await merchant_headers(app, "owner@hearth.example", CERAMICS)


@pytest.mark.parametrize(("path", "media", "first", "module", "limit_name"), [
    (IMPORT, "text/csv", b"Handle,Title,Variant Price\n", import_routes, "MAX_IMPORT_BYTES"),
    (IMAGES, "image/png", PNG_START, image_routes, "MAX_IMAGE_BYTES"),
], ids=["catalog", "image"])
async def test_a_body_past_the_limit_is_413_however_it_arrives(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        monkeypatch: pytest.MonkeyPatch, path: str, media: str, first: bytes,
        module: object, limit_name: str) -> None:
    limit = 64 * 1024
    monkeypatch.setattr(module, limit_name, limit)
    before = await contents(app.state.db)
    headers = {**owner, "Content-Type": media}
    declared = await client.post(path, headers={**headers, "Content-Length": str(limit + 1)},
                                 content=first + b"x" * (limit + 1 - len(first)))
    chunked = await client.post(path, headers=headers, content=chunks(limit + 1, first))
    much_more = await client.post(path, headers=headers, content=chunks(limit * 4, first))
    for answer in (declared, chunked, much_more):
        assert answer.status_code == 413, answer.text
        body = answer.json()
        assert body["code"] == "payload_too_large"
        assert body["userMessage"]["params"]["limit"] == limit
    at_limit = await client.post(path, headers=headers, content=chunks(limit, first))
    assert at_limit.status_code != 413, at_limit.text  # the limit itself is allowed
    empty = await client.post(path, headers=headers, content=b"")
    assert empty.status_code == 400 and "it is empty" in empty.text
    if path == IMPORT:
        assert await contents(app.state.db) == before


async def test_a_media_type_that_is_not_accepted_is_415_and_names_the_ones_that_are(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    for path, media in ((IMPORT, "application/zip"), (IMAGES, "image/svg+xml"),
                        (IMAGES, "text/html")):
        answer = await client.post(path, headers={**owner, "Content-Type": media},
                                   content=b"<svg onload=x()>")
        assert answer.status_code == 415, (path, media, answer.text)


async def test_an_image_whose_bytes_are_not_its_declared_type_is_refused(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    before = await contents(app.state.db)
    answer = await client.post(IMAGES, headers={**owner, "Content-Type": "image/png"},
                               content=b"<html><script>x()</script></html>")
    assert answer.status_code in (400, 415), answer.text
    assert await contents(app.state.db) == before
