"""The address of a place: where an order is delivered or billed, where a store stands.

One type for every reader and writer of it: the order body of POST /orders and its
fulfillment intent, the admin API's store, the order document (commerce/orders/model.py), the
OpenAPI document, and the place_order operation the agent and MCP offer (`json_schema`).
A structured postal address (a profile's saved addresses) is another thing:
commerce/services/profile.py `PostalAddress`.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta


class Address(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A free-text address, optional coordinates and country code."""

    address: Annotated[str, Meta(min_length=1, max_length=500)]
    latitude: Annotated[float, Meta(ge=-90, le=90)] | None = None
    longitude: Annotated[float, Meta(ge=-180, le=180)] | None = None
    countryCode: Annotated[str, Meta(pattern="^[A-Za-z]{2}$",
                                     description="ISO 3166-1 alpha-2 code")] | None = None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of an `Address`, inline (tool parameters carry no `$defs`)."""
    schema: dict[str, Any] = msgspec.json.schema(Address)["$defs"]["Address"]
    return schema


def stored(value: Address | dict[str, Any] | None) -> dict[str, Any] | None:
    """An address as documents store it (no null fields), from an `Address` or from JSON
    already checked against `json_schema`; None for none."""
    if value is None:
        return None
    checked = value if isinstance(value, Address) else msgspec.convert(value, Address)
    document: dict[str, Any] = msgspec.to_builtins(checked)
    return document
