"""`catalog import` tells the formats apart by their header: a WooCommerce product CSV imports
(variable products with their variations), anything else is refused naming the formats it
reads; Shopify's inventory policy, Published, compare-at price and variant images are kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from commerce_agent.cli import main
from commerce_agent.commerce.catalog_import.loader import read_data
from commerce_agent.commerce.catalog_import.source import ImportFailed
from tests.support.elsewhere import read_all

pytestmark = pytest.mark.both_backends
HELDOUT = Path(__file__).parents[1] / "data" / "import_heldout"
SHOPIFY = Path(__file__).parents[1] / "data" / "shopify_products.csv"


def _stock(db: str) -> dict[str, int]:
    return {row["variant_id"] or row["item_id"]: int(row["quantity"])
            for row in read_all(db, "SELECT item_id, variant_id, quantity FROM stock")}


def test_a_woocommerce_export_imports_with_its_variations(
        make_db: Callable[[str], str]) -> None:
    db = make_db("woo.db")
    runner = CliRunner()
    assert runner.invoke(main, ["init", "--db", db]).exit_code == 0
    result = runner.invoke(main, ["catalog", "import", str(HELDOUT / "woocommerce_ceramics.csv"),
                                  "--store-name", "Clay Works", "--db", db])
    assert result.exit_code == 0, result.output
    assert "5 created" in result.output
    stock = _stock(db)
    assert stock["item_mug_spk"] == 24
    assert "item_ebook_glaze" not in stock  # a download is not counted
    assert {key: value for key, value in stock.items() if key.startswith("var_apron")} == {
        "var_apron_olive_regular": 5, "var_apron_olive_long": 0, "var_apron_tan_long": 2}
    again = runner.invoke(main, ["catalog", "import", str(HELDOUT / "woocommerce_ceramics.csv"),
                                 "--store-name", "Clay Works", "--db", db])
    assert again.exit_code == 0 and "0 created" in again.output and "5 unchanged" in \
        again.output, again.output


def test_another_file_is_refused_naming_the_supported_formats(
        make_db: Callable[[str], str]) -> None:
    db = make_db("other.db")
    runner = CliRunner()
    assert runner.invoke(main, ["init", "--db", db]).exit_code == 0
    result = runner.invoke(main, ["catalog", "import",
                                  str(HELDOUT / "shopify_orders_not_products.csv"), "--db", db])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "Shopify product CSV" in text and "WooCommerce product CSV" in text
    assert "JSON store file" in text and "Nothing was imported" in text


@pytest.mark.sqlite_only
def test_a_shopify_file_missing_a_column_is_still_named_shopify() -> None:
    text = SHOPIFY.read_text("utf-8").replace("Variant Price", "Price", 1)
    with pytest.raises(ImportFailed) as failed:
        read_data(text.encode(), "products.csv", "USD")
    assert "column 'Variant Price': column is missing" in str(failed.value.problems[0])


@pytest.mark.sqlite_only
def test_a_variation_without_its_parent_names_the_line() -> None:
    header = "ID,Type,SKU,Name,Published,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)"
    data = f"{header}\n5,variation,X-S,Shirt - S,1,10,id:4,Size,S\n".encode()
    with pytest.raises(ImportFailed) as failed:
        read_data(data, "woo.csv", "USD")
    assert str(failed.value.problems[0]).startswith("woo.csv:2: column 'Parent'")


@pytest.mark.sqlite_only
def test_shopify_policy_published_compare_at_and_variant_images() -> None:
    read = read_data((HELDOUT / "shopify_apparel_2024.csv").read_bytes(), "s.csv", "USD")
    items = {source.item["name"]: source for source in read.items}
    tee = items["Organic Crew Tee"].item
    variants = tee["metadata"]["dev.commerce.product.variants"]["variants"]
    assert [v["stock"] for v in variants] == [12, 3, None, 0]  # M/Oat: continue selling
    assert variants[0]["compareAtPrice"] == {"amount": "35.00", "currency": "USD"}
    assert variants[0]["imageUrl"].endswith("tee-oat.jpg?v=1699999999")
    assert items["Wholesale Socks 12-Pack"].status == "draft"  # active, not published
    assert "compareAtPrice" not in items["Custom Embroidered Cap"].item  # below the price
