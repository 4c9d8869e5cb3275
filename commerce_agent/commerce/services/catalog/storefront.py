"""Stores, catalogs and items as clients see them: live stock, translations, actions."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import versions
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.storage import catalog as storage
from commerce_agent.db import Database, Row
from commerce_agent.errors import not_found
from commerce_agent.i18n import content
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE


@dataclass
class StockedItem:
    """A catalog item with its units on hand; an empty `stock` means unlimited."""

    id: str
    doc: dict[str, Any]
    store_id: str = ""
    catalog_id: str = ""
    stock: dict[str, int] = field(default_factory=dict)

    @property
    def variants(self) -> list[dict[str, Any]]:
        variants: list[dict[str, Any]] = self.doc.get("metadata", {}).get(VARIANTS, {}).get(
            "variants", [])
        return variants

    def variant(self, variant_id: str) -> dict[str, Any] | None:
        return next((v for v in self.variants if v.get("id") == variant_id), None)

    def available_quantity(self, variant_id: str = "") -> int | None:
        """Units that can still be sold, or None when they are not counted (no stock row:
        `stock: null`, unlimited). A variant the item no longer has: 0 (not sold)."""
        if variant_id and self.variants and self.variant(variant_id) is None:
            return 0
        return self.stock.get(variant_id)

    @property
    def available(self) -> bool:
        """Some part can be bought: one not counted, or counted with units on hand."""
        if not self.stock:
            return True
        parts = [str(v.get("id")) for v in self.variants] or [""]
        return any(self.stock.get(part, 1) > 0 for part in parts)


def group_rows(rows: Iterable[Row]) -> dict[str, StockedItem]:
    """Fold item rows joined with stock rows into one StockedItem per item, in order."""
    items: dict[str, StockedItem] = {}
    for row in rows:
        item = items.get(row["id"])
        if item is None:
            keys = row.keys()
            item = StockedItem(row["id"], msgspec.json.decode(row["doc"]),
                               row["store_id"] if "store_id" in keys else "",
                               row["catalog_id"] if "catalog_id" in keys else "")
            items[row["id"]] = item
        if row["variant_id"] is not None:
            item.stock[row["variant_id"]] = int(row["quantity"])
    return items


def translation(translations: str | dict[str, Any], locale: str | None, kind: str,
                key: str | None = None) -> dict[str, Any]:
    """The translated fields for one thing (`store`, or a catalog or item by id)."""
    if not locale:
        return {}
    table = json.loads(translations) if isinstance(translations, str) else translations
    entry = table.get(locale, {}).get(kind, {})
    result: dict[str, Any] = entry.get(key, {}) if key is not None else entry
    # For Content-Language: this text is in the locale, or stays as written (English).
    content.record(locale if result else DEFAULT_LOCALE)
    return result


def render_item(item: StockedItem, *, translations: str | dict[str, Any] = "{}",
                locale: str | None = None, can_review: bool = False) -> dict[str, Any]:
    """The item as clients see it. It takes over `item.doc` (parsed afresh for each request
    by group_rows), so render an item once, last: copying it was most of a catalog read."""
    doc = item.doc
    doc.update(translation(translations, locale, "items", item.id))
    doc["available"] = item.available
    for variant in doc.get("metadata", {}).get(VARIANTS, {}).get("variants", []):
        # Live units, or null when not counted (a stored count without its row is stale).
        if variant.get("id") in item.stock or "stock" in variant:
            variant["stock"] = item.stock.get(variant.get("id"))
    versions.shape_metadata(doc.get("metadata"))
    actions = []
    if can_review:
        actions.append({"id": "add_review", "href": f"/items/{item.id}/reviews",
                        "method": "POST", "rel": "create", "title": "Review this item"})
    doc["actions"] = actions
    return doc


async def review_actions(db: Database, principal: Principal | None,
                          item_ids: list[str]) -> set[str]:
    if principal is None or not item_ids:
        return set()
    bought = await storage.purchased_item_ids(db, principal.user_id, item_ids)
    if not bought:
        return set()
    reviewed = await storage.reviewed_item_ids(db, principal.user_id, list(bought))
    return bought - reviewed


def key_both_ways(metadata: dict[str, Any]) -> None:
    """Add `base@version` beside each `base` metadata key, the spec's recommended form (a
    client reading metadata['dev.commerce.store.constraints@1.0'] finds it). Store documents
    only: they are few and small, while items fill catalogs (docs/decisions.md)."""
    for key, entry in list(metadata.items()):
        if "@" not in key and isinstance(entry, dict) and isinstance(entry.get("_version"), str):
            metadata.setdefault(f"{key}@{entry['_version']}", entry)


def render_store(row: Row, locale: str | None) -> dict[str, Any]:
    doc: dict[str, Any] = msgspec.json.decode(row["doc"])
    doc.update(translation(row["translations"], locale, "store"))
    if isinstance(doc.get("metadata"), dict):
        key_both_ways(doc["metadata"])
    return doc


async def list_stores(db: Database, limit: int, offset: int, locale: str | None
                      ) -> tuple[list[dict[str, Any]], int]:
    rows, total = await storage.list_stores(db, limit, offset)
    return [render_store(row, locale) for row in rows], total


async def get_store(db: Database, store_id: str, locale: str | None) -> dict[str, Any]:
    return render_store(await _store_row(db, store_id), locale)


async def list_stores_with_own_names(db: Database, limit: int, offset: int, locale: str | None
                                     ) -> tuple[list[tuple[dict[str, Any], Any]], int]:
    """`list_stores`, each store with its name as written, from one read: the name a shopper
    may still type in another language ("Midori-dō" in French)."""
    rows, total = await storage.list_stores(db, limit, offset)
    return [(render_store(row, locale), _own_name(row)) for row in rows], total


async def get_store_with_own_name(db: Database, store_id: str, locale: str | None
                                  ) -> tuple[dict[str, Any], Any]:
    """`get_store`, with the store's name as written, from one read."""
    row = await _store_row(db, store_id)
    return render_store(row, locale), _own_name(row)


async def _store_row(db: Database, store_id: str) -> Row:
    row = await storage.get_store(db, store_id)
    if row is None:
        raise not_found("store", store_id)
    return row


def _own_name(row: Row) -> Any:
    return msgspec.json.decode(row["doc"]).get("name")


def _render_catalog_head(row: Row, locale: str | None) -> dict[str, Any]:
    doc: dict[str, Any] = msgspec.json.decode(row["doc"])
    doc.update(translation(row["translations"], locale, "catalogs", row["id"]))
    doc["storeId"] = row["store_id"]
    return doc


async def list_catalogs(db: Database, limit: int, offset: int, locale: str | None
                        ) -> tuple[list[dict[str, Any]], int]:
    rows = await storage.list_catalogs(db, limit, offset)
    total = await storage.count(db, "catalogs")
    return [_render_catalog_head(row, locale) for row in rows], total


async def catalog_head(db: Database, catalog_id: str, locale: str | None
                       ) -> tuple[Row, dict[str, Any]]:
    """The catalog's row and its document without items (not found when there is none)."""
    row = await storage.get_catalog(db, catalog_id)
    if row is None:
        raise not_found("catalog", catalog_id)
    return row, _render_catalog_head(row, locale)


async def get_catalog(db: Database, catalog_id: str, principal: Principal | None,
                      locale: str | None) -> dict[str, Any]:
    row, catalog = await catalog_head(db, catalog_id, locale)
    items = group_rows(await storage.catalog_items(db, catalog_id))
    reviewable = await review_actions(db, principal, list(items))
    catalog["items"] = [
        render_item(item, translations=row["translations"], locale=locale,
                    can_review=item.id in reviewable)
        for item in items.values()
    ]
    return catalog


async def load_items(db: Database, item_ids: list[str]) -> dict[str, StockedItem]:
    return group_rows(await storage.items_with_stock(db, item_ids))


async def get_item(db: Database, item_id: str, principal: Principal | None,
                   locale: str | None) -> dict[str, Any]:
    items = await load_items(db, [item_id])
    if item_id not in items:
        raise not_found("item", item_id)
    item = items[item_id]
    store = await storage.get_store(db, item.store_id)
    reviewable = await review_actions(db, principal, [item_id])
    doc = render_item(item, translations=store["translations"] if store else "{}",
                      locale=locale, can_review=item_id in reviewable)
    doc["storeId"] = item.store_id
    doc["catalogId"] = item.catalog_id
    reviews = await storage.item_reviews(db, item_id)
    doc["reviews"] = [{"id": r["id"], "rating": r["rating"], "comment": r["comment"],
                       "createdAt": r["created_at"]} for r in reviews]
    return doc
