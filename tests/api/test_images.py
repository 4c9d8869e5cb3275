"""Uploaded images: checked for type (by their bytes) and size, kept in the database so every
process serves them at /images/{id}, and linked from an item's gallery."""

from __future__ import annotations

import base64

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.settings import Settings
from tests.support.admin_support import CERAMICS, EBOOKS, merchant_headers
from tests.support.app import running

pytestmark = pytest.mark.both_backends
# A 1×1 PNG.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
                       "BAEAwS2OUAAAAABJRU5ErkJggg==")


@pytest.fixture
async def owner(app: Starlette) -> dict[str, str]:
    return await merchant_headers(app, "owner@hearth.example", CERAMICS)


async def _upload(client: httpx.AsyncClient, headers: dict[str, str], data: bytes,
                  media: str, store: str = CERAMICS) -> httpx.Response:
    return await client.post(f"/admin/stores/{store}/images", content=data,
                             headers={**headers, "Content-Type": media})


async def test_an_uploaded_image_is_served_from_the_database_by_every_process(
        settings: Settings, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    uploaded = await _upload(client, owner, PNG, "image/png")
    assert uploaded.status_code == 201, uploaded.text
    image = uploaded.json()
    assert image["url"] == f"/images/{image['id']}" and image["size"] == len(PNG)
    async with running(settings) as (_, other, _alice):  # another process on the same database
        served = await other.get(image["url"])
    assert served.status_code == 200 and served.content == PNG
    assert served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    item = await client.post(f"/admin/stores/{CERAMICS}/items", headers=owner, json={
        "name": "Pictured Bowl", "price": {"amount": "20.00", "currency": "USD"},
        "catalogId": "cat_ceramics_drinkware", "metadata": {
            "dev.commerce.product.rich_info": {"_version": "1.0", "imageGallery": [
                {"alt": "Bowl", "fallbackUrl": image["url"]}]}}})
    assert item.status_code == 201, item.text
    shown = (await client.get(f"/items/{item.json()['id']}")).json()
    assert shown["metadata"]["dev.commerce.product.rich_info"]["imageGallery"][0][
        "fallbackUrl"] == image["url"]


async def test_bad_uploads_are_refused(app: Starlette, client: httpx.AsyncClient,
                                       owner: dict[str, str], alice: dict[str, str]) -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    assert (await _upload(client, owner, svg, "image/svg+xml")).status_code == 415
    assert (await _upload(client, owner, PNG, "text/plain")).status_code == 415
    lying = await _upload(client, owner, b"GIF89a" + b"\0" * 20, "image/png")
    assert lying.status_code == 400 and lying.json()["details"][0]["field"] == "body"
    assert (await _upload(client, owner, b"", "image/png")).status_code == 400
    big = PNG + b"\0" * (2 * 1024 * 1024)
    assert (await _upload(client, owner, big, "image/png")).status_code == 413
    other = await merchant_headers(app, "owner@ebooks.example", EBOOKS)
    assert (await _upload(client, other, PNG, "image/png")).status_code == 404
    assert (await _upload(client, alice, PNG, "image/png")).status_code in (403, 404)
    missing = await client.get("/images/img_nope")
    assert missing.status_code == 404 and missing.json()["code"] == "image_not_found"
