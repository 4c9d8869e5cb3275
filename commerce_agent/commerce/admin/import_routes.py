"""POST /admin/stores/{id}/catalog/import: a catalog file (Shopify product CSV or JSON store
file) loaded into one of the merchant's stores by the same loader as `catalog import`.

The body is the file itself (not JSON, not multipart), so it is read here with its own size
limit rather than through http.read_body. All or nothing, as on the command line: any problem
answers 400 with one `details` entry per problem (line, column, reason) and imports nothing.
A re-import of the same file changes nothing, so the route needs no Idempotency-Key store.
"""

from __future__ import annotations

import re

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal
from commerce_agent.commerce.admin.uploads import read_upload
from commerce_agent.commerce.catalog_import.loader import import_catalog, read_data
from commerce_agent.commerce.catalog_import.source import ImportFailed, ImportProblem
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.http import json_response
from commerce_agent.routing import Route

MAX_IMPORT_BYTES = 10 * 1024 * 1024
MAX_PROBLEMS = 200  # listed in the answer; the message gives the full count
MEDIA_TYPES = ("text/csv", "application/json", "application/commerce+json", "text/plain",
               "application/octet-stream")
_FILE_NAME = re.compile(r"[^A-Za-z0-9 ._()-]+")


class ImportResult(msgspec.Struct):
    """What the import did (or, with dryRun, would do)."""

    storeId: str
    file: str
    created: int
    updated: int
    unchanged: int
    dryRun: bool


async def _read_file(request: Request) -> bytes:
    """The request body, refused past MAX_IMPORT_BYTES (413) and for other media types (415)."""
    _, data = await read_upload(request, MEDIA_TYPES, MAX_IMPORT_BYTES,
                                wrong_type="Send the file as text/csv or application/json.",
                                what="catalog file")
    return data


def _problem(problem: ImportProblem) -> dict[str, object]:
    detail: dict[str, object] = {"type": "validation", "reason": problem.reason,
                                 "message": str(problem)}
    if problem.line is not None:
        detail["line"] = problem.line
    if problem.column:
        detail["column"] = problem.column
        detail["field"] = problem.column
    return detail


async def import_catalog_file(request: Request) -> Response:
    """Import a Shopify product CSV or JSON store file into the store (?dryRun=true checks
    and counts without writing)."""
    principal = await merchant_principal(request)
    db = request.app.state.db
    store_id = request.path_params["store_id"]
    await access.own_store(db, principal, store_id)
    flag = request.query_params.get("dryRun", "false")
    if flag not in ("true", "false"):
        raise validation_error("dryRun", "must be true or false", flag)
    name = _FILE_NAME.sub("_", request.query_params.get("filename", "upload"))[:120] or "upload"
    data = await _read_file(request)
    row = await catalog_storage.get_store(db, store_id)
    assert row is not None
    try:
        source = read_data(data, name, str(row["currency"]))
        report = await import_catalog(db, source, store_id=store_id, dry_run=flag == "true")
    except ImportFailed as failed:
        count = len(failed.problems)
        raise CommerceError(400, "bad_request",
                            f"Nothing was imported: {count} problem(s) in {name}.",
                            details=[_problem(p) for p in failed.problems[:MAX_PROBLEMS]],
                            params={"field": "body"}) from None
    return json_response(ImportResult(report.store_id, report.file, report.created,
                                      report.updated, report.unchanged, report.dry_run))


routes = [
    Route("/admin/stores/{store_id}/catalog/import", import_catalog_file, methods=["POST"]),
]
