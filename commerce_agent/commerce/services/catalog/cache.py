"""Anonymous catalog reads, kept for a moment.

Rendering a catalog parses and renders every item with its live stock; it is the hottest read
of a storefront. Anonymous reads (no per-user review actions) of one catalog in one locale and
one set of capability versions are the same bytes, so they are kept for TTL_SECONDS. A change
of stock or of an item committed by this process (storage.catalog notifies CHANGED) drops them
at once; a change committed by another process shows within TTL_SECONDS on one SQLite file,
at once on PostgreSQL (its commits are signalled to every process).
Stock shown in a catalog is advice: an order still takes stock atomically (`decrement_stock`).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from commerce_agent.commerce.storage.catalog import CHANGED
from commerce_agent.db import Database
from commerce_agent.i18n import content

TTL_SECONDS = 1.0
MAX_ENTRIES = 256

Key = tuple[str, str | None, str]  # catalog id, locale, Accept-Commerce-Capabilities


@dataclass(frozen=True)
class Entry:
    body: bytes
    languages: tuple[str, ...]  # what the text is in (Content-Language)
    expires: float


class CatalogCache:
    def __init__(self, db: Database, ttl: float = TTL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._changed = db.signal(CHANGED)
        self._ttl = ttl
        self._clock = clock
        self._entries: OrderedDict[Key, Entry] = OrderedDict()

    def get(self, key: Key) -> bytes | None:
        if self._changed.is_set():
            self._changed.clear()
            self._entries.clear()
            return None
        entry = self._entries.get(key)
        if entry is None or entry.expires < self._clock():
            return None
        for language in entry.languages:
            content.record(language)
        return entry.body

    def put(self, key: Key, body: bytes) -> None:
        self._entries[key] = Entry(body, tuple(content.recorded()),
                                   self._clock() + self._ttl)
        self._entries.move_to_end(key)
        while len(self._entries) > MAX_ENTRIES:
            self._entries.popitem(last=False)
