"""Malformed catalog exports over the admin import route: whatever is wrong with the file (its
encoding, its line endings, a field past the CSV reader's limit, a text byte a database cannot
store, a bad row after good ones, an item id that clashes), the answer is 400 with the problem
named by line and column, and the store's catalog is exactly what it was: never a partial
import. Run on both backends."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.db_snapshot import contents

pytestmark = pytest.mark.both_backends

URL = f"/admin/stores/{CERAMICS}/catalog/import"
HEADER = "Handle,Title,Variant Price,Variant Inventory Qty\n"
GOOD_ROWS = "linen-apron,Linen Apron,48.00,5\nwool-throw,Wool Throw,120.00,2\n"


async def _upload(client: httpx.AsyncClient, headers: dict[str, str], body: bytes,
                  media: str = "text/csv") -> httpx.Response:
    return await client.post(URL + "?filename=export.csv", content=body,
                             headers={**headers, "Content-Type": media})


MALFORMED: list[tuple[str, bytes, int | None, str]] = [
    ("utf-16", (HEADER + GOOD_ROWS).encode("utf-16"), 1, "is not UTF-8 text"),
    ("latin-1 after good rows", (HEADER + GOOD_ROWS + "cafe,Caf\xe9 Mug,9.00,1\n"
                                 ).encode("latin-1"), 4, "byte 0xe9"),
    ("a field past the reader's limit", (HEADER + GOOD_ROWS + "huge," + "x" * 200_000
                                         + ",9.00,1\n").encode(), 4, "longer than"),
    ("a header field past the reader's limit", (HEADER.rstrip() + "," + "x" * 200_000
                                                + "\n" + GOOD_ROWS).encode(), 1, "longer than"),
    ("a nul in a title", (HEADER + GOOD_ROWS + "nul,Mu\x00g,9.00,1\n").encode(), 4, "U+0000"),
    ("a bad price after good rows", (HEADER + GOOD_ROWS + "mug,Mug,nine,1\n").encode(), 4,
     "Variant Price"),
    ("a handle used twice apart", (HEADER + GOOD_ROWS + "linen-apron,Apron again,9.00,1\n"
                                   ).encode(), 4, "Handle"),
    ("a row with too many fields", (HEADER + GOOD_ROWS + "mug,Mug,9.00,1,extra\n").encode(),
     4, "fields"),
    ("a missing column", b"Handle,Title\nmug,Mug\n", 1, "Variant Price"),
    ("a count that is not a number", (HEADER + "mug,Mug,9.00,lots\n").encode(), 2,
     "Variant Inventory Qty"),
]


@pytest.mark.parametrize(("kind", "body", "line", "named"), MALFORMED,
                         ids=[kind for kind, *_ in MALFORMED])
async def test_a_malformed_export_is_refused_by_line_and_changes_nothing(
        app: Starlette, client: httpx.AsyncClient, kind: str, body: bytes, line: int | None,
        named: str) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    before = await contents(app.state.db)
    answer = await _upload(client, owner, body)
    assert answer.status_code == 400, (kind, answer.text)
    problem = answer.json()
    assert problem["code"] == "bad_request"
    assert problem["message"].startswith("Nothing was imported")
    assert any(detail.get("line") == line and named in detail["message"]
               for detail in problem["details"]), problem["details"]
    assert all(detail["message"].startswith("export.csv") for detail in problem["details"])
    assert await contents(app.state.db) == before


async def test_a_byte_order_mark_and_each_kind_of_line_end_import_the_same_catalog(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    text = HEADER + GOOD_ROWS
    first = await _upload(client, owner, text.encode())
    assert first.status_code == 200, first.text
    assert first.json()["created"] == 2
    for variant in (b"\xef\xbb\xbf" + text.encode(), text.replace("\n", "\r\n").encode(),
                    text.replace("\n", "\r").encode()):
        again = await _upload(client, owner, variant)
        assert again.status_code == 200, (variant[:40], again.text)
        assert (again.json()["created"], again.json()["unchanged"]) == (0, 2)


async def test_a_spreadsheet_formula_is_kept_as_the_text_it_is(
        app: Starlette, client: httpx.AsyncClient) -> None:
    # The catalog is never written back as CSV, so a cell such as =HYPERLINK(…) is a name
    # like any other: stored as written, shown escaped, and exported as JSON text.
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    formula = '=HYPERLINK("http://evil.example","Click")'
    body = f'Handle,Title,Variant Price\nformula,"{formula.replace(chr(34), chr(34) * 2)}",9.00\n'
    answer = await _upload(client, owner, body.encode())
    assert answer.status_code == 200, answer.text
    items = (await client.get(f"/admin/stores/{CERAMICS}/items?limit=100",
                              headers=owner)).json()["items"]
    assert formula in [item["name"] for item in items]


async def test_a_json_store_file_of_another_currency_or_store_changes_nothing(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    before = await contents(app.state.db)
    other_currency = (b'{"id": "store_ceramics", "name": "Hearth", "currency": "EUR", '
                      b'"catalogs": []}')
    answer = await _upload(client, owner, other_currency, "application/json")
    assert answer.status_code == 400, answer.text
    assert any(detail.get("field") == "/currency" for detail in answer.json()["details"])
    stolen = (b'{"id": "store_ceramics", "name": "Hearth", "currency": "USD", "catalogs": '
              b'[{"id": "cat_ebooks_books", "name": "Mine", "items": []}]}')
    answer = await _upload(client, owner, stolen, "application/json")
    assert answer.status_code == 400, answer.text
    assert "belongs to another store" in answer.text
    assert await contents(app.state.db) == before
