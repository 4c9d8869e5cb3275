"""What the CSV exports (Shopify, WooCommerce) share: UTF-8 text, the header and its required
columns, the row limit, and a reader that collects every problem with its line."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from commerce_agent.commerce import money
from commerce_agent.commerce.catalog_import.source import ImportFailed, ImportProblem

MAX_ROWS = 50_000
MAX_PRICE = Decimal(10) ** 12


def decode(data: bytes, file: str) -> str:
    """UTF-8 text (both platforms export UTF-8, with or without a BOM); anything else is refused
    with the line of the first byte that is not."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ImportFailed([ImportProblem(
            file, line, None, f"is not UTF-8 text (byte 0x{data[exc.start]:02x}); export the "
            "file again as UTF-8")]) from None
    # UTF-16 without a byte-order mark decodes as UTF-8 with a NUL after every letter; no
    # export writes NUL in its header, so say what the file is rather than "not a format".
    if "\x00" in text.split("\n", 1)[0]:
        raise ImportFailed([ImportProblem(
            file, 1, None, "is not UTF-8 text (NUL bytes in the header, as UTF-16 has); "
            "export the file again as UTF-8")])
    return text


class Reader:
    """One file's reading: its name, the store's currency, the problems found so far."""

    def __init__(self, file: str, currency: str) -> None:
        self.file = file
        self.currency = currency
        self.problems: list[ImportProblem] = []

    def problem(self, line: int | None, column: str | None, reason: str) -> None:
        self.problems.append(ImportProblem(self.file, line, column, reason))

    def price(self, line: int, column: str, text: str, required: bool) -> str | None:
        """A price in the store's currency, as text; None (and a problem) when it is not one."""
        text = text.strip()
        if not text:
            if required:
                self.problem(line, column, "is required")
            return None
        try:
            value = Decimal(text)
        except InvalidOperation:
            value = Decimal("NaN")
        # At most 12 whole digits (shop/checks.amount_problem): "1E+30" is no price, and
        # would not even round to cents.
        if not value.is_finite() or value < 0 or value >= MAX_PRICE:
            self.problem(line, column, f"must be a price such as 24.00, not {text!r}")
            return None
        if value != money.quantize(value, self.currency):
            self.problem(line, column, f"{text} has more decimals than {self.currency} allows")
            return None
        return str(money.quantize(value, self.currency))

    def rows(self, text: str, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
        """Each non-blank row of the file as (line, column → value), after a header that has
        every `required` column; a row with the wrong number of fields, one the CSV reader
        cannot read (then the rest is not read), and rows past MAX_ROWS, are problems."""
        rows = csv.reader(io.StringIO(text, newline=""))
        try:
            first = next(rows, None)
        except csv.Error as exc:
            raise ImportFailed([ImportProblem(self.file, 1, None, _unreadable(exc))]) from None
        if first is None:
            raise ImportFailed([ImportProblem(self.file, 1, None, "is empty")])
        header = [name.strip() for name in first]
        missing = [name for name in required if name not in header]
        if missing:
            raise ImportFailed([ImportProblem(self.file, 1, name,
                                              "column is missing from the header")
                                for name in missing])
        for count in itertools.count(2):
            # The line the row starts on, as an editor numbers them: a quoted field may span
            # several (Shopify's Body (HTML) often does).
            line = rows.line_num + 1
            try:
                values = next(rows)
            except StopIteration:
                return
            except csv.Error as exc:  # a field past the reader's limit, a stray quote…
                self.problem(line, None, _unreadable(exc))
                return  # where the next row starts is unknown: the rest is not read
            if count > MAX_ROWS:
                self.problem(line, None, f"more than {MAX_ROWS} rows")
                break
            if not any(value.strip() for value in values):
                continue
            if len(values) != len(header):
                self.problem(line, None, f"has {len(values)} fields, the header {len(header)}")
                continue
            yield line, dict(zip(header, values, strict=True))


def _unreadable(error: csv.Error) -> str:
    if "field limit" in str(error):
        return (f"has a field longer than {csv.field_size_limit()} characters (a product's "
                "text is at most 20,000)")
    return f"cannot be read as CSV: {error}"
