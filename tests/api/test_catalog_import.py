"""`catalog import` / `catalog export`: a real Shopify export becomes a working shop, bad files
import nothing and name the line, re-imports update, and the JSON export reads back."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from commerce_agent.app import create_app
from commerce_agent.cli import main
from commerce_agent.commerce.shop.checks import store_problems
from commerce_agent.seed import load_stores
from commerce_agent.settings import Settings
from tests.support.elsewhere import read_one

pytestmark = pytest.mark.both_backends

SHOPIFY = Path(__file__).parents[1] / "data" / "shopify_products.csv"
STORE = "store_birch_loom"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def counts(db: str) -> tuple[int, int, int]:
    row = read_one(db, "SELECT (SELECT COUNT(*) FROM stores) AS stores, (SELECT COUNT(*) "
                       "FROM items) AS items, (SELECT COUNT(*) FROM stock) AS stock")
    return int(row["stores"]), int(row["items"]), int(row["stock"])


@pytest.fixture
def shop_db(make_db: Callable[[str], str]) -> str:
    db = make_db("shop.db")
    result = run("init", "--db", db)
    assert result.exit_code == 0, result.output
    assert "catalog import" in result.output and "merchant create" in result.output
    imported = run("catalog", "import", str(SHOPIFY), "--db", db)
    assert imported.exit_code == 0, imported.output
    assert f"into {STORE} (new store): 11 created, 0 updated" in imported.output
    return db


@pytest.fixture
async def shop(shop_db: str) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(db_path=shop_db, simulate=False, sqlite_synchronous="NORMAL"),
                     seed_data=False)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as client:
            yield client


def test_the_sample_store_files_pass_the_import_checks() -> None:
    for store in load_stores():
        assert store_problems(store) == [], store["id"]


async def test_a_shopify_export_becomes_a_shop(shop: httpx.AsyncClient) -> None:
    stores = (await shop.get("/stores")).json()["stores"]
    assert [(s["id"], s["name"], s["currency"], len(s["catalogIds"])) for s in stores] == \
        [(STORE, "Birch & Loom", "USD", 1)]
    catalog = (await shop.get(f"/catalogs/{stores[0]['catalogIds'][0]}")).json()
    items = {item["id"]: item for item in catalog["items"]}
    # the draft and the archived product are not for sale
    assert "item_holiday_garland" not in items and "item_old_cushion_cover" not in items
    assert len(items) == 9
    assert (await shop.get("/items/item_old_cushion_cover")).status_code == 404
    apron = items["item_linen_apron"]
    variants = apron["metadata"]["dev.commerce.product.variants"]
    assert variants["options"] == ["Color"]
    assert [(v["values"], v["price"]["amount"], v["stock"]) for v in variants["variants"]] == \
        [(["Natural"], "48.00", 14), (["Charcoal"], "48.00", 9), (["Rust"], "52.00", 0)]
    assert apron["metadata"]["dev.commerce.product.physical_properties"]["weight"] == \
        {"value": 310, "unit": "g"}
    rich = apron["metadata"]["dev.commerce.product.rich_info"]
    assert len(rich["imageGallery"]) == 5 and rich["seo"]["slug"] == "linen-apron"
    assert [c["name"] for c in apron["metadata"]["dev.commerce.product.categorization"]
            ["items"]] == ["Apparel & Accessories", "Clothing", "Aprons"]
    tote = items["item_canvas_tote"]["metadata"]["dev.commerce.product.variants"]
    assert tote["options"] == ["Color", "Size", "Handle"] and len(tote["variants"]) == 4
    towels = items["item_tea_towel_set"]
    assert towels["price"] == {"amount": "24.00", "currency": "USD"}
    assert "dev.commerce.product.variants" not in towels["metadata"]
    pattern = items["item_knitting_pattern_pdf"]
    assert pattern["fulfillmentType"] == "digital" and pattern["available"]
    wraps = items["item_beeswax_wraps"]["metadata"]["dev.commerce.product.variants"]
    assert [v["stock"] for v in wraps["variants"]] == [30, 0, 17]  # oversold -2 is 0 on hand
    # HTML is reduced to safe text; the sanitized HTML keeps no script, handler or link
    tote_item = items["item_canvas_tote"]
    assert tote_item["description"] == "Waxed cotton canvas with leather handles."
    planter = items["item_ceramic_planter"]["metadata"]["dev.commerce.product.rich_info"]
    html = planter["descriptions"]["longHtml"]
    assert "onclick" not in html and "javascript" not in html and "style" not in html
    assert "<table>" in html
    found = (await shop.get("/search", params={"q": "merino"})).json()["items"]
    assert [item["id"] for item in found] == ["item_merino_throw"]
    assert (await shop.get("/search", params={"q": "garland"})).json()["items"] == []


def test_reimport_updates_and_never_duplicates(shop_db: str, tmp_path: Path) -> None:
    before = counts(shop_db)
    again = run("catalog", "import", str(SHOPIFY), "--db", shop_db)
    assert again.exit_code == 0 and "0 created, 0 updated, 11 unchanged" in again.output
    assert counts(shop_db) == before
    changed = tmp_path / "changed.csv"
    changed.write_text(SHOPIFY.read_text(encoding="utf-8").replace(
        "APR-NAT,310,shopify,14,deny,manual,48.00", "APR-NAT,310,shopify,3,deny,manual,49.00"),
        encoding="utf-8")
    third = run("catalog", "import", str(changed), "--store", STORE, "--db", shop_db)
    assert third.exit_code == 0 and "0 created, 1 updated, 10 unchanged" in third.output, \
        third.output
    assert counts(shop_db) == before
    assert read_one(shop_db, "SELECT quantity FROM stock "
                             "WHERE variant_id = 'var_linen_apron_natural'")["quantity"] == 3


def test_dry_run_changes_nothing(make_db: Callable[[str], str]) -> None:
    db = make_db("dry.db")
    assert run("init", "--db", db).exit_code == 0
    result = run("catalog", "import", str(SHOPIFY), "--dry-run", "--db", db)
    assert result.exit_code == 0 and "Would import" in result.output
    assert counts(db) == (0, 0, 0)


BROKEN = {
    "missing_columns": (lambda text: text.replace("Variant Price", "Price", 1),
                        ["shopify_products.csv:1: column 'Variant Price': column is missing"]),
    "bad_price": (lambda text: text.replace("APR-CHA,310,shopify,9,deny,manual,48.00",
                                            "APR-CHA,310,shopify,9,deny,manual,forty"),
                  ["shopify_products.csv:3: column 'Variant Price': must be a price"]),
    "duplicate_handle": (lambda text: text + text.splitlines()[1] + "\n",
                         ["shopify_products.csv:34: column 'Handle': 'linen-apron' is used "
                          "again (first at line 2)"]),
    "too_many_decimals": (lambda text: text.replace(",38.50,", ",38.505,"),
                          [": column 'Variant Price': 38.505 has more decimals than USD"]),
    "duplicate_variant": (lambda text: text.replace("Charcoal,", "Natural,", 1),
                          ["shopify_products.csv:3: column 'Option1 Value': repeat another "
                           "variant's values"]),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_file_imports_nothing_and_names_the_line(
        make_db: Callable[[str], str], tmp_path: Path, case: str) -> None:
    db = make_db("broken.db")
    assert run("init", "--db", db).exit_code == 0
    change, expected = BROKEN[case]
    broken = tmp_path / "shopify_products.csv"
    broken.write_text(change(SHOPIFY.read_text(encoding="utf-8")), encoding="utf-8")
    result = run("catalog", "import", str(broken), "--db", db)
    assert result.exit_code == 1
    for text in expected:
        assert text in result.output, result.output
    assert "Nothing was imported" in result.output
    assert counts(db) == (0, 0, 0)


def test_a_file_in_another_encoding_is_refused_with_its_line(
        make_db: Callable[[str], str], tmp_path: Path) -> None:
    db = make_db("latin.db")
    assert run("init", "--db", db).exit_code == 0
    latin = tmp_path / "latin1.csv"
    latin.write_bytes(SHOPIFY.read_text(encoding="utf-8").encode("latin-1", "replace"))
    result = run("catalog", "import", str(latin), "--db", db)
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(SHOPIFY.read_text("utf-8").splitlines(), 1)
                if "Café" in text)
    assert f"latin1.csv:{line}: is not UTF-8 text" in result.output
    assert counts(db) == (0, 0, 0)


def test_export_writes_json_that_imports_back(shop_db: str, make_db: Callable[[str], str],
                                              tmp_path: Path) -> None:
    exported = tmp_path / "shop.json"
    result = run("catalog", "export", "--output", str(exported), "--db", shop_db)
    assert result.exit_code == 0, result.output
    store: dict[str, Any] = json.loads(exported.read_text(encoding="utf-8"))
    assert store["id"] == STORE and store_problems(store) == []
    items = store["catalogs"][0]["items"]
    assert {item["id"]: item.get("status", "active") for item in items}[
        "item_old_cushion_cover"] == "archived"
    fresh = make_db("fresh.db")
    assert run("init", "--db", fresh).exit_code == 0
    loaded = run("catalog", "import", str(exported), "--db", fresh)
    assert loaded.exit_code == 0 and "11 created" in loaded.output, loaded.output
    assert counts(fresh) == counts(shop_db)
    again = run("catalog", "export", "--db", fresh)
    assert json.loads(again.output) == store


def test_a_json_store_file_with_errors_names_the_field(
        make_db: Callable[[str], str], tmp_path: Path) -> None:
    db = make_db("json.db")
    assert run("init", "--db", db).exit_code == 0
    store = load_stores()[0]
    store["catalogs"][0]["items"][1]["price"]["amount"] = "12.5"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(store), encoding="utf-8")
    result = run("catalog", "import", str(bad), "--db", db)
    assert result.exit_code == 1
    assert "bad.json: column '/catalogs/0/items/1/price/amount': must be decimal text" \
        in result.output
    assert counts(db) == (0, 0, 0)
    os.remove(bad)


def test_a_sample_store_cannot_be_imported_into_another_store(
        make_db: Callable[[str], str], tmp_path: Path) -> None:
    db = make_db("samples.db")
    assert run("seed", "--db", db).exit_code == 0
    store_file = tmp_path / "ceramics.json"
    store_file.write_text(json.dumps(load_stores()[0]), encoding="utf-8")
    before = counts(db)
    result = run("catalog", "import", str(store_file), "--store", "store_trattoria", "--db", db)
    assert result.exit_code == 1
    assert "belongs to another store" in result.output and "Nothing was imported" in result.output
    assert counts(db) == before
    same = run("catalog", "import", str(store_file), "--db", db)
    assert same.exit_code == 0 and "into store_ceramics:" in same.output, same.output
    assert counts(db) == before
