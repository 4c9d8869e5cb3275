"""The merchant side of a shop: catalog writes, their rules, and merchant order actions."""
