"""Admin routes for items: create, read, edit, archive, variants and their prices, stock (set,
or adjust by a delta atomically)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal, owned, owned_write
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.commerce.pagination import COUNT_CAP, keyed, read_page, total_count
from commerce_agent.commerce.shop import checks, items, writes
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Row, Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, json_response
from commerce_agent.routing import Route

Identifier = items.Identifier
Quantity = items.Quantity



class StockSet(msgspec.Struct, forbid_unknown_fields=True):
    quantity: Quantity | None
    variantId: Identifier | None = None


class StockAdjustment(msgspec.Struct, forbid_unknown_fields=True):
    delta: Annotated[int, Meta(ge=-checks.MAX_STOCK, le=checks.MAX_STOCK)]
    variantId: Identifier | None = None


_new_item = msgspec.json.Decoder(items.NewItem)
_item_patch = msgspec.json.Decoder(items.ItemPatch)
_variant = msgspec.json.Decoder(items.VariantPut)
_stock_set = msgspec.json.Decoder(StockSet)
_stock_adjustment = msgspec.json.Decoder(StockAdjustment)


async def list_items(request: Request) -> Response:
    """List a store's items, every status (or ?status=), with live stock."""
    store_id = (await owned(request, access.own_store, "store_id")).id
    db = request.app.state.db
    status = request.query_params.get("status")
    if status is not None and status not in checks.ITEM_STATUSES:
        raise validation_error("status", "must be active, draft or archived", status)
    page = read_page(request, key=(str, int, str))
    rows = await storage.store_items(db, store_id, status, page.limit + 1, offset=page.offset,
                                     key=page.key, backward=page.backward)
    total = await storage.count_store_items(db, store_id, status, COUNT_CAP + 1)
    heads, info = keyed(page, list({row["id"]: row for row in rows}.values()), _item_key,
                        total_count(total))
    kept = {row["id"] for row in heads}
    found = writes.admin_items([row for row in rows if row["id"] in kept])
    if page.backward:
        found.reverse()
    return json_response({"items": found, "pagination": info})


def _item_key(row: Row) -> tuple[str, int, str]:
    return row["catalog_id"], int(row["position"]), row["id"]


async def create_item(request: Request) -> Response:
    """Create an item in one of the merchant's stores."""

    async def work(tx: Transaction, store: access.Target[None, items.NewItem]) -> Response:
        item = await items.create(tx, store.id, store.body)
        return json_response(item, status=201, headers={"Location": f"/admin/items/{item['id']}"})

    return await owned_write(request, access.own_store, "store_id", work, _new_item)


async def get_item(request: Request) -> Response:
    """One item as its merchant sees it (status, live stock)."""
    item_id = (await owned(request, access.own_item, "item_id")).id
    db = request.app.state.db
    row = await storage.item_row(db, item_id)
    assert row is not None
    return json_response(writes.admin_item(row, await storage.item_stock(db, item_id)))


async def update_item(request: Request) -> Response:
    """Edit an item: name, description, price, fulfillment, metadata entries, status."""

    async def work(tx: Transaction, item_of: access.Target[str, items.ItemPatch]) -> Response:
        return json_response(await items.update(tx, item_of.owner, item_of.id, item_of.body))

    return await owned_write(request, access.own_item, "item_id", work, _item_patch)


async def archive_item(request: Request) -> Response:
    """Archive an item: off the storefront, kept for its orders (items are never deleted)."""

    async def work(tx: Transaction, item: access.Target[str, None]) -> Response:
        return json_response(await writes.set_status(tx, item.id, "archived"))

    return await owned_write(request, access.own_item, "item_id", work)


async def put_variant(request: Request) -> Response:
    """Create or replace one variant: its option values, price and (optionally) stock."""
    principal = await merchant_principal(request)
    item_id, variant_id = request.path_params["item_id"], request.path_params["variant_id"]
    body = await decode_body(request, _variant)

    async def work(tx: Transaction) -> Response:
        store_id = await access.own_item(tx, principal, item_id)
        item, created = await items.put_variant(tx, store_id, item_id, variant_id, body)
        return json_response(item, status=201 if created else 200)

    return await write(request, principal, work)


async def delete_variant(request: Request) -> Response:
    """Remove a variant (orders keep their copy; carts holding it are refused at checkout)."""
    variant_id = request.path_params["variant_id"]

    async def work(tx: Transaction, item_of: access.Target[str, None]) -> Response:
        store_id = item_of.owner
        item = await writes.load_item(tx, item_of.id)
        doc = writes.merged(item, {})
        variants = doc.get("metadata", {}).get(PRODUCT_VARIANTS, {}).get("variants", [])
        kept = [variant for variant in variants if variant["id"] != variant_id]
        if len(kept) == len(variants):
            raise not_found("variant", variant_id)
        if not kept:
            raise validation_error("variant_id", "is the item's only variant: archive the "
                                   "item instead", variant_id)
        doc["metadata"][PRODUCT_VARIANTS]["variants"] = kept
        written = await items.save(tx, store_id, item["catalogId"], doc, item["status"])
        return json_response(written.item)

    return await owned_write(request, access.own_item, "item_id", work)


async def set_stock(request: Request) -> Response:
    """Set units on hand of the item or one variant (null: not counted, unlimited)."""

    async def work(tx: Transaction, item: access.Target[str, StockSet]) -> Response:
        return json_response(await writes.set_stock(tx, item.id, item.body.variantId or "",
                                                    item.body.quantity))

    return await owned_write(request, access.own_item, "item_id", work, _stock_set)


async def adjust_stock(request: Request) -> Response:
    """Add or remove units atomically; stock never goes below zero (409 insufficient_stock)."""

    async def work(tx: Transaction, item: access.Target[str, StockAdjustment]) -> Response:
        return json_response(await writes.adjust_stock(tx, item.id, item.body.variantId or "",
                                                       item.body.delta))

    return await owned_write(request, access.own_item, "item_id", work,
                                    _stock_adjustment)


routes = [
    Route("/admin/stores/{store_id}/items", list_items, methods=["GET"]),
    Route("/admin/stores/{store_id}/items", create_item, methods=["POST"]),
    Route("/admin/items/{item_id}", get_item, methods=["GET"]),
    Route("/admin/items/{item_id}", update_item, methods=["PATCH"]),
    Route("/admin/items/{item_id}/archive", archive_item, methods=["POST"]),
    Route("/admin/items/{item_id}/variants/{variant_id}", put_variant, methods=["PUT"]),
    Route("/admin/items/{item_id}/variants/{variant_id}", delete_variant, methods=["DELETE"]),
    Route("/admin/items/{item_id}/stock", set_stock, methods=["PUT"]),
    Route("/admin/items/{item_id}/stock/adjustments", adjust_stock, methods=["POST"]),
]
