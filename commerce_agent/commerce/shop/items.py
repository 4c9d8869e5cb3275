"""What a merchant does to items, whichever front end asks (the admin API, the console's
forms): the request shapes and the writes (create, edit, put a variant). Each runs inside
the caller's transaction, after the caller checked the merchant owns the store or item."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.commerce.catalog_import.source import slug
from commerce_agent.commerce.shop import checks, writes
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import validation_error
from commerce_agent.ids import new_id

Identifier = Annotated[str, Meta(pattern=checks.ID_PATTERN.pattern)]
Name = Annotated[str, Meta(min_length=1, max_length=checks.MAX_NAME)]
Description = Annotated[str, Meta(max_length=checks.MAX_DESCRIPTION)]
Quantity = Annotated[int, Meta(ge=0, le=checks.MAX_STOCK)]
FulfillmentType = Literal["physical", "digital", "pickup", "hybrid"]
Status = Literal["active", "draft", "archived"]


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


async def currency(tx: Transaction, store_id: str) -> str:
    row = await catalog_storage.get_store(tx, store_id)
    assert row is not None
    return str(row["currency"])


async def save(tx: Transaction, store_id: str, catalog_id: str, doc: dict[str, Any],
               status: str) -> writes.ItemWrite:
    problems = checks.item_problems(doc, await currency(tx, store_id))
    if problems:
        raise checks.refusal(problems)
    return await writes.put_item(tx, store_id, catalog_id, doc, status)


async def create(tx: Transaction, store_id: str, body: NewItem) -> dict[str, Any]:
    """A new item of the store (its id made from its name unless given); the admin item."""
    doc = msgspec.to_builtins(body)
    # Written out even when it is the default: an order line reads it to know what ships.
    doc["fulfillmentType"] = body.fulfillmentType
    status = doc.pop("status", "active")
    catalog_id = doc.pop("catalogId", None)
    if catalog_id is None:
        catalog_id = await writes.default_catalog(tx, store_id)
    else:
        row = await storage.catalog_row(tx, catalog_id)
        if row is None or row["store_id"] != store_id:
            raise validation_error("/catalogId", "names no catalog of this store", catalog_id)
    if "id" in doc:
        if await storage.id_taken(tx, "items", doc["id"]):
            raise validation_error("/id", "is already used by another item", doc["id"])
    else:
        base = f"item_{slug(body.name)}"
        doc["id"] = new_id("item") if await storage.id_taken(tx, "items", base) else base
    return (await save(tx, store_id, catalog_id, doc, status)).item


async def update(tx: Transaction, store_id: str, item_id: str, body: ItemPatch
                 ) -> dict[str, Any]:
    """Change the fields `body` sets; the admin item."""
    item = await writes.load_item(tx, item_id)
    changes = {key: value for key, value in msgspec.structs.asdict(body).items()
               if value is not UNSET and key != "status"}
    doc = writes.merged(item, msgspec.to_builtins(changes))
    status = item["status"] if body.status is UNSET else body.status
    return (await save(tx, store_id, item["catalogId"], doc, status)).item


def variant_id_for(item_id: str, values: list[str]) -> str:
    """The id a new variant gets from its item and option values ("var_mug_large")."""
    return f"var_{slug(item_id.removeprefix('item_'))[:40]}_{slug('_'.join(values))[:40]}"


async def put_variant(tx: Transaction, store_id: str, item_id: str, variant_id: str,
                      body: VariantPut) -> tuple[dict[str, Any], bool]:
    """Create or replace one variant; (the admin item, whether the variant is new)."""
    if not checks.ID_PATTERN.match(variant_id):
        raise validation_error("variant_id", "must be an id of letters, digits, _ . -",
                               variant_id)
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
                for p in checks.item_problems(doc, await currency(tx, store_id))]
    if problems:
        raise checks.refusal(problems)
    written = await writes.put_item(tx, store_id, item["catalogId"], doc, item["status"])
    return written.item, existing is None
