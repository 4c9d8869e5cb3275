"""Stores and their promotions, kept for a moment.

Every cart read and write and every order needs its store's document (currency, rules,
shipping) and promotions: reading and parsing them cost more than the rest of opening a cart.
They change only when the sample data is seeded again, so each process keeps them for
TTL_SECONDS per database file. A seed in this process drops them at once (`forget`); one in
another process shows within TTL_SECONDS, as for cached catalog reads (catalog/cache.py).

What `rules` returns is shared between requests: read it, never change it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec

from commerce_agent.commerce.storage import catalog as storage
from commerce_agent.commerce.storage.carts import store_promotions
from commerce_agent.db import Database, Transaction

TTL_SECONDS = 1.0
MAX_ENTRIES = 256


@dataclass(frozen=True)
class StoreRules:
    currency: str
    doc: dict[str, Any]
    promotions: dict[str, dict[str, Any]]  # by code


_entries: OrderedDict[tuple[str, str], tuple[StoreRules, float]] = OrderedDict()


async def rules(db: Database | Transaction, store_id: str) -> StoreRules | None:
    """The store's document and promotions (None: no such store), at most TTL_SECONDS old."""
    key = (db.path, store_id)
    now = time.monotonic()
    kept = _entries.get(key)
    if kept is not None and kept[1] > now:
        return kept[0]
    row = await storage.get_store(db, store_id)
    if row is None:
        return None
    found = StoreRules(row["currency"], msgspec.json.decode(row["doc"]),
                       await store_promotions(db, store_id))
    _entries[key] = (found, now + TTL_SECONDS)
    _entries.move_to_end(key)
    while len(_entries) > MAX_ENTRIES:
        _entries.popitem(last=False)
    return found


def forget(path: str) -> None:
    """Drop what is kept for one database file (its stores were just seeded)."""
    for key in [key for key in _entries if key[0] == path]:
        del _entries[key]
