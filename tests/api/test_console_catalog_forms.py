"""The catalog console's forms when what is typed is wrong: each refusal comes back with the
page (its status the admin API's), the problem beside the field that caused it, and nothing
changed in the database; and the forms' own small languages (variant lines "S / Red, 24.00,
5", whole numbers, an empty stock meaning "not counted") read as the page says."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.app import token_for
from tests.support.console_support import field_error, post_form, sign_in_merchant
from tests.support.db_snapshot import contents

CATALOG = "/console/catalog"
MUG = "item_limited_glaze_mug"


async def _item(app: Starlette, client: httpx.AsyncClient) -> dict[str, object]:
    """The mug as the admin API shows it (with its stock)."""
    found = await client.get(f"/admin/items/{MUG}", headers=await _admin(app))
    assert found.status_code == 200, found.text
    item: dict[str, object] = found.json()
    return item


async def _admin(app: Starlette) -> dict[str, str]:
    rows = await app.state.db.fetch_all("SELECT id FROM users WHERE email = :email",
                                        {"email": "owner@hearth.example"})
    return {"Authorization": f"Bearer {await token_for(app, rows[0]['id'])}"}


NEW_ITEM_REFUSALS = [
    ({"name": "", "price": "5.00"}, "name", 400),
    ({"name": "Jug", "price": "five"}, "price", 400),
    ({"name": "Jug", "price": "5.00", "stock": "lots"}, "stock", 400),
    ({"name": "Jug", "price": "5.00", "stock": "-2"}, "stock", 400),
    ({"name": "Jug", "price": "5.00", "variants": "S, 5.00, 1"}, "options", 400),
    ({"name": "Jug", "price": "5.00", "options": "Size", "variants": "S, 5.00, 1, extra"},
     "variants", 400),
    ({"name": "Jug", "price": "5.00", "options": "Size", "variants": " / , 5.00"},
     "variants", 400),
    ({"name": "Jug", "price": "5.00", "fulfillmentType": "teleport"}, "fulfillmentType", 400),
    ({"name": "Jug", "price": "5.00", "image": "ftp://images.example/jug.png"}, "image", 400),
]


@pytest.mark.parametrize(("fields", "field", "status"), NEW_ITEM_REFUSALS,
                         ids=[f"{field}-{n}" for n, (_, field, _) in
                              enumerate(NEW_ITEM_REFUSALS)])
async def test_a_refused_new_item_names_its_field_and_adds_nothing(
        app: Starlette, client: httpx.AsyncClient, fields: dict[str, str], field: str,
        status: int) -> None:
    await sign_in_merchant(app, client)
    before = await contents(app.state.db)
    page = await post_form(client, CATALOG, "/console/catalog/items",
                           {"store": "store_ceramics", **fields})
    assert page.status_code == status, page.text
    assert field_error(page, "new-item", field), page.text
    assert await contents(app.state.db) == before


async def test_variant_lines_take_the_items_price_and_leave_stock_uncounted(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    made = await post_form(client, CATALOG, "/console/catalog/items", {
        "store": "store_ceramics", "name": "Jug", "price": "5.00", "options": "Size, Colour",
        "variants": "S / Red\n\nL / Blue, 7.50, 3\n"})
    assert made.status_code == 303, made.text
    items = (await client.get("/admin/stores/store_ceramics/items?limit=100",
                              headers=await _admin(app))).json()["items"]
    [jug] = [item for item in items if item["name"] == "Jug"]
    variants = jug["metadata"]["dev.commerce.product.variants"]
    assert variants["options"] == ["Size", "Colour"]
    assert [(v["values"], v["price"]["amount"], v.get("stock")) for v in
            variants["variants"]] == [(["S", "Red"], "5.00", None), (["L", "Blue"], "7.50", 3)]


ROW_REFUSALS = [
    ("stock", {"quantity": "many"}, "stock", "quantity"),
    ("stock", {"quantity": "-1"}, "stock", "quantity"),
    ("adjust", {"delta": ""}, "adjust", "delta"),
    ("adjust", {"delta": "1.5"}, "adjust", "delta"),
    ("price", {"amount": "1.234"}, "price", "amount"),
    ("details", {"name": "", "description": "x"}, "details", "name"),
    ("variant", {"values": "", "amount": "5.00"}, "variant", "values"),
]


@pytest.mark.parametrize(("action", "fields", "form", "field"), ROW_REFUSALS,
                         ids=[f"{action}-{n}" for n, (action, *_) in enumerate(ROW_REFUSALS)])
async def test_a_refused_item_change_names_its_field_and_changes_nothing(
        app: Starlette, client: httpx.AsyncClient, action: str, fields: dict[str, str],
        form: str, field: str) -> None:
    await sign_in_merchant(app, client)
    before = await contents(app.state.db)
    page = await post_form(client, CATALOG, f"/console/items/{MUG}/{action}", fields)
    assert page.status_code == 400, page.text
    assert field_error(page, f"{form}-{MUG}", field), page.text
    assert await contents(app.state.db) == before


async def test_stock_set_empty_is_not_counted_and_adjusting_moves_it(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    assert (await post_form(client, CATALOG, f"/console/items/{MUG}/stock",
                            {"quantity": "4"})).status_code == 303
    assert (await post_form(client, CATALOG, f"/console/items/{MUG}/adjust",
                            {"delta": "-3"})).status_code == 303
    assert (await _item(app, client))["stock"] == 1
    refused = await post_form(client, CATALOG, f"/console/items/{MUG}/adjust", {"delta": "-2"})
    assert refused.status_code in (400, 409), refused.text
    assert (await _item(app, client))["stock"] == 1  # never below zero
    assert (await post_form(client, CATALOG, f"/console/items/{MUG}/stock",
                            {"quantity": ""})).status_code == 303
    assert (await _item(app, client)).get("stock") is None


async def test_a_variant_that_is_not_the_items_and_an_unknown_action(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    before = await contents(app.state.db)
    page = await post_form(client, CATALOG, f"/console/items/{MUG}/price",
                           {"variantId": "var_someone_else", "amount": "1.00"})
    assert page.status_code == 400 and "Nothing was changed" in page.text
    # No form of that variant is on the page: the reason is said at the top.
    assert "is not a variant of this item" in page.text
    unknown = await post_form(client, CATALOG, f"/console/items/{MUG}/melt", {})
    assert unknown.status_code == 404 and "Not found" in unknown.text
    assert await contents(app.state.db) == before


async def test_archive_then_restore_and_the_filters_show_each_state(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    archived = await post_form(client, CATALOG, f"/console/items/{MUG}/archive")
    assert archived.status_code == 303
    assert archived.headers["location"].endswith(f"#item-{MUG}")
    shown = await client.get(CATALOG + "?status=archived")
    assert f'id="item-{MUG}"' in shown.text
    assert f'id="item-{MUG}"' not in (await client.get(CATALOG + "?status=active")).text
    assert (await post_form(client, CATALOG, f"/console/items/{MUG}/restore")
            ).status_code == 303
    assert f'id="item-{MUG}"' in (await client.get(CATALOG + "?status=active")).text
    # A status that is none of them shows every item.
    assert f'id="item-{MUG}"' in (await client.get(CATALOG + "?status=melted")).text
