"""POST /admin/stores/{id}/catalog/import: the CLI's loader over HTTP for the store's merchant:
a dry run writes nothing, an import is live in the catalog and re-imports change nothing,
problems come back with line and column, and only the store's merchant may import."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.admin import import_routes
from tests.support.admin_support import CERAMICS, EBOOKS, merchant_headers

pytestmark = pytest.mark.both_backends

CSV = (Path(__file__).parents[1] / "data" / "shopify_products.csv").read_bytes()
URL = f"/admin/stores/{CERAMICS}/catalog/import"


async def upload(client: httpx.AsyncClient, headers: dict[str, str], body: bytes,
                 query: str = "", media: str = "text/csv") -> httpx.Response:
    return await client.post(URL + query, content=body,
                             headers={**headers, "Content-Type": media})


async def test_a_csv_import_dry_run_then_for_real_then_again(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    dry = await upload(client, owner, CSV, "?dryRun=true&filename=products.csv")
    assert dry.status_code == 200, dry.text
    counted = dry.json()
    assert counted["dryRun"] is True and counted["created"] > 0
    assert counted["file"] == "products.csv" and counted["storeId"] == CERAMICS
    items = (await client.get(f"/admin/stores/{CERAMICS}/items?limit=100",
                              headers=owner)).json()["items"]
    assert "Stonewashed Linen Apron" not in [item["name"] for item in items]

    done = await upload(client, owner, CSV)
    assert done.status_code == 200, done.text
    assert (done.json()["created"], done.json()["dryRun"]) == (counted["created"], False)
    items = (await client.get(f"/admin/stores/{CERAMICS}/items?limit=100",
                              headers=owner)).json()["items"]
    apron = next(item for item in items if item["name"] == "Stonewashed Linen Apron")
    assert apron["price"] == {"amount": "48.00", "currency": "USD"}

    again = (await upload(client, owner, CSV)).json()
    assert (again["created"], again["updated"], again["unchanged"]) == \
        (0, 0, counted["created"])


async def test_problems_name_line_and_column_and_nothing_is_imported(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    bad = b"Handle,Title,Variant Price\nmug,Blue Mug,12.00\nbowl,Bowl,-3\n"
    answer = await upload(client, owner, bad, "?filename=bad.csv")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "bad_request" and "Nothing was imported" in body["message"]
    [problem] = body["details"]
    assert (problem["line"], problem["column"]) == (3, "Variant Price")
    assert problem["message"].startswith("bad.csv:3:")
    items = (await client.get(f"/admin/stores/{CERAMICS}/items?limit=100",
                              headers=owner)).json()["items"]
    assert "Blue Mug" not in [item["name"] for item in items]

    broken_json = await upload(client, owner, b'{"id": ', media="application/json")
    assert broken_json.status_code == 400 and broken_json.json()["details"]


async def test_bad_uploads_are_refused_with_their_reason(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    assert (await upload(client, owner, CSV, media="image/png")).status_code == 415
    assert (await upload(client, owner, b"")).status_code == 400
    assert (await upload(client, owner, CSV, "?dryRun=maybe")).status_code == 400
    limit = import_routes.MAX_IMPORT_BYTES
    too_big = await upload(client, owner, b"x" * (limit + 1))
    assert too_big.status_code == 413 and too_big.json()["code"] == "payload_too_large"


async def test_only_the_stores_merchant_imports(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    other = await merchant_headers(app, "owner@ebooks.example", EBOOKS)
    assert (await upload(client, other, CSV)).status_code == 404
    assert (await upload(client, alice, CSV)).status_code == 403
    assert (await upload(client, {}, CSV)).status_code == 401


async def test_the_route_is_in_the_openapi_document(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    operation = document["paths"]["/admin/stores/{store_id}/catalog/import"]["post"]
    assert operation["tags"] == ["Admin"]
    assert set(operation["requestBody"]["content"]) == {"text/csv", "application/json"}
    assert {param["name"] for param in operation["parameters"]
            if "name" in param} >= {"store_id", "dryRun", "filename"}
