"""Where the Stripe payment page sends the shopper once paid (web/payment_page.py): a path on
this server only. Whatever the link's `return` holds (another site, a scheme-relative URL, a
backslash that browsers read as a slash, a path past 500 characters), the page goes back to
the cart instead."""

from __future__ import annotations

from urllib.parse import urljoin

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.web import paths
from commerce_agent.web.payment_page import CONTENT_SECURITY_POLICY, _return_path


@pytest.mark.parametrize("target", ["/shop/orders/ord_1", "/shop/cart?done=pay", "/",
                                    "/shop/orders/ord_1#paid"])
def test_a_path_of_this_server_is_kept(target: str) -> None:
    assert _return_path(target) == target


@pytest.mark.parametrize("target", [None, "", "https://evil.example/", "//evil.example/x",
                                    "/\\evil.example", "\\\\evil.example", "javascript:x()",
                                    "shop/cart", " /shop/cart", "/" + "a" * 500,
                                    "/\t/evil.example", "/\n/evil.example", "/\r/evil.example"])
def test_anything_else_goes_back_to_the_cart(target: str | None) -> None:
    assert _return_path(target) == paths.CART


@given(st.text(max_size=600))
def test_the_return_never_leaves_this_server(target: str) -> None:
    kept = _return_path(target)
    # As a browser reads a link: tabs and line breaks dropped (WHATWG URL), then resolved.
    resolved = urljoin("https://shop.example/shop/stores/x",
                       kept.translate({9: None, 10: None, 13: None}))
    assert resolved.startswith("https://shop.example/")
    assert kept in (target, paths.CART) and len(kept) <= 500


def test_the_page_may_load_stripe_and_nothing_else_from_elsewhere() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'" and directives["base-uri"] == "'none'"
    for name, sources in directives.items():
        for source in sources.split():
            assert source.startswith("'") or source in ("data:",) or \
                source.startswith(("https://js.stripe.com", "https://api.stripe.com",
                                   "https://hooks.stripe.com", "https://*.stripe.com")), \
                (name, source)
