"""The Commerce API: catalogs, carts, orders, payments and what follows a purchase."""
