"""Stripe, through the official `stripe` package (the `stripe` extra): the few calls the card
provider makes, each idempotent, and a provider outage turned into 503 with Retry-After.

The keys come from the environment only (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY,
STRIPE_WEBHOOK_SECRET), never from a flag, and are never written to a log or a repr.
Amounts are integers in the currency's minor units, as Stripe takes them.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from commerce_agent.errors import CommerceError

EXTRA_HINT = "pip install 'commerce-agent[stripe]'"
SECRET_KEY, PUBLISHABLE_KEY, WEBHOOK_SECRET = (
    "STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET")
RETRY_AFTER_SECONDS = 5
_log = logging.getLogger(__name__)
TIMEOUT_SECONDS = 10.0


class StripeUnavailable(RuntimeError):
    """`--payments stripe` without the extra or without its keys: the server does not start."""


@dataclass(frozen=True)
class StripeConfig:
    publishable_key: str
    api_base: str = ""  # empty: Stripe's own; a test server's URL in tests
    secret_key: str = field(default="", repr=False)
    webhook_secret: str = field(default="", repr=False)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], api_base: str = "") -> StripeConfig:
        missing = [name for name in (SECRET_KEY, PUBLISHABLE_KEY, WEBHOOK_SECRET)
                   if not environ.get(name)]
        if missing:
            raise StripeUnavailable(
                f"--payments stripe needs {', '.join(missing)} in the environment "
                "(keys are never taken from a flag).")
        return cls(publishable_key=environ[PUBLISHABLE_KEY], api_base=api_base,
                   secret_key=environ[SECRET_KEY], webhook_secret=environ[WEBHOOK_SECRET])


@dataclass(frozen=True)
class Intent:
    """What the server checks of a PaymentIntent."""

    id: str
    status: str
    amount: int
    currency: str  # upper case, like the order's
    metadata: dict[str, str]
    client_secret: str = field(default="", repr=False)
    error_code: str = ""


@dataclass(frozen=True)
class Refund:
    id: str
    amount: int
    status: str
    metadata: dict[str, str]


def idempotency_key(*parts: str) -> str:
    """Stripe's Idempotency-Key, derived from ours: the same parts give the same key."""
    return "commerce-agent-" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:48]


def unavailable(message: str = "The payment provider cannot be reached right now; nothing "
                "was charged twice and no order was lost. Try again shortly.") -> CommerceError:
    return CommerceError(503, "payment_provider_unavailable", message,
                         headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _import_stripe() -> Any:
    try:
        import stripe
    except ImportError:
        raise StripeUnavailable(
            f"--payments stripe needs the stripe extra: {EXTRA_HINT}.") from None
    return stripe


def _plain(obj: Any) -> dict[str, Any]:
    """A StripeObject as a plain dict (v16 objects answer attributes, not `.get`)."""
    return dict(obj.to_dict()) if hasattr(obj, "to_dict") else dict(obj)


def _intent(obj: Any) -> Intent:
    obj = _plain(obj)
    error = obj.get("last_payment_error") or {}
    return Intent(id=str(obj["id"]), status=str(obj["status"]), amount=int(obj["amount"]),
                  currency=str(obj["currency"]).upper(),
                  metadata={str(k): str(v) for k, v in (obj.get("metadata") or {}).items()},
                  client_secret=str(obj.get("client_secret") or ""),
                  error_code=str(error.get("code") or ""))


def _refund(obj: Any) -> Refund:
    obj = _plain(obj)
    return Refund(id=str(obj["id"]), amount=int(obj["amount"]), status=str(obj["status"]),
                  metadata={str(k): str(v) for k, v in (obj.get("metadata") or {}).items()})


def _http_client(stripe: Any) -> Any:
    """stripe's httpx client (async as well as sync), sending the form body as `content`:
    stripe 16 passes it as `data=`, which httpx deprecates for bytes (a warning per call)."""

    class Client(stripe.HTTPXClient):  # type: ignore[misc]
        def _get_request_args_kwargs(self, method: str, url: str, headers: Any,
                                     post_data: Any) -> Any:
            args, kwargs = super()._get_request_args_kwargs(method, url, headers, post_data)
            body = kwargs.pop("data", None)
            if body:
                kwargs["content"] = body
            return args, kwargs

    return Client(timeout=TIMEOUT_SECONDS)


class StripeGateway:
    """The calls to Stripe. Connection failures, rate limits and Stripe's own 5xx answer 503;
    a request Stripe refuses (4xx) is the caller's to explain."""

    def __init__(self, config: StripeConfig) -> None:
        stripe = _import_stripe()
        self.config = config
        self._stripe = stripe
        self._http = _http_client(stripe)
        options: dict[str, Any] = {"http_client": self._http,
                                   "max_network_retries": 2}
        if config.api_base:
            options["base_addresses"] = {"api": config.api_base}
        self._client: Any = stripe.StripeClient(config.secret_key, **options)

    async def close(self) -> None:
        await self._http.close_async()

    def _outage(self, exc: Exception) -> bool:
        stripe = self._stripe
        status = getattr(exc, "http_status", None)
        return isinstance(exc, (stripe.APIConnectionError, stripe.RateLimitError)) or (
            isinstance(exc, stripe.StripeError) and (status is None or status >= 500))

    async def _call(self, coroutine: Any) -> Any:
        try:
            return await coroutine
        except self._stripe.InvalidRequestError as exc:
            if exc.http_status == 404:
                raise  # the caller says what is missing
            _log.warning("Stripe refused a request: %s", exc.user_message or exc)
            raise unavailable() from None
        except self._stripe.StripeError as exc:
            # An outage, or a refusal no shopper can fix (a wrong key): either way retryable
            # once it is fixed, and said to the operator in the log (never the key itself).
            if not self._outage(exc):
                _log.warning("Stripe refused a request: %s", exc.user_message or exc)
            raise unavailable() from None

    async def create_intent(self, *, amount: int, currency: str, metadata: dict[str, str],
                            key: str) -> Intent:
        return _intent(await self._call(self._client.v1.payment_intents.create_async(
            {"amount": amount, "currency": currency.lower(), "metadata": metadata},
            {"idempotency_key": key})))

    async def retrieve_intent(self, intent_id: str) -> Intent | None:
        """The intent, or None when Stripe knows no such intent."""
        try:
            return _intent(await self._call(
                self._client.v1.payment_intents.retrieve_async(intent_id)))
        except self._stripe.InvalidRequestError as exc:
            if exc.http_status == 404:
                return None
            raise

    async def refund(self, *, intent_id: str, amount: int, metadata: dict[str, str],
                     key: str) -> Refund:
        return _refund(await self._call(self._client.v1.refunds.create_async(
            {"payment_intent": intent_id, "amount": amount, "metadata": metadata},
            {"idempotency_key": key})))

    async def refunds(self, intent_id: str) -> list[Refund]:
        listed = await self._call(self._client.v1.refunds.list_async(
            {"payment_intent": intent_id, "limit": 100}))
        return [_refund(obj) for obj in _plain(listed)["data"]]

    def event(self, payload: bytes, signature: str) -> dict[str, Any]:
        """A webhook's event, its Stripe-Signature checked; ValueError when it does not hold."""
        try:
            event = self._stripe.Webhook.construct_event(
                payload, signature, self.config.webhook_secret)
        except self._stripe.SignatureVerificationError as exc:
            raise ValueError(str(exc)) from None
        result: dict[str, Any] = event.to_dict()
        return result
