"""Webhooks: subscriptions and the outbox write, signing, and the sender."""
