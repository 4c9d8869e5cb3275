"""Items, stock and prices (GET /console/catalog): a store's items with their variants, and
the forms that change them: a new item (variants and an uploaded image included), name and
description, price, stock set or adjusted (never below zero), a new variant, archive and
restore. Each calls the writes the admin item routes call (commerce/shop/items, writes)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.commerce.shop import checks, images, items, writes
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.web import paths
from commerce_agent.web.console.base import (
    Console,
    form_endpoint,
    page_endpoint,
    refused,
    submit,
    typed,
)

PAGE = "console-catalog"
SHOWN = 100
RICH_INFO = "dev.commerce.product.rich_info"
VARIANTS_FIELD = f"/metadata/{PRODUCT_VARIANTS}"
NEW_ITEM_FIELDS = {"/name": "name", "/description": "description", "/price": "price",
                   "/stock": "stock", "/fulfillmentType": "fulfillmentType",
                   f"{VARIANTS_FIELD}/options": "options", VARIANTS_FIELD: "variants",
                   f"/metadata/{RICH_INFO}": "image", "body": "imageFile"}
ROW_FIELDS = {"/name": "name", "/description": "description", "/price": "amount",
              "/values": "values", "/options": "options", "/stock": "stock",
              "/quantity": "quantity", "/delta": "delta", "variant_id": "values",
              VARIANTS_FIELD: "amount"}


async def _catalog(console: Console, status: int = 200, **extra: Any) -> Response:
    """Items with their variants: stock set or adjusted, prices edited (?store=, ?status=)."""
    store = console.chosen_store()
    wanted = console.chosen_status(checks.ITEM_STATUSES)
    found: list[dict[str, Any]] = []
    if store is not None:
        found = writes.admin_items(await storage.store_items(console.db, store["id"], wanted,
                                                             SHOWN))
    return console.show("console/catalog.html", status, store=store, items=found,
                        chosen_status=wanted or "", item_statuses=checks.ITEM_STATUSES,
                        **extra)


catalog_page = page_endpoint(PAGE)(_catalog)


def _whole(text: str, pointer: str) -> int | None:
    """A form's whole number ("" is None: not counted)."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise validation_error(pointer, "must be a whole number", text) from None


def _variant_lines(text: str, price: str, currency: str) -> list[dict[str, Any]]:
    """"S / Red, 24.00, 5" lines: option values, then price (the item's when left out) and
    stock (not counted when left out)."""
    found = []
    for number, line in enumerate(filter(None, (row.strip() for row in text.splitlines()))):
        parts = [part.strip() for part in line.split(",")]
        values = [value.strip() for value in parts[0].split("/") if value.strip()]
        if not values or len(parts) > 3:
            raise validation_error(f"{VARIANTS_FIELD}/variants/{number}",
                                   f"line {number + 1} must read: values / …, price, stock")
        stock = _whole(parts[2], f"{VARIANTS_FIELD}/variants/{number}/stock") \
            if len(parts) > 2 else None
        found.append({"values": values, "price": {"amount": (parts[1] if len(parts) > 1
                                                             else "") or price,
                                                  "currency": currency},
                      "stock": stock})
    return found


async def _new_item_doc(console: Console, store: dict[str, Any]) -> dict[str, Any]:
    form = console.form
    name, price = form.get("name", "").strip(), form.get("price", "").strip()
    doc: dict[str, Any] = {"name": name, "description": form.get("description", "").strip(),
                           "price": {"amount": price, "currency": store["currency"]},
                           "fulfillmentType": form.get("fulfillmentType", "physical")}
    stock = _whole(form.get("stock", ""), "/stock")
    if stock is not None:
        doc["stock"] = stock
    metadata: dict[str, Any] = {}
    options = [option.strip() for option in form.get("options", "").split(",")
               if option.strip()]
    lines = _variant_lines(form.get("variants", ""), price, store["currency"])
    if options or lines:
        if not options:
            raise validation_error(f"{VARIANTS_FIELD}/options",
                                   "name the options the variants choose (e.g. Size)")
        for line in lines:
            line["id"] = items.variant_id_for(f"item_{name}", line["values"])
        metadata[PRODUCT_VARIANTS] = {"_version": "1.0", "options": options,
                                     "variants": lines}
        doc.pop("stock", None)
    image = form.get("image", "").strip()
    if image:
        metadata[RICH_INFO] = {"_version": "1.0",
                               "imageGallery": [{"alt": name, "fallbackUrl": image}]}
    if metadata:
        doc["metadata"] = metadata
    return doc


@form_endpoint(PAGE)
async def new_item(console: Console) -> Response:
    """POST /console/catalog/items (multipart, for the image): a new item of a store."""
    try:
        store = console.store(console.form.get("store", "")[:100])
        doc = await _new_item_doc(console, store)
        upload = console.files.get("imageFile")
        if upload is not None:
            images.check(upload.media, upload.data, "body")

        async def work(tx: Transaction) -> dict[str, Any]:
            if upload is not None:
                image_id = await images.store_image(tx, store["id"], upload.media, upload.data)
                doc.setdefault("metadata", {})[RICH_INFO] = {
                    "_version": "1.0",
                    "imageGallery": [{"alt": doc["name"], "fallbackUrl": f"/images/{image_id}"}]}
            return await items.create(tx, store["id"], typed(doc, items.NewItem))

        item = await console.write(work)
    except CommerceError as error:
        return await refused(console, error, "new-item", NEW_ITEM_FIELDS, _catalog)
    where = f"{paths.CONSOLE_CATALOG}?store={store['id']}#item-{item['id']}"
    return console.done(where, f"{item['name']} is created and on sale.")


def _variant(item: dict[str, Any], variant_id: str) -> dict[str, Any] | None:
    if not variant_id:
        return None
    for variant in item.get("metadata", {}).get(PRODUCT_VARIANTS, {}).get("variants", []):
        if variant["id"] == variant_id:
            return dict(variant)
    raise validation_error("variant_id", "is not a variant of this item", variant_id)


async def _item_change(tx: Transaction, console: Console, item_id: str, action: str) -> str:
    form = console.form
    store_id = await access.own_item(tx, console.principal, item_id)
    item = await writes.load_item(tx, item_id)
    variant_id = form.get("variantId", "")[:100]
    variant = _variant(item, variant_id)
    name = item["name"] + (f" — {' / '.join(variant['values'])}" if variant else "")
    if action == "details":
        patch = typed({"name": form.get("name", "").strip(),
                       "description": form.get("description", "").strip()}, items.ItemPatch)
        await items.update(tx, store_id, item_id, patch)
        return f"{patch.name} is saved."
    if action == "price":
        amount = {"amount": form.get("amount", "").strip(), "currency": item["price"]["currency"]}
        if variant is not None:
            body = typed({"values": variant["values"], "price": amount}, items.VariantPut)
            await items.put_variant(tx, store_id, item_id, variant["id"], body)
        else:
            await items.update(tx, store_id, item_id, typed({"price": amount}, items.ItemPatch))
        return f"New price of {name}: {amount['amount']} {amount['currency']}."
    if action == "stock":
        quantity = _whole(form.get("quantity", ""), "/quantity")
        if quantity is not None and not 0 <= quantity <= checks.MAX_STOCK:
            raise validation_error("/quantity", "must be 0 or more", quantity)
        await writes.set_stock(tx, item_id, variant_id, quantity)
        return f"Stock of {name}: {'not counted' if quantity is None else quantity}."
    if action == "adjust":
        delta = _whole(form.get("delta", ""), "/delta")
        if delta is None or not -checks.MAX_STOCK <= delta <= checks.MAX_STOCK:
            raise validation_error("/delta", "must be a whole number of units")
        await writes.adjust_stock(tx, item_id, variant_id, delta)
        return f"{'Added' if delta >= 0 else 'Removed'} {abs(delta)} of {name}."
    if action == "variant":
        values = [value.strip() for value in form.get("values", "").split("/")
                  if value.strip()]
        options = [option.strip() for option in form.get("options", "").split(",")
                   if option.strip()]
        body = typed({"values": values, "options": options or None,
                      "price": {"amount": form.get("amount", "").strip(),
                                "currency": item["price"]["currency"]},
                      "stock": _whole(form.get("stock", ""), "/stock")}, items.VariantPut)
        await items.put_variant(tx, store_id, item_id, items.variant_id_for(item_id, values),
                                body)
        return f"New variant of {item['name']}: {' / '.join(values)}."
    if action in ("archive", "restore"):
        await writes.set_status(tx, item_id, "archived" if action == "archive" else "active")
        return (f"{item['name']} is archived: off the catalog, kept for its orders."
                if action == "archive" else f"{item['name']} is for sale again.")
    raise CommerceError(404, "not_found", "No such action.")


@form_endpoint(PAGE)
async def item_action(console: Console) -> Response:
    """POST /console/items/{id}/{action}: details, price, stock, adjust, variant, archive,
    restore."""
    item_id = console.request.path_params["item_id"][:100]
    action = console.request.path_params["action"]
    key = console.form.get("variantId", "")[:100] or item_id
    form_id = f"{action}-{item_id if action in ('details', 'variant') else key}"
    return await submit(console, lambda tx: _item_change(tx, console, item_id, action),
                        form_id, ROW_FIELDS, _catalog,
                        console.back(paths.CONSOLE_CATALOG) + f"#item-{item_id}")
