"""Reading catalog files before anything is written (catalog_import: csv_rows, shopify_csv,
json_file, html_text, loader.read_data/read_file): every problem is named by file, line (the
line an editor shows, also after a field spanning several) and column; what survives a CSV's
quoting survives the import; descriptions keep only harmless HTML; prices are the currency's."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from commerce_agent.commerce import money
from commerce_agent.commerce.catalog_import import csv_rows, loader
from commerce_agent.commerce.catalog_import.html_text import ALLOWED_TAGS, plain_text, safe_html
from commerce_agent.commerce.catalog_import.source import (
    ImportFailed,
    ImportProblem,
    Place,
    SourceItem,
    slug,
)


def problems(data: bytes, currency: str = "USD", file: str = "f.csv") -> list[ImportProblem]:
    with pytest.raises(ImportFailed) as failed:
        loader.read_data(data, file, currency)
    assert str(failed.value) == "; ".join(str(p) for p in failed.value.problems[:5])
    return failed.value.problems


def shopify(rows: list[list[str]], header: tuple[str, ...] = ("Handle", "Title",
                                                               "Variant Price")) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


# --- where problems are ---------------------------------------------------------------------


def test_a_problem_after_a_description_spanning_lines_names_the_editors_line() -> None:
    data = shopify([["mug", "Mug", "<p>one</p>\n<p>two</p>\n<p>three</p>", "9.00"],
                    ["bowl", "Bowl", "", "nine"]],
                   ("Handle", "Title", "Body (HTML)", "Variant Price"))
    [problem] = problems(data)
    assert (problem.line, problem.column) == (5, "Variant Price")
    assert str(problem) == "f.csv:5: column 'Variant Price': must be a price such as 24.00, " \
        "not 'nine'"


def test_every_bad_row_is_listed_not_only_the_first() -> None:
    found = problems(shopify([["a", "A", "-1"], ["", "B", "2.00"], ["c", "", "3.00"],
                              ["d", "D", "1.001"], ["e", "E", "NaN"], ["f", "F", ""]]))
    assert [(p.line, p.column) for p in found] == [
        (3, "Handle"), (4, "Title"), (2, "Variant Price"), (5, "Variant Price"),
        (6, "Variant Price"), (7, "Variant Price")]
    assert "more decimals than USD allows" in found[3].reason
    assert found[-1].reason == "is required"


def test_a_handle_whose_rows_are_apart_is_refused_at_its_second_place() -> None:
    [problem] = problems(shopify([["mug", "Mug", "9.00"], ["bowl", "Bowl", "5.00"],
                                  ["mug", "Mug again", "9.00"]]))
    assert (problem.line, problem.column) == (4, "Handle")
    assert "first at line 2" in problem.reason


def test_each_missing_column_is_named() -> None:
    found = problems(b"Handle,Vendor\nmug,Hearth\n")
    assert [(p.line, p.column) for p in found] == [(1, "Title"), (1, "Variant Price")]
    assert all(p.reason == "column is missing from the header" for p in found)


@pytest.mark.parametrize(("data", "line", "reason"), [
    (b"", 1, "is empty"),
    (b"\xef\xbb\xbf", 1, "is empty"),
    ("Handle,Title,Variant Price\nmug,Caf\xe9,9\n".encode("cp1252"), 2, "byte 0xe9"),
    ("Handle,Title,Variant Price\n".encode("utf-16"), 1, "is not UTF-8"),
    ("Handle,Title,Variant Price\n".encode("utf-16-le"), 1, "as UTF-16 has"),  # no BOM
    ("Handle,Title,Variant Price\n".encode("utf-16-be"), 1, "as UTF-16 has"),
    (b"Handle,Title,Variant Price\n" + b"a,b,1\n" * 3 + b"x,\xff,1\n", 5, "byte 0xff"),
])
def test_files_that_are_not_utf8_or_empty(data: bytes, line: int, reason: str) -> None:
    [problem] = problems(data)
    assert problem.line == line and reason in problem.reason


def test_a_file_of_another_kind_names_the_formats_and_a_short_header() -> None:
    [problem] = problems(("Name," + "x" * 5000 + ",Price\nMug,1,2\n").encode())
    assert "Shopify product CSV, a WooCommerce product CSV or a JSON store file" in \
        problem.reason
    assert len(problem.reason) < 300


def test_rows_past_the_limit_are_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_rows, "MAX_ROWS", 4)
    found = problems(shopify([[f"h{n}", f"T{n}", "1.00"] for n in range(6)]))
    assert [(p.line, p.reason) for p in found] == [(5, "more than 4 rows")]


def test_blank_rows_are_skipped_and_a_header_alone_is_an_empty_catalog() -> None:
    read = loader.read_data(b"Handle,Title,Variant Price\n\n,,\nmug,Mug,9\n\n", "f", "USD")
    assert [entry.item["name"] for entry in read.items] == ["Mug"]
    assert loader.read_data(b"Handle,Title,Variant Price\n", "f", "USD").items == []


def test_lines_may_end_in_cr_lf_or_a_lone_cr() -> None:
    text = "Handle,Title,Variant Price\nmug,Mug,9.00\nbowl,Bowl,nine\n"
    for ending in ("\r\n", "\r"):
        [problem] = problems(text.replace("\n", ending).encode())
        assert (problem.line, problem.column) == (3, "Variant Price")


def test_a_field_past_the_csv_readers_limit_is_a_problem_not_a_crash() -> None:
    [problem] = problems(shopify([["mug", "Mug", "9"], ["big", "x" * (csv.field_size_limit()
                                                                       + 1), "9"]]))
    assert problem.line == 3 and "longer than" in problem.reason


# --- what is read -------------------------------------------------------------------------

CELL = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
               max_size=30).filter(lambda text: text.strip() == text and text.strip())


@settings(max_examples=60, deadline=None)
@given(products=st.lists(st.tuples(CELL, st.decimals(0, 10**6, places=2)), min_size=1,
                         max_size=8, unique_by=lambda product: product[0]))
def test_titles_and_prices_survive_the_csv_quoting(products: list[tuple[str, Decimal]]
                                                   ) -> None:
    # Commas, quotes, newlines and any script in a title: csv.writer quotes them as
    # spreadsheets do, and the import reads back exactly what was written.
    rows = [[f"handle-{n}", title, str(price)] for n, (title, price) in enumerate(products)]
    read = loader.read_data(shopify(rows), "f.csv", "USD")
    assert [(entry.handle, entry.item["name"], entry.item["price"]["amount"])
            for entry in read.items] == [(f"handle-{n}", title, f"{price:.2f}")
                                         for n, (title, price) in enumerate(products)]


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.decimals(allow_nan=True, allow_infinity=True).map(str),
                      st.text(max_size=12)),
       currency=st.sampled_from(["USD", "JPY", "BHD", "EUR"]))
def test_a_price_is_the_currencys_or_a_problem(text: str, currency: str) -> None:
    reader = csv_rows.Reader("f", currency)
    price = reader.price(7, "Price", text, True)
    if price is None:
        [problem] = reader.problems
        assert (problem.line, problem.column) == (7, "Price")
        return
    assert not reader.problems
    value = Decimal(price)
    assert value >= 0 and value == Decimal(text.strip())
    assert price == str(money.quantize(value, currency))


@pytest.mark.parametrize("text", ["1E+30", "1e12", "999999999999999.99", "-0.01", "Infinity"])
def test_a_price_too_large_or_below_zero_is_a_problem_not_a_crash(text: str) -> None:
    [problem] = problems(f"Handle,Title,Variant Price\nmug,Mug,{text}\n".encode())
    assert (problem.line, problem.column) == (2, "Variant Price")
    assert problem.reason == f"must be a price such as 24.00, not {text!r}"


def test_a_yen_price_has_no_decimals_and_a_dinar_three() -> None:
    reader = csv_rows.Reader("f", "JPY")
    assert reader.price(2, "P", "1500", True) == "1500"
    assert reader.price(2, "P", "1500.5", True) is None
    assert reader.price(2, "P", " ", False) is None and len(reader.problems) == 1
    assert csv_rows.Reader("f", "BHD").price(2, "P", "1.234", True) == "1.234"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


HTML_PARTS = ["<script>alert(1)</script>", "<style>p{}</style>", "<p onclick='x()'>p</p>",
              "<a href='javascript:x()'>a</a>", "<img src=x onerror=x()>", "<iframe></iframe>",
              "<b>bold</b>", "<ul><li>one</li></ul>", "<!-- note -->", "<svg onload=x()>",
              "<table><tr><td>c</td></tr></table>", "&lt;script&gt;", "text", "<"]


@settings(max_examples=150, deadline=None)
@example(parts=["<text", "<script>alert(1)</script>"])
@given(parts=st.lists(st.one_of(st.sampled_from(HTML_PARTS), st.text(max_size=10)),
                      max_size=8))
def test_a_description_keeps_only_harmless_tags_without_attributes(parts: list[str]) -> None:
    html = "".join(parts)
    kept = safe_html(html)
    tags = _Tags()
    tags.feed(kept)
    assert all(tag in ALLOWED_TAGS and not attrs for tag, attrs in tags.found), kept
    assert "<script" not in kept.lower() and "<style" not in kept.lower()
    # (What a script element held may survive as text when the markup around it was broken,
    # "<text<script>…" being one unknown tag: text, shown escaped, never run.)
    assert safe_html(kept) == kept  # sanitizing again changes nothing


def test_the_plain_text_of_a_description_breaks_lines_after_blocks() -> None:
    text = plain_text("<h2>Care</h2><p>Hand  wash.</p><ul><li>No microwave</li></ul>"
                      "<table><tr><td>a</td><td>b</td></tr></table><script>x()</script>")
    assert text == "Care\nHand wash.\n- No microwave\na b"


# --- JSON store files ----------------------------------------------------------------------


@pytest.mark.parametrize(("data", "column", "reason"), [
    (b'{"id": "s",\n "name": }', "char 10", "is not JSON"),
    (b'{"a":' + b"[" * 3000 + b"]" * 3000 + b"}", None, "deep"),
    (b'{"id": "s", "id": "t"}', None, "repeats the key 'id'"),
    ('{"name": "caf\xe9"}'.encode("latin-1"), None, "is not UTF-8 text"),
])
def test_a_json_file_that_cannot_be_read(data: bytes, column: str | None, reason: str) -> None:
    [problem] = problems(data, file="store.json")
    assert problem.file == "store.json" and reason in problem.reason
    assert problem.column == column


def _store(**item: object) -> bytes:
    return json.dumps({"id": "store_x", "name": "X", "description": "", "currency": "USD",
                       "catalogs": [{"id": "cat_x", "name": "C", "items": [{
                           "id": "item_x", "name": "Mug", "description": "",
                           "price": {"amount": "9.00", "currency": "USD"}, **item}]}]}
                      ).encode()


def test_a_json_item_keeps_its_catalog_and_status_and_its_place() -> None:
    read = loader.read_data(_store(status="draft"), "store.json", "USD")
    [entry] = read.items
    assert (entry.status, entry.catalog_id, entry.handle) == ("draft", "cat_x", None)
    assert "status" not in entry.item
    assert entry.place("/price").column == "/catalogs/0/items/0"
    assert read.store is not None and "catalogs" not in read.store
    assert read.catalogs == [{"id": "cat_x", "name": "C"}]


def test_a_json_item_of_an_unknown_status_is_named_by_pointer() -> None:
    [problem] = problems(_store(status="sold-out"), file="store.json")
    assert problem.column == "/catalogs/0/items/0/status"


# --- files and names -------------------------------------------------------------------------


def test_a_file_that_cannot_be_read_or_is_too_large(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImportFailed, match="cannot be read"):
        loader.read_file(tmp_path / "missing.csv", "USD")
    big = tmp_path / "big.csv"
    big.write_bytes(b"Handle,Title,Variant Price\n" + b"a,b,1\n" * 10)
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 50)
    with pytest.raises(ImportFailed, match="larger than 50 bytes"):
        loader.read_file(big, "USD")


@given(st.text(max_size=80))
def test_a_slug_is_short_ascii_and_never_empty(text: str) -> None:
    made = slug(text)
    assert 1 <= len(made) <= 60 and made.isascii()
    assert set(made) <= set("abcdefghijklmnopqrstuvwxyz0123456789_")
    assert slug(made) == made


def test_the_most_specific_place_of_an_item_wins() -> None:
    entry = SourceItem({}, places=[Place("", 4), Place("/price", 5, "Variant Price"),
                                   Place("/pricey", 6)])
    assert entry.place("/price/amount") == Place("/price", 5, "Variant Price")
    assert entry.place("/name") == Place("", 4)
    assert SourceItem({}).place("/x") == Place("", None)
    assert str(ImportProblem("f", None, None, "is empty")) == "f: is empty"
