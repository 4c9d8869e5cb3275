"""`GET /catalogs/{id}` as JSON bytes: the whole catalog (the seed's answer; read and encoded in
batches, so a large one is streamed), one page of its items, and the parts a kept catalog is
made of, so that a stock change re-renders only the items it touched.

The whole catalog is `{...catalog, "items": [...]}`, the catalog's own fields then its items,
encoded item by item: the bytes are those of encoding the document at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import pagination
from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.catalog.storefront import (
    StockedItem,
    catalog_head,
    group_rows,
    render_item,
    review_actions,
)
from commerce_agent.commerce.storage import catalog as storage
from commerce_agent.db import Database, Row

# Items read (and encoded) at a time for a whole catalog.
BATCH = 500
# Changed items a kept catalog re-renders one by one; more, and it is rendered afresh.
MAX_RESTOCKED = 200


def _item_key(row: Row) -> tuple[int, str]:
    return int(row["position"]), str(row["id"])


def _opening(head: dict[str, Any]) -> bytes:
    """The catalog's fields and the opening of its items array."""
    head.pop("items", None)
    encoded = msgspec.json.encode(head)
    return (b"{" if encoded == b"{}" else encoded[:-1] + b",") + b'"items":['


_CLOSING = b"]}"


@dataclass
class Parts:
    """A whole catalog, rendered, as the parts it is encoded from."""

    catalog_id: str
    translations: str
    opening: bytes
    items: dict[str, bytes]  # each item's JSON, in catalog order
    stock: dict[str, dict[str, int]]  # each item's stock as rendered ({} when unlimited)
    complete: bool = True  # False: larger than the build's limit (only the first items)
    body: bytes = field(init=False, default=b"")

    def __post_init__(self) -> None:
        self.body = self.opening + b",".join(self.items.values()) + _CLOSING


async def _batches(db: Database, catalog_id: str, rows: list[Row]
                   ) -> AsyncIterator[dict[str, StockedItem]]:
    """The catalog's active items, BATCH at a time, in catalog order, from its first batch
    read with one more item (each batch read by key: a change committed during a long read
    shows in the batches read after it)."""
    while True:
        items = group_rows(rows)
        if len(items) <= BATCH:
            yield items
            return
        del items[list(items)[BATCH]]
        yield items
        last = next(row for row in reversed(rows) if row["id"] in items)
        rows = await storage.catalog_items_page(db, catalog_id, BATCH + 1,
                                                key=_item_key(last))


async def _first_batch(db: Database, catalog_id: str) -> list[Row]:
    return await storage.catalog_items_page(db, catalog_id, BATCH + 1)


def _encode_items(items: Iterable[StockedItem], translations: str, locale: str | None,
                  reviewable: set[str]) -> dict[str, bytes]:
    table = msgspec.json.decode(translations) if locale else {}  # once, not once per item
    return {item.id: msgspec.json.encode(render_item(
        item, translations=table, locale=locale, can_review=item.id in reviewable))
        for item in items}


async def build(db: Database, catalog_id: str, locale: str | None, limit: int) -> Parts:
    """The anonymous whole catalog as kept parts; a catalog of more than `limit` items is
    not rendered, only marked incomplete (it is streamed, not kept)."""
    row, head = await catalog_head(db, catalog_id, locale)
    if await storage.count_catalog_items(db, catalog_id, limit + 1) > limit:
        return Parts(catalog_id, row["translations"], b"", {}, {}, complete=False)
    encoded: dict[str, bytes] = {}
    stock: dict[str, dict[str, int]] = {}
    async for items in _batches(db, catalog_id, await _first_batch(db, catalog_id)):
        encoded.update(_encode_items(items.values(), row["translations"], locale, set()))
        stock.update((item.id, dict(item.stock)) for item in items.values())
    return Parts(catalog_id, row["translations"], _opening(head), encoded, stock)


async def restock(db: Database, parts: Parts, locale: str | None) -> Parts | None:
    """`parts` with the items whose stock moved re-rendered (one read of the catalog's stock
    rows, then of the changed items); None when the items themselves changed (render it
    afresh)."""
    now: dict[str, dict[str, int]] = {}
    for row in await storage.catalog_stock(db, parts.catalog_id):
        now.setdefault(row["item_id"], {})[row["variant_id"]] = int(row["quantity"])
    if not now.keys() <= parts.items.keys():
        return None
    changed = [item_id for item_id in parts.items if now.get(item_id, {}) != parts.stock[item_id]]
    if not changed:
        return parts
    if len(changed) > MAX_RESTOCKED:
        return None
    items = group_rows(await storage.items_with_stock(db, changed))
    if items.keys() != set(changed):  # archived or moved meanwhile
        return None
    encoded = dict(parts.items)
    encoded.update(_encode_items(items.values(), parts.translations, locale, set()))
    stock = dict(parts.stock)
    stock.update((item.id, dict(item.stock)) for item in items.values())
    return Parts(parts.catalog_id, parts.translations, parts.opening, encoded, stock)


async def whole(db: Database, catalog_id: str, principal: Principal | None,
                locale: str | None) -> tuple[bytes, AsyncIterator[bytes] | None]:
    """The whole catalog with the caller's review actions: its first bytes (the catalog and
    its first batch of items) and, when it has more than a batch, the rest as chunks of a
    batch each (None: the first bytes are all of it). Not found is raised at once."""
    row, head = await catalog_head(db, catalog_id, locale)
    batches = _batches(db, catalog_id, await _first_batch(db, catalog_id))
    first = await anext(batches)
    encoded = await _encoded(db, first, row["translations"], principal, locale)
    if len(first) < BATCH:
        return _opening(head) + encoded + _CLOSING, None
    return _opening(head) + encoded, _rest(db, batches, row["translations"], principal,
                                           locale, bool(encoded))


async def _encoded(db: Database, items: dict[str, StockedItem], translations: str,
                   principal: Principal | None, locale: str | None) -> bytes:
    reviewable = await review_actions(db, principal, list(items))
    return b",".join(_encode_items(items.values(), translations, locale, reviewable).values())


async def _rest(db: Database, batches: AsyncIterator[dict[str, StockedItem]],
                translations: str, principal: Principal | None, locale: str | None,
                started: bool) -> AsyncIterator[bytes]:
    async for items in batches:
        encoded = await _encoded(db, items, translations, principal, locale)
        if encoded:
            yield (b"," if started else b"") + encoded
            started = True
    yield _CLOSING


async def page(db: Database, catalog_id: str, principal: Principal | None, locale: str | None,
               at: Page) -> dict[str, Any]:
    """The catalog with one page of its items, in catalog order, and `pagination`."""
    row, head = await catalog_head(db, catalog_id, locale)
    rows = await storage.catalog_items_page(db, catalog_id, at.limit + 1, offset=at.offset,
                                            key=at.key, backward=at.backward)
    heads = list({item["id"]: item for item in rows}.values())
    total = await storage.count_catalog_items(db, catalog_id, pagination.COUNT_CAP + 1)
    heads, info = pagination.keyed(at, heads, _item_key, pagination.total_count(total))
    kept = [item["id"] for item in heads]
    items = group_rows(row for row in rows if row["id"] in set(kept))
    reviewable = await review_actions(db, principal, kept)
    head["items"] = [render_item(items[item_id], translations=row["translations"],
                                 locale=locale, can_review=item_id in reviewable)
                     for item_id in kept]
    head["pagination"] = info
    return head
