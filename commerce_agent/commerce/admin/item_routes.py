"""Admin routes for items: create, read, edit, archive, variants and their prices, stock (set,
or adjust by a delta atomically)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal, owned, owned_write
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.commerce.catalog_import.source import slug
from commerce_agent.commerce.pagination import COUNT_CAP, keyed, read_page, total_count
from commerce_agent.commerce.shop import checks, writes
from commerce_agent.commerce.shop.checks import ItemStatus as Status
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Row, Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, json_response
from commerce_agent.ids import new_id
from commerce_agent.routing import Route

Identifier = Annotated[str, Meta(pattern=checks.ID_PATTERN.pattern)]
Name = Annotated[str, Meta(min_length=1, max_length=checks.MAX_NAME)]
Description = Annotated[str, Meta(max_length=checks.MAX_DESCRIPTION)]
Quantity = Annotated[int, Meta(ge=0, le=checks.MAX_STOCK)]
FulfillmentType = Literal["physical", "digital", "pickup", "hybrid"]


class MoneyIn(msgspec.Struct, forbid_unknown_fields=True):
    amount: Annotated[str, Meta(max_length=20)]
    currency: Annotated[str, Meta(pattern="^[A-Z]{3}$")]


class NewItem(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An item in the sample-data format (docs/sample-data.md); the id is made from the name
    when left out, the catalog is the store's first when left out."""

    name: Name
    price: MoneyIn
    id: Identifier | None = None
    catalogId: Identifier | None = None
    description: Description = ""
    fulfillmentType: FulfillmentType = "physical"
    fulfillmentComponents: Annotated[list[dict[str, Any]], Meta(max_length=10)] | None = None
    stock: Quantity | None = None
    metadata: Annotated[dict[str, dict[str, Any]], Meta(max_length=50)] = {}
    status: Status = "active"


class ItemPatch(msgspec.Struct, forbid_unknown_fields=True):
    """Fields to change; a metadata entry set to null is removed."""

    name: Name | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    price: MoneyIn | UnsetType = UNSET
    fulfillmentType: FulfillmentType | UnsetType = UNSET
    fulfillmentComponents: Annotated[list[dict[str, Any]], Meta(max_length=10)] | UnsetType \
        = UNSET
    metadata: Annotated[dict[str, dict[str, Any] | None], Meta(max_length=50)] | UnsetType \
        = UNSET
    status: Status | UnsetType = UNSET


class VariantPut(msgspec.Struct, forbid_unknown_fields=True):
    values: Annotated[list[Annotated[str, Meta(min_length=1, max_length=100)]],
                      Meta(min_length=1, max_length=3)]
    price: MoneyIn
    stock: Quantity | None | UnsetType = UNSET
    options: Annotated[list[Annotated[str, Meta(min_length=1, max_length=100)]],
                       Meta(min_length=1, max_length=3)] | None = None


class StockSet(msgspec.Struct, forbid_unknown_fields=True):
    quantity: Quantity | None
    variantId: Identifier | None = None


class StockAdjustment(msgspec.Struct, forbid_unknown_fields=True):
    delta: Annotated[int, Meta(ge=-checks.MAX_STOCK, le=checks.MAX_STOCK)]
    variantId: Identifier | None = None


_new_item = msgspec.json.Decoder(NewItem)
_item_patch = msgspec.json.Decoder(ItemPatch)
_variant = msgspec.json.Decoder(VariantPut)
_stock_set = msgspec.json.Decoder(StockSet)
_stock_adjustment = msgspec.json.Decoder(StockAdjustment)


async def _currency(tx: Transaction, store_id: str) -> str:
    row = await catalog_storage.get_store(tx, store_id)
    assert row is not None
    return str(row["currency"])


async def _save(tx: Transaction, store_id: str, catalog_id: str, doc: dict[str, Any],
                status: str) -> writes.ItemWrite:
    problems = checks.item_problems(doc, await _currency(tx, store_id))
    if problems:
        raise checks.refusal(problems)
    return await writes.put_item(tx, store_id, catalog_id, doc, status)


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
    items = writes.admin_items([row for row in rows if row["id"] in kept])
    if page.backward:
        items.reverse()
    return json_response({"items": items, "pagination": info})


def _item_key(row: Row) -> tuple[str, int, str]:
    return row["catalog_id"], int(row["position"]), row["id"]


async def create_item(request: Request) -> Response:
    """Create an item in one of the merchant's stores."""

    async def work(tx: Transaction, store: access.Target[None, NewItem]) -> Response:
        store_id, body = store.id, store.body
        doc = msgspec.to_builtins(body)
        status = doc.pop("status", "active")
        catalog_id = doc.pop("catalogId", None)
        if catalog_id is None:
            catalog_id = await writes.default_catalog(tx, store_id)
        else:
            row = await storage.catalog_row(tx, catalog_id)
            if row is None or row["store_id"] != store_id:
                raise validation_error("/catalogId", "names no catalog of this store",
                                       catalog_id)
        if "id" in doc:
            if await storage.id_taken(tx, "items", doc["id"]):
                raise validation_error("/id", "is already used by another item", doc["id"])
        else:
            base = f"item_{slug(body.name)}"
            doc["id"] = new_id("item") if await storage.id_taken(tx, "items", base) else base
        written = await _save(tx, store_id, catalog_id, doc, status)
        return json_response(written.item, status=201,
                             headers={"Location": f"/admin/items/{doc['id']}"})

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

    async def work(tx: Transaction, item_of: access.Target[str, ItemPatch]) -> Response:
        store_id, body = item_of.owner, item_of.body
        item = await writes.load_item(tx, item_of.id)
        changes = {key: value for key, value in msgspec.structs.asdict(body).items()
                   if value is not UNSET and key != "status"}
        doc = writes.merged(item, msgspec.to_builtins(changes))
        status = item["status"] if body.status is UNSET else body.status
        written = await _save(tx, store_id, item["catalogId"], doc, status)
        return json_response(written.item)

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
    if not checks.ID_PATTERN.match(variant_id):
        raise validation_error("variant_id", "must be an id of letters, digits, _ . -",
                               variant_id)

    async def work(tx: Transaction) -> Response:
        store_id = await access.own_item(tx, principal, item_id)
        item = await writes.load_item(tx, item_id)
        doc = writes.merged(item, {})
        spec = doc.setdefault("metadata", {}).get(PRODUCT_VARIANTS)
        if spec is None:
            if body.options is None:
                raise validation_error("/options", "is required for an item's first variant")
            spec = {"_version": "1.0", "options": body.options, "variants": []}
            doc["metadata"][PRODUCT_VARIANTS] = spec
            doc.pop("stock", None)
        elif body.options is not None and body.options != spec["options"]:
            raise validation_error("/options", "must be left out or equal the item's options")
        variants = spec["variants"]
        existing = next((v for v in variants if v["id"] == variant_id), None)
        variant: dict[str, Any] = {"id": variant_id, "values": body.values,
                                   "price": msgspec.to_builtins(body.price),
                                   "stock": existing.get("stock") if existing else None}
        if body.stock is not UNSET:
            variant["stock"] = body.stock
        if existing is None:
            if await storage.variant_id_taken(tx, variant_id):
                raise validation_error("variant_id", "is already used", variant_id)
            variants.append(variant)
        else:
            variant = {**existing, **variant}
            variants[variants.index(existing)] = variant
        # Problems of this variant point into the request body (/values, /price/amount).
        index = len(variants) - 1 if existing is None else variants.index(variant)
        base = f"/metadata/{PRODUCT_VARIANTS}/variants/{index}"
        problems = [checks.Problem(p.field.removeprefix(base) if p.field.startswith(base + "/")
                                   else p.field, p.reason, p.value)
                    for p in checks.item_problems(doc, await _currency(tx, store_id))]
        if problems:
            raise checks.refusal(problems)
        written = await writes.put_item(tx, store_id, item["catalogId"], doc, item["status"])
        return json_response(written.item, status=201 if existing is None else 200)

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
        written = await _save(tx, store_id, item["catalogId"], doc, item["status"])
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
