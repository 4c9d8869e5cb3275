"""Carts: lines, pricing and promotions, and the customer fields an order asks for."""
