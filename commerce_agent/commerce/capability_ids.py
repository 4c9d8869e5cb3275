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
