-- Which card provider made a payment intent (docs/payments.md, "Taking real payments"):
-- `sandbox` (our own test cards) or `stripe` (a real PaymentIntent, whose id is the row's id).
-- The sandbox confirm endpoint confirms sandbox intents only.
ALTER TABLE payment_intents ADD COLUMN provider TEXT NOT NULL DEFAULT 'sandbox';
