"""The capability ids of the store, product, restaurant and promotion documents this server
reads and writes (keys of a store's or an item's `metadata`). Those of an order's metadata are
in commerce/orders/model.py; commerce/capabilities.py lists them all with their versions."""

from __future__ import annotations

STORE_INFO = "dev.commerce.store.info"
STORE_POLICIES = "dev.commerce.store.policies"
STORE_SHIPPING = "dev.commerce.store.shipping"
STORE_CONSTRAINTS = "dev.commerce.store.constraints"
STORE_TAXATION = "dev.commerce.store.taxation"
RESTAURANT = "dev.commerce.restaurant.profile"
DISCOVERABLE_PROMOTIONS = "dev.commerce.promotions.discoverable"
PRODUCT_VARIANTS = "dev.commerce.product.variants"
PRODUCT_RICH_INFO = "dev.commerce.product.rich_info"
PRODUCT_PHYSICAL = "dev.commerce.product.physical_properties"
PRODUCT_CATEGORIES = "dev.commerce.product.categorization"
PRODUCT_CUSTOMIZATION = "dev.commerce.product.customization"
PRODUCT_ADDONS = "dev.commerce.product.addons"

# Capabilities of the API itself (no document carries them), as commerce/capabilities.py lists them.
CART = "dev.commerce.cart"
CART_GUEST = "dev.commerce.cart.guest"
ORDER_DIRECT = "dev.commerce.order.direct"
PRODUCT_SEARCH = "dev.commerce.product.search"
PRODUCT_RELATIONS = "dev.commerce.product.relations"
PROMOTION_POLICIES = "dev.commerce.promotions.policies"
X402_FIAT = "dev.commerce.payment.x402_fiat"
I18N = "dev.commerce.i18n"
AUTH_FLOWS = "dev.commerce.auth.flows"
USER_PROFILE = "dev.commerce.user.profile"
ORDER_CANCELLATION = "dev.commerce.order.cancellation"
ORDER_RETURNS = "dev.commerce.order.returns"
SERVER_WEBHOOKS = "dev.commerce.server.webhooks"
