"""The orders board, store and webhook forms of the console when what is typed is wrong or
the order cannot do it now: the page again with the problem beside its field (or on top),
the status of the admin API's refusal, and nothing changed."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.console_support import field_error, post_form, sign_in_merchant
from tests.support.db_snapshot import contents
from tests.support.lifecycle_support import get_order, mug_order

SETTINGS = "/console/stores/store_ceramics/settings"
PROMOTIONS = "/console/stores/store_ceramics/promotions"


async def refused(app: Starlette, client: httpx.AsyncClient, page: str, action: str,
                  fields: dict[str, str]) -> httpx.Response:
    """A signed-in merchant's form, posted from `page` and refused with 400: the database is
    as it was."""
    await sign_in_merchant(app, client)
    before = await contents(app.state.db)
    answer = await post_form(client, page, action, fields)
    assert answer.status_code == 400, answer.text
    assert await contents(app.state.db) == before
    return answer


async def test_shipping_without_a_tracking_number_is_refused_beside_its_field(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    page = await refused(app, client, "/console", f"/console/orders/{placed['id']}/ship",
                         {"carrier": "UPS", "trackingNumber": "  "})
    assert field_error(page, f"ship-{placed['id']}", "trackingNumber") == "is required"


async def test_an_action_the_order_cannot_take_now_is_409_and_an_unknown_one_404(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await sign_in_merchant(app, client)
    assert (await post_form(client, "/console", f"/console/orders/{placed['id']}/cancel",
                            {"reason": "Out of clay"})).status_code == 303
    before = await contents(app.state.db)
    again = await post_form(client, "/console", f"/console/orders/{placed['id']}/cancel")
    assert again.status_code == 409, again.text
    assert "cannot cancel now" in again.text
    unknown = await post_form(client, "/console", f"/console/orders/{placed['id']}/teleport")
    assert unknown.status_code == 404
    assert await contents(app.state.db) == before
    assert (await get_order(client, alice, placed["id"]))["status"] == "cancelled"


SETTINGS_REFUSALS = [
    ({"name": "", "currency": "USD"}, "name"),
    ({"name": "Hearth", "currency": "XX"}, "currency"),
    ({"name": "Hearth", "currency": "USD", "shippingFee": "free"}, "shippingFee"),
    ({"name": "Hearth", "currency": "USD", "deliveryAreas": "Narnia"}, "deliveryAreas"),
]


PROMOTION_REFUSALS = [
    ({"code": "", "value": "10"}, "code"),
    ({"code": "SAVE", "value": "ten"}, "value"),
    ({"code": "SAVE", "value": "10", "startsAt": "tomorrow"}, "startsAt"),
    ({"code": "SAVE", "value": "10", "expiresAt": "2026-13-99"}, "expiresAt"),
    ({"code": "SAVE", "value": "10", "minimumSubtotal": "a lot"}, "minimumSubtotal"),
    ({"code": "SAVE", "value": "10", "perUserLimit": "-1"}, "perUserLimit"),
    # a digit to str.isdigit that int() refuses: was a 500
    ({"code": "SAVE", "value": "10", "perUserLimit": "\u00b2"}, "perUserLimit"),
]


# (the form's action, the form's id on the page, what is typed, the field refused)
STORE_FORM_REFUSALS = [
    *((SETTINGS, "settings", fields, field) for fields, field in SETTINGS_REFUSALS),
    *((PROMOTIONS, "promotion", {"type": "percentage", **fields}, field)
      for fields, field in PROMOTION_REFUSALS),
]


@pytest.mark.parametrize(("action", "form", "fields", "field"), STORE_FORM_REFUSALS,
                         ids=[f"{form}-{field}" for _, form, _, field in STORE_FORM_REFUSALS])
async def test_refused_store_forms_name_their_field_and_change_nothing(
        app: Starlette, client: httpx.AsyncClient, action: str, form: str,
        fields: dict[str, str], field: str) -> None:
    page = await refused(app, client, "/console/store", action, fields)
    if field == "perUserLimit":  # no field of its own on the page: said on top
        assert "must be a whole number from 1" in page.text
    else:
        assert field_error(page, form, field), page.text


async def test_a_promotion_with_local_times_is_saved_in_utc(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    saved = await post_form(client, "/console/store", PROMOTIONS, {
        "code": "spring", "type": "percentage", "value": "15", "perUserLimit": "2",
        "startsAt": "2030-03-01T09:00", "expiresAt": "2030-03-31T23:59:30"})
    assert saved.status_code == 303, saved.text
    row = await app.state.db.fetch_one(
        "SELECT doc FROM promotions WHERE store_id = 'store_ceramics' AND code = 'SPRING'")
    assert row is not None
    assert '"startsAt": "2030-03-01T09:00:00Z"' in row["doc"].replace('":"', '": "')
    assert "2030-03-31T23:59:30Z" in row["doc"]


@pytest.mark.parametrize(("fields", "field"), [
    ({"url": "https://hooks.example/x"}, "events"),
    ({"url": "not a url", "event:order.created": "on"}, "url"),
    ({"url": "https://hooks.example/x", "event:order.created": "on",
      "description": "d" * 501}, "description"),
], ids=["no event", "bad url", "long description"])
async def test_a_refused_webhook_names_its_field_and_subscribes_nothing(
        app: Starlette, client: httpx.AsyncClient, fields: dict[str, str], field: str) -> None:
    page = await refused(app, client, "/console/webhooks", "/console/webhooks", fields)
    if field == "events":  # a group of boxes: the problem is said on top of the form
        assert "choose at least one event" in page.text
    else:
        assert field_error(page, "new-webhook", field), page.text


async def test_deleting_a_webhook_that_is_not_there_is_404(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    answer = await post_form(client, "/console/webhooks", "/console/webhooks/wh_none/delete")
    assert answer.status_code == 404 and "Not found" in answer.text
