"""Browsing: capabilities, stores, catalogs, items, search and the schemas they point at."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest

from tests.support.helpers import CERAMICS, LIMITED_MUG, add_item, buy, new_cart

pytestmark = pytest.mark.both_backends


async def test_capabilities_have_servable_schemas(client: httpx.AsyncClient) -> None:
    response = await client.get("/capabilities")
    assert response.status_code == 200
    capabilities = response.json()["capabilities"]
    ids = [capability["id"] for capability in capabilities]
    assert len(ids) == len(set(ids))
    assert "dev.commerce.cart@1.0" in ids and "dev.commerce.order.direct@1.0" in ids
    for capability in capabilities:
        # Every capability points at its schema, served here (base_url is the test server).
        assert capability["schemaUrl"].startswith("http://test/schemas/"), capability["id"]
        schema = await client.get(capability["schemaUrl"])
        assert schema.status_code == 200, capability["schemaUrl"]
        assert schema.headers["content-type"] == "application/schema+json"
        jsonschema.Draft202012Validator.check_schema(schema.json())


async def test_capability_metadata(client: httpx.AsyncClient) -> None:
    capabilities = {c["id"]: c for c in (await client.get("/capabilities")).json()["capabilities"]}
    assert capabilities["dev.commerce.cart@1.0"]["metadata"]["lifetimeSeconds"] == 3600
    search = capabilities["dev.commerce.product.search@1.0"]["metadata"]
    assert "{query}" in search["urlTemplate"] and "price_asc" in search["sortOptions"]
    fiat = capabilities["dev.commerce.payment.x402_fiat@1.0"]["metadata"]
    assert fiat["providers"][0]["publishableKey"] and fiat["providers"][0]["network"] == "sandbox"


async def test_capability_metadata_matches_its_schema(client: httpx.AsyncClient) -> None:
    capabilities = (await client.get("/capabilities")).json()["capabilities"]
    described = [c for c in capabilities if "metadata" in c and "schemaUrl" in c]
    assert len(described) >= 5
    for capability in described:
        schema = (await client.get(capability["schemaUrl"])).json()
        jsonschema.validate(capability["metadata"], schema, cls=jsonschema.Draft202012Validator)


async def test_schema_route_refuses_traversal(client: httpx.AsyncClient) -> None:
    for path in ("/schemas/../settings.py", "/schemas/cart/nope.json", "/schemas/cart"):
        assert (await client.get(path)).status_code == 404


async def test_stores_are_paginated(client: httpx.AsyncClient) -> None:
    first = (await client.get("/stores?limit=2")).json()
    assert len(first["stores"]) == 2
    assert first["pagination"]["totalCount"] >= 5
    seen = [store["id"] for store in first["stores"]]
    cursor = first["pagination"]["nextCursor"]
    while cursor:
        page = (await client.get(f"/stores?limit=2&cursor={cursor}")).json()
        seen += [store["id"] for store in page["stores"]]
        cursor = page["pagination"]["nextCursor"]
    assert len(seen) == first["pagination"]["totalCount"] == len(set(seen))


async def test_store_has_metadata_and_catalog_ids(client: httpx.AsyncClient) -> None:
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    assert store["currency"] == "USD"
    assert store["metadata"]["dev.commerce.store.constraints"]["maxCartItems"] == 10
    assert store["catalogIds"]
    assert (await client.get("/stores/store_nope")).status_code == 404


async def test_catalogs_are_a_bare_array_with_link_paging(client: httpx.AsyncClient) -> None:
    response = await client.get("/catalogs?limit=1")
    assert isinstance(response.json(), list) and len(response.json()) == 1
    assert 'rel="next"' in response.headers["link"]
    everything = (await client.get("/catalogs?limit=100")).json()
    assert all("id" in catalog for catalog in everything)
    assert "link" not in (await client.get("/catalogs?limit=100")).headers


async def _ceramics_catalog(client: httpx.AsyncClient) -> dict[str, Any]:
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    for catalog_id in store["catalogIds"]:
        catalog: dict[str, Any] = (await client.get(f"/catalogs/{catalog_id}")).json()
        if any(item["id"] == LIMITED_MUG for item in catalog["items"]):
            return catalog
    raise AssertionError("limited mug not found")


async def test_catalog_items_show_live_stock(client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    catalog = await _ceramics_catalog(client)
    item = next(item for item in catalog["items"] if item["id"] == LIMITED_MUG)
    assert item["available"] is True and item["price"] == {"amount": "18.00", "currency": "USD"}
    assert item["actions"] == []
    for entry in catalog["items"]:
        assert entry["fulfillmentType"] in {"physical", "digital", "pickup", "hybrid"}
    await buy(client, alice, LIMITED_MUG, 10)
    catalog = await _ceramics_catalog(client)
    item = next(item for item in catalog["items"] if item["id"] == LIMITED_MUG)
    assert item["available"] is False


async def test_add_review_only_for_buyers(client: httpx.AsyncClient, alice: dict[str, str],
                                          bob: dict[str, str]) -> None:
    catalog = await _ceramics_catalog(client)
    await buy(client, alice, LIMITED_MUG, 1)
    mine = (await client.get(f"/catalogs/{catalog['id']}", headers=alice)).json()
    theirs = (await client.get(f"/catalogs/{catalog['id']}", headers=bob)).json()
    mug = next(item for item in mine["items"] if item["id"] == LIMITED_MUG)
    assert [action["id"] for action in mug["actions"]] == ["add_review"]
    assert all(item["actions"] == [] for item in theirs["items"])
    action = mug["actions"][0]
    refused = await client.post(action["href"], json={"rating": 5}, headers=bob)
    assert refused.status_code == 403
    assert (await client.post(action["href"], json={"rating": 9}, headers=alice)
            ).status_code == 400
    created = await client.post(action["href"], json={"rating": 5, "comment": "Lovely"},
                                headers=alice)
    assert created.status_code == 201
    assert (await client.post(action["href"], json={"rating": 4}, headers=alice)
            ).status_code == 409
    item = (await client.get(f"/items/{LIMITED_MUG}", headers=alice)).json()
    assert item["actions"] == [] and item["reviews"][0]["comment"] == "Lovely"


async def test_item_view(client: httpx.AsyncClient) -> None:
    item = (await client.get(f"/items/{LIMITED_MUG}")).json()
    assert item["storeId"] == CERAMICS and item["name"]
    assert (await client.get("/items/item_nope")).status_code == 404


async def test_search_sorts_and_filters(client: httpx.AsyncClient) -> None:
    found = (await client.get("/search?q=mug")).json()
    assert found["items"] and all("mug" in str(item).lower() for item in found["items"])
    ascending = (await client.get("/search?q=mug&sort=price_asc&limit=100")).json()["items"]
    prices = [float(item["price"]["amount"]) for item in ascending]
    assert prices == sorted(prices)
    descending = (await client.get("/search?q=mug&sort=price_desc&limit=100")).json()["items"]
    high_first = [float(item["price"]["amount"]) for item in descending]
    assert high_first == sorted(prices, reverse=True)
    cheap = (await client.get("/search?q=mug&maxPrice=20&limit=100")).json()["items"]
    assert all(float(item["price"]["amount"]) <= 20 for item in cheap)
    digital = (await client.get("/search?q=&fulfillmentType=digital&limit=100")).json()["items"]
    assert digital and all(item["fulfillmentType"] == "digital" for item in digital)
    for bad in ("sort=cheapest", "maxPrice=abc", "minPrice=-1", "fulfillmentType=teleport",
                "available=maybe"):
        assert (await client.get(f"/search?q=mug&{bad}")).status_code == 400


async def test_variant_stock_is_per_variant(client: httpx.AsyncClient,
                                            alice: dict[str, str]) -> None:
    item = (await client.get("/items/item_classic_mug")).json()
    variants = item["metadata"]["dev.commerce.product.variants"]["variants"]
    in_stock = next(v for v in variants if v["stock"] > 1)
    cart = await new_cart(client, alice)
    cart = await add_item(client, alice, cart["id"], "item_classic_mug", 1,
                          variantId=in_stock["id"])
    assert cart["items"][0]["price"] == in_stock["price"]


async def test_store_metadata_is_keyed_by_base_name_and_by_version(
        client: httpx.AsyncClient) -> None:
    listed = (await client.get("/stores")).json()["stores"]
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    for metadata in [store["metadata"], *(each["metadata"] for each in listed)]:
        bases = [key for key in metadata if "@" not in key]
        assert bases
        for base in bases:
            # The versioned key carries the very same entry as the base key.
            assert metadata[f"{base}@{metadata[base]['_version']}"] == metadata[base]
        assert len(metadata) == 2 * len(bases)
    constraints = store["metadata"]["dev.commerce.store.constraints@1.0"]
    assert constraints == store["metadata"]["dev.commerce.store.constraints"]


async def test_catalog_items_keep_base_metadata_keys_only(client: httpx.AsyncClient) -> None:
    # Catalogs are the big documents: their items are not keyed twice.
    catalog_id = (await client.get(f"/stores/{CERAMICS}")).json()["catalogIds"][0]
    items = (await client.get(f"/catalogs/{catalog_id}")).json()["items"]
    assert items and all("@" not in key for item in items for key in item.get("metadata", {}))


async def test_a_review_rating_is_1_to_5_and_a_comment_2000_characters(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    url = f"/items/{LIMITED_MUG}/reviews"
    for body, field in (({"rating": 0}, "/rating"), ({"rating": 6}, "/rating"),
                        ({"rating": 4.5}, "/rating"),
                        ({"rating": 4, "comment": "x" * 2001}, "/comment")):
        response = await client.post(url, json=body, headers=alice)
        assert response.status_code == 400, body
        assert response.json()["details"][0]["field"] == field
    # In range, the rule that follows answers: only buyers review.
    assert (await client.post(url, json={"rating": 5.0}, headers=alice)).status_code == 403
