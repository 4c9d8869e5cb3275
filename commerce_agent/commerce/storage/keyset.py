"""The SQL of one page of a list read in an index by its sort key (a key cursor,
commerce/pagination.py): rows after (or before) a key, in the list's order (or the reverse,
for a previous page)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.db import Database, Row


def window(columns: Sequence[str], key: Sequence[Any] | None, backward: bool,
           descending: bool) -> tuple[str, str, dict[str, Any]]:
    """(`AND` condition, `ORDER BY` list, parameters) for rows past `key` on `columns`, which
    the list orders by, all descending or all ascending. Row values compare in the index on
    both backends."""
    reverse = backward != descending  # read the index downwards
    direction = " DESC" if reverse else ""
    order = ", ".join(column + direction for column in columns)
    if key is None:
        return "", order, {}
    params = {f"k{index}": value for index, value in enumerate(key)}
    condition = (f" AND ({', '.join(columns)}) {'<' if reverse else '>'} "
                 f"({', '.join(':' + name for name in params)})")
    return condition, order, params


async def newest_of_stores(db: Database, source: str, store_ids: Sequence[str], limit: int, *,
                           columns: Sequence[str], offset: int = 0,
                           key: Sequence[Any] | None = None, backward: bool = False,
                           filtered: str = "", params: dict[str, Any] | None = None
                           ) -> list[Row]:
    """Up to `limit` rows of `source` (`<columns> FROM <table>`, with a `store_id` column)
    for the stores, newest first on `columns`, after `key` (or before it: then oldest first).
    Each store's rows are read in its own index range (`filtered` adds to its `WHERE`, with
    `params`) and the ranges merged, so a page reads at most `limit + offset` rows per store,
    however many rows the stores have."""
    if not store_ids:
        return []
    condition, order, window_params = window(columns, key, backward, descending=True)
    parts = []
    for index, store_id in enumerate(store_ids):
        window_params[f"s{index}"] = store_id
        parts.append(f"SELECT * FROM (SELECT {source} WHERE store_id = :s{index}{filtered}"
                     f"{condition} ORDER BY {order} LIMIT :reach) AS store{index}")
    return await db.fetch_all(
        " UNION ALL ".join(parts) + f" ORDER BY {order} LIMIT :limit OFFSET :offset",
        {**window_params, **(params or {}), "reach": limit + offset, "limit": limit,
         "offset": offset})
