"""A shopper's carts: the open ones listed (GET /carts), and a guest's handed over on sign-in.

The web cart page, the agent's tools and MCP read the same list, so a cart made in any of them
is seen in all (docs/decisions.md, "Carts belong to the shopper").
"""

from __future__ import annotations

from typing import Any

from commerce_agent import clock
from commerce_agent.auth import guests
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.pagination import COUNT_CAP, Page, pagination, total_count
from commerce_agent.commerce.services.carts.cart import CartView, read_cart
from commerce_agent.commerce.storage import carts as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import validation_error


async def open_carts(db: Any, principal: Principal, page: Page
                     ) -> tuple[list[CartView], dict[str, Any]]:
    """One page of the principal's open carts, most recently changed first."""
    now = clock.now_iso()
    ids = await storage.open_cart_ids(db, principal.user_id, now, page.limit + 1, page.offset)
    more = len(ids) > page.limit
    total = await storage.count_open_carts(db, principal.user_id, now, COUNT_CAP + 1)
    views = [view for view in [await read_cart(db, cart_id, principal)
                               for cart_id in ids[:page.limit]] if view is not None]
    return views, pagination(page, total_count(total), more)


async def adopt(tx: Transaction, guest_token: str, principal: Principal) -> list[CartView]:
    """Move the open carts the guest token holds to the signed-in `principal`."""
    if not guests.well_formed(guest_token):
        raise validation_error("/guestToken", "is not a guest cart token this server issued")
    if guests.is_guest(principal):
        raise validation_error("/guestToken", "carts are adopted by a signed-in user, not by "
                                              "another guest")
    guest = guests.guest_principal(guest_token)
    moved = await storage.change_owner(tx, guest.user_id, principal.user_id, clock.now_iso())
    return [view for view in [await read_cart(tx, cart_id, principal) for cart_id in moved]
            if view is not None]
