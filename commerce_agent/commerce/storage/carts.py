"""SQL for carts and cart lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from commerce_agent.commerce.storage import catalog
from commerce_agent.commerce.storage.documents import document_text
from commerce_agent.db import Check, Row, Transaction, locking


async def insert_cart(tx: Transaction, cart: dict[str, Any]) -> None:
    await tx.execute(
        "INSERT INTO carts (id, owner_id, store_id, status, guest_info, created_at, updated_at, "
        "expires_at) VALUES (:id, :owner_id, :store_id, 'active', :guest_info, :now, :now, "
        ":expires_at)", cart)


# A cart's own columns, as cart_with_lines reads them.
CART_COLUMNS = ("id", "owner_id", "store_id", "status", "guest_info", "promotion_codes",
                "shipping_method_id", "created_at", "updated_at", "expires_at")
_CART_WITH_LINES = (
    f"SELECT {', '.join(f'carts.{column}' for column in CART_COLUMNS)}, "
    "cart_items.id AS line_id, cart_items.item_id, cart_items.variant_id AS line_variant, "
    "cart_items.quantity AS line_quantity, cart_items.options, items.doc, "
    "items.store_id AS item_store_id, items.catalog_id, stock.variant_id, stock.quantity "
    "FROM carts LEFT JOIN cart_items ON cart_items.cart_id = carts.id "
    "LEFT JOIN items ON items.id = cart_items.item_id "
    "LEFT JOIN stock ON stock.item_id = items.id "
    "WHERE carts.id = :id AND carts.owner_id = :owner ORDER BY cart_items.position")
# In a write the cart's row stays locked until it ends: changes to one cart (two lines of the
# same item added at once, two orders of it) take turns from their read on.


async def cart_with_lines(db: Any, cart_id: str, owner_id: str) -> list[Row]:
    """The owner's cart joined with each of its lines (in order), the line's item and that
    item's stock rows: one row per line and stock row, one row with NULL lines for a cart
    without any, none for no such cart of this owner. One statement where reading the cart,
    its lines and their items apart took three, each a round through SQLite of its own."""
    rows: list[Row] = await db.fetch_all(_CART_WITH_LINES + locking(db, "carts"),
                                                 {"id": cart_id, "owner": owner_id})
    return rows


async def cart_with_lines_and_items(tx: Transaction, cart_id: str, owner_id: str,
                                    item_ids: Sequence[str]) -> tuple[list[Row], list[Row]]:
    """`cart_with_lines` and catalog.items_with_stock(item_ids) together, in one round trip
    on PostgreSQL (a line about to be added reads its item beside the cart)."""
    cart, items = await tx.fetch_each([
        (_CART_WITH_LINES + locking(tx, "carts"), {"id": cart_id, "owner": owner_id}),
        catalog.items_with_stock_statement(item_ids)])
    return cart, items


async def touch(tx: Transaction, cart_id: str, now: str, expires_at: str) -> None:
    await tx.defer("UPDATE carts SET updated_at = :now, expires_at = :expires WHERE id = :id",
                   {"now": now, "expires": expires_at, "id": cart_id})


async def insert_line(tx: Transaction, cart_id: str, line: dict[str, Any]) -> None:
    await tx.defer(
        "INSERT INTO cart_items (id, cart_id, position, item_id, variant_id, quantity, options) "
        "VALUES (:id, :cart, (SELECT COALESCE(MAX(position), -1) + 1 FROM cart_items "
        "WHERE cart_id = :cart), :item, :variant, :qty, :options)",
        {"id": line["id"], "cart": cart_id, "item": line["itemId"],
         "variant": line["variantId"], "qty": line["quantity"],
         "options": _encode_options(line["options"])})


async def update_line(tx: Transaction, line_id: str, quantity: int,
                      options: dict[str, Any]) -> None:
    await tx.defer(
        "UPDATE cart_items SET quantity = :qty, options = :options WHERE id = :id",
        {"qty": quantity, "options": _encode_options(options), "id": line_id})


async def set_quantity(tx: Transaction, line_id: str, quantity: int) -> None:
    await tx.defer("UPDATE cart_items SET quantity = :qty WHERE id = :id",
                   {"qty": quantity, "id": line_id})


def _encode_options(options: dict[str, Any]) -> str:
    return msgspec.json.encode(options, order="sorted").decode()


async def delete_line(tx: Transaction, line_id: str) -> None:
    await tx.execute("DELETE FROM cart_items WHERE id = :id", {"id": line_id})


async def set_promotions(tx: Transaction, cart_id: str, codes: list[str]) -> None:
    await tx.execute("UPDATE carts SET promotion_codes = :codes WHERE id = :id",
                     {"codes": document_text(codes), "id": cart_id})


async def set_shipping_method(tx: Transaction, cart_id: str, method_id: str | None) -> None:
    await tx.execute("UPDATE carts SET shipping_method_id = :method WHERE id = :id",
                     {"method": method_id, "id": cart_id})


async def mark_submitted(tx: Transaction, cart_id: str, now: str, check: Check) -> None:
    """Turn an active cart into a submitted one; `check` gets the row count (0: it was not
    active), deferred (Transaction.defer)."""
    await tx.defer(
        "UPDATE carts SET status = 'submitted', updated_at = :now "
        "WHERE id = :id AND status = 'active'", {"now": now, "id": cart_id}, check=check)


async def store_promotions(db: Any, store_id: str) -> dict[str, dict[str, Any]]:
    rows = await db.fetch_all("SELECT code, doc FROM promotions WHERE store_id = :store",
                              {"store": store_id})
    return {row["code"]: msgspec.json.decode(row["doc"]) for row in rows}


async def open_cart_ids(db: Any, owner_id: str, now: str, limit: int, offset: int
                        ) -> list[str]:
    """The owner's open carts (active, not expired), most recently changed first."""
    rows = await db.fetch_all(
        "SELECT id FROM carts WHERE owner_id = :owner AND status = 'active' "
        "AND expires_at > :now ORDER BY updated_at DESC, id DESC LIMIT :limit OFFSET :offset",
        {"owner": owner_id, "now": now, "limit": limit, "offset": offset})
    return [str(row["id"]) for row in rows]


async def count_open_carts(db: Any, owner_id: str, now: str, cap: int) -> int:
    row = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM (SELECT 1 FROM carts WHERE owner_id = :owner "
        "AND status = 'active' AND expires_at > :now LIMIT :cap) AS counted",
        {"owner": owner_id, "now": now, "cap": cap})
    return int(row["n"]) if row is not None else 0


async def change_owner(tx: Transaction, from_owner: str, to_owner: str, now: str) -> list[str]:
    """Hand `from_owner`'s open carts to `to_owner`; the ids of the carts moved."""
    rows = await tx.fetch_all(
        "SELECT id FROM carts WHERE owner_id = :owner AND status = 'active' "
        "AND expires_at > :now ORDER BY updated_at DESC, id DESC",
        {"owner": from_owner, "now": now})
    ids = [str(row["id"]) for row in rows]
    if ids:
        await tx.execute(
            "UPDATE carts SET owner_id = :to_owner, updated_at = :now "
            "WHERE owner_id = :owner AND status = 'active' AND expires_at > :now",
            {"owner": from_owner, "to_owner": to_owner, "now": now})
    return ids
