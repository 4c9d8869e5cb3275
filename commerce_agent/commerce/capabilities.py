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


REGISTRY: list[Capability] = [
    Capability("dev.commerce.cart@1.0", "cart/v1.json", _cart),
    Capability("dev.commerce.cart.guest@1.0", "cart/guest/v1.json", _guest_cart),
    Capability("dev.commerce.order.direct@1.0", "order/direct/v1.json"),
    Capability("dev.commerce.product.search@1.0", "product/search/v1.json", _search),
    # Every served version of a versioned capability is its own entry (commerce/versions.py).
    *(Capability(served.id, served.schema, extra=served.announcement())
      for served in versions.SERVED),
    Capability(f"{ids.PRODUCT_CUSTOMIZATION}@1.0", "product/customization/v1.json"),
    Capability(f"{ids.PRODUCT_ADDONS}@1.0", "product/addons/v1.json"),
    Capability(f"{ids.PRODUCT_PHYSICAL}@1.0",
               "product/physical_properties/v1.json"),
    Capability(f"{ids.PRODUCT_CATEGORIES}@1.0", "product/categorization/v1.json"),
    Capability("dev.commerce.product.relations@1.0", "product/relations/v1.json"),
    Capability(f"{ids.RESTAURANT}@1.0", "restaurant/profile/v1.json"),
    Capability(f"{ids.STORE_INFO}@1.0", "store/info/v1.json"),
    Capability(f"{ids.STORE_POLICIES}@1.0", "store/policies/v1.json"),
    Capability(f"{ids.STORE_SHIPPING}@1.0", "store/shipping/v1.json"),
    Capability(f"{ids.STORE_CONSTRAINTS}@1.0", "store/constraints/v1.json"),
    Capability(f"{ids.DISCOVERABLE_PROMOTIONS}@1.0", "promotions/discoverable/v1.json"),
    Capability("dev.commerce.promotions.policies@1.0", "promotions/policies/v1.json",
               _policies),
    Capability(f"{model.APPLIED_PROMOTIONS}@1.0",
               "order/applied_promotions/v1.json"),
    Capability("dev.commerce.payment.x402_fiat@1.0", "payment/x402_fiat/v1.json", _x402_fiat),
    Capability("dev.commerce.i18n@1.0", "i18n/v1.json", locales.capability_metadata),
    Capability("dev.commerce.auth.flows@1.0", "auth/flows/v1.json",
               auth_flows.capability_metadata),
    Capability("dev.commerce.user.profile@1.0", "user/profile/v1.json",
               auth_flows.profile_capability_metadata),
    # After the purchase: the order lifecycle (orders/lifecycle.py and around).
    Capability(f"{model.DETAILED_STATUS}@1.0", "order/detailed_status/v1.json"),
    Capability(f"{model.SHIPMENT_TRACKING}@1.0", "order/shipment_tracking/v1.json"),
    Capability(f"{model.DELIVERY_TRACKING}@1.0", "order/delivery_tracking/v1.json"),
    Capability(f"{model.KITCHEN_STATUS}@1.0", "restaurant/kitchen_status/v1.json"),
    Capability(f"{model.DIGITAL_ACCESS}@1.0", "order/digital_access/v1.json"),
    Capability(f"{model.SUBSCRIPTION}@1.0", "order/subscription/v1.json"),
    Capability(f"{model.PREORDER}@1.0", "order/preorder/v1.json"),
    Capability(f"{model.SCHEDULING}@1.0", "service/scheduling/v1.json"),
    Capability(f"{model.CUSTOMER_FIELDS}@1.0", "order/customer_fields/v1.json"),
    Capability(f"{model.FULFILLMENT_INTENT}@1.0",
               "order/fulfillment_intent/v1.json"),
    Capability("dev.commerce.order.cancellation@1.0", "order/actions/cancel_request/v1.json"),
    Capability(f"{model.RATINGS}@1.0", "order/actions/rating_request/v1.json"),
    Capability(f"{model.TIPPING}@1.0", "order/tipping/v1.json"),
    Capability("dev.commerce.order.returns@1.0", "order/actions/return_request/v1.json"),
    Capability(f"{model.REFUNDS}@1.0", "order/refunds/v1.json"),
    Capability("dev.commerce.server.webhooks@1.0", "server/webhooks/v1.json",
               webhooks.capability_metadata),
]


def register(capability: Capability) -> None:
    if any(existing.id == capability.id for existing in REGISTRY):
        raise ValueError(f"capability {capability.id} is registered twice")
    REGISTRY.append(capability)


def render_all(settings: Settings) -> list[dict[str, Any]]:
    return [capability.render(settings) for capability in REGISTRY]
