"""Fulfillment: the order state machine and how each kind of order is carried out."""
