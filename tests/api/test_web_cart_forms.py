"""The cart page without JavaScript (web/cart_forms.py): adding from a product page, changing
a quantity, removing a line, a promotion code and the shipping option are forms posted to
/shop/cart with the page's CSRF token, answered 303 back to the cart page; a refused change
shows the cart page again with the reason as an alert and the error's status."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.support.pages import BROWSER, CSRF_RE
from tests.support.pages import form_csrf as csrf

pytestmark = pytest.mark.both_backends

LINE = re.compile(r'name="line_id" value="([^"]+)"')
CART = re.compile(r'name="cart_id" value="([^"]+)"')


async def sign_in(client: httpx.AsyncClient, email: str = "alice@example.com",
                  password: str = "alice-demo-pass") -> None:  # noqa: S107 - demo user
    signed = await client.post("/account/sign-in", data={
        "csrf_token": await csrf(client, "/account/sign-in"), "email": email,
        "password": password})
    assert signed.status_code == 303


async def add(client: httpx.AsyncClient, **fields: str) -> httpx.Response:
    return await client.post("/shop/cart", data={
        "csrf_token": await csrf(client), "action": "add", "item_id": "item_classic_mug",
        "store_id": "store_ceramics", "quantity": "1", "variant": "var_mug_blue_12oz",
        **fields})


async def cart_page(client: httpx.AsyncClient) -> str:
    page = await client.get("/shop/cart", headers=BROWSER)
    assert page.status_code == 200
    return page.text


async def test_a_guest_adds_changes_and_removes_without_javascript(
        client: httpx.AsyncClient) -> None:
    added = await add(client, variant="var_mug_blue_16oz", addon="addon_ceramics_gift_box",
                      quantity="2")
    assert added.status_code == 303 and added.headers["location"] == "/shop/cart?done=add"
    assert any(c.startswith("commerce_guest_cart=") and "HttpOnly" in c
               for c in added.headers.get_list("set-cookie"))
    page = await cart_page(client)
    assert "Cobalt Blue / 16 oz, Gift Box" in page  # the line's choices, by name
    assert 'value="2" id="qty-' in page and "$62.00" in page
    line, cart = LINE.search(page).group(1), CART.search(page).group(1)
    token = CSRF_RE.search(page).group(1)

    changed = await client.post("/shop/cart", data={
        "csrf_token": token, "action": "update", "cart_id": cart, "line_id": line,
        "quantity": "3"})
    assert changed.status_code == 303 and changed.headers["location"] == "/shop/cart?done=update"
    done = (await client.get(changed.headers["location"], headers=BROWSER)).text
    assert 'value="3" id="qty-' in done and "$93.00" in done and "Quantity changed." in done

    removed = await client.post("/shop/cart", data={
        "csrf_token": token, "action": "remove", "cart_id": cart, "line_id": line})
    assert removed.status_code == 303
    assert "Your cart is empty." in await cart_page(client)


async def test_a_refused_change_shows_the_reason_as_an_alert(client: httpx.AsyncClient) -> None:
    await sign_in(client)
    assert (await add(client)).status_code == 303
    page = await cart_page(client)
    line, cart = LINE.search(page).group(1), CART.search(page).group(1)
    token = CSRF_RE.search(page).group(1)
    for fields, status, reason in [
            ({"action": "update", "line_id": line, "quantity": "0"}, 400, "between 1 and"),
            ({"action": "update", "line_id": line, "quantity": "two"}, 400, "whole number"),
            # "²" passes str.isdigit and fails int(): was a 500
            ({"action": "update", "line_id": line, "quantity": "\u00b2"}, 400, "whole number"),
            ({"action": "update", "line_id": "line_nope", "quantity": "1"}, 404, "no line"),
            ({"action": "promotion", "code": "NOSUCHCODE"}, 400, "cannot be applied"),
            ({"action": "shipping", "shippingMethodId": "ship_nope"}, 400, "shipping"),
            ({"action": "frobnicate"}, 400, "must be one of"),
            ({"action": "checkout"}, 400, "turn JavaScript on")]:
        answer = await client.post("/shop/cart", data={"csrf_token": token, "cart_id": cart,
                                                       **fields})
        assert answer.status_code == status, (fields, answer.text[:300])
        alert = re.search(r'role="alert" id="cart-problem">([^<]*)<', answer.text)
        assert alert and reason in alert.group(1), (fields, alert)
        assert 'value="1" id="qty-' in answer.text  # the cart as it was
    assert 'value="1" id="qty-' in await cart_page(client)


async def test_a_post_without_the_csrf_token_changes_nothing(client: httpx.AsyncClient) -> None:
    await sign_in(client)
    assert (await add(client)).status_code == 303
    page = await cart_page(client)
    line, cart = LINE.search(page).group(1), CART.search(page).group(1)
    for token in ("", "0" * 64):
        refused = await client.post("/shop/cart", data={
            "csrf_token": token, "action": "remove", "cart_id": cart, "line_id": line})
        assert refused.status_code == 403 and "Form expired" in refused.text
    assert LINE.search(await cart_page(client)).group(1) == line
    not_a_form = await client.post("/shop/cart", json={"action": "remove"})
    assert not_a_form.status_code == 400


async def test_another_shoppers_cart_is_not_found(client: httpx.AsyncClient) -> None:
    await sign_in(client)
    assert (await add(client)).status_code == 303
    page = await cart_page(client)
    line, cart = LINE.search(page).group(1), CART.search(page).group(1)
    client.cookies.clear()  # another browser, as Bob
    await sign_in(client, "bob@example.com", "bob-demo-pass")
    answer = await client.post("/shop/cart", data={
        "csrf_token": await csrf(client), "action": "remove", "cart_id": cart,
        "line_id": line})
    assert answer.status_code == 404 and 'role="alert"' in answer.text
    client.cookies.clear()
    nobody = await client.post("/shop/cart", data={
        "csrf_token": await csrf(client), "action": "remove", "cart_id": cart,
        "line_id": line})
    assert nobody.status_code == 404 and "holds no cart" in nobody.text


async def test_a_signed_in_shopper_adds_to_the_stores_open_cart(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await sign_in(client)
    for _ in range(2):
        assert (await add(client)).status_code == 303
    carts = (await client.get("/carts", headers=alice)).json()["carts"]
    [cart] = [c for c in carts if c["storeId"] == "store_ceramics"]
    [line] = cart["items"]
    assert line["quantity"] == 2 and line["variantId"] == "var_mug_blue_12oz"
    sold_out = await add(client, variant="var_mug_white_12oz")
    assert sold_out.status_code in (400, 409) and 'id="cart-problem"' in sold_out.text
