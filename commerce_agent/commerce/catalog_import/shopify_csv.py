"""Shopify's product CSV export, read into items of the sample-data format.

One product spans consecutive rows with the same Handle: the first carries the product
(Title, Body (HTML), Vendor, Product Category, Type, Tags, Published, Status, Option names),
each row may add a variant (Option values, Variant SKU, Price, Inventory Qty, Grams, Requires
Shipping) and an image (Image Src, Image Alt Text, Variant Image). How each column maps is in
docs/merchant.md.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from urllib.parse import quote

from commerce_agent.commerce.capability_ids import PRODUCT_CATEGORIES as CATEGORIES
from commerce_agent.commerce.capability_ids import PRODUCT_PHYSICAL as PHYSICAL
from commerce_agent.commerce.capability_ids import PRODUCT_RICH_INFO as RICH_INFO
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.catalog_import.csv_rows import Reader, decode
from commerce_agent.commerce.catalog_import.html_text import plain_text, safe_html
from commerce_agent.commerce.catalog_import.source import (
    ImportFailed,
    Place,
    SourceCatalog,
    SourceItem,
    slug,
)
from commerce_agent.commerce.shop.checks import ITEM_STATUSES

REQUIRED_COLUMNS = ("Handle", "Title", "Variant Price")
DEFAULT_OPTION = ("Title", "Default Title")  # Shopify's one variant of a product without options


def looks_like_shopify(header: list[str]) -> bool:
    """Shopify's export starts with Handle (a file with Handle but no Variant Price is a
    Shopify file missing a column: reported as such)."""
    return "Handle" in header


class _Product:
    def __init__(self, handle: str, line: int, row: dict[str, str]) -> None:
        self.handle = handle
        self.line = line
        self.row = row
        self.variants: list[tuple[int, dict[str, str]]] = []
        self.images: list[tuple[int, dict[str, str]]] = []


class _Reader(Reader):
    """The shared reader, with Shopify's stock and weight columns."""

    def quantity(self, line: int, row: dict[str, str]) -> int | None:
        text = row.get("Variant Inventory Qty", "").strip()
        tracked = row.get("Variant Inventory Tracker", "shopify").strip()
        if "Variant Inventory Tracker" in row and not tracked:
            return None  # Shopify does not count this variant: unlimited
        if row.get("Variant Inventory Policy", "").strip().lower() == "continue":
            return None  # "continue selling when out of stock": never refused, so not counted
        if not text:
            return 0 if "Variant Inventory Qty" in row else None
        try:
            quantity = int(text)
        except ValueError:
            self.problem(line, "Variant Inventory Qty", f"must be a whole number, not {text!r}")
            return None
        return max(quantity, 0)  # Shopify allows overselling below zero: nothing is on hand

    def grams(self, line: int, text: str) -> int | float | None:
        if not text.strip():
            return None
        try:
            grams = float(text)
        except ValueError:
            self.problem(line, "Variant Grams", f"must be a number, not {text!r}")
            return None
        if grams <= 0:
            return None
        return int(grams) if grams.is_integer() else grams


def _options(product: _Product) -> list[str]:
    names = [product.row.get(f"Option{n} Name", "").strip() for n in (1, 2, 3)]
    names = [name for name in names if name]
    first_values = (product.row.get("Option1 Name", ""), product.row.get("Option1 Value", ""))
    if names == ["Title"] and first_values == DEFAULT_OPTION:
        return []
    return names


def _status(reader: _Reader, product: _Product) -> str:
    status = product.row.get("Status", "").strip().lower()
    if status and status not in ITEM_STATUSES:
        reader.problem(product.line, "Status",
                       f"must be active, draft or archived, not {status!r}")
    published = product.row.get("Published", "true").strip().lower()
    if status != "archived" and published not in ("true", "yes", "1", ""):
        return "draft"  # not on the online store: kept, not sold
    return status or "active"


def _categories(row: dict[str, str]) -> list[str]:
    category = row.get("Product Category", "").strip()
    if category:
        return [part.strip() for part in category.split(">") if part.strip()]
    kind = row.get("Type", "").strip()
    return [kind] if kind else []


def _compare_at(reader: _Reader, line: int, row: dict[str, str], price: str | None, *,
                report: bool = True) -> str | None:
    """`Variant Compare At Price` when above the price (shown as a sale), else None."""
    text = row.get("Variant Compare At Price", "")
    if not text.strip() or price is None:
        return None
    if not report:
        problems = len(reader.problems)
        compare = reader.price(line, "Variant Compare At Price", text, False)
        del reader.problems[problems:]  # reported once, with its variant
    else:
        compare = reader.price(line, "Variant Compare At Price", text, False)
    if compare is None or Decimal(compare) <= Decimal(price):
        return None
    return compare


def _variant_image(reader: _Reader, line: int, row: dict[str, str]) -> str | None:
    src = row.get("Variant Image", "").strip()
    if src and not src.startswith(("https://", "http://")):
        reader.problem(line, "Variant Image", f"must be an http(s) URL, not {src!r}")
        return None
    return src or None


def _item(reader: _Reader, product: _Product) -> SourceItem:
    row, line = product.row, product.line
    handle = product.handle
    item_id = f"item_{slug(handle)}"
    body = row.get("Body (HTML)", "")
    rich: dict[str, Any] = {"_version": "1.0", "seo": {"slug": handle}}
    if body.strip():
        rich["descriptions"] = {"longHtml": safe_html(body), "longText": plain_text(body)}
    tags = [tag.strip() for tag in row.get("Tags", "").split(",") if tag.strip()]
    if tags:
        rich["keywords"] = tags
    places = [Place("", line), Place("/id", line, "Handle"), Place("/name", line, "Title"),
              Place("/description", line, "Body (HTML)")]
    options = _options(product)
    variant_rows = product.variants or [(line, row)]
    requires_shipping = row.get("Variant Requires Shipping", "true").strip().lower() != "false"
    item: dict[str, Any] = {
        "id": item_id, "name": row.get("Title", "").strip(),
        "description": plain_text(body) if body.strip() else "",
        "fulfillmentType": "physical" if requires_shipping else "digital",
        "metadata": {RICH_INFO: rich}}
    prices: list[str | None] = []
    variants: list[dict[str, Any]] = []
    for index, (v_line, v_row) in enumerate(variant_rows):
        price = reader.price(v_line, "Variant Price", v_row.get("Variant Price", ""), True)
        prices.append(price)
        stock = reader.quantity(v_line, v_row)
        if options:
            values = [v_row.get(f"Option{n} Value", "").strip() for n in range(1, len(options) + 1)]
            variant: dict[str, Any] = {
                "id": f"var_{item_id[5:]}_{slug('_'.join(values))}", "values": values,
                "price": {"amount": price or "0", "currency": reader.currency}, "stock": stock}
            if v_row.get("Variant SKU", "").strip():
                variant["sku"] = v_row["Variant SKU"].strip()
            compare = _compare_at(reader, v_line, v_row, price)
            if compare is not None:
                variant["compareAtPrice"] = {"amount": compare, "currency": reader.currency}
            image = _variant_image(reader, v_line, v_row)
            if image:
                variant["imageUrl"] = image
            variants.append(variant)
            base = f"/metadata/{VARIANTS}/variants/{index}"
            places += [Place(base, v_line), Place(f"{base}/values", v_line, "Option1 Value"),
                       Place(f"{base}/price", v_line, "Variant Price"),
                       Place(f"{base}/stock", v_line, "Variant Inventory Qty")]
        elif index == 0:
            item["stock"] = stock
            places.append(Place("/stock", v_line, "Variant Inventory Qty"))
    item["price"] = {"amount": prices[0] or "0", "currency": reader.currency}
    compare = _compare_at(reader, variant_rows[0][0], variant_rows[0][1], prices[0],
                          report=not options)
    if compare is not None:
        item["compareAtPrice"] = {"amount": compare, "currency": reader.currency}
    places.append(Place("/price", variant_rows[0][0], "Variant Price"))
    if options:
        item["stock"] = None
        item["metadata"][VARIANTS] = {"_version": "1.0", "options": options,
                                      "variants": variants}
    grams = reader.grams(variant_rows[0][0], variant_rows[0][1].get("Variant Grams", ""))
    if grams is not None and requires_shipping:
        item["metadata"][PHYSICAL] = {"_version": "1.0", "weight": {"value": grams, "unit": "g"}}
    categories = _categories(row)
    if categories:
        item["metadata"][CATEGORIES] = {"_version": "1.0", "items": [
            {"name": name, "href": f"/search?q={quote(name)}"} for name in categories]}
    gallery = []
    for i_line, i_row in product.images:
        src = i_row.get("Image Src", "").strip()
        if src and not src.startswith(("https://", "http://")):
            reader.problem(i_line, "Image Src", f"must be an http(s) URL, not {src!r}")
            continue
        if src:
            gallery.append({"alt": i_row.get("Image Alt Text", "").strip() or item["name"],
                            "fallbackUrl": src})
    if gallery:
        rich["imageGallery"] = gallery
    return SourceItem(item, _status(reader, product), handle, None, places)


def read(data: bytes, file: str, currency: str) -> SourceCatalog:
    """Every product of the export, or ImportFailed naming every bad line."""
    text = decode(data, file)
    reader = _Reader(file, currency)
    products: list[_Product] = []
    seen: dict[str, int] = {}
    vendor: str | None = None
    for line_index, row in reader.rows(text, REQUIRED_COLUMNS):
        handle = row["Handle"].strip()
        if not handle:
            reader.problem(line_index, "Handle", "is required")
            continue
        current = products[-1] if products else None
        if current is None or current.handle != handle:
            if handle in seen:
                reader.problem(line_index, "Handle", f"{handle!r} is used again (first at "
                               f"line {seen[handle]}); a product's rows must be together")
                continue
            if not row.get("Title", "").strip():
                reader.problem(line_index, "Title", "is required on a product's first row")
                continue
            seen[handle] = line_index
            current = _Product(handle, line_index, row)
            products.append(current)
            vendor = vendor or row.get("Vendor", "").strip() or None
        if row.get("Variant Price", "").strip() or row.get("Option1 Value", "").strip():
            current.variants.append((line_index, row))
        if row.get("Image Src", "").strip():
            current.images.append((line_index, row))
    items = [_item(reader, product) for product in products]
    if reader.problems:
        raise ImportFailed(reader.problems)
    return SourceCatalog(file, items, default_store_name=vendor)
