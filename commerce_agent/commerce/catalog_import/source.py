"""What a catalog reader hands the loader: items in the sample-data format, where in the file
each came from, and problems named by file, line and column."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ImportProblem:
    file: str
    line: int | None
    column: str | None
    reason: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        column = f" column {self.column!r}:" if self.column else ""
        return f"{where}:{column} {self.reason}"


class ImportFailed(Exception):
    """Nothing was imported; every problem found is listed."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems[:5]))
        self.problems = problems


@dataclass(frozen=True)
class Place:
    """Where a part of an item (every field under `pointer`) was read: line and column."""

    pointer: str
    line: int | None
    column: str | None = None


@dataclass
class SourceItem:
    item: dict[str, Any]  # sample-data format; ids may still be reassigned by the loader
    status: str = "active"  # active | draft | archived
    handle: str | None = None  # Shopify handle: re-imports update the item with this handle
    catalog_id: str | None = None  # JSON files name their catalog
    places: list[Place] = field(default_factory=list)

    def place(self, pointer: str) -> Place:
        """The most specific place recorded for a problem at `pointer`."""
        best = Place("", self.places[0].line if self.places else None)
        for place in self.places:
            if (pointer == place.pointer or pointer.startswith(place.pointer + "/")) \
                    and len(place.pointer) >= len(best.pointer):
                best = place
        return best


@dataclass
class SourceCatalog:
    file: str
    items: list[SourceItem]
    default_store_name: str | None = None
    store: dict[str, Any] | None = None  # a whole JSON store file (without its items)
    catalogs: list[dict[str, Any]] = field(default_factory=list)  # JSON catalog heads


def slug(text: str) -> str:
    """ASCII letters, digits and underscores: `Cobalt Blue / 12 oz` -> cobalt_blue_12_oz."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")[:60] or "x"
