"""The one address type (commerce/address.py): the API's bodies, the order document, the
OpenAPI document and the place_order operation of the agent and MCP all use it."""

from __future__ import annotations

import httpx
import msgspec
import pytest

from commerce_agent.commerce import address
from commerce_agent.commerce.address import Address
from commerce_agent.commerce.orders import model
from commerce_agent.operations import all_tools
from tests.support.helpers import buy


def test_stored_drops_unset_fields_and_checks_plain_json() -> None:
    assert address.stored(None) is None
    assert address.stored(Address("1 Main St", countryCode="us")) == {
        "address": "1 Main St", "countryCode": "us"}
    assert address.stored({"address": "2 Rue de Rivoli, Paris", "latitude": 48.86,
                           "longitude": 2.35}) == {
        "address": "2 Rue de Rivoli, Paris", "latitude": 48.86, "longitude": 2.35}
    for wrong in ({"address": ""}, {"address": "x", "countryCode": "USA"},
                  {"address": "x", "latitude": 91}, {"address": "x", "floor": 2}):
        with pytest.raises(msgspec.ValidationError):
            address.stored(wrong)


def test_place_order_takes_the_api_address() -> None:
    place_order = next(tool for tool in all_tools() if tool.short_name == "place_order")
    assert place_order.parameters["properties"]["deliveryAddress"] == address.json_schema()
    place_order.check_args({"cartId": "cart_1", "deliveryAddress": {
        "address": "1 Main St", "latitude": 40.0, "longitude": -75.0, "countryCode": "US"}})


async def test_the_openapi_document_has_one_address_schema(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    schemas = document["components"]["schemas"]
    assert schemas["Address"]["required"] == ["address"]
    named = [name for name in schemas if "Location" in name or name == "Place"]
    assert not named, named


async def test_an_order_stores_the_address_as_given(client: httpx.AsyncClient,
                                                    alice: dict[str, str]) -> None:
    given = {"address": "500 Market St, San Francisco, US", "latitude": 37.79,
             "longitude": -122.4, "countryCode": "us"}
    order = await buy(client, alice, address=given)
    assert order["deliveryAddress"] == given
    assert model.typed(order).deliveryAddress == msgspec.convert(given, Address)
