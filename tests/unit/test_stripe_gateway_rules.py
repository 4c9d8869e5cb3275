"""The card provider's pure rules (commerce/payments/providers.py, stripe_api.py): when a
retrieved PaymentIntent pays an order, what each of Stripe's statuses tells the shopper, how
Stripe's errors become ours (an outage is a 503 with Retry-After, a missing intent is None),
what a Stripe object reads as, and where the keys may come from. No network: the gateway's
calls are given coroutines that answer or raise the `stripe` package's own exceptions."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import stripe
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce.payments import providers, stripe_api
from commerce_agent.commerce.payments.stripe_api import Intent, StripeConfig, StripeGateway
from commerce_agent.errors import CommerceError

CONFIG = StripeConfig("pk_test_x", "http://127.0.0.1:9", "sk_test_secret", "whsec_secret")
OWNER = "user_alice"


def intent(
    status: str = "succeeded",
    amount: int = 1250,
    currency: str = "USD",
    owner: str = OWNER,
    error_code: str = "",
) -> Intent:
    return Intent(
        id="pi_1",
        status=status,
        amount=amount,
        currency=currency,
        metadata={"commerce_agent_owner": owner},
        client_secret="pi_1_secret",
        error_code=error_code,
    )


def refusal(paid: Intent, amount: int = 1250, currency: str = "USD") -> dict[str, Any]:
    with pytest.raises(CommerceError) as caught:
        providers.check_paid(paid, owner_id=OWNER, amount=amount, currency=currency)
    error = caught.value
    assert (error.status, error.code) == (400, "payment_failed")
    detail: dict[str, Any] = error.details[0]
    return {"reason": detail["reason"], "value": detail.get("value"), "message": error.message}


def test_a_succeeded_intent_of_this_owner_amount_and_currency_pays() -> None:
    providers.check_paid(intent(), owner_id=OWNER, amount=1250, currency="USD")


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        ("requires_payment_method", "not_paid"),
        ("requires_confirmation", "not_confirmed"),
        ("requires_action", "requires_action"),
        ("processing", "processing"),
        ("canceled", "canceled"),
        ("requires_capture", "not_captured"),
        ("some_future_status", "not_paid"),
    ],
)
def test_every_unpaid_status_says_why(status: str, reason: str) -> None:
    found = refusal(intent(status))
    assert found["reason"] == reason and found["value"] is None
    if status == "some_future_status":
        assert status in found["message"]


def test_a_declined_card_is_told_apart_from_a_card_not_yet_given() -> None:
    found = refusal(intent("requires_payment_method", error_code="card_declined"))
    assert found == {
        "reason": "card_declined",
        "value": "card_declined",
        "message": "The card was declined: pay again with another card.",
    }
    # An error code on another status is passed on, the status still decides the reason.
    assert refusal(intent("requires_action", error_code="authentication_required")) == {
        **refusal(intent("requires_action")),
        "value": "authentication_required",
    }


def test_an_intent_made_for_someone_else_is_unknown_whatever_its_status() -> None:
    for status in ("succeeded", "requires_payment_method"):
        assert refusal(intent(status, owner="user_bob"))["reason"] == "unknown_intent"
    assert refusal(Intent("pi_1", "succeeded", 1250, "USD", {}))["reason"] == "unknown_intent"


@given(
    paid=st.integers(0, 10**9),
    owed=st.integers(0, 10**9),
    paid_in=st.sampled_from(["USD", "EUR", "JPY"]),
    owed_in=st.sampled_from(["USD", "EUR"]),
)
def test_only_the_exact_amount_in_the_same_currency_pays(
    paid: int, owed: int, paid_in: str, owed_in: str
) -> None:
    try:
        providers.check_paid(
            intent(amount=paid, currency=paid_in), owner_id=OWNER, amount=owed, currency=owed_in
        )
    except CommerceError as error:
        assert error.details[0]["reason"] == "amount_mismatch"
        assert (paid, paid_in) != (owed, owed_in)
        assert f"{paid} {paid_in}" in error.message and f"{owed} {owed_in}" in error.message
        return
    assert (paid, paid_in) == (owed, owed_in)


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [
        ("succeeded", "succeeded"),
        ("failed", "failed"),
        ("canceled", "failed"),
        ("pending", "pending"),
        ("requires_action", "pending"),
        ("", "pending"),
    ],
)
def test_refund_statuses(theirs: str, ours: str) -> None:
    assert providers.refund_status(theirs) == ours


@given(
    owner=st.text(max_size=20),
    cart=st.none() | st.text(max_size=20),
    version=st.text(max_size=10),
    key=st.none() | st.text(max_size=20),
)
def test_an_offer_key_names_one_cart_version_or_idempotency_key(
    owner: str, cart: str | None, version: str, key: str | None
) -> None:
    first = providers.offer_key(owner, cart, version, key)
    again = providers.offer_key(owner, cart, version, key)
    assert len(first) == 32
    if cart is None and key is None:
        assert first != again  # nothing to recognise a Buy Now by: a new intent each time
        return
    assert first == again
    assert providers.offer_key(owner + "x", cart, version, key) != first
    assert providers.offer_key(owner, cart, version + "x", key) != first


def test_parts_cannot_run_into_each_other() -> None:
    assert providers.offer_key("ab", "c", "1", None) != providers.offer_key("a", "bc", "1", None)
    assert stripe_api.idempotency_key("ab", "c") != stripe_api.idempotency_key("a", "bc")
    assert stripe_api.idempotency_key("refund", "ord_1", "k") == stripe_api.idempotency_key(
        "refund", "ord_1", "k"
    )


def test_the_payment_url_carries_the_intent_and_its_secret() -> None:
    assert (
        providers.payment_url("http://shop", "pi_1", "pi_1_secret_2")
        == "http://shop/shop/pay/pi_1?secret=pi_1_secret_2"
    )


def test_keys_come_from_the_environment_and_never_show() -> None:
    with pytest.raises(stripe_api.StripeUnavailable) as missing:
        StripeConfig.from_environment({"STRIPE_SECRET_KEY": "sk"})
    assert "STRIPE_PUBLISHABLE_KEY" in str(missing.value)
    assert "STRIPE_WEBHOOK_SECRET" in str(missing.value)
    assert "STRIPE_SECRET_KEY" not in str(missing.value)
    config = StripeConfig.from_environment(
        {
            "STRIPE_SECRET_KEY": "sk_live_hidden",
            "STRIPE_PUBLISHABLE_KEY": "pk_shown",
            "STRIPE_WEBHOOK_SECRET": "whsec_hidden",
        },
        "http://x",
    )
    assert (config.secret_key, config.webhook_secret, config.api_base) == (
        "sk_live_hidden",
        "whsec_hidden",
        "http://x",
    )
    assert "hidden" not in repr(config) and "pk_shown" in repr(config)
    with pytest.raises(stripe_api.StripeUnavailable, match="sandbox, stripe"):
        providers.build("paypal", {})
    assert isinstance(providers.build("sandbox", {}), providers.SandboxProvider)


# --- Stripe's errors, as the gateway turns them into ours ---------------------------------


async def _raises(exc: Exception) -> Any:
    raise exc


async def _answers(value: Any) -> Any:
    return value


@pytest.fixture
async def gateway() -> Any:
    made = StripeGateway(CONFIG)
    yield made
    await made.close()


@pytest.mark.parametrize(
    "exc",
    [
        stripe.APIConnectionError("connection refused"),
        stripe.RateLimitError("slow down", http_status=429),
        stripe.APIError("stripe is down", http_status=500),
        stripe.APIError("no status"),
        stripe.AuthenticationError("bad key", http_status=401),
        stripe.InvalidRequestError("amount too small", "amount", http_status=400),
        stripe.PermissionError("restricted key", http_status=403),
    ],
    ids=lambda exc: type(exc).__name__ + str(getattr(exc, "http_status", "")),
)
async def test_every_failure_but_a_missing_intent_is_a_retryable_503(
    gateway: StripeGateway, exc: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger=stripe_api.__name__),
        pytest.raises(CommerceError) as caught,
    ):
        await gateway._call(_raises(exc))
    assert (caught.value.status, caught.value.code) == (503, "payment_provider_unavailable")
    assert caught.value.headers == {"Retry-After": str(stripe_api.RETRY_AFTER_SECONDS)}
    # A refusal no shopper can fix is said to the operator; an outage is not logged as one.
    outage = isinstance(exc, stripe.APIConnectionError | stripe.RateLimitError) or getattr(
        exc, "http_status", None
    ) in (None, 500)
    logged = [record.getMessage() for record in caplog.records]
    assert bool(logged) != outage, logged
    assert all("sk_test_secret" not in line for line in logged)


async def test_a_missing_intent_is_none_and_other_404s_are_the_callers(
    gateway: StripeGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = stripe.InvalidRequestError("No such payment_intent", "id", http_status=404)
    with pytest.raises(stripe.InvalidRequestError):
        await gateway._call(_raises(missing))
    monkeypatch.setattr(
        gateway._client.v1.payment_intents, "retrieve_async", lambda intent_id: _raises(missing)
    )
    assert await gateway.retrieve_intent("pi_missing") is None
    assert await gateway._call(_answers(7)) == 7


async def test_a_stripe_object_reads_as_an_intent_and_a_refund(
    gateway: StripeGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    obj = stripe.PaymentIntent.construct_from(
        {
            "id": "pi_9",
            "object": "payment_intent",
            "status": "requires_payment_method",
            "amount": 1999,
            "currency": "eur",
            "client_secret": "pi_9_secret_x",
            "metadata": {"commerce_agent_owner": OWNER, "n": 3},
            "last_payment_error": {"code": "card_declined"},
        },
        "sk",
    )
    seen: list[tuple[Any, ...]] = []

    def create(params: dict[str, Any], options: dict[str, Any]) -> Any:
        seen.append((params, options))
        return _answers(obj)

    monkeypatch.setattr(gateway._client.v1.payment_intents, "create_async", create)
    made = await gateway.create_intent(amount=1999, currency="EUR", metadata={"a": "b"}, key="k1")
    assert made == Intent(
        "pi_9",
        "requires_payment_method",
        1999,
        "EUR",
        {"commerce_agent_owner": OWNER, "n": "3"},
        "pi_9_secret_x",
        "card_declined",
    )
    assert "pi_9_secret_x" not in repr(made)
    assert seen == [
        ({"amount": 1999, "currency": "eur", "metadata": {"a": "b"}}, {"idempotency_key": "k1"})
    ]
    refunds = stripe.ListObject.construct_from(
        {
            "object": "list",
            "data": [
                {
                    "id": "re_1",
                    "object": "refund",
                    "amount": 500,
                    "status": "pending",
                    "metadata": None,
                },
                {
                    "id": "re_2",
                    "object": "refund",
                    "amount": 200,
                    "status": "succeeded",
                    "metadata": {"commerce_agent_order": "ord_1"},
                },
            ],
        },
        "sk",
    )
    monkeypatch.setattr(gateway._client.v1.refunds, "list_async", lambda params: _answers(refunds))
    assert [(r.id, r.amount, r.status, r.metadata) for r in await gateway.refunds("pi_9")] == [
        ("re_1", 500, "pending", {}),
        ("re_2", 200, "succeeded", {"commerce_agent_order": "ord_1"}),
    ]
