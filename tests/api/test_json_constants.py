"""NaN and Infinity are not JSON (RFC 8259), though Python's parser reads them: a store file
carrying one is refused with a 400 naming it, and nothing of it is imported, as a JSON body
carrying one is refused by the Commerce API (tests/unit/test_json_input.py: each constant)."""

from __future__ import annotations

from pathlib import Path

import httpx
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers

STORE = Path(__file__).parents[2] / "sample_data" / "stores" / "01-ceramics.json"
JSON = {"Content-Type": "application/json"}


async def test_a_number_json_lacks_is_refused_in_a_store_file_and_a_body(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    text = STORE.read_bytes()
    at = text.index(b'"latitude": ') + len(b'"latitude": ')
    body = text[:at] + b"NaN" + text[text.index(b",", at):]
    imported = await client.post(f"/admin/stores/{CERAMICS}/catalog/import?dryRun=true",
                                 content=body, headers={**owner, **JSON})
    assert imported.status_code == 400, imported.text  # was 200: NaN taken as a number
    assert "NaN is not a JSON number" in imported.text

    cart = await client.post("/carts", content=b'{"storeId": -Infinity}',
                             headers={**alice, **JSON})
    assert cart.status_code == 400
    assert cart.json()["details"][0]["reason"] == "malformed JSON"
