"""Webhook signatures: each subscription's secret, and the signed headers of every attempt.

The secret is never stored. It is derived from the server's `webhooks` signing key (table
signing_keys) and the subscription id, `whsec_` + base64(HMAC-SHA256(key, id)), so it can be
shown once at creation and recomputed by the sender for every attempt, and it has the form the
`standardwebhooks` package expects.

Each attempt carries two signatures over the exact stored body:
- Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
  `id.timestamp.body`, keyed with the base64-decoded secret): verify with
  `standardwebhooks.Webhook(secret).verify(body, headers)`;
- `X-Commerce-Webhook-Signature`: hex HMAC-SHA256 of the raw body, keyed with the secret string
  exactly as returned (UTF-8), with `X-Commerce-Webhook-Event`, `-ID` (the event id) and
  `-Timestamp` (unix seconds of the attempt). `verify` below checks these.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from datetime import UTC, datetime

from standardwebhooks import Webhook

from commerce_agent.digits import whole_number

KEY_NAME = "webhooks"  # the signing_keys row the secrets derive from
SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, not a secret)
TOLERANCE_SECONDS = 300  # how far a receiver should accept the timestamp from its clock
USER_AGENT = "commerce-agent-webhooks/1.0"
EVENT = "X-Commerce-Webhook-Event"
ID = "X-Commerce-Webhook-ID"
TIMESTAMP = "X-Commerce-Webhook-Timestamp"
SIGNATURE = "X-Commerce-Webhook-Signature"
STANDARD = ("webhook-id", "webhook-timestamp", "webhook-signature")


class SignatureError(Exception):
    """The headers do not prove that this body came from the server, now."""


def derive_secret(server_key: str, subscription_id: str) -> str:
    digest = hmac.new(server_key.encode(), subscription_id.encode(), hashlib.sha256).digest()
    return SECRET_PREFIX + base64.b64encode(digest).decode()


def hex_signature(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def sign(secret: str, event_id: str, event: str, body: bytes, at: datetime) -> dict[str, str]:
    """Every header of one delivery attempt made at `at`."""
    timestamp = int(at.timestamp())
    standard = Webhook(secret).sign(event_id, datetime.fromtimestamp(timestamp, UTC),
                                    body.decode())
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "webhook-id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": standard,
        EVENT: event,
        ID: event_id,
        TIMESTAMP: str(timestamp),
        SIGNATURE: hex_signature(secret, body),
    }


def verify(secret: str, body: bytes, headers: Mapping[str, str], *,
           now: datetime | None = None, tolerance: int = TOLERANCE_SECONDS) -> str:
    """Check the X-Commerce-Webhook-* headers as a receiver would; returns the event id.

    Refuses a missing header, a timestamp that is not unix seconds or is more than
    `tolerance` seconds from `now`, and a signature that does not match the body.
    """
    found = {name.lower(): value for name, value in headers.items()}
    for name in (EVENT, ID, TIMESTAMP, SIGNATURE):
        if not found.get(name.lower()):
            raise SignatureError(f"missing header {name}")
    sent_at = whole_number(found[TIMESTAMP.lower()])
    if sent_at is None:
        raise SignatureError(f"{TIMESTAMP} is not unix seconds")
    moment = (now or datetime.now(UTC)).timestamp()
    if abs(moment - sent_at) > tolerance:
        raise SignatureError(f"{TIMESTAMP} is more than {tolerance} s away")
    sent = found[SIGNATURE.lower()].strip().lower().encode()
    if not hmac.compare_digest(hex_signature(secret, body).encode(), sent):
        raise SignatureError("signature does not match the body")
    return found[ID.lower()]
