"""Webhook signing: the derived secret, the headers of an attempt, and one test per way a
signature check must fail (missing header, bad signature, tampered body, old or future or
malformed timestamp), for both the plain HMAC header and Standard Webhooks."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from commerce_agent.commerce.services.webhooks import signing

pytestmark = pytest.mark.both_backends

KEY = "a" * 64
BODY = b'{"id":"evt_1","event":"order.created","timestamp":"2030-01-01T00:00:00.000Z","data":{}}'


@pytest.fixture
def now() -> datetime:
    """This test's moment: standardwebhooks checks timestamps against the real clock."""
    return datetime.now(UTC)


@pytest.fixture
def secret() -> str:
    return signing.derive_secret(KEY, "wh_1")


@pytest.fixture
def headers(secret: str, now: datetime) -> dict[str, str]:
    return signing.sign(secret, "evt_1", "order.created", BODY, now)


def test_secret_is_derived_per_subscription_and_key(secret: str) -> None:
    assert secret == signing.derive_secret(KEY, "wh_1")
    assert secret != signing.derive_secret(KEY, "wh_2")
    assert secret != signing.derive_secret("b" * 64, "wh_1")
    assert secret.startswith("whsec_")
    raw = base64.b64decode(secret.removeprefix("whsec_"))
    assert raw == hmac.new(KEY.encode(), b"wh_1", hashlib.sha256).digest()


def test_headers_of_an_attempt(secret: str, headers: dict[str, str], now: datetime) -> None:
    timestamp = str(int(now.timestamp()))
    assert headers["Content-Type"] == "application/json"
    assert headers["X-Commerce-Webhook-Event"] == "order.created"
    assert headers["X-Commerce-Webhook-ID"] == headers["webhook-id"] == "evt_1"
    assert headers["X-Commerce-Webhook-Timestamp"] == headers["webhook-timestamp"] == timestamp
    assert headers["X-Commerce-Webhook-Signature"] == hmac.new(
        secret.encode(), BODY, hashlib.sha256).hexdigest()
    assert headers["webhook-signature"].startswith("v1,")
    assert Webhook(secret).verify(BODY, headers)["id"] == "evt_1"
    assert signing.verify(secret, BODY, headers, now=now) == "evt_1"
    lowered = {name.lower(): value.upper() if name == signing.SIGNATURE else value
               for name, value in headers.items()}
    assert signing.verify(secret, BODY, lowered, now=now) == "evt_1"  # any case


@pytest.mark.parametrize("missing", [signing.EVENT, signing.ID, signing.TIMESTAMP,
                                     signing.SIGNATURE])
def test_missing_header(secret: str, headers: dict[str, str], missing: str, now: datetime) -> None:
    del headers[missing]
    with pytest.raises(signing.SignatureError, match="missing header"):
        signing.verify(secret, BODY, headers, now=now)


@pytest.mark.parametrize("missing", signing.STANDARD)
def test_missing_standard_header(secret: str, headers: dict[str, str], missing: str) -> None:
    del headers[missing]
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(BODY, headers)


def test_bad_signature(secret: str, headers: dict[str, str], now: datetime) -> None:
    headers[signing.SIGNATURE] = "0" * 64
    with pytest.raises(signing.SignatureError, match="does not match"):
        signing.verify(secret, BODY, headers, now=now)
    headers[signing.SIGNATURE] = "é" * 64
    with pytest.raises(signing.SignatureError, match="does not match"):
        signing.verify(secret, BODY, headers, now=now)


def test_wrong_secret(headers: dict[str, str], now: datetime) -> None:
    other = signing.derive_secret(KEY, "wh_2")
    with pytest.raises(signing.SignatureError):
        signing.verify(other, BODY, headers, now=now)
    with pytest.raises(WebhookVerificationError):
        Webhook(other).verify(BODY, headers)


def test_tampered_body(secret: str, headers: dict[str, str], now: datetime) -> None:
    tampered = BODY.replace(b"order.created", b"order.cancelled")
    with pytest.raises(signing.SignatureError):
        signing.verify(secret, tampered, headers, now=now)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(tampered, headers)


@pytest.mark.parametrize("shift", [-400, 400])
def test_timestamp_too_far_from_now(secret: str, shift: int) -> None:
    now = datetime.now(UTC)  # standardwebhooks checks against the real clock
    headers = signing.sign(secret, "evt_1", "order.created", BODY,
                           now + timedelta(seconds=shift))
    with pytest.raises(signing.SignatureError, match="away"):
        signing.verify(secret, BODY, headers, now=now)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(BODY, headers)
    assert signing.verify(secret, BODY, headers, now=now + timedelta(seconds=shift)) == "evt_1"


@pytest.mark.parametrize("timestamp", ["", "soon", "-5", "1.5", "١٢٣"])
def test_malformed_timestamp(secret: str, headers: dict[str, str], timestamp: str,
                             now: datetime) -> None:
    headers[signing.TIMESTAMP] = timestamp
    with pytest.raises(signing.SignatureError):
        signing.verify(secret, BODY, headers, now=now)
