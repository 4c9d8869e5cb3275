"""Response shapes for the OpenAPI document, where the server renders plain dicts.

Request bodies are never described here: the generator takes them from the msgspec decoders
the handlers use. Responses the server encodes from structs (profile, token pair) use those
structs directly. The rest are described by the structs below: every field the server always
sends is required and typed, optional ones are listed, and unknown fields stay allowed (new
optional fields are a minor version, see Versioning), so a test walking real responses
against these shapes catches drift without freezing every extension.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from commerce_agent.commerce.address import Address

# The order and the parts it shares with other shapes are the order package's own types.
from commerce_agent.commerce.orders.model import Action as Action
from commerce_agent.commerce.orders.model import Metadata as Metadata
from commerce_agent.commerce.orders.model import MonetaryAmount as MonetaryAmount
from commerce_agent.commerce.orders.model import Order as Order
from commerce_agent.commerce.orders.model import ShippingMethod as ShippingMethod
from commerce_agent.commerce.orders.model import Timestamp as Timestamp

StoreMetadata = Annotated[dict[str, Any], Meta(
    description="keyed by capability base identifier, and again by the full identifier with "
                "its version (the same entry)")]


class Pagination(msgspec.Struct):
    limit: int
    nextCursor: str | None
    previousCursor: str | None
    # Counted up to 1,000 rows; null past that (page on with nextCursor).
    totalCount: int | None


class Capability(msgspec.Struct):
    id: Annotated[str, Meta(pattern=r"^[^@\s]+@\d+\.\d+$")]
    schemaUrl: str | None = None
    metadata: Metadata | None = None
    rel: str | None = None
    href: str | None = None


class CapabilitiesResponse(msgspec.Struct, rename={"context": "@context"}):
    capabilities: list[Capability]
    context: str | None = None


class Store(msgspec.Struct):
    id: str
    name: str
    currency: str
    metadata: StoreMetadata
    description: str | None = None
    location: Address | None = None
    catalogIds: list[str] = []


class StoreList(msgspec.Struct):
    stores: list[Store]
    pagination: Pagination


class ItemBasics(msgspec.Struct):
    """What every shape of an item starts with (its public, detailed and admin views)."""

    id: str
    name: str
    price: MonetaryAmount


class CatalogItem(ItemBasics):
    description: str | None = None
    available: bool | None = None
    fulfillmentType: str | None = None
    metadata: Metadata | None = None
    actions: list[Action] = []


class CatalogSummary(msgspec.Struct):
    id: str
    name: str
    storeId: str
    description: str | None = None
    metadata: Metadata | None = None


class Catalog(msgspec.Struct):
    id: str
    name: str
    storeId: str
    items: list[CatalogItem]
    description: str | None = None
    metadata: Metadata | None = None
    # Only when the request asked for a page of items (`limit` or `cursor`).
    pagination: Pagination | None = None


class ItemDetail(ItemBasics):
    """One item with where it is sold (GET /items/{id})."""

    storeId: str | None = None
    catalogId: str | None = None
    metadata: Metadata | None = None
    actions: list[Action] = []


class SearchResults(msgspec.Struct):
    query: str
    items: list[CatalogItem]
    pagination: Pagination
    currency: str | None = None  # the currency filter applied (null: every currency)


class Review(msgspec.Struct):
    id: str
    itemId: str
    rating: Annotated[int, Meta(ge=1, le=5)]
    comment: str
    createdAt: Timestamp


class CartLine(msgspec.Struct):
    cartItemId: str
    itemId: str
    quantity: Annotated[int, Meta(ge=1)]
    price: MonetaryAmount
    lineTotal: MonetaryAmount
    name: str | None = None
    variantId: str | None = None
    available: bool | None = None


class ShippingOption(msgspec.Struct):
    """One of the store's shipping options, priced for this cart."""

    id: str
    name: str
    amount: MonetaryAmount
    description: str | None = None
    processingTime: dict[str, Any] | None = None


class Cart(msgspec.Struct):
    id: str
    storeId: str
    status: str
    items: list[CartLine]
    total: MonetaryAmount
    createdAt: Timestamp
    updatedAt: Timestamp
    expiresAt: Timestamp
    subtotal: MonetaryAmount | None = None
    discount: MonetaryAmount | None = None
    shipping: MonetaryAmount | None = None  # present when something ships
    shippingMethod: ShippingMethod | None = None
    shippingOptions: list[ShippingOption] = []
    tax: MonetaryAmount | None = None  # present when the store sets a tax rate
    taxRate: str | None = None  # percent
    itemCount: int | None = None
    promotions: list[dict[str, Any]] = []
    guestInfo: dict[str, Any] | None = None
    actions: list[Action] = []


class CartList(msgspec.Struct):
    carts: list[Cart]
    pagination: Pagination


class AdoptedCarts(msgspec.Struct):
    carts: list[Cart]


class OrderList(msgspec.Struct):
    orders: list[Order]
    pagination: Pagination


class PaymentOption(msgspec.Struct):
    scheme: str
    network: str
    maxAmountRequired: Annotated[str, Meta(pattern=r"^\d+$")]
    asset: str
    payTo: str | None = None
    resource: str | None = None
    description: str | None = None
    maxTimeoutSeconds: int | None = None
    extra: dict[str, Any] | None = None


class PaymentRequirements(msgspec.Struct):
    """X402PaymentRequirements: the body of a 402 answer."""

    x402Version: int
    accepts: list[PaymentOption]
    error: str | None = None


class UserMessage(msgspec.Struct):
    localizationKey: str
    params: dict[str, Any]


class Error(msgspec.Struct):
    """The one error shape of the Commerce API (spec fields plus RFC 9457 members)."""

    code: str
    message: str
    details: list[dict[str, Any]]
    userMessage: UserMessage
    nextActions: list[dict[str, Any]]
    type: str
    title: str
    status: int
    detail: str
    instance: str
    timestamp: Timestamp


class AgentErrorDetail(msgspec.Struct):
    code: str
    message: str


class AgentError(msgspec.Struct):
    """The error shape of the Agent Session Streaming API."""

    error: AgentErrorDetail


class CommerceDiscovery(msgspec.Struct):
    capabilities: str
    version: str
    context: str | None = None
    openapi: str | None = None
    docs: str | None = None


class WellKnown(msgspec.Struct):
    """/.well-known/commerce, shaped like upstream's /.well-known/ocp."""

    commerce: CommerceDiscovery


class Health(msgspec.Struct, omit_defaults=True):
    status: Literal["ok"]
    database: Literal["ok"] | None = None


class AgentHealth(msgspec.Struct):
    ok: bool
    status: str
    workflowId: str
    journal: str


class AgentInfo(msgspec.Struct):
    agent: dict[str, Any]
    tools: list[dict[str, Any]]
    connections: list[Any]
    agents: list[dict[str, Any]]


class AgentSessionHandle(msgspec.Struct):
    """A session id and the continuation token that authorizes follow-ups."""

    sessionId: str
    continuationToken: str


class AgentCancelled(msgspec.Struct):
    sessionId: str
    status: str


class Return(msgspec.Struct):
    """A return of order lines (POST /returns, GET /returns/{id})."""

    id: str
    orderId: str
    status: str
    items: list[dict[str, Any]]
    createdAt: Timestamp
    updatedAt: Timestamp
    refundAmount: MonetaryAmount | None = None
    preferredResolution: str | None = None
    returnMethod: str | None = None
    reason: str | None = None
