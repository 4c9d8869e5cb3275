"""The held-out exports (tests/data/import_heldout/): realistic Shopify and WooCommerce product
CSVs written from the public formats before the readers, with what each must become
(expected.json). Every expectation is one check; the pass rate is printed and must stay at
its measured floor. Each readable file then imports into a store whose every item answers
its public reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.catalog_import.loader import import_catalog, read_data
from commerce_agent.commerce.catalog_import.source import ImportFailed, SourceCatalog

HELDOUT = Path(__file__).parents[1] / "data" / "import_heldout"
EXPECTED: dict[str, Any] = json.loads((HELDOUT / "expected.json").read_text("utf-8"))
FILES = sorted(name for name in EXPECTED if not name.startswith("_"))
VARIANTS = "dev.commerce.product.variants"
FLOOR = 1.0  # measured: every held-out check passes


def _read(name: str) -> SourceCatalog | str:
    try:
        return read_data((HELDOUT / name).read_bytes(), name, "USD")
    except ImportFailed as failed:
        return "; ".join(str(problem) for problem in failed.problems)


def _actual(item: dict[str, Any], status: str, key: str) -> Any:
    variants = item.get("metadata", {}).get(VARIANTS, {}).get("variants", [])
    compare = item.get("compareAtPrice")
    return {
        "status": status, "fulfillmentType": item.get("fulfillmentType"),
        "price": item["price"]["amount"],
        "compareAtPrice": compare["amount"] if compare else None,
        "options": item.get("metadata", {}).get(VARIANTS, {}).get("options"),
        "stocks": [variant.get("stock") for variant in variants],
        "stock": item.get("stock"),
        "variantImages": len([v for v in variants if v.get("imageUrl")]),
        "images": len(item.get("metadata", {}).get("dev.commerce.product.rich_info", {})
                      .get("imageGallery", [])),
    }[key]


def checks(name: str) -> list[tuple[str, bool]]:
    """(what was checked, passed) for every expectation of one file."""
    expected = EXPECTED[name]
    read = _read(name)
    if "error" in expected:
        return [(f"{name}: error names {text!r}", isinstance(read, str) and text in read)
                for text in expected["error"]]
    if isinstance(read, str):
        return [(f"{name}: read ({read})", False)]
    by_name = {source.item["name"]: source for source in read.items}
    results = []
    for item_name, wanted in expected["items"].items():
        source = by_name.get(item_name)
        if wanted.get("absent"):
            results.append((f"{name}: {item_name} left out", source is None))
            continue
        if source is None:
            results.append((f"{name}: {item_name} read", False))
            continue
        for key, value in wanted.items():
            got = _actual(source.item, source.status, key)
            results.append((f"{name}: {item_name} {key} = {value!r} (got {got!r})",
                            got == value))
    return results


def test_the_held_out_exports_read_as_expected(capsys: pytest.CaptureFixture[str]) -> None:
    results = [result for name in FILES for result in checks(name)]
    passed = sum(ok for _, ok in results)
    rate = passed / len(results)
    with capsys.disabled():
        print(f"\nheld-out import checks: {passed}/{len(results)} passed ({rate:.1%})")
        for what, ok in results:
            if not ok:
                print(f"  FAILED {what}")
    assert rate >= FLOOR, [what for what, ok in results if not ok]


@pytest.mark.both_backends
@pytest.mark.parametrize("name", [name for name in FILES if "error" not in EXPECTED[name]])
async def test_each_held_out_export_makes_a_store_that_answers(
        app: Starlette, client: httpx.AsyncClient, name: str) -> None:
    source = read_data((HELDOUT / name).read_bytes(), name, "USD")
    report = await import_catalog(app.state.db, source, store_name=f"Held out {name}")
    assert report.created == len(source.items)
    for source_item in source.items:
        if source_item.status != "active":
            continue
        item_id = source_item.item["id"]
        response = await client.get(f"/items/{item_id}", headers={
            "Accept": "application/commerce+json; version=1.0, "
                      "dev.commerce.product.variants=1.1"})
        assert response.status_code == 200, response.text
        catalog = await client.get(f"/catalogs/{response.json()['catalogId']}")
        assert catalog.status_code == 200
    found = await client.get("/search", params={"q": source.items[0].item["name"]})
    assert found.status_code == 200
