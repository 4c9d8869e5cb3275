"""Anonymous whole-catalog reads, kept for a moment and rebuilt once however many wait.

Rendering a catalog parses and renders every item with its live stock; it is the hottest read
of a storefront. Anonymous reads (no per-user review actions) of one catalog in one locale and
one set of capability versions are the same bytes, so they are kept for TTL_SECONDS, as the
parts they are encoded from (services/catalog/catalog_json.py).

- Single flight: while a catalog is being rendered, other readers of it wait for that render
  instead of starting their own.
- A change of an item committed by this process (storage.catalog notifies CHANGED) drops every
  kept catalog; a change of stock only (STOCK_CHANGED: an order, a cancellation) makes the
  next read re-read the catalog's stock rows and re-render the items whose stock moved. On
  PostgreSQL every process hears of both at once; on one SQLite file another process's change
  shows within TTL_SECONDS.
- Catalogs of more than MAX_ITEMS items are not kept (they are streamed, batch by batch);
  past MAX_BYTES in all, the least recently read are dropped.
Stock shown in a catalog is advice: an order still takes stock atomically (`decrement_stock`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from commerce_agent.commerce.services.catalog.catalog_json import Parts
from commerce_agent.commerce.storage.catalog import CHANGED, STOCK_CHANGED
from commerce_agent.db import Database
from commerce_agent.i18n import content

TTL_SECONDS = 1.0
MAX_ENTRIES = 256
MAX_ITEMS = 5000
MAX_BYTES = 64 * 1024 * 1024

Key = tuple[str, str | None, str]  # catalog id, locale, Accept-Commerce-Capabilities
Build = Callable[[], Awaitable[Parts]]
Restock = Callable[[Parts], Awaitable[Parts | None]]


@dataclass(frozen=True)
class Entry:
    parts: Parts
    languages: tuple[str, ...]  # what the text is in (Content-Language)
    expires: float
    stock_seen: int  # the stock generation its stock was read in


class CatalogCache:
    def __init__(self, db: Database, ttl: float = TTL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._changed = db.signal(CHANGED)
        self._stock_changed = db.signal(STOCK_CHANGED)
        self._ttl = ttl
        self._clock = clock
        self._entries: OrderedDict[Key, Entry] = OrderedDict()
        self._flights: dict[Key, asyncio.Future[Entry]] = {}
        self._generation = 0  # moves when kept catalogs are dropped
        self._stock_generation = 0  # moves when stock changed
        self._bytes = 0
        self.builds = 0  # renders started (whole or restocked), for tests and benches
        self.restocks = 0  # of them, kept catalogs brought up to date rather than re-rendered

    def _take_signals(self) -> None:
        if self._changed.is_set():
            self._changed.clear()
            self._entries.clear()
            self._bytes = 0
            self._generation += 1
        if self._stock_changed.is_set():
            self._stock_changed.clear()
            self._stock_generation += 1

    async def read(self, key: Key, build: Build, restock: Restock) -> Parts:
        """The kept catalog for `key`, else the one being rendered, else a new render
        (`build` renders it whole; `restock` brings kept parts' stock up to date)."""
        self._take_signals()
        entry = self._entries.get(key)
        if entry is not None and entry.expires >= self._clock() \
                and entry.stock_seen == self._stock_generation:
            self._entries.move_to_end(key)
            return self._served(entry)
        flight = self._flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(self._render(key, entry, build, restock))
            self._flights[key] = flight
            flight.add_done_callback(lambda done: self._landed(key, done))
        return self._served(await asyncio.shield(flight))

    @staticmethod
    def _served(entry: Entry) -> Parts:
        for language in entry.languages:
            content.record(language)
        return entry.parts

    def _landed(self, key: Key, flight: asyncio.Future[Entry]) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        if not flight.cancelled():
            flight.exception()  # each waiter re-raises it; retrieved here for the loop

    async def _render(self, key: Key, entry: Entry | None, build: Build,
                      restock: Restock) -> Entry:
        generation, stock_seen = self._generation, self._stock_generation
        current = entry if entry is not None and entry.expires >= self._clock() else None
        recorded, recording = content.begin()  # this render's languages, for every waiter
        try:
            self.builds += 1
            parts = None
            if current is not None:
                parts = await restock(current.parts) if current.parts.complete \
                    else current.parts
            if parts is None:
                current = None
                parts = await build()
        finally:
            content.end(recording)
        if not parts.complete:  # too large to keep: remember only that it is
            parts = Parts(parts.catalog_id, "", b"", {}, {}, complete=False)
        if current is not None:  # restocked: the kept text, its languages and its expiry
            self.restocks += 1
            rendered = Entry(parts, tuple(dict.fromkeys((*current.languages, *recorded))),
                             current.expires, stock_seen)
        else:
            rendered = Entry(parts, tuple(recorded), self._clock() + self._ttl, stock_seen)
        if generation == self._generation:
            self._keep(key, rendered)
        return rendered

    def _keep(self, key: Key, entry: Entry) -> None:
        if len(entry.parts.items) > MAX_ITEMS:
            return
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= len(old.parts.body)
        self._entries[key] = entry
        self._bytes += len(entry.parts.body)
        while len(self._entries) > MAX_ENTRIES or self._bytes > MAX_BYTES:
            _, dropped = self._entries.popitem(last=False)
            self._bytes -= len(dropped.parts.body)
