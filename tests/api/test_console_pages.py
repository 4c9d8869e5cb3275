"""The merchant console without JavaScript: every page is rendered on the server, every action
is a form posted with the page's CSRF token that answers with a redirect back (and the
outcome), a refused form comes back with the problem beside its field and nothing changed,
and roles are checked on the server (customers 403, another merchant's things 404)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.shop import merchants
from tests.support.console_support import (
    OTHER_MERCHANT,
    PASSWORD,
    csrf_of,
    field_error,
    post_form,
    sign_in,
    sign_in_merchant,
)
from tests.support.lifecycle_support import complete, get_order, mug_order, stock

pytestmark = pytest.mark.both_backends

PAGES = ["/console", "/console/catalog", "/console/import", "/console/returns",
         "/console/webhooks", "/console/store", "/console/mail"]
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
                       "BAEAwS2OUAAAAABJRU5ErkJggg==")
EXPORT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "products_export.csv"
HTML = {"Accept": "text/html"}


def outcome(response: httpx.Response) -> str:
    """The one-line outcome a redirect carries to the next page."""
    assert response.status_code == 303, response.text
    return response.headers["location"]


async def follow(client: httpx.AsyncClient, response: httpx.Response) -> httpx.Response:
    page = await client.get(outcome(response))
    assert page.status_code == 200
    return page


def message(page: httpx.Response) -> str:
    match = re.search(r'id="console-message"[^>]*>([^<]*)<', page.text)
    assert match, page.text
    return match.group(1)


@pytest.mark.parametrize("path", PAGES)
async def test_each_page_is_rendered_on_the_server_without_scripts(
        app: Starlette, client: httpx.AsyncClient, path: str) -> None:
    await sign_in_merchant(app, client)
    page = await client.get(path)
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    assert "Loading" not in page.text and csrf_of(page)
    if path != "/console/webhooks":
        assert "Hearth &amp; Kiln Ceramics" in page.text  # stores by name, never ids
    # Every action posts to this server; every control has its label.
    for action in re.findall(r'<form[^>]*method="post"[^>]*action="([^"]+)"', page.text):
        assert action.startswith("/console"), action
    for control in re.findall(r'<(?:input|select|textarea)[^>]*\bid="([^"]+)"', page.text):
        assert f'for="{control}"' in page.text, control
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', page.text)
    assert scripts == (["/shop/static/console-orders.js"] if path == "/console" else []) or \
        all(s.startswith("/shop/static/console-orders.js") for s in scripts)


async def test_customers_get_403_and_strangers_a_sign_in(client: httpx.AsyncClient) -> None:
    signed_out = await client.get("/console/store")
    assert signed_out.status_code == 200 and 'id="console"' not in signed_out.text
    assert "/account/sign-in?next=/console/store" in signed_out.text
    posted = await client.post("/console/stores/store_ceramics/settings", data={"name": "X"})
    assert posted.status_code == 403 and "Form expired" in posted.text  # no CSRF token
    posted = await client.post("/console/stores/store_ceramics/settings", data={
        "csrf_token": csrf_of(signed_out), "name": "X"}, follow_redirects=False)
    assert posted.status_code == 303 and "/account/sign-in" in posted.headers["location"]
    await sign_in(client, "alice@example.com", "alice-demo-pass")
    for path in PAGES:
        page = await client.get(path)
        assert page.status_code == 403 and "Merchant accounts only" in page.text, path
    page = await client.get("/")
    refused = await client.post("/console/stores/store_ceramics/settings", data={
        "csrf_token": csrf_of(page), "name": "Taken over"})
    assert refused.status_code == 403


async def test_the_board_ships_an_order_by_form(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    placed = await mug_order(client, alice)
    board = await client.get("/console")
    card = board.text.split(f'data-order-id="{placed["id"]}"')[1].split("</li>\n")[0]
    assert re.findall(r'data-action="([a-z_]+)"', card) == ["ship", "advance", "cancel"]
    ship = f"/console/orders/{placed['id']}/ship"
    # A bad tracking number: the board again, the problem beside the field, nothing shipped.
    bad = await post_form(client, "/console", ship, {"carrier": "UPS",
                                                     "trackingNumber": "no <tags>"})
    assert bad.status_code == 400
    assert field_error(bad, f"ship-{placed['id']}", "trackingNumber")
    assert 'value="no &lt;tags&gt;"' in bad.text  # what was typed is kept
    assert (await get_order(client, alice, placed["id"]))["status"] == "confirmed"
    done = await post_form(client, "/console?status=confirmed", ship + "?status=confirmed",
                           {"carrier": "UPS", "trackingNumber": "1Z999AA10123456784"})
    assert outcome(done).startswith("/console?status=confirmed")
    page = await follow(client, done)
    assert message(page) == f"Shipped {placed['id']} with tracking number 1Z999AA10123456784."
    shipped = await get_order(client, alice, placed["id"])
    assert shipped["status"] == "in_transit"
    tracking = shipped["metadata"]["dev.commerce.order.shipment_tracking"][0]
    assert (tracking["carrier"], tracking["trackingNumber"]) == ("UPS", "1Z999AA10123456784")
    # The outcome is said once.
    assert message(await client.get("/console")) == ""
    # An action the order no longer has is refused with its reason, nothing changes.
    again = await post_form(client, "/console", f"/console/orders/{placed['id']}/cancel")
    assert again.status_code == 409 and "cannot cancel" in again.text
    delivered = await post_form(client, "/console", f"/console/orders/{placed['id']}/advance")
    assert "is now completed" in message(await follow(client, delivered))


async def test_cancelling_refunds_and_restocks(app: Starlette, client: httpx.AsyncClient,
                                               alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    before = await stock(app, "item_limited_glaze_mug")
    placed = await mug_order(client, alice)
    done = await post_form(client, "/console", f"/console/orders/{placed['id']}/cancel",
                           {"reason": "Out of glaze"})
    assert "the payment is refunded" in message(await follow(client, done))
    cancelled = await get_order(client, alice, placed["id"])
    assert cancelled["status"] == "cancelled"
    assert cancelled["cancellation"] == {"cancelledBy": "merchant", "reason": "Out of glaze"}
    assert await stock(app, "item_limited_glaze_mug") == before


async def test_a_form_without_its_csrf_token_changes_nothing(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    placed = await mug_order(client, alice)
    refused = await client.post(f"/console/orders/{placed['id']}/cancel",
                                data={"csrf_token": "0" * 64})
    assert refused.status_code == 403 and "Form expired" in refused.text
    assert (await get_order(client, alice, placed["id"]))["status"] == "confirmed"


async def test_another_merchants_things_are_404(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    await merchants.create(app.state.db, OTHER_MERCHANT, ["store_ebooks"], password=PASSWORD)
    placed = await mug_order(client, alice)
    await sign_in(client, OTHER_MERCHANT, PASSWORD)
    board = await client.get("/console")
    assert placed["id"] not in board.text and "Hearth" not in board.text
    for page, action in [
            ("/console", f"/console/orders/{placed['id']}/cancel"),
            ("/console/catalog", "/console/items/item_limited_glaze_mug/price"),
            ("/console/store", "/console/stores/store_ceramics/settings"),
            ("/console/store", "/console/stores/store_ceramics/promotions"),
            ("/console/returns", "/console/returns/ret_nothing/approve")]:
        answer = await post_form(client, page, action, {"amount": "1.00", "name": "Mine",
                                                        "code": "X", "value": "5"})
        assert answer.status_code == 404, (action, answer.text)
        assert "Not found" in answer.text
    assert (await get_order(client, alice, placed["id"]))["status"] == "confirmed"
    for path in ("/console/catalog?store=store_ceramics", "/console/store?store=store_ceramics",
                 "/console?store=store_ceramics"):
        assert (await client.get(path, headers=HTML)).status_code == 404, path


async def test_a_new_item_with_variants_and_an_uploaded_image(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    form = {"store": "store_ceramics", "name": "Ash Glaze Bowl", "price": "29.5",
            "fulfillmentType": "physical", "options": "Size",
            "variants": "Small, 29.00, 3\nLarge, 34.00"}
    bad = await post_form(client, "/console/catalog", "/console/catalog/items", form,
                          files={"imageFile": ("bowl.png", PNG, "image/png")})
    assert bad.status_code == 400
    assert field_error(bad, "new-item", "price")
    assert 'value="Ash Glaze Bowl"' in bad.text
    # Not a PNG, though it says so: the problem sits beside the file field.
    fake = await post_form(client, "/console/catalog", "/console/catalog/items",
                           {**form, "price": "29.00"},
                           files={"imageFile": ("bowl.png", b"GIF89a....", "image/png")})
    assert fake.status_code == 400 and field_error(fake, "new-item", "imageFile")
    done = await post_form(client, "/console/catalog", "/console/catalog/items",
                           {**form, "price": "29.00"},
                           files={"imageFile": ("bowl.png", PNG, "image/png")})
    page = await follow(client, done)
    assert message(page) == "Ash Glaze Bowl is created and on sale."
    assert 'id="item-item_ash_glaze_bowl"' in page.text
    item = (await client.get("/items/item_ash_glaze_bowl")).json()
    assert item["fulfillmentType"] == "physical"  # so its orders are shipped
    variants = item["metadata"]["dev.commerce.product.variants"]["variants"]
    assert [(v["values"], v["price"]["amount"], v["stock"]) for v in variants] == [
        (["Small"], "29.00", 3), (["Large"], "34.00", None)]
    image = item["metadata"]["dev.commerce.product.rich_info"]["imageGallery"][0]
    served = await client.get(image["fallbackUrl"])
    assert served.status_code == 200 and served.content == PNG
    # The storefront shows it.
    assert "Ash Glaze Bowl" in (await client.get("/shop/stores/store_ceramics")).text


async def test_price_stock_variant_details_and_archive_forms(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    item = "item_limited_glaze_mug"
    act = f"/console/items/{item}"
    page = "/console/catalog"
    assert "New price" in message(await follow(client, await post_form(
        client, page, f"{act}/price", {"amount": "21.00"})))
    assert (await client.get(f"/items/{item}")).json()["price"]["amount"] == "21.00"
    bad = await post_form(client, page, f"{act}/price", {"amount": "21.005"})
    assert bad.status_code == 400 and field_error(bad, f"price-{item}", "amount")
    await follow(client, await post_form(client, page, f"{act}/stock", {"quantity": "4"}))
    assert await stock(app, item) == 4
    below = await post_form(client, page, f"{act}/adjust", {"delta": "-9"})
    assert below.status_code == 409 and message(below)
    assert await stock(app, item) == 4
    await follow(client, await post_form(client, page, f"{act}/adjust", {"delta": "-1"}))
    assert await stock(app, item) == 3
    uncounted = await post_form(client, page, f"{act}/stock", {"quantity": ""})
    assert "not counted" in message(await follow(client, uncounted))
    blank = await post_form(client, page, f"{act}/details", {"name": "", "description": ""})
    assert blank.status_code == 400 and field_error(blank, f"details-{item}", "name")
    await follow(client, await post_form(client, page, f"{act}/details",
                                         {"name": "Glaze Mug", "description": "Blue."}))
    variant = await post_form(client, page, f"{act}/variant",
                              {"options": "Size", "values": "Large", "amount": "24.00",
                               "stock": "2"})
    assert "New variant" in message(await follow(client, variant))
    doc = (await client.get(f"/items/{item}")).json()
    assert doc["name"] == "Glaze Mug"
    [large] = doc["metadata"]["dev.commerce.product.variants"]["variants"]
    assert (large["values"], large["price"]["amount"], large["stock"]) == (["Large"], "24.00", 2)
    archived = await post_form(client, page, f"{act}/archive")
    assert "archived" in message(await follow(client, archived))
    assert (await client.get(f"/items/{item}")).status_code in (404, 410)
    await follow(client, await post_form(client, page, f"{act}/restore"))
    assert (await client.get(f"/items/{item}")).status_code == 200


async def test_importing_the_example_export(app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    files = {"file": ("products_export.csv", EXPORT.read_bytes(), "text/csv")}
    dry = await post_form(client, "/console/import", "/console/import",
                          {"store": "store_ceramics", "dryRun": "on"}, files=files)
    assert dry.status_code == 200
    assert re.search(r"Dry run, nothing changed: would import products_export.csv into "
                     r"Hearth &amp; Kiln Ceramics: \d+ created", dry.text)
    real = await post_form(client, "/console/import", "/console/import",
                           {"store": "store_ceramics"}, files=files)
    assert "Imported products_export.csv" in message(await follow(client, real))
    assert (await client.get("/shop/stores/store_ceramics")).text.count("Linen Apron") >= 1
    broken = await post_form(client, "/console/import", "/console/import",
                             {"store": "store_ceramics"},
                             files={"file": ("bad.csv", b"Name,Price\nX,1\n", "text/csv")})
    assert broken.status_code == 400 and 'id="import-problems"' in broken.text
    empty = await post_form(client, "/console/import", "/console/import",
                            {"store": "store_ceramics"})
    assert empty.status_code == 400 and field_error(empty, "import", "file")


async def test_store_settings_currency_and_promotions(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    page = "/console/store"
    settings = "/console/stores/store_ceramics/settings"
    form = {"name": "Hearth & Kiln Studio", "currency": "USD", "deliveryAreas": "US, CA, Canada",
            "address": "12 Kiln Lane, Portland, OR", "shippingFee": "9.00"}
    bad = await post_form(client, page, settings, form)
    assert bad.status_code == 400 and field_error(bad, "settings", "deliveryAreas")
    done = await post_form(client, page, settings, {**form, "deliveryAreas": "US, CA"})
    assert message(await follow(client, done)) == "Settings saved."
    store = (await client.get("/stores/store_ceramics")).json()
    assert store["name"] == "Hearth & Kiln Studio"
    assert store["location"]["address"] == "12 Kiln Lane, Portland, OR"
    shipping = store["metadata"]["dev.commerce.store.shipping"]
    assert shipping["deliveryAreas"] == ["US", "CA"]
    assert shipping["shippingOptions"][0]["costCalculation"] == {"type": "flat",
                                                                 "flatRate": "9.00"}
    # A new currency: confirmed first (prices keep their numbers), then relabelled.
    unconfirmed = await post_form(client, page, settings, {**form, "deliveryAreas": "US",
                                                           "currency": "EUR"})
    assert unconfirmed.status_code == 400 and "nothing is converted" in field_error(
        unconfirmed, "settings", "currency")
    euros = await post_form(client, page, settings, {**form, "deliveryAreas": "US",
                                                     "currency": "EUR", "confirmCurrency": "on"})
    assert message(await follow(client, euros)) == "Settings saved."
    mug = (await client.get("/items/item_limited_glaze_mug")).json()
    assert mug["price"] == {"amount": "18.00", "currency": "EUR"}
    assert (await client.get("/stores/store_ceramics")).json()["currency"] == "EUR"
    # Once the store has orders, its currency stays.
    await mug_order(client, alice)
    locked = await post_form(client, page, settings, {**form, "deliveryAreas": "US",
                                                      "currency": "GBP", "confirmCurrency": "on"})
    assert locked.status_code == 409 and "has orders" in field_error(locked, "settings",
                                                                      "currency")
    promotions = "/console/stores/store_ceramics/promotions"
    wrong = await post_form(client, page, promotions, {"code": "spring", "type": "percentage",
                                                       "value": "150"})
    assert wrong.status_code == 400 and field_error(wrong, "promotion", "value")
    saved = await post_form(client, page, promotions, {
        "code": "spring", "type": "percentage", "value": "10", "perUserLimit": "1",
        "expiresAt": "2030-01-01T00:00"})
    shown = await follow(client, saved)
    assert "SPRING is saved." == message(shown) and "1 per customer" in shown.text
    deleted = await post_form(client, page, f"{promotions}/SPRING/delete")
    assert 'data-code="SPRING"' not in (await follow(client, deleted)).text


async def test_webhooks_subscribe_log_redeliver_delete(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    page = "/console/webhooks"
    bad = await post_form(client, page, page, {"url": "http://example.com/hook",
                                               "event:*": "on"})
    assert bad.status_code == 400 and field_error(bad, "new-webhook", "url")
    none = await post_form(client, page, page, {"url": "https://example.com/hook"})
    assert none.status_code == 400 and "choose at least one event" in none.text
    made = await post_form(client, page, page, {"url": "http://127.0.0.1:9/hook",
                                                "event:*": "on"})
    assert made.status_code == 200 and re.search(r'id="secret-value">whsec_', made.text)
    hook_id = re.search(r'data-webhook-id="(wh_[^"]+)"', made.text)
    assert hook_id
    await mug_order(client, alice)
    log = await client.get(f"/console/webhooks/{hook_id.group(1)}")
    assert log.status_code == 200 and "order.created" in log.text
    delivery = re.search(r'data-delivery-id="([^"]+)"', log.text)
    assert delivery
    again = await post_form(client, log.url.path,
                            f"/console/webhooks/{hook_id.group(1)}/deliveries/"
                            f"{delivery.group(1)}/redeliver")
    assert "again as a new delivery" in message(await follow(client, again))
    gone = await post_form(client, page, f"/console/webhooks/{hook_id.group(1)}/delete")
    assert "Deleted the subscription" in message(await follow(client, gone))
    assert (await client.get(f"/console/webhooks/{hook_id.group(1)}",
                             headers=HTML)).status_code == 404


async def test_returns_are_decided_by_form(app: Starlette, client: httpx.AsyncClient,
                                           alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    placed = await mug_order(client, alice)
    await complete(app, placed["id"])
    started = await client.post("/returns", headers=alice, json={
        "orderId": placed["id"], "items": [{"cartItemId": placed["items"][0]["id"],
                                            "quantity": 1, "reason": "damaged"}]})
    assert started.status_code == 201, started.text
    return_id = started.json()["id"]
    listed = await client.get("/console/returns")
    card = listed.text.split(f'data-return-id="{return_id}"')[1].split("</li>\n")[0]
    assert re.findall(r'data-action="([a-z]+)"', card) == ["approve", "reject"]
    for action in ("approve", "receive", "refund"):
        done = await post_form(client, "/console/returns",
                               f"/console/returns/{return_id}/{action}")
        assert return_id in message(await follow(client, done))
    finished = await client.get("/console/returns")
    assert "Nothing left to decide." in finished.text.split(
        f'data-return-id="{return_id}"')[1].split('<li class="card"')[0]
    late = await post_form(client, "/console/returns", f"/console/returns/{return_id}/approve")
    assert late.status_code == 409


async def test_kept_mail_is_listed_and_readable(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    await sign_in_merchant(app, client)
    placed = await mug_order(client, alice)
    listed = await client.get("/console/mail")
    assert "order mail is kept here" in listed.text
    ids = re.findall(r'data-message-id="([^"]+)"', listed.text)
    assert len(ids) >= 2  # the customer's confirmation and the merchant's note
    assert "alice@example.com" in listed.text and "owner@hearth.example" in listed.text
    one = await client.get(f"/console/mail/{ids[0]}")
    assert one.status_code == 200 and placed["id"] in one.text
    assert 'id="message-body"' in one.text
    await merchants.create(app.state.db, OTHER_MERCHANT, ["store_ebooks"], password=PASSWORD)
    await sign_in(client, OTHER_MERCHANT, PASSWORD)
    assert (await client.get(f"/console/mail/{ids[0]}", headers=HTML)).status_code == 404
    assert ids[0] not in (await client.get("/console/mail")).text


async def test_an_arabic_customers_order_mail_is_arabic_and_shown_right_to_left(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    saved = await client.patch("/user/profile", headers=alice,
                               json={"preferences": {"language": "ar"}})
    assert saved.status_code == 200, saved.text
    await sign_in_merchant(app, client)
    placed = await mug_order(client, alice)
    listed = await client.get("/console/mail")
    assert f"تم تأكيد طلبك {placed['id']}" in listed.text
    message_id = listed.text.split("alice@example.com")[0].rsplit('data-message-id="', 1)[1]
    one = await client.get("/console/mail/" + message_id.split('"')[0])
    assert 'lang="ar" dir="rtl"' in one.text and "شكرًا لطلبك" in one.text
    # The merchant's own note follows the merchant's language (English here).
    assert f"New order {placed['id']}" in listed.text
