"""The capabilities this server implements: one registry, rendered by GET /capabilities.

A feature adds its entry here when it works end to end, so the list is never more or less
than what the server does. `schema` is a path below /schemas/ (served by this server); every
capability has one (tests/api/test_catalog.py checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from commerce_agent.auth import flows as auth_flows
from commerce_agent.commerce import capability_ids as ids
from commerce_agent.commerce import versions
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.i18n import locales
from commerce_agent.settings import Settings

Metadata = Callable[[Settings], dict[str, Any]]


@dataclass(frozen=True)
class Capability:
    id: str
    schema: str | None = None
    metadata: Metadata | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def render(self, settings: Settings) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.id}
        if self.schema:
            entry["schemaUrl"] = f"{settings.base_url.rstrip('/')}/schemas/{self.schema}"
        if self.metadata is not None:
            entry["metadata"] = self.metadata(settings)
        entry.update(self.extra)
        return entry


SORT_OPTIONS = ["relevance", "price_asc", "price_desc", "name_asc", "name_desc"]


def _cart(settings: Settings) -> dict[str, Any]:
    return {"_version": "1.0", "lifetimeSeconds": settings.cart_lifetime_seconds,
            "maxLineQuantity": 999, "persistencePolicy": "user", "autoMergeOnLogin": True,
            "listUrl": f"{settings.base_url.rstrip('/')}/carts"}


def _guest_cart(settings: Settings) -> dict[str, Any]:
    base = settings.base_url.rstrip("/")
    return {"_version": "1.0", "tokenUrl": f"{base}/guest-tokens",
            "adoptUrl": f"{base}/carts/adopt"}


def _search(settings: Settings) -> dict[str, Any]:
    return {"_version": "1.0",
            "urlTemplate": f"{settings.base_url.rstrip('/')}/search?q={{query}}",
            "sortOptions": SORT_OPTIONS, "filters": ["storeId", "minPrice", "maxPrice",
                                                     "fulfillmentType", "available"]}


def _policies(settings: Settings) -> dict[str, Any]:
    return {"_version": "1.0", "stackingAllowed": True,
            "stackingRules": {"maxPromotions": settings.max_promotions},
            "validation": {"caseSensitive": False, "allowPartialRedemption": False}}


def _x402_fiat(settings: Settings) -> dict[str, Any]:
    """The spec's x402 fiat provider public keys: the active card provider's."""
    provider = providers.active()
    if isinstance(provider, providers.StripeProvider):
        return {"_version": "1.0", "providers": [{
            "network": provider.name, "displayName": "Stripe",
            "publishableKey": provider.publishable_key,
            "paymentPageTemplate": f"{settings.base_url.rstrip('/')}/shop/pay/"
                                   "{paymentIntentId}?secret={clientSecret}"}]}
    return {"_version": "1.0", "providers": [{
        "network": "sandbox", "displayName": "commerce-agent sandbox (test mode)",
        "publishableKey": "pk_test_commerce_agent",
        "confirmUrlTemplate": f"{settings.base_url.rstrip('/')}/payments/sandbox/intents/"
                              "{paymentIntentId}/confirm",
        "testCards": {"succeeds": "4242424242424242", "declines": "4000000000000002"}}]}


# Every capability below is version 1.0: (id without its version, schema).
_BEFORE_VERSIONED = [
    (ids.CART, "cart/v1.json"),
    (ids.CART_GUEST, "cart/guest/v1.json"),
    (ids.ORDER_DIRECT, "order/direct/v1.json"),
    (ids.PRODUCT_SEARCH, "product/search/v1.json"),
]
_AFTER_VERSIONED = [
    (ids.PRODUCT_CUSTOMIZATION, "product/customization/v1.json"),
    (ids.PRODUCT_ADDONS, "product/addons/v1.json"),
    (ids.PRODUCT_PHYSICAL, "product/physical_properties/v1.json"),
    (ids.PRODUCT_CATEGORIES, "product/categorization/v1.json"),
    (ids.PRODUCT_RELATIONS, "product/relations/v1.json"),
    (ids.RESTAURANT, "restaurant/profile/v1.json"),
    (ids.STORE_INFO, "store/info/v1.json"),
    (ids.STORE_POLICIES, "store/policies/v1.json"),
    (ids.STORE_SHIPPING, "store/shipping/v1.json"),
    (ids.STORE_CONSTRAINTS, "store/constraints/v1.json"),
    (ids.DISCOVERABLE_PROMOTIONS, "promotions/discoverable/v1.json"),
    (ids.PROMOTION_POLICIES, "promotions/policies/v1.json"),
    (model.APPLIED_PROMOTIONS, "order/applied_promotions/v1.json"),
    (ids.X402_FIAT, "payment/x402_fiat/v1.json"),
    (ids.I18N, "i18n/v1.json"),
    (ids.AUTH_FLOWS, "auth/flows/v1.json"),
    (ids.USER_PROFILE, "user/profile/v1.json"),
    # After the purchase: the order lifecycle (orders/lifecycle.py and around).
    (model.DETAILED_STATUS, "order/detailed_status/v1.json"),
    (model.SHIPMENT_TRACKING, "order/shipment_tracking/v1.json"),
    (model.DELIVERY_TRACKING, "order/delivery_tracking/v1.json"),
    (model.KITCHEN_STATUS, "restaurant/kitchen_status/v1.json"),
    (model.DIGITAL_ACCESS, "order/digital_access/v1.json"),
    (model.SUBSCRIPTION, "order/subscription/v1.json"),
    (model.PREORDER, "order/preorder/v1.json"),
    (model.SCHEDULING, "service/scheduling/v1.json"),
    (model.CUSTOMER_FIELDS, "order/customer_fields/v1.json"),
    (model.FULFILLMENT_INTENT, "order/fulfillment_intent/v1.json"),
    (ids.ORDER_CANCELLATION, "order/actions/cancel_request/v1.json"),
    (model.RATINGS, "order/actions/rating_request/v1.json"),
    (model.TIPPING, "order/tipping/v1.json"),
    (ids.ORDER_RETURNS, "order/actions/return_request/v1.json"),
    (model.REFUNDS, "order/refunds/v1.json"),
    (ids.SERVER_WEBHOOKS, "server/webhooks/v1.json"),
]
# The capabilities whose entry carries metadata, and the function that renders it.
_METADATA: dict[str, Metadata] = {
    ids.CART: _cart,
    ids.CART_GUEST: _guest_cart,
    ids.PRODUCT_SEARCH: _search,
    ids.PROMOTION_POLICIES: _policies,
    ids.X402_FIAT: _x402_fiat,
    ids.I18N: locales.capability_metadata,
    ids.AUTH_FLOWS: auth_flows.capability_metadata,
    ids.USER_PROFILE: auth_flows.profile_capability_metadata,
    ids.SERVER_WEBHOOKS: webhooks.capability_metadata,
}


def _v1(rows: list[tuple[str, str]]) -> list[Capability]:
    return [Capability(f"{base}@1.0", schema, _METADATA.get(base)) for base, schema in rows]


REGISTRY: list[Capability] = [
    *_v1(_BEFORE_VERSIONED),
    # Every served version of a versioned capability is its own entry (commerce/versions.py).
    *(Capability(served.id, served.schema, extra=served.announcement())
      for served in versions.SERVED),
    *_v1(_AFTER_VERSIONED),
]


def register(capability: Capability) -> None:
    if any(existing.id == capability.id for existing in REGISTRY):
        raise ValueError(f"capability {capability.id} is registered twice")
    REGISTRY.append(capability)


def render_all(settings: Settings) -> list[dict[str, Any]]:
    return [capability.render(settings) for capability in REGISTRY]
