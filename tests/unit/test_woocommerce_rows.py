"""The WooCommerce product CSV reader row by row: stock as WooCommerce counts it (backorders,
out of stock, a parent counting for its variations), sale prices, weights in each unit,
categories, drafts, and every bad cell named by its line and column, all of them at once."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from commerce_agent.commerce.catalog_import.source import ImportFailed, SourceCatalog
from commerce_agent.commerce.catalog_import.woocommerce_csv import looks_like_woocommerce, read

COLUMNS = ["ID", "Type", "SKU", "Name", "Published", "Short description", "Description",
           "In stock?", "Stock", "Backorders allowed?", "Sale price", "Regular price",
           "Categories", "Tags", "Images", "Parent", "Weight (kg)", "Weight (oz)",
           "Attribute 1 name", "Attribute 1 value(s)"]


def export(*rows: dict[str, str]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    for row in rows:
        writer.writerow({column: row.get(column, "") for column in COLUMNS})
    return out.getvalue().encode()


def simple(**cells: str) -> dict[str, str]:
    return {"Type": "simple", "Name": "Stoneware Cup", "Regular price": "12.00",
            "Published": "1", **cells}


def one(*rows: dict[str, str]) -> dict[str, Any]:
    catalog = read(export(*rows), "products.csv", "USD")
    assert isinstance(catalog, SourceCatalog)
    [item] = catalog.items
    return item.item


def problems(*rows: dict[str, str]) -> list[str]:
    with pytest.raises(ImportFailed) as failed:
        read(export(*rows), "products.csv", "USD")
    return [str(problem) for problem in failed.value.problems]


def test_the_header_tells_a_woocommerce_export() -> None:
    assert looks_like_woocommerce(COLUMNS)
    assert not looks_like_woocommerce(["Handle", "Title", "Variant Price"])


@pytest.mark.parametrize(("cells", "stock"), [
    ({"Stock": "7"}, 7),
    ({"Stock": "7.0"}, 7),
    ({"Stock": "-3"}, 0),  # oversold in WooCommerce: none on hand here
    ({"Stock": "7", "Backorders allowed?": "notify"}, None),  # it keeps selling
    ({"Stock": "7", "Backorders allowed?": "1"}, None),
    ({"In stock?": "0"}, 0),
    ({"In stock?": "outofstock"}, 0),
    ({"In stock?": "1"}, None),  # stock not managed: not counted
    ({}, None),
])
def test_stock_is_read_as_woocommerce_counts_it(cells: dict[str, str], stock: int | None
                                                 ) -> None:
    assert one(simple(**cells))["stock"] == stock


def test_a_sale_price_below_the_regular_one_is_the_price() -> None:
    item = one(simple(**{"Sale price": "9.50", "Regular price": "12.00"}))
    assert item["price"] == {"amount": "9.50", "currency": "USD"}
    assert item["compareAtPrice"] == {"amount": "12.00", "currency": "USD"}
    higher = one(simple(**{"Sale price": "15.00", "Regular price": "12.00"}))
    assert higher["price"]["amount"] == "12.00" and "compareAtPrice" not in higher


@pytest.mark.parametrize(("column", "value", "grams"), [
    ("Weight (kg)", "0.35", 350.0), ("Weight (oz)", "2", 56.7), ("Weight (kg)", "0", None)])
def test_weights_are_kept_in_grams(column: str, value: str, grams: float | None) -> None:
    metadata = one(simple(**{column: value}))["metadata"]
    found = metadata.get("dev.commerce.product.physical_properties")
    if grams is None:
        assert found is None
    else:
        assert found["weight"] == {"value": grams, "unit": "g"}


def test_a_virtual_product_is_digital_and_has_no_weight() -> None:
    item = one(simple(Type="simple, virtual", **{"Weight (kg)": "1"}))
    assert item["fulfillmentType"] == "digital"
    assert "dev.commerce.product.physical_properties" not in item["metadata"]


def test_category_paths_become_each_category_once() -> None:
    item = one(simple(Categories="Kitchen > Cups, Kitchen > Mugs"))
    names = [entry["name"] for entry in
             item["metadata"]["dev.commerce.product.categorization"]["items"]]
    assert names == ["Kitchen", "Cups", "Mugs"]
    assert item["metadata"]["dev.commerce.product.categorization"]["items"][1]["href"] == \
        "/search?q=Cups"


def test_tags_and_descriptions_are_plain_text_and_keywords() -> None:
    item = one(simple(Tags="stoneware, gift ,", Description="<p>Thrown <b>by hand</b></p>",
                      **{"Short description": "A small cup"}))
    rich = item["metadata"]["dev.commerce.product.rich_info"]
    assert rich["keywords"] == ["stoneware", "gift"]
    assert item["description"] == "A small cup"
    assert rich["descriptions"]["short"] == "A small cup"


@pytest.mark.parametrize(("published", "status"), [("1", "active"), ("", "active"),
                                                   ("0", "draft"), ("-1", "draft")])
def test_unpublished_products_are_drafts(published: str, status: str) -> None:
    catalog = read(export(simple(Published=published)), "products.csv", "USD")
    assert catalog.items[0].status == status


def test_the_handle_is_the_sku_else_the_woocommerce_id_else_the_name() -> None:
    assert one(simple(SKU="CUP-1", ID="41"))["id"] == "item_cup_1"
    assert one(simple(ID="41"))["id"] == "item_woo_41"
    assert one(simple())["id"] == "item_stoneware_cup"


def test_grouped_and_external_products_are_left_out() -> None:
    catalog = read(export(simple(), simple(Type="grouped", Name="Set"),
                          simple(Type="external", Name="Elsewhere")), "products.csv", "USD")
    assert [item.item["name"] for item in catalog.items] == ["Stoneware Cup"]


def test_a_variable_product_takes_its_variations() -> None:
    catalog = read(export(
        simple(Type="variable", ID="10", SKU="BOWL", Name="Bowl", Stock="",
               **{"Regular price": "", "Attribute 1 name": "Size",
                  "Attribute 1 value(s)": "S, L"}),
        {"Type": "variation", "Parent": "id:10", "Name": "Bowl - S", "Regular price": "20",
         "Stock": "3", "Attribute 1 name": "Size", "Attribute 1 value(s)": "S"},
        {"Type": "variation", "Parent": "BOWL", "Name": "Bowl - L", "Regular price": "30",
         "Sale price": "25", "Attribute 1 name": "Size", "Attribute 1 value(s)": "L",
         "Images": "https://img.example/l.png"}), "products.csv", "USD")
    [bowl] = catalog.items
    variants = bowl.item["metadata"]["dev.commerce.product.variants"]
    assert variants["options"] == ["Size"]
    small, large = variants["variants"]
    assert small["values"] == ["S"] and small["stock"] == 3
    assert small["price"] == {"amount": "20.00", "currency": "USD"}
    assert large["price"]["amount"] == "25.00" and large["compareAtPrice"]["amount"] == "30.00"
    assert large["imageUrl"] == "https://img.example/l.png" and large["stock"] is None
    assert bowl.item["price"] == small["price"] and bowl.item["stock"] is None


def test_every_bad_cell_is_named_at_once() -> None:
    found = problems(
        simple(Stock="lots"),
        simple(Name="Plate", Images="ftp://img.example/p.png"),
        simple(Name="Saucer", **{"Weight (kg)": "heavy"}),
        simple(Name=""),
        simple(Name="Kit", Type="bundle"),
        {"Type": "variation", "Parent": "id:999", "Name": "Orphan", "Regular price": "1"},
    )
    assert found == [
        "products.csv:5: column 'Name': is required",
        "products.csv:6: column 'Type': must be simple, variable or variation (grouped and "
        "external are left out), not 'bundle'",
        "products.csv:7: column 'Parent': names no variable product of this file: 'id:999'",
        "products.csv:2: column 'Stock': must be a whole number, not 'lots'",
        "products.csv:3: column 'Images': must be http(s) URLs, not 'ftp://img.example/p.png'",
        "products.csv:4: column 'Weight (kg)': must be a number, not 'heavy'",
    ]


def test_a_variable_product_without_variations_is_a_problem() -> None:
    found = problems(simple(Type="variable", Name="Lonely", **{"Regular price": ""}))
    assert found == ["products.csv:2: column 'Type': is variable but no variation names it "
                     "in Parent"]
