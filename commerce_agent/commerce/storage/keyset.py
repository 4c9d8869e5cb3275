"""The SQL of one page of a list read in an index by its sort key (a key cursor,
commerce/pagination.py): rows after (or before) a key, in the list's order (or the reverse,
for a previous page)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


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
