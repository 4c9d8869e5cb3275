"""WooCommerce's product CSV export (Products > Export), read into items of the sample-data
format.

One row per product; a variable product's variations are rows of their own (Type
`variation`) naming it in Parent (`id:123`, or its SKU). Simple and variable products are
read; grouped and external ones are not products this server sells and are left out. How each
column maps is in docs/merchant.md ("WooCommerce product CSV").
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

REQUIRED_COLUMNS = ("Type", "Name", "Regular price")
# Weight columns as WooCommerce names them by the shop's unit, in grams.
WEIGHTS = {"Weight (kg)": 1000.0, "Weight (g)": 1.0, "Weight (lbs)": 453.59237,
           "Weight (oz)": 28.349523125}
SKIPPED_TYPES = ("grouped", "external")


def looks_like_woocommerce(header: list[str]) -> bool:
    return "Type" in header and "Regular price" in header and "Name" in header


class _Row:
    def __init__(self, line: int, row: dict[str, str]) -> None:
        self.line = line
        self.row = row
        self.types = {part.strip().lower() for part in row.get("Type", "").split(",")}
        self.variations: list[_Row] = []

    def get(self, column: str) -> str:
        return self.row.get(column, "").strip()


def _stock(reader: Reader, row: _Row, parent: _Row | None = None) -> int | None:
    """Units on hand, or None when WooCommerce does not count them (no managed stock, or
    backorders allowed: it keeps selling)."""
    if row.get("Backorders allowed?").lower() in ("1", "notify", "yes"):
        return None
    text = row.get("Stock")
    if text:
        try:
            return max(int(Decimal(text)), 0)
        except ArithmeticError:
            reader.problem(row.line, "Stock", f"must be a whole number, not {text!r}")
            return None
    if row.get("In stock?").lower() in ("0", "outofstock", "no"):
        return 0
    if parent is not None and parent.get("Stock"):
        return None  # the parent counts the product as a whole: not per variation
    return None


def _prices(reader: Reader, row: _Row) -> tuple[str | None, str | None]:
    """(price, compare-at): the sale price when there is one below the regular price, which
    is then shown as what it was."""
    regular = reader.price(row.line, "Regular price", row.get("Regular price"), True)
    sale = reader.price(row.line, "Sale price", row.get("Sale price"), False)
    if sale is not None and regular is not None and Decimal(sale) < Decimal(regular):
        return sale, regular
    return regular, None


def _status(row: _Row) -> str:
    return "active" if row.get("Published") in ("1", "") else "draft"  # 0 draft, -1 private


def _images(reader: Reader, row: _Row, name: str) -> list[dict[str, str]]:
    gallery = []
    for src in (part.strip() for part in row.get("Images").split(",")):
        if not src:
            continue
        if not src.startswith(("https://", "http://")):
            reader.problem(row.line, "Images", f"must be http(s) URLs, not {src!r}")
            continue
        gallery.append({"alt": name, "fallbackUrl": src})
    return gallery


def _grams(reader: Reader, row: _Row) -> float | None:
    for column, factor in WEIGHTS.items():
        text = row.get(column)
        if text:
            try:
                grams = float(text) * factor
            except ValueError:
                reader.problem(row.line, column, f"must be a number, not {text!r}")
                return None
            return round(grams, 1) if grams > 0 else None
    return None


def _attributes(row: _Row) -> list[tuple[str, str]]:
    """(name, value(s)) of each attribute column pair, in order."""
    found = []
    for n in range(1, 100):
        name_column = f"Attribute {n} name"
        if name_column not in row.row:
            break
        name = row.get(name_column)
        if name:
            found.append((name, row.get(f"Attribute {n} value(s)")))
    return found


def _variants(reader: Reader, product: _Row, item_id: str, places: list[Place]
              ) -> tuple[list[str], list[dict[str, Any]]]:
    options = [name for name, _ in _attributes(product)]
    variants = []
    for index, variation in enumerate(product.variations):
        given = dict(_attributes(variation))
        values = [given.get(option) or f"Any {option}" for option in options]
        price, compare = _prices(reader, variation)
        variant: dict[str, Any] = {
            "id": f"var_{item_id[5:]}_{slug('_'.join(values))}", "values": values,
            "price": {"amount": price or "0", "currency": reader.currency},
            "stock": _stock(reader, variation, product)}
        if compare is not None:
            variant["compareAtPrice"] = {"amount": compare, "currency": reader.currency}
        if variation.get("SKU"):
            variant["sku"] = variation.get("SKU")
        images = _images(reader, variation, "")
        if images:
            variant["imageUrl"] = images[0]["fallbackUrl"]
        variants.append(variant)
        base = f"/metadata/{VARIANTS}/variants/{index}"
        places += [Place(base, variation.line),
                   Place(f"{base}/values", variation.line, "Attribute 1 value(s)"),
                   Place(f"{base}/price", variation.line, "Regular price"),
                   Place(f"{base}/stock", variation.line, "Stock")]
    return options, variants


def _item(reader: Reader, product: _Row) -> SourceItem:
    name = product.get("Name")
    handle = product.get("SKU") or (f"woo-{product.get('ID')}" if product.get("ID")
                                    else slug(name))
    item_id = f"item_{slug(handle)}"
    body = product.row.get("Description", "").replace("\\n", "\n")
    short = product.row.get("Short description", "").replace("\\n", "\n")
    rich: dict[str, Any] = {"_version": "1.0", "seo": {"slug": handle}}
    if body.strip() or short.strip():
        rich["descriptions"] = {"longHtml": safe_html(body or short),
                                "longText": plain_text(body or short)}
        if short.strip():
            rich["descriptions"]["short"] = plain_text(short)
    tags = [tag.strip() for tag in product.get("Tags").split(",") if tag.strip()]
    if tags:
        rich["keywords"] = tags
    digital = bool(product.types & {"virtual", "downloadable"})
    item: dict[str, Any] = {
        "id": item_id, "name": name,
        "description": plain_text(short or body) if (short or body).strip() else "",
        "fulfillmentType": "digital" if digital else "physical", "metadata": {RICH_INFO: rich}}
    places = [Place("", product.line), Place("/id", product.line, "SKU"),
              Place("/name", product.line, "Name"),
              Place("/description", product.line, "Description")]
    if "variable" in product.types:
        options, variants = _variants(reader, product, item_id, places)
        if not variants:
            reader.problem(product.line, "Type", "is variable but no variation names it in "
                           "Parent")
            variants = [{"price": {"amount": "0"}}]
        item["price"] = dict(variants[0]["price"])
        item["stock"] = None
        if options and variants[0].get("values"):
            item["metadata"][VARIANTS] = {"_version": "1.0", "options": options,
                                          "variants": variants}
        places.append(Place("/price", product.variations[0].line if product.variations
                            else product.line, "Regular price"))
    else:
        price, compare = _prices(reader, product)
        item["price"] = {"amount": price or "0", "currency": reader.currency}
        if compare is not None:
            item["compareAtPrice"] = {"amount": compare, "currency": reader.currency}
        item["stock"] = _stock(reader, product)
        places += [Place("/price", product.line, "Regular price"),
                   Place("/stock", product.line, "Stock")]
    grams = _grams(reader, product)
    if grams is not None and not digital:
        item["metadata"][PHYSICAL] = {"_version": "1.0", "weight": {"value": grams, "unit": "g"}}
    names = [part.strip() for path in product.get("Categories").split(",")
             for part in path.split(">") if part.strip()]
    if names:
        item["metadata"][CATEGORIES] = {"_version": "1.0", "items": [
            {"name": category, "href": f"/search?q={quote(category)}"}
            for category in dict.fromkeys(names)]}
    gallery = _images(reader, product, name)
    if gallery:
        rich["imageGallery"] = gallery
    return SourceItem(item, _status(product), handle, None, places)


def _rows(reader: Reader, text: str) -> list[_Row]:
    return [_Row(line, row) for line, row in reader.rows(text, REQUIRED_COLUMNS)]


def read(data: bytes, file: str, currency: str) -> SourceCatalog:
    """Every simple and variable product of the export, or ImportFailed naming every bad
    line."""
    reader = Reader(file, currency)
    rows = _rows(reader, decode(data, file))
    products: list[_Row] = []
    by_reference: dict[str, _Row] = {}
    for row in rows:
        if "variation" in row.types:
            continue
        if not row.get("Name"):
            reader.problem(row.line, "Name", "is required")
            continue
        if row.types & set(SKIPPED_TYPES):
            continue  # grouped and external products are not sold here
        if not row.types & {"simple", "variable"}:
            reader.problem(row.line, "Type", "must be simple, variable or variation (grouped "
                           f"and external are left out), not {row.get('Type')!r}")
            continue
        products.append(row)
        for key in (f"id:{row.get('ID')}" if row.get("ID") else "", row.get("SKU")):
            if key:
                by_reference[key] = row
    for row in rows:
        if "variation" not in row.types:
            continue
        parent = by_reference.get(row.get("Parent"))
        if parent is None or "variable" not in parent.types:
            reader.problem(row.line, "Parent", f"names no variable product of this file: "
                           f"{row.get('Parent')!r}")
            continue
        parent.variations.append(row)
    items = [_item(reader, product) for product in products]
    if reader.problems:
        raise ImportFailed(reader.problems)
    return SourceCatalog(file, items, default_store_name=None)
