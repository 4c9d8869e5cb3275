"""The Shopify product CSV reader row by row: stock as Shopify counts it (untracked,
continue selling, oversold), weights, drafts and statuses, images on their own rows, the
vendor as the store's name, and every bad cell named by line and column, all at once."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from commerce_agent.commerce.catalog_import.shopify_csv import read
from commerce_agent.commerce.catalog_import.source import ImportFailed

COLUMNS = ["Handle", "Title", "Body (HTML)", "Vendor", "Tags", "Published", "Status",
           "Option1 Name", "Option1 Value", "Variant SKU", "Variant Grams",
           "Variant Inventory Tracker", "Variant Inventory Qty", "Variant Inventory Policy",
           "Variant Price", "Variant Compare At Price", "Variant Requires Shipping",
           "Variant Image", "Image Src", "Image Alt Text"]


def export(*rows: dict[str, str], columns: list[str] = COLUMNS) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    for row in rows:
        writer.writerow({column: row.get(column, "") for column in columns})
    return out.getvalue().encode()


def product(**cells: str) -> dict[str, str]:
    return {"Handle": "cup", "Title": "Stoneware Cup", "Variant Price": "12.00",
            "Option1 Name": "Title", "Option1 Value": "Default Title",
            "Variant Inventory Tracker": "shopify", **cells}


def one(*rows: dict[str, str]) -> dict[str, Any]:
    [item] = read(export(*rows), "products.csv", "USD").items
    return item.item


def problems(*rows: dict[str, str]) -> list[str]:
    with pytest.raises(ImportFailed) as failed:
        read(export(*rows), "products.csv", "USD")
    return [str(problem) for problem in failed.value.problems]


@pytest.mark.parametrize(("cells", "stock"), [
    ({"Variant Inventory Qty": "5"}, 5),
    ({"Variant Inventory Qty": "-2"}, 0),  # oversold: nothing on hand
    ({"Variant Inventory Qty": ""}, 0),
    ({"Variant Inventory Qty": "5", "Variant Inventory Policy": "continue"}, None),
    ({"Variant Inventory Qty": "5", "Variant Inventory Tracker": ""}, None),
])
def test_stock_is_read_as_shopify_counts_it(cells: dict[str, str], stock: int | None) -> None:
    assert one(product(**cells))["stock"] == stock


def test_without_the_quantity_column_stock_is_not_counted() -> None:
    columns = [column for column in COLUMNS if column != "Variant Inventory Qty"]
    [item] = read(export(product(), columns=columns), "products.csv", "USD").items
    assert item.item["stock"] is None


@pytest.mark.parametrize(("grams", "kept"), [("250", 250), ("12.5", 12.5), ("0", None),
                                             ("", None)])
def test_weights_are_kept_in_grams(grams: str, kept: float | None) -> None:
    metadata = one(product(**{"Variant Grams": grams}))["metadata"]
    weight = metadata.get("dev.commerce.product.physical_properties")
    assert (weight["weight"]["value"] if weight else None) == kept


def test_a_product_that_does_not_ship_is_digital_and_weightless() -> None:
    item = one(product(**{"Variant Requires Shipping": "false", "Variant Grams": "100"}))
    assert item["fulfillmentType"] == "digital"
    assert "dev.commerce.product.physical_properties" not in item["metadata"]


@pytest.mark.parametrize(("status", "published", "kept"), [
    ("", "", "active"), ("active", "true", "active"), ("draft", "true", "draft"),
    ("active", "false", "draft"), ("archived", "false", "archived")])
def test_status_and_published_decide_what_is_sold(status: str, published: str,
                                                  kept: str) -> None:
    [item] = read(export(product(Status=status, Published=published)), "products.csv",
                  "USD").items
    assert item.status == kept


def test_the_vendor_names_the_store_and_images_come_on_their_own_rows() -> None:
    catalog = read(export(
        product(Vendor="Hearth", **{"Image Src": "https://img.example/1.png"}),
        {"Handle": "cup", "Image Src": "https://img.example/2.png",
         "Image Alt Text": "Side view"}), "products.csv", "USD")
    assert catalog.default_store_name == "Hearth"
    [item] = catalog.items
    gallery = item.item["metadata"]["dev.commerce.product.rich_info"]["imageGallery"]
    assert gallery == [{"alt": "Stoneware Cup", "fallbackUrl": "https://img.example/1.png"},
                       {"alt": "Side view", "fallbackUrl": "https://img.example/2.png"}]


def test_variants_take_their_sku_image_and_compare_at_price() -> None:
    item = one(
        product(**{"Option1 Name": "Size", "Option1 Value": "Small", "Variant SKU": "CUP-S",
                   "Variant Inventory Qty": "3"}),
        {"Handle": "cup", "Option1 Value": "Large", "Variant Price": "15.00",
         "Variant Compare At Price": "18.00", "Variant Inventory Tracker": "shopify",
         "Variant Inventory Qty": "1", "Variant Image": "https://img.example/l.png"})
    variants = item["metadata"]["dev.commerce.product.variants"]
    assert variants["options"] == ["Size"]
    small, large = variants["variants"]
    assert (small["values"], small["sku"], small["stock"]) == (["Small"], "CUP-S", 3)
    assert large["compareAtPrice"]["amount"] == "18.00"
    assert large["imageUrl"] == "https://img.example/l.png"
    assert item["stock"] is None and item["price"]["amount"] == "12.00"


def test_every_bad_cell_is_named_at_once() -> None:
    found = problems(
        product(**{"Variant Inventory Qty": "lots"}),
        product(Handle="plate", Title="Plate", **{"Variant Grams": "heavy"}),
        product(Handle="bowl", Title="Bowl", Status="sold"),
        product(Handle="", Title="Nameless"),
        product(Handle="saucer", Title=""),
        product(Handle="cup", Title="Cup again"),
        product(Handle="jug", Title="Jug", **{"Image Src": "ftp://img.example/j.png"}),
        product(Handle="vase", Title="Vase", **{"Option1 Name": "Size", "Option1 Value": "S",
                                                 "Variant Image": "img/v.png"}),
    )
    assert found == [
        "products.csv:5: column 'Handle': is required",
        "products.csv:6: column 'Title': is required on a product's first row",
        "products.csv:7: column 'Handle': 'cup' is used again (first at line 2); a "
        "product's rows must be together",
        "products.csv:2: column 'Variant Inventory Qty': must be a whole number, not 'lots'",
        "products.csv:3: column 'Variant Grams': must be a number, not 'heavy'",
        "products.csv:4: column 'Status': must be active, draft or archived, not 'sold'",
        "products.csv:8: column 'Image Src': must be an http(s) URL, not "
        "'ftp://img.example/j.png'",
        "products.csv:9: column 'Variant Image': must be an http(s) URL, not 'img/v.png'",
    ]
