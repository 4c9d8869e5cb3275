"""Load a read catalog into a store: all of a file or nothing, and the same file twice
changes nothing the second time (items are matched by id, or by Shopify handle)."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.capability_ids import STORE_INFO
from commerce_agent.commerce.catalog_import import csv_rows, json_file, shopify_csv, woocommerce_csv
from commerce_agent.commerce.catalog_import.source import (
    ImportFailed,
    ImportProblem,
    SourceCatalog,
    SourceItem,
    slug,
)
from commerce_agent.commerce.shop import writes
from commerce_agent.commerce.shop.checks import currency_problem, item_problems
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.db import Database, Transaction

MAX_FILE_BYTES = 50 * 1024 * 1024
SUPPORTED = "a Shopify product CSV, a WooCommerce product CSV or a JSON store file"


@dataclass
class ImportReport:
    file: str
    store_id: str
    store_created: bool = False
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    dry_run: bool = False


class _DryRun(Exception):
    def __init__(self, report: ImportReport) -> None:
        super().__init__("dry run")
        self.report = report


def read_file(path: Path, currency: str) -> SourceCatalog:
    """The file's catalog, by its content: a JSON store file or a Shopify product CSV."""
    file = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportFailed([ImportProblem(file, None, None, f"cannot be read: {exc.strerror}")]
                           ) from None
    if len(data) > MAX_FILE_BYTES:
        raise ImportFailed([ImportProblem(file, None, None,
                                          f"is larger than {MAX_FILE_BYTES} bytes")])
    return read_data(data, file, currency)


def read_data(data: bytes, file: str, currency: str) -> SourceCatalog:
    """A file's content (named `file` in problems), told apart as read_file does."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return json_file.read(data, file)
    header = csv_header(data, file)
    if not header or shopify_csv.looks_like_shopify(header):
        return shopify_csv.read(data, file, currency)
    if woocommerce_csv.looks_like_woocommerce(header):
        return woocommerce_csv.read(data, file, currency)
    start = ", ".join(name[:40] for name in header[:4]) or "empty"  # not a whole line
    raise ImportFailed([ImportProblem(file, 1, None, f"is not a format this import reads: "
                                      f"{SUPPORTED} (its header starts {start})")])


def csv_header(data: bytes, file: str) -> list[str]:
    """The column names of a CSV file's first line."""
    # Lines may end in \n, \r\n or a lone \r (spreadsheets saved as "CSV (Macintosh)").
    first = csv_rows.decode(re.split(rb"\r\n?|\n", data[:65536], maxsplit=1)[0], file) \
        if data else ""
    return [name.strip() for name in next(csv.reader([first]), [])]


def _reassign(item: dict[str, Any], item_id: str) -> None:
    """Give an item read from CSV its final id, and its variants ids derived from it."""
    item["id"] = item_id
    for variant in item.get("metadata", {}).get(VARIANTS, {}).get("variants", []):
        variant["id"] = f"var_{item_id[5:]}_{slug('_'.join(variant['values']))}"


async def _store(tx: Transaction, source: SourceCatalog, store_id: str | None,
                 store_name: str | None, currency: str) -> tuple[str, bool]:
    """The store to import into (id, created?): the given one, the JSON file's own, or one
    found or created by name."""
    problem = currency_problem(currency)
    if problem:
        raise ImportFailed([ImportProblem(source.file, None, "--currency", problem)])
    if store_id is not None:
        row = await catalog_storage.get_store(tx, store_id)
        if row is None:
            raise ImportFailed([ImportProblem(source.file, None, "--store",
                                              f"no store with id {store_id!r}")])
        if source.store is not None and source.store["currency"] != row["currency"]:
            raise ImportFailed([ImportProblem(source.file, None, "/currency",
                                              f"must be the store's currency {row['currency']}")])
        return store_id, False
    if source.store is not None:
        if await catalog_storage.get_store(tx, source.store["id"]) is not None:
            return str(source.store["id"]), False
        await writes.add_store(tx, source.store)
        return str(source.store["id"]), True
    name = store_name or source.default_store_name or "My Shop"
    named = await storage.store_ids_named(tx, name)
    if named:
        return named[0], False
    new_id = await writes.free_id(tx, "stores", f"store_{slug(name)}", name)
    await writes.add_store(tx, {
        "id": new_id, "name": name, "description": "", "currency": currency,
        "metadata": {STORE_INFO: {"_version": "1.0", "name": name}}})
    return new_id, True


async def _catalog_for(tx: Transaction, store_id: str, entry: SourceItem) -> str:
    if entry.catalog_id is not None:
        return entry.catalog_id
    return await writes.default_catalog(tx, store_id)


async def _check_items(tx: Transaction, source: SourceCatalog, store_id: str, currency: str
                       ) -> None:
    """Final ids for CSV items, then every item checked; ImportFailed lists every problem."""
    handles = await storage.item_ids_by_handle(tx, store_id)
    problems: list[ImportProblem] = []
    seen: dict[str, SourceItem] = {}
    for entry in source.items:
        if entry.handle is not None:
            known = handles.get(entry.handle)
            _reassign(entry.item, known or await writes.free_id(tx, "items", entry.item["id"],
                                                          store_id))
        for problem in item_problems(entry.item, currency):
            place = entry.place(problem.field)
            column = place.column if place.line is not None \
                else (place.column or "") + problem.field
            problems.append(ImportProblem(source.file, place.line, column, problem.reason))
        item_id = entry.item.get("id")
        if isinstance(item_id, str):
            if item_id in seen:
                place = entry.place("/id")
                problems.append(ImportProblem(source.file, place.line, place.column,
                                              f"item id {item_id} appears twice"))
            seen[item_id] = entry
            row = await storage.item_row(tx, item_id)
            if row is not None and row["store_id"] != store_id:
                place = entry.place("/id")
                problems.append(ImportProblem(source.file, place.line, place.column,
                                              f"item id {item_id} belongs to another store"))
    for index, head in enumerate(source.catalogs):
        row = await storage.catalog_row(tx, head["id"])
        if row is not None and row["store_id"] != store_id:
            problems.append(ImportProblem(source.file, None, f"/catalogs/{index}/id",
                                          f"catalog id {head['id']} belongs to another store"))
    if problems:
        raise ImportFailed(problems)


async def import_catalog(db: Database, source: SourceCatalog, *, store_id: str | None = None,
                         store_name: str | None = None, currency: str = "USD",
                         dry_run: bool = False) -> ImportReport:
    """Import every item of `source` in one transaction (nothing on any problem)."""
    try:
        async with db.transaction() as tx:
            found, created = await _store(tx, source, store_id, store_name, currency)
            row = await catalog_storage.get_store(tx, found)
            assert row is not None
            currency = str(row["currency"])
            await _check_items(tx, source, found, currency)
            report = ImportReport(source.file, found, created, dry_run=dry_run)
            for head in source.catalogs:
                await writes.put_catalog(tx, found, head)
            if source.store is not None and not created:
                for promotion in source.store.get("promotions", []):
                    await writes.put_promotion(tx, found, promotion)
            for entry in source.items:
                catalog_id = await _catalog_for(tx, found, entry)
                written = await writes.put_item(tx, found, catalog_id, entry.item, entry.status)
                if written.created:
                    report.created += 1
                elif written.changed:
                    report.updated += 1
                else:
                    report.unchanged += 1
            if dry_run:
                raise _DryRun(report)
            return report
    except _DryRun as rolled_back:
        return rolled_back.report


async def export_stores(db: Database, store_ids: list[str]) -> list[dict[str, Any]]:
    """Stores as JSON store files (the format `catalog import` reads), with live stock."""
    exported = []
    for store_id in store_ids:
        row = await catalog_storage.get_store(db, store_id)
        if row is None:
            continue
        store: dict[str, Any] = writes.store_file_head(row)
        store["promotions"] = await storage.promotions(db, store_id)
        catalogs = []
        for catalog_id in await storage.store_catalog_ids(db, store_id):
            catalog_row = await storage.catalog_row(db, catalog_id)
            assert catalog_row is not None
            catalog: dict[str, Any] = writes.decode(catalog_row["doc"])
            catalog["items"] = [writes.export_item(item)
                                for item in await writes.catalog_items(db, catalog_id)]
            catalogs.append(catalog)
        store["catalogs"] = catalogs
        exported.append(store)
    return exported
