"""One frozen settings struct, filled from CLI options and COMMERCE_AGENT_* variables."""

from __future__ import annotations

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    # The database: the path of the SQLite file, or a postgresql://USER@HOST/DBNAME URL
    # (the postgres extra; docs/postgres.md).
    db_path: str = "./commerce-agent.db"
    # Public base URL used in absolute links (confirm URLs, consent pages, webhooks).
    base_url: str = "http://127.0.0.1:8000"
    # Seconds a cart may stay untouched before it expires (advertised by dev.commerce.cart).
    cart_lifetime_seconds: int = 3600
    # Largest request body accepted, in bytes (larger answers 413).
    max_body_bytes: int = 256 * 1024
    # Order lifecycle simulator: off, or how many times faster than real time it runs.
    simulate: bool = True
    simulate_speed: float = 1.0
    # Seconds between `: heartbeat` comments on an idle order-updates stream.
    sse_heartbeat_seconds: float = 15.0
    # Webhooks: first retry delay (doubling per attempt, capped at 6 h), and per-request timeout.
    webhook_retry_base_seconds: float = 10.0
    webhook_timeout_seconds: float = 10.0
    # Mount prefix of the Agent Session Streaming API.
    agent_mount: str = "/agent/v1"
    # Journal backend for agent sessions: memory, file, sqlite (the database: SQLite or
    # PostgreSQL, whichever db_path names; also called database) or redis://host:port/db.
    journal: str = "sqlite"
    # When set, agent create/info/stream routes require a bearer token (fail closed).
    auth_secret: str = ""
    # OpenAI-compatible model endpoint for the `openai` agent model.
    openai_base_url: str = ""
    openai_api_key: str = ""
    openai_model: str = "gpt-4o-mini"
    # Seconds without a byte from the model endpoint before an attempt fails (and is retried).
    openai_timeout: float = 120.0
    # Retries of a model step after 429, 5xx, timeouts or a dropped stream (0: none).
    openai_max_retries: int = 3
    # First retry delay in seconds, doubled per retry (a server's Retry-After wins).
    openai_retry_seconds: float = 0.5
    # Estimated tokens the conversation may take; older tool results are trimmed first.
    openai_context_tokens: int = 16000
    # Seconds the scripted agent model waits between streamed reply fragments (0: no wait).
    agent_pace: float = 0.0
    # SQLite durability: FULL syncs the WAL on every commit.
    sqlite_synchronous: str = "FULL"
    # The card provider behind fiat_intent: sandbox (test cards, nothing charged) or stripe
    # (real PaymentIntents; keys from STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and
    # STRIPE_WEBHOOK_SECRET in the environment only; docs/payments.md).
    payments: str = "sandbox"
    # Stripe's API address: empty for Stripe's own; a Stripe-compatible test server's URL.
    stripe_api_base: str = ""
