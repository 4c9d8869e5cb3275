"""Every admin route that takes a JSON body refuses a bad one with a clear 400 in the one
error shape, before it changes anything: a body cut short, JSON that is not an object, a field
the route does not know, and a field of the wrong type. (The four bodies every JSON route
refuses before its schema, bad UTF-8 to nesting, are test_request_input.py's.)"""

from __future__ import annotations

import re
from typing import Any

import httpx
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers

IDS = {"store_id": CERAMICS, "item_id": "item_classic_mug", "variant_id": "var_new",
       "code": "NEWCODE", "catalog_id": "cat_ceramics_drinkware"}
# Each route with a body it accepts, and a field of that body given the wrong type.
ROUTES: list[tuple[str, str, dict[str, Any], str]] = [
    ("POST", "/admin/stores", {"name": "Shop", "currency": "USD"}, "name"),
    ("PATCH", "/admin/stores/{store_id}", {"name": "Renamed"}, "name"),
    ("POST", "/admin/stores/{store_id}/catalogs", {"name": "More"}, "name"),
    ("PATCH", "/admin/catalogs/{catalog_id}", {"name": "Cups"}, "name"),
    ("PUT", "/admin/stores/{store_id}/promotions/{code}", {"type": "percentage", "value": "5"},
     "value"),
    ("POST", "/admin/stores/{store_id}/items",
     {"name": "Bowl", "price": {"amount": "5.00", "currency": "USD"}}, "price"),
    ("PATCH", "/admin/items/{item_id}", {"name": "Renamed"}, "name"),
    ("PUT", "/admin/items/{item_id}/variants/{variant_id}",
     {"values": ["Red", "8 oz"], "price": {"amount": "5.00", "currency": "USD"}}, "values"),
    ("PUT", "/admin/items/{item_id}/stock", {"quantity": 3}, "quantity"),
    ("POST", "/admin/items/{item_id}/stock/adjustments", {"delta": 1}, "delta"),
]
ERROR_FIELDS = {"code", "message", "details", "status", "type", "title", "detail"}


def _path(template: str) -> str:
    return re.sub(r"{(\w+)}", lambda match: IDS[match.group(1)], template)


def _refused(response: httpx.Response, what: str) -> dict[str, Any]:
    assert response.status_code == 400, (what, response.status_code, response.text)
    body: dict[str, Any] = response.json()
    assert ERROR_FIELDS <= set(body) and body["status"] == 400, (what, body)
    assert body["code"] in ("bad_request", "invalid_json"), (what, body)
    return body


async def test_bad_bodies_are_400s_that_change_nothing(app: Starlette,
                                                       client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "ceramics@shop.example", CERAMICS)
    json_headers = {**owner, "Content-Type": "application/json"}
    before = (await client.get(f"/admin/stores/{CERAMICS}", headers=owner)).json()
    item_before = (await client.get("/admin/items/item_classic_mug", headers=owner)).json()
    for method, template, good, typed_field in ROUTES:
        path, what = _path(template), f"{method} {template}"
        _refused(await client.request(method, path, headers=json_headers, content=b'{"name":'),
                 what + " (not JSON)")
        _refused(await client.request(method, path, headers=owner, json=[good]),
                 what + " (an array)")
        unknown = _refused(await client.request(method, path, headers=owner,
                                                json={**good, "surprise": 1}),
                           what + " (unknown field)")
        assert "surprise" in unknown["message"], (what, unknown)
        wrong = _refused(await client.request(method, path, headers=owner,
                                              json={**good, typed_field: {"no": ["t"]}}),
                         what + " (wrong type)")
        assert typed_field in wrong["message"] or any(
            typed_field in str(detail.get("field", "")) for detail in wrong["details"]), (
            what, wrong)
    assert (await client.get(f"/admin/stores/{CERAMICS}", headers=owner)).json() == before
    assert (await client.get("/admin/items/item_classic_mug", headers=owner)).json() == \
        item_before
    promotions = await client.get(f"/admin/stores/{CERAMICS}/promotions", headers=owner)
    assert promotions.status_code == 200 and "NEWCODE" not in promotions.text
