"""Checkout: a cart becomes orders (payment, fulfillment plans, bookings, subscriptions)."""
