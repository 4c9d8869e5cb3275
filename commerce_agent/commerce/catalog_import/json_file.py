"""A store file in the sample-data format (docs/sample-data.md), read for import."""

from __future__ import annotations

import json
from typing import Any

from commerce_agent.commerce.catalog_import.source import (
    ImportFailed,
    ImportProblem,
    Place,
    SourceCatalog,
    SourceItem,
)
from commerce_agent.commerce.shop.checks import ITEM_STATUSES, store_problems
from commerce_agent.json_input import MalformedJson, check


def read(data: bytes, file: str) -> SourceCatalog:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ImportFailed([ImportProblem(file, line, None, "is not UTF-8 text")]) from None
    try:
        store: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFailed([ImportProblem(file, exc.lineno, f"char {exc.colno}",
                                          f"is not JSON: {exc.msg}")]) from None
    except RecursionError:
        raise ImportFailed([ImportProblem(file, None, None, "nests too deeply")]) from None
    try:
        check(text.encode("utf-8"))  # duplicate keys, U+0000, depth: as every JSON body
    except MalformedJson as exc:
        raise ImportFailed([ImportProblem(file, None, None, exc.message)]) from None
    problems = store_problems(store)
    if problems:
        raise ImportFailed([ImportProblem(file, None, problem.field, problem.reason)
                            for problem in problems])
    items = []
    heads: list[dict[str, Any]] = []
    for c_index, catalog in enumerate(store.get("catalogs", [])):
        heads.append({key: value for key, value in catalog.items() if key != "items"})
        for i_index, item in enumerate(catalog.get("items", [])):
            status = item.get("status", "active")
            if status not in ITEM_STATUSES:
                raise ImportFailed([ImportProblem(
                    file, None, f"/catalogs/{c_index}/items/{i_index}/status",
                    "must be active, draft or archived")])
            doc = {key: value for key, value in item.items() if key != "status"}
            items.append(SourceItem(doc, status, None, catalog["id"],
                                    [Place("", None, f"/catalogs/{c_index}/items/{i_index}")]))
    head = {key: value for key, value in store.items() if key != "catalogs"}
    return SourceCatalog(file, items, default_store_name=store.get("name"), store=head,
                         catalogs=heads)
