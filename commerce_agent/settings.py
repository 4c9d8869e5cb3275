"""The settings table: one frozen struct whose every field carries its default, its help text
and (through its option name) its COMMERCE_AGENT_* environment variable.

As Datasette's SETTINGS: the click options of `serve` (and every command taking `--db`) and
the settings section of README.md are generated from these fields (setting_options.py), so a
setting is written once. A field's help is its `Meta(description=…)`; `extra` may name its
option (`option`, default: the field name with dashes) and the option's default when it
differs from the struct's (`cli_default`). Bounds (`ge`, `le`) become the option's range; a
Literal, its choices.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

ENV_PREFIX = "COMMERCE_AGENT_"


def _(help_text: str, **extra: Any) -> Meta:
    return Meta(description=help_text, extra=extra)


def _bounded(help_text: str, ge: float | None = None, le: float | None = None,
             **extra: Any) -> Meta:
    return Meta(description=help_text, ge=ge, le=le, extra=extra)


def _mask_url(url: str) -> str:
    """`url` with the password of its user part replaced by ***."""
    scheme, sep, rest = url.partition("://")
    user, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in user:
        return url
    return f"{scheme}://{user.split(':', 1)[0]}:***@{host}"


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    def __repr__(self) -> str:
        """Every field but secrets: the SMTP password and the API keys are masked."""
        shown = {name: getattr(self, name) for name in self.__struct_fields__}
        shown["smtp"] = _mask_url(self.smtp)
        for name in ("auth_secret", "openai_api_key"):
            if shown.get(name):
                shown[name] = "***"
        return "Settings(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + ")"

    db_path: Annotated[str, _(
        "The database: a SQLite file path, or a postgresql://USER@HOST/DBNAME URL (the "
        "postgres extra; docs/postgres.md).", option="db")] = "./commerce-agent.db"
    base_url: Annotated[str, _(
        "Public URL of this server, used in links: confirm URLs, consent pages, webhooks "
        "(default http://HOST:PORT).", cli_default=None)] = "http://127.0.0.1:8000"
    cart_lifetime_seconds: Annotated[int, _bounded(
        "Seconds before an idle cart expires (advertised by dev.commerce.cart).", ge=1,
        option="cart-lifetime")] = 3600
    max_body_bytes: Annotated[int, _bounded(
        "Largest request body accepted, in bytes (larger answers 413).", ge=1024)] \
        = 256 * 1024
    max_promotions: Annotated[int, _bounded(
        "Promotions one cart may stack (advertised by the promotions capability).", ge=1,
        le=100)] = 3
    pay_to: Annotated[str, _(
        "Address the x402 `exact` scheme (USDC on --x402-network) pays to; by default the "
        "sandbox merchant's, whose key nobody holds: set your own wallet's with "
        "--x402-facilitator.")] \
        = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    simulate: Annotated[bool, _(
        "Move paid orders through fulfillment automatically.")] = True
    simulate_speed: Annotated[float, _bounded(
        "How many times faster than real time the simulator runs.", ge=0.01)] = 1.0
    sse_heartbeat_seconds: Annotated[float, _bounded(
        "Seconds between heartbeat comments on an idle order-updates stream.", ge=0.05,
        option="sse-heartbeat")] = 15.0
    webhook_retry_base_seconds: Annotated[float, _bounded(
        "Seconds before a failed webhook delivery is retried (doubles each time, capped at "
        "6 h).", ge=0.01, option="webhook-retry-base")] = 10.0
    webhook_timeout_seconds: Annotated[float, _bounded(
        "Seconds a webhook receiver has to answer.", ge=0.1,
        option="webhook-timeout")] = 10.0
    smtp: Annotated[str, _(
        "SMTP server the order mail is sent through: smtp://USER:PASS@HOST:PORT (STARTTLS "
        "when offered) or smtps://… (implicit TLS). Unset: mail is kept, readable in GET "
        "/admin/mail.")] = ""
    mail_from: Annotated[str, _(
        "From address of the order mail.")] = "shop@localhost"
    mail_retry_base_seconds: Annotated[float, _bounded(
        "Seconds before an unsent mail is retried (doubles each time, capped at 6 h).",
        ge=0.01, option="mail-retry-base")] = 30.0
    agent_mount: Annotated[str, _(
        "Path prefix of the Agent Session Streaming API.")] = "/agent/v1"
    journal: Annotated[str, _(
        "Where agent sessions are kept: memory, file[:DIR], sqlite (the --db database, "
        "SQLite or PostgreSQL; also called database) or redis://HOST:PORT/DB (needs the "
        "redis extra).")] = "sqlite"
    auth_secret: Annotated[str, _(
        "Require this bearer token on agent create, info and stream routes (fail "
        "closed).")] = ""
    openai_base_url: Annotated[str, _(
        "OpenAI-compatible endpoint (e.g. https://api.openai.com/v1); enables the "
        "openai-shopper agent.")] = ""
    openai_api_key: Annotated[str, _(
        "API key sent to the OpenAI-compatible endpoint.")] = ""
    openai_model: Annotated[str, _(
        "Model name for the openai-shopper agent.")] = "gpt-4o-mini"
    openai_timeout: Annotated[float, _bounded(
        "Seconds without a byte from the model endpoint before a retry.", ge=1,
        le=3600)] = 120.0
    openai_max_retries: Annotated[int, _bounded(
        "Retries of a model request after 429, 5xx, a timeout or a dropped stream (0: "
        "none).", ge=0, le=10)] = 3
    openai_retry_seconds: Annotated[float, _bounded(
        "First retry delay of a model request in seconds, doubled per retry (a server's "
        "Retry-After wins).", ge=0, le=60)] = 0.5
    openai_context_tokens: Annotated[int, _bounded(
        "Estimated tokens the conversation may use; older tool results are trimmed first. "
        "Set below the model's context length.", ge=1000)] = 16000
    agent_pace: Annotated[float, _bounded(
        "Seconds the scripted agent waits between streamed reply fragments.", ge=0,
        le=5)] = 0.0
    sqlite_synchronous: Annotated[Literal["OFF", "NORMAL", "FULL", "EXTRA"], _(
        "SQLite durability: FULL syncs the WAL on every commit.")] = "FULL"
    payments: Annotated[Literal["sandbox", "stripe"], _(
        "Card provider behind fiat_intent: sandbox (test cards, nothing charged) or stripe "
        "(the stripe extra; keys only from STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and "
        "STRIPE_WEBHOOK_SECRET; docs/payments.md).")] = "sandbox"
    stripe_api_base: Annotated[str, _(
        "Stripe's API address: empty for Stripe's own, or a Stripe-compatible test "
        "server's URL.")] = ""
    x402_facilitator: Annotated[str, _(
        "URL of an x402 facilitator that verifies and settles `exact` payments on chain "
        "(the x402 extra). Unset: signatures are checked locally and nothing settles "
        "(receipts say settled: false). docs/payments.md.")] = ""
    x402_network: Annotated[str, _(
        "Chain the x402 `exact` scheme is paid on: base (mainnet), base-sepolia, or any "
        "EVM chain's CAIP-2 id eip155:CHAIN_ID (then --x402-asset and "
        "--x402-asset-name are needed).")] = "base-sepolia"
    x402_asset: Annotated[str, _(
        "EIP-3009 token the `exact` scheme is paid in (6 decimals); empty: Circle's USDC "
        "on base and base-sepolia.")] = ""
    x402_asset_name: Annotated[str, _(
        "The token's EIP-712 domain name (USDC's: `USD Coin` on base, `USDC` on "
        "base-sepolia); empty: USDC's.")] = ""
    x402_asset_version: Annotated[str, _(
        "The token's EIP-712 domain version; empty: 2, as USDC's.")] = ""


class ServerSettings(msgspec.Struct, frozen=True, kw_only=True):
    """How `serve` runs the app (not settings of the app itself)."""

    host: Annotated[str, _("Interface to listen on.")] = "127.0.0.1"
    port: Annotated[int, _bounded("TCP port to listen on.", ge=0, le=65535)] = 8000
    workers: Annotated[int, _bounded(
        "Server processes sharing the port and the database (docs/deploy.md).", ge=1)] = 1
    log_level: Annotated[Literal["critical", "error", "warning", "info", "debug"], _(
        "uvicorn log level.")] = "info"
    no_samples: Annotated[bool, _(
        "Start without the sample stores and demo users (your own shop).",
        flag=True)] = False
