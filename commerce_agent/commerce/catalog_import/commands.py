"""`commerce-agent catalog import|export`: load a shop's catalog from a file, write it back."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import click

from commerce_agent.commerce.catalog_import.loader import (
    ImportReport,
    export_stores,
    import_catalog,
    read_file,
)
from commerce_agent.commerce.catalog_import.source import ImportFailed
from commerce_agent.commerce.merchant import DB_OPTION
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.db import database_for
from commerce_agent.errors import CommerceError


@click.group("catalog")
def catalog_group() -> None:
    """Load your catalog (Shopify product CSV or a JSON store file), export it as JSON."""


async def _import(db_path: str, path: Path, store_id: str | None, store_name: str | None,
                  currency: str, dry_run: bool) -> ImportReport:
    database = database_for(db_path)
    await database.open()
    try:
        if store_id is not None:
            row = await catalog_storage.get_store(database, store_id)
            currency = str(row["currency"]) if row is not None else currency
        source = read_file(path, currency)
        return await import_catalog(database, source, store_id=store_id,
                                    store_name=store_name, currency=currency, dry_run=dry_run)
    finally:
        await database.close()


@catalog_group.command("import")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--store", "store_id", default=None,
              help="Add to this existing store (default: create or reuse one by name).")
@click.option("--store-name", default=None,
              help="Name of the store to create or reuse (default: the file's first Vendor, "
                   "or a JSON file's own store).")
@click.option("--currency", default="USD", show_default=True,
              help="ISO 4217 currency of a new store (prices are read in it).")
@click.option("--dry-run", is_flag=True, help="Check and count everything, change nothing.")
@DB_OPTION
def import_command(path: Path, store_id: str | None, store_name: str | None, currency: str,
                   dry_run: bool, db_path: str) -> None:
    """Import PATH: a Shopify product CSV export or a JSON store file (docs/sample-data.md).

    All or nothing: any bad row is reported with its line and column and nothing is
    imported. Importing the same file again updates items, never duplicates them."""
    try:
        report = asyncio.run(_import(db_path, path, store_id, store_name, currency.upper(),
                                     dry_run))
    except ImportFailed as failed:
        for problem in failed.problems:
            click.echo(f"error: {problem}", err=True)
        click.echo(f"Nothing was imported ({len(failed.problems)} problem(s)).", err=True)
        sys.exit(1)
    except CommerceError as refused:
        click.echo(f"error: {path}: {refused.message}", err=True)
        click.echo("Nothing was imported.", err=True)
        sys.exit(1)
    verb = "Would import" if report.dry_run else "Imported"
    new = " (new store)" if report.store_created else ""
    click.echo(f"{verb} {report.file} into {report.store_id}{new}: {report.created} created, "
               f"{report.updated} updated, {report.unchanged} unchanged.")


@catalog_group.command("export")
@click.option("--store", "store_id", default=None,
              help="The store to export (default: the only store of the database).")
@click.option("--output", "output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="File to write (default: standard output).")
@DB_OPTION
def export_command(store_id: str | None, output: Path | None, db_path: str) -> None:
    """Write a store as a JSON store file, the format `catalog import` reads."""

    async def run() -> list[dict[str, Any]] | list[str]:
        database = database_for(db_path)
        await database.open()
        try:
            if store_id is not None:
                return await export_stores(database, [store_id])
            rows, _ = await catalog_storage.list_stores(database, 1000, 0)
            ids = [str(row["id"]) for row in rows]
            return await export_stores(database, ids) if len(ids) == 1 else ids
        finally:
            await database.close()

    found = asyncio.run(run())
    if not found or isinstance(found[0], str):
        choices = ", ".join(str(name) for name in found) or "none"
        click.echo(f"error: name the store with --store (stores: {choices})", err=True)
        sys.exit(1)
    text = json.dumps(found[0], indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"Wrote {output}.")


def first_steps(db_path: str) -> str:
    """What to run next on an empty database."""
    db = "" if db_path == "./commerce-agent.db" else f" --db {db_path}"
    return ("Your shop is empty. Load your catalog and create the account that runs it:\n"
            f"  commerce-agent catalog import products_export.csv --store-name \"My Shop\"{db}\n"
            f"  commerce-agent merchant create --email you@example.com --store STORE_ID{db}\n"
            "Then manage it through /admin (see /docs) and place a first order.")


async def shop_summary(db_path: str) -> str:
    """What `serve --no-samples` prints: the first steps on an empty database, else the
    stores it serves."""
    database = database_for(db_path)
    await database.open()
    try:
        rows, total = await catalog_storage.list_stores(database, 20, 0)
    finally:
        await database.close()
    if not total:
        return first_steps(db_path)
    names = ", ".join(f"{row['id']}" for row in rows) + (" …" if total > len(rows) else "")
    return f"Stores: {names}. Merchants manage them through /admin (see /docs)."
