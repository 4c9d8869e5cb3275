"""Catalog import (GET /console/import): a Shopify or WooCommerce product CSV or a JSON store
file, sent as a multipart form, loaded by the loader of `commerce-agent catalog import` and
POST /admin/stores/{id}/catalog/import. All or nothing: problems are listed with their line
and column. A dry run shows what would change; an import answers with a redirect back."""

from __future__ import annotations

import re
from typing import Any

from starlette.responses import Response

from commerce_agent.commerce.catalog_import.loader import import_catalog, read_data
from commerce_agent.commerce.catalog_import.source import ImportFailed
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.web import paths
from commerce_agent.web.console.base import Console, form_endpoint, page_endpoint, refused

PAGE = "console-import"
MAX_IMPORT_BYTES = 10 * 1024 * 1024
MAX_PROBLEMS = 200
_FILE_NAME = re.compile(r"[^A-Za-z0-9 ._()-]+")


async def _import(console: Console, status: int = 200, **extra: Any) -> Response:
    """The import form (?store=)."""
    return console.show("console/import.html", status, store=console.chosen_store(), **extra)


import_page = page_endpoint(PAGE)(_import)


@form_endpoint(PAGE)
async def import_file(console: Console) -> Response:
    """POST /console/import: the file of the form into the chosen store."""
    dry_run = bool(console.form.get("dryRun"))
    try:
        store = console.store(console.form.get("store", "")[:100])
        upload = console.files.get("file")
        if upload is None:
            raise validation_error("/file", "choose a catalog file")
        data = upload.data
        if len(data) > MAX_IMPORT_BYTES:
            raise validation_error("/file", "is larger than 10 MiB")
        if not data:
            raise validation_error("/file", "is empty")
        name = _FILE_NAME.sub("_", upload.filename)[:120] or "upload"
        try:
            source = read_data(data, name, store["currency"])
            report = await import_catalog(console.db, source, store_id=store["id"],
                                          dry_run=dry_run)
        except ImportFailed as failed:
            return await _import(console, 400, failed=failed.problems[:MAX_PROBLEMS],
                                 failed_count=len(failed.problems), file_name=name,
                                 errors={"import": {"": f"Nothing was imported: "
                                                        f"{len(failed.problems)} problem(s) "
                                                        f"in {name}."}})
    except CommerceError as error:
        return await refused(console, error, "import", {"/file": "file"}, _import)
    summary = (f"{'Dry run, nothing changed: would import' if dry_run else 'Imported'} "
               f"{report.file} into {store['name']}: {report.created} created, "
               f"{report.updated} updated, {report.unchanged} unchanged.")
    if dry_run:
        return await _import(console, summary=summary)
    return console.done(f"{paths.CONSOLE_IMPORT}?store={store['id']}", summary)
