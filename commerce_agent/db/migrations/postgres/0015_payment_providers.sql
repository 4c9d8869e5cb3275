-- PostgreSQL version of ../0015_payment_providers.sql (the same statement).
-- Which card provider made a payment intent (docs/payments.md, "Taking real payments"):
-- `sandbox` (our own test cards) or `stripe` (a real PaymentIntent, whose id is the row's id).
-- The sandbox confirm endpoint confirms sandbox intents only.
ALTER TABLE payment_intents ADD COLUMN provider TEXT NOT NULL DEFAULT 'sandbox';
-- The key of the 402 that offered a provider's intent (same owner and unchanged cart, or the
-- same Idempotency-Key): a retried 402 offers the intent it offered before.
ALTER TABLE payment_intents ADD COLUMN offer_key TEXT;
CREATE INDEX payment_intents_by_offer ON payment_intents (owner_id, offer_key);
