"""NaN and Infinity are not JSON (RFC 8259), though Python's parser reads them: a store file
carrying one is refused with a 400 naming it, and nothing of it is imported, as any JSON body
carrying one is refused by every API."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers

STORE = Path(__file__).parents[2] / "sample_data" / "stores" / "01-ceramics.json"


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
async def test_a_store_file_with_a_number_json_lacks_is_refused(
        app: Starlette, client: httpx.AsyncClient, constant: bytes) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    text = STORE.read_bytes()
    at = text.index(b'"latitude": ') + len(b'"latitude": ')
    end = text.index(b",", at)
    body = text[:at] + constant + text[end:]
    answer = await client.post(f"/admin/stores/{CERAMICS}/catalog/import?dryRun=true",
                               content=body, headers={**owner,
                                                      "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert f"{constant.decode()} is not a JSON number" in answer.text


async def test_a_json_body_with_nan_is_400_on_the_commerce_api(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    answer = await client.post("/carts", content=b'{"storeId": NaN}',
                               headers={**alice, "Content-Type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["details"][0]["reason"] == "malformed JSON"
