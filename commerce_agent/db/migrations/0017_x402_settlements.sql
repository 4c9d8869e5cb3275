-- x402 `exact` payments settled on chain through a facilitator (--x402-facilitator;
-- docs/payments.md). One row per EIP-3009 authorization (payer, nonce), written in a short
-- transaction of its own before the facilitator is asked to settle and updated with the
-- transaction hash once it has: the order's transaction never waits on the facilitator, and
-- an authorization settled once is never settled again (docs/decisions.md, "x402 settlement").
-- status: settling (a call in flight), interrupted (the call ended without an answer),
-- settled (transaction_hash mined, status 1), failed (refused: nothing moved), unknown (an
-- interrupted attempt whose nonce the chain reports used: the store reconciles it).
CREATE TABLE x402_settlements (
    payer TEXT NOT NULL,
    nonce TEXT NOT NULL,
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    amount TEXT NOT NULL,
    status TEXT NOT NULL,
    transaction_hash TEXT,
    reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (payer, nonce)
);
