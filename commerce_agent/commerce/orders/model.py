"""The order: its type, its statuses, the capability ids of its metadata, and its one decoder.

Every reader of an order (Commerce API, admin API, webhooks, agent tools, MCP resources, the
OpenAPI document) takes these names from here. The stored document is the JSON of `Order`;
readers that change it work on the decoded `dict` (`decode`), whose shape `Order` describes
(`typed` checks it), because the lifecycle records every change as a JSON Patch of it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import msgspec
from msgspec import Meta

from commerce_agent.commerce.address import Address

OrderStatus = Literal["pending", "confirmed", "processing", "in_transit", "completed",
                      "cancelled"]
STATUSES: tuple[OrderStatus, ...] = get_args(OrderStatus)
# Each status by name: every other module writes these, never the string.
PENDING: OrderStatus = "pending"
CONFIRMED: OrderStatus = "confirmed"
PROCESSING: OrderStatus = "processing"
IN_TRANSIT: OrderStatus = "in_transit"
COMPLETED: OrderStatus = "completed"
CANCELLED: OrderStatus = "cancelled"
TERMINAL: frozenset[OrderStatus] = frozenset({COMPLETED, CANCELLED})
# Statuses in which the customer may still cancel (docs/decisions.md "Cancellation window").
CANCELLABLE: frozenset[OrderStatus] = frozenset({PENDING, CONFIRMED})

# Capability ids of the order metadata this server writes (keys of `Order.metadata`).
APPLIED_PROMOTIONS = "dev.commerce.order.applied_promotions"
CUSTOMER_FIELDS = "dev.commerce.order.customer_fields"
DELIVERY_TRACKING = "dev.commerce.order.delivery_tracking"
DETAILED_STATUS = "dev.commerce.order.detailed_status"
DIGITAL_ACCESS = "dev.commerce.order.digital_access"
FULFILLMENT_INTENT = "dev.commerce.order.fulfillment_intent"
KITCHEN_STATUS = "dev.commerce.order.kitchen_status"
PREORDER = "dev.commerce.order.preorder"
RATINGS = "dev.commerce.order.ratings"
REFUNDS = "dev.commerce.order.refunds"
SHIPMENT_TRACKING = "dev.commerce.order.shipment_tracking"
SUBSCRIPTION = "dev.commerce.order.subscription"
TIPPING = "dev.commerce.order.tipping"
SCHEDULING = "dev.commerce.service.scheduling"

KitchenStatus = Literal["confirmed", "preparing", "ready", "picked_up"]
KITCHEN_STATES: tuple[KitchenStatus, ...] = get_args(KitchenStatus)
KITCHEN_CONFIRMED: KitchenStatus = "confirmed"

DecimalText = Annotated[str, Meta(pattern=r"^-?\d+(\.\d+)?$",
                                  description="decimal amount as text")]
Timestamp = Annotated[str, Meta(description="ISO 8601 timestamp (UTC)")]
Metadata = Annotated[dict[str, Any], Meta(description="keyed by capability base identifier")]


class MonetaryAmount(msgspec.Struct):
    """Money: a decimal amount as text and its currency code."""

    amount: DecimalText
    currency: str


class Action(msgspec.Struct):
    """A hypermedia action: what the client may do next, and where."""

    id: str
    href: str
    method: str | None = None
    rel: str | None = None
    title: str | None = None


MerchantActionId = Literal["ship", "ready_for_pickup", "advance", "cancel"]


class MerchantAction(msgspec.Struct, omit_defaults=True):
    """What the store's merchant may do with an order now (`rules.merchant_actions`): POST
    `href` with a JSON body of `fields` (all optional but `trackingNumber` of `ship`);
    `advance` moves the order to `to`."""

    id: MerchantActionId
    href: str
    title: str
    method: str = "POST"
    to: OrderStatus | None = None
    fields: list[str] = []


class OrderLine(msgspec.Struct):
    """One line of an order, as it was in the cart when the order was placed."""

    id: str
    itemId: str
    quantity: Annotated[int, Meta(ge=1)]
    price: MonetaryAmount
    lineTotal: MonetaryAmount | None = None
    name: str | None = None
    variantId: str | None = None
    fulfillmentType: str | None = None


class ShippingMethod(msgspec.Struct):
    """The shipping option chosen for what ships (the store's default when none was)."""

    id: str
    name: str
    amount: MonetaryAmount


class Order(msgspec.Struct):
    """An order as GET /orders/{id} answers it: the stored document plus `actions`."""

    id: str
    status: OrderStatus
    items: list[OrderLine]
    total: MonetaryAmount
    createdAt: Timestamp
    updatedAt: Timestamp
    actions: list[Action] = []
    # total = subtotal - discount + shipping + tax (services/carts/charges.py)
    subtotal: MonetaryAmount | None = None
    discount: MonetaryAmount | None = None
    shipping: MonetaryAmount | None = None  # present when something ships
    shippingMethod: ShippingMethod | None = None
    tax: MonetaryAmount | None = None  # present when the store sets a tax rate
    taxRate: str | None = None  # percent
    metadata: Metadata | None = None
    deliveryAddress: Address | None = None
    billingAddress: Address | None = None


class MerchantOrder(Order):
    """An order as the admin API answers it: `Order` plus what its merchant may do now."""

    merchantActions: list[MerchantAction] = []


# The stored document, decoded: the shape of `Order` (without `actions`), as a dict.
OrderDoc = dict[str, Any]

_DOC = msgspec.json.Decoder(OrderDoc)


def decode(raw: bytes | str) -> OrderDoc:
    """The one decoder of a stored order document."""
    return _DOC.decode(raw)


def typed(doc: OrderDoc) -> Order:
    """The document as an `Order`; raises msgspec.ValidationError when it is not one."""
    return msgspec.convert(doc, Order)
