"""Text that merchants and shoppers write (store and item names and descriptions, delivery
addresses) reaches every page escaped: whatever the text (markup, quotes that would end an
attribute, a closing </script>, template syntax, right-to-left marks), the page shows it as
text and no byte of it becomes markup. Hypothesis writes the text; the pages are the shop's and
the merchant console's, read by a browser signed in as the shopper or the merchant."""

from __future__ import annotations

import itertools
import re

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from starlette.applications import Starlette

from tests.support.admin_support import merchant_headers
from tests.support.console_support import sign_in, sign_in_merchant
from tests.support.helpers import CERAMICS, LIMITED_MUG
from tests.support.lifecycle_support import mug_order

HOSTILE_PARTS = ["<script>alert(1)</script>", "</script><script>x()</script>", '" onload="x()',
                 "' autofocus onfocus='x()", "<img src=x onerror=x()>",
                 "</textarea><b>x()</b>", "<!--x()-->", "]]>", "&amp;", "&#60;", "{{ 7*7 }}",
                 "{% if %}", "javascript:x()",
                 "\u202e", "\u200f", "\u2067", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
                 "\\", "`", "${x}"]
# (Each part with markup is unlike anything a page holds of its own, so finding it is a leak.)
# Text as people type it around the hostile parts (no control characters, which the API
# refuses anyway).
WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
                max_size=8)
HOSTILE = st.lists(st.one_of(st.sampled_from(HOSTILE_PARTS), WORDS), min_size=1,
                   max_size=5).map(lambda parts: "A " + "".join(parts) + " Z")
# What would become markup were it not escaped (a lone & is only ever shown wrong).
MARKUP = re.compile(r"[<>\"']")
_runs = itertools.count()


def assert_shown_as_text(page: httpx.Response, text: str, where: str) -> None:
    """`text` is on the page, escaped, and nowhere as it was written (when it had markup)."""
    assert page.status_code == 200, (where, page.status_code, page.text[:500])
    escaped = str(escape(text))
    assert escaped in page.text, (where, text)
    if MARKUP.search(text):
        assert text not in page.text, (where, text)
    for part in HOSTILE_PARTS:
        if MARKUP.search(part) and part in text:
            assert part not in page.text, (where, part)


@settings(max_examples=8, deadline=None,
          phases=[Phase.explicit, Phase.generate],  # each example is a dozen requests
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(store_name=HOSTILE, item_name=HOSTILE, description=HOSTILE)
async def test_store_and_item_text_is_escaped_on_every_shop_and_console_page(
        app: Starlette, client: httpx.AsyncClient, store_name: str, item_name: str,
        description: str) -> None:
    run = next(_runs)
    email = f"owner{run}@escape.example"
    headers = await merchant_headers(app, email, CERAMICS)
    store = await client.patch(f"/admin/stores/{CERAMICS}", headers=headers,
                               json={"name": store_name, "description": description})
    assert store.status_code == 200, store.text
    item = await client.patch(f"/admin/items/{LIMITED_MUG}", headers=headers,
                              json={"name": item_name, "description": description})
    assert item.status_code == 200, item.text
    client.cookies.clear()
    for path, texts in [("/", [store_name]),
                        (f"/shop/stores/{CERAMICS}", [store_name, item_name]),
                        (f"/shop/items/{LIMITED_MUG}", [item_name, description])]:
        page = await client.get(path)
        for text in texts:
            assert_shown_as_text(page, text, path)
    await sign_in(client, email, "merchant-pass-123")
    for path, texts in [("/console/catalog", [store_name, item_name]),
                        ("/console/store", [store_name])]:
        page = await client.get(path)
        for text in texts:
            assert_shown_as_text(page, text, path)


@settings(max_examples=6, deadline=None,
          phases=[Phase.explicit, Phase.generate],  # each example is a dozen requests
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(address=HOSTILE)
async def test_a_delivery_address_is_escaped_on_the_merchants_board(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        address: str) -> None:
    placed = await mug_order(client, alice, {"address": address, "countryCode": "US"})
    assert placed["deliveryAddress"]["address"] == address
    await sign_in_merchant(app, client, email=f"owner{next(_runs)}@address.example")
    assert_shown_as_text(await client.get("/console"), address, "orders board")


@pytest.mark.parametrize("query", ['"><script>x()</script>', "</title><b>bold</b>",
                                  "' onmouseover='x()", "\u202eevil"])
async def test_a_search_query_is_echoed_escaped(client: httpx.AsyncClient, query: str) -> None:
    page = await client.get("/", params={"q": query})
    assert page.status_code == 200
    assert str(escape(query)) in page.text
    if MARKUP.search(query):
        assert query not in page.text
