"""Transactional e-mail: the outbox written beside each order change (outbox.py)."""
