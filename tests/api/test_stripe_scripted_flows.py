"""The Stripe card provider through the Commerce API, in process, with Stripe scripted: the
gateway's four calls (create, retrieve, refund, list refunds) answer from a dict of intents
kept here, and everything else is the real code — the 402's offer, the order's proof check,
the signed webhook and the events it applies, refunds on cancel and mirrored from Stripe.
(The same flows against localstripe, a Stripe-compatible server, are the live
tests/api/test_stripe_payments.py; these run in the fast subset and reach the statuses and
events localstripe cannot produce.)"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.payments.stripe_api import (
    Intent,
    Refund,
    StripeConfig,
    StripeGateway,
    unavailable,
)
from commerce_agent.settings import Settings
from tests.support.helpers import US_ADDRESS, add_item, assert_error, new_cart, payment_header
from tests.support.stripe_support import PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET, sign

REFUNDS = "dev.commerce.order.refunds"


class ScriptedStripe(StripeGateway):
    """Stripe's side, kept in memory; signatures are still checked by the stripe package."""

    def __init__(self, config: StripeConfig) -> None:
        super().__init__(config)
        self.intents: dict[str, Intent] = {}
        self.refunded: dict[str, list[Refund]] = {}
        self.calls: list[tuple[str, Any]] = []
        self.down = False

    def _maybe_down(self) -> None:
        if self.down:
            raise unavailable()

    async def create_intent(
        self, *, amount: int, currency: str, metadata: dict[str, str], key: str
    ) -> Intent:
        self.calls.append(("create", key))
        self._maybe_down()
        made = Intent(
            f"pi_{len(self.intents) + 1}",
            "requires_payment_method",
            amount,
            currency.upper(),
            dict(metadata),
            f"pi_{len(self.intents) + 1}_secret",
        )
        self.intents[made.id] = made
        return made

    async def retrieve_intent(self, intent_id: str) -> Intent | None:
        self.calls.append(("retrieve", intent_id))
        self._maybe_down()
        return self.intents.get(intent_id)

    async def refund(
        self, *, intent_id: str, amount: int, metadata: dict[str, str], key: str
    ) -> Refund:
        self.calls.append(("refund", key))
        self._maybe_down()
        made = Refund(f"re_{key[-6:]}", amount, "pending", dict(metadata))
        self.refunded.setdefault(intent_id, []).append(made)
        return made

    async def refunds(self, intent_id: str) -> list[Refund]:
        self.calls.append(("refunds", intent_id))
        return list(self.refunded.get(intent_id, []))

    def set(self, intent_id: str, **changes: Any) -> None:
        fields = {**self.intents[intent_id].__dict__, **changes}
        self.intents[intent_id] = Intent(**fields)

    def called(self, name: str) -> int:
        return sum(1 for call, _ in self.calls if call == name)


@pytest.fixture
def settings(db_target: str, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("STRIPE_SECRET_KEY", SECRET_KEY)
    monkeypatch.setenv("STRIPE_PUBLISHABLE_KEY", PUBLISHABLE_KEY)
    monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET)
    return Settings(
        db_path=db_target,
        base_url="http://test",
        simulate=False,
        sqlite_synchronous="NORMAL",
        payments="stripe",
        stripe_api_base="http://127.0.0.1:9",
    )


@pytest.fixture
async def stripe(app: Starlette) -> Any:
    provider = providers.active()
    assert isinstance(provider, providers.StripeProvider)
    real = provider.gateway
    scripted = ScriptedStripe(real.config)
    provider.gateway = scripted
    yield scripted
    provider.gateway = real
    await scripted.close()


async def _order_body(
    client: httpx.AsyncClient, headers: dict[str, str], quantity: int = 1
) -> dict[str, Any]:
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], "item_limited_glaze_mug", quantity)
    return {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}


async def _offer(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    body: dict[str, Any],
    extra: dict[str, str] | None = None,
) -> dict[str, Any]:
    response = await client.post("/orders", json=body, headers={**headers, **(extra or {})})
    assert response.status_code == 402, response.text
    [entry] = [e for e in response.json()["accepts"] if e["scheme"] == "fiat_intent"]
    assert entry["network"] == "stripe"
    return dict(entry)


def _proof(intent_id: str) -> dict[str, str]:
    return {"X-PAYMENT": payment_header("fiat_intent", "stripe", {"paymentIntentId": intent_id})}


async def _pay(
    client: httpx.AsyncClient, headers: dict[str, str], body: dict[str, Any], intent_id: str
) -> httpx.Response:
    return await client.post("/orders", json=body, headers={**headers, **_proof(intent_id)})


async def _paid_order(
    client: httpx.AsyncClient, headers: dict[str, str], stripe: ScriptedStripe
) -> dict[str, Any]:
    body = await _order_body(client, headers)
    intent_id = (await _offer(client, headers, body))["extra"]["paymentIntentId"]
    stripe.set(intent_id, status="succeeded")
    placed = await _pay(client, headers, body, intent_id)
    assert placed.status_code == 201, placed.text
    return dict(placed.json())


async def _event(
    client: httpx.AsyncClient, kind: str, obj: dict[str, Any], secret: str = WEBHOOK_SECRET
) -> httpx.Response:
    body = json.dumps(
        {"id": "evt_1", "object": "event", "type": kind, "data": {"object": obj}}
    ).encode()
    return await client.post(
        "/payments/stripe/webhook", content=body, headers={"Stripe-Signature": sign(body, secret)}
    )


async def _intent_row(app: Starlette, intent_id: str) -> Any:
    return await app.state.db.fetch_one(
        "SELECT status, owner_id, amount, currency, provider FROM payment_intents WHERE id = :id",
        {"id": intent_id},
    )


async def test_the_402_offers_one_intent_per_unchanged_cart(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    body = await _order_body(client, alice, quantity=2)
    entry = await _offer(client, alice, body)
    extra = entry["extra"]
    intent = stripe.intents[extra["paymentIntentId"]]
    assert extra["clientSecret"] == intent.client_secret
    assert extra["paymentUrl"] == (
        f"http://test/shop/pay/{intent.id}?secret={intent.client_secret}"
    )
    assert intent.metadata["commerce_agent_owner"] == "user_alice"
    assert (intent.amount, intent.currency) == (int(entry["maxAmountRequired"]), "USD")
    row = await _intent_row(app, intent.id)
    assert (row["status"], row["owner_id"], row["provider"]) == (
        "requires_confirmation",
        "user_alice",
        "stripe",
    )
    # Asked again for the same cart: the same intent, retrieved, not a second one.
    assert (await _offer(client, alice, body))["extra"]["paymentIntentId"] == intent.id
    assert stripe.called("create") == 1
    # Cancelled at Stripe meanwhile: a new intent for the same cart.
    stripe.set(intent.id, status="canceled")
    renewed = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    assert renewed != intent.id and stripe.called("create") == 2
    # The cart changed: its price changed, so another intent.
    await add_item(client, alice, body["cartId"], "item_limited_glaze_mug", 1)
    changed = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    assert changed not in (intent.id, renewed)
    assert stripe.intents[changed].amount > intent.amount


async def test_stripe_down_at_the_offer_is_a_503_and_nothing_is_stored(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    body = await _order_body(client, alice)
    stripe.down = True
    response = await client.post("/orders", json=body, headers=alice)
    assert_error(response, 503, "payment_provider_unavailable")
    assert response.headers["retry-after"] == "5"
    count = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM payment_intents")
    assert count["n"] == 0


@pytest.mark.parametrize(
    ("status", "error_code", "reason"),
    [
        ("requires_payment_method", "", "not_paid"),
        ("requires_payment_method", "card_declined", "card_declined"),
        ("requires_action", "", "requires_action"),
        ("processing", "", "processing"),
        ("requires_capture", "", "not_captured"),
        ("canceled", "", "canceled"),
    ],
)
async def test_an_unpaid_intent_places_no_order_and_says_why(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    stripe: ScriptedStripe,
    status: str,
    error_code: str,
    reason: str,
) -> None:
    body = await _order_body(client, alice)
    intent_id = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    stripe.set(intent_id, status=status, error_code=error_code)
    refused = assert_error(await _pay(client, alice, body, intent_id), 400, "payment_failed")
    assert refused["details"][0]["reason"] == reason
    assert (await client.get("/orders", headers=alice)).json()["orders"] == []
    assert (await _intent_row(app, intent_id))["status"] == "requires_confirmation"


async def test_a_paid_intent_pays_once_and_only_its_owner_and_amount(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    bob: dict[str, str],
    stripe: ScriptedStripe,
) -> None:
    body = await _order_body(client, alice)
    intent_id = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    stripe.set(intent_id, status="succeeded")
    # Bob names Alice's paid intent: unknown to him, and Stripe is not even asked.
    bobs = await _order_body(client, bob)
    retrieved = stripe.called("retrieve")
    refused = assert_error(await _pay(client, bob, bobs, intent_id), 400, "payment_failed")
    assert refused["details"][0]["reason"] == "unknown_intent"
    assert stripe.called("retrieve") == retrieved
    # Stripe says it paid a different amount than the order's.
    stripe.set(intent_id, amount=stripe.intents[intent_id].amount - 1)
    mismatch = assert_error(await _pay(client, alice, body, intent_id), 400, "payment_failed")
    assert mismatch["details"][0]["reason"] == "amount_mismatch"
    stripe.set(intent_id, amount=stripe.intents[intent_id].amount + 1)
    placed = await _pay(client, alice, body, intent_id)
    assert placed.status_code == 201, placed.text
    assert placed.json()["payment"]["network"] == "stripe"
    assert placed.json()["payment"]["reference"] == intent_id
    assert (await _intent_row(app, intent_id))["status"] == "consumed"
    # The same proof again, for a new cart: refused from our record, Stripe not asked.
    again = await _order_body(client, alice)
    retrieved = stripe.called("retrieve")
    replay = assert_error(await _pay(client, alice, again, intent_id), 400, "payment_failed")
    assert replay["details"][0]["reason"] == "already_used"
    assert stripe.called("retrieve") == retrieved


async def test_an_intent_stripe_has_forgotten_is_unknown(
    client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    body = await _order_body(client, alice)
    intent_id = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    del stripe.intents[intent_id]
    refused = assert_error(await _pay(client, alice, body, intent_id), 400, "payment_failed")
    assert refused["details"][0]["reason"] == "unknown_intent"
    missing = assert_error(
        await _pay(client, alice, body, "pi_never_offered"), 400, "payment_failed"
    )
    assert missing["details"][0]["reason"] == "unknown_intent"


async def test_intent_events_move_the_intent_once(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    body = await _order_body(client, alice)
    intent_id = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    obj = {"id": intent_id, "object": "payment_intent"}
    failed = await _event(client, "payment_intent.payment_failed", obj)
    assert failed.json() == {"received": True, "outcome": "intent_failed"}
    assert (await _intent_row(app, intent_id))["status"] == "failed"
    assert (await _event(client, "payment_intent.canceled", obj)).json()["outcome"] == "unchanged"
    succeeded = await _event(client, "payment_intent.succeeded", obj)
    assert succeeded.json()["outcome"] == "intent_succeeded"  # paid with another card later
    assert (await _event(client, "payment_intent.succeeded", obj)).json()["outcome"] == "unchanged"
    stripe.set(intent_id, status="succeeded")
    assert (await _pay(client, alice, body, intent_id)).status_code == 201
    # Spent: no late event moves it back.
    for kind in ("payment_intent.payment_failed", "payment_intent.canceled"):
        assert (await _event(client, kind, obj)).json()["outcome"] == "unchanged"
    assert (await _intent_row(app, intent_id))["status"] == "consumed"


async def test_events_that_are_not_ours_are_ignored(
    client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    body = await _order_body(client, alice)
    intent_id = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    cases = [
        ("payment_intent.succeeded", {"id": "pi_someone_elses", "object": "payment_intent"}),
        ("payment_intent.succeeded", {"object": "payment_intent"}),
        ("customer.created", {"id": "cus_1", "object": "customer"}),
        ("invoice.paid", {"id": "in_1", "object": "invoice", "payment_intent": intent_id}),
        # A refund of an intent that paid no order yet.
        ("charge.refunded", {"id": "ch_1", "object": "charge", "payment_intent": intent_id}),
    ]
    for kind, obj in cases:
        response = await _event(client, kind, obj)
        assert response.status_code == 200, (kind, response.text)
        assert response.json()["outcome"] == "ignored", kind


async def test_an_event_signed_with_another_secret_changes_nothing(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    body = await _order_body(client, alice)
    intent_id = (await _offer(client, alice, body))["extra"]["paymentIntentId"]
    forged = await _event(
        client,
        "payment_intent.succeeded",
        {"id": intent_id, "object": "payment_intent"},
        "whsec_forged",
    )
    assert_error(forged, 400, "webhook_signature_invalid")
    assert (await _intent_row(app, intent_id))["status"] == "requires_confirmation"


async def test_a_cancel_refunds_through_stripe_once_and_events_settle_it(
    client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    placed = await _paid_order(client, alice, stripe)
    intent_id = placed["payment"]["reference"]
    cancelled = await client.post(f"/orders/{placed['id']}/cancel", json={}, headers=alice)
    assert cancelled.status_code == 200, cancelled.text
    [entry] = cancelled.json()["metadata"][REFUNDS]
    [refund] = stripe.refunded[intent_id]
    assert (entry["providerRefundId"], entry["status"]) == (refund.id, "pending")
    assert refund.metadata == {"commerce_agent_order": placed["id"]}
    assert refund.amount == int(placed["total"]["amount"].replace(".", ""))
    # Stripe finishes the refund and says so (twice): the entry takes its status, once.
    stripe.refunded[intent_id] = [Refund(refund.id, refund.amount, "succeeded", {})]
    obj = {"id": "re_x", "object": "refund", "payment_intent": intent_id}
    for _ in range(2):
        assert (await _event(client, "refund.updated", obj)).json()["outcome"] == "refunds_mirrored"
    shown = (await client.get(f"/orders/{placed['id']}", headers=alice)).json()
    [entry] = shown["metadata"][REFUNDS]
    assert (entry["providerRefundId"], entry["status"]) == (refund.id, "succeeded")
    assert stripe.called("refund") == 1


async def test_refunds_made_at_stripe_are_added_unless_they_failed(
    client: httpx.AsyncClient, alice: dict[str, str], stripe: ScriptedStripe
) -> None:
    placed = await _paid_order(client, alice, stripe)
    intent_id = placed["payment"]["reference"]
    stripe.refunded[intent_id] = [
        Refund("re_dash_1", 300, "succeeded", {}),
        Refund("re_dash_2", 200, "failed", {}),
        Refund("re_dash_3", 100, "pending", {}),
    ]
    obj = {"id": "ch_1", "object": "charge", "payment_intent": intent_id}
    assert (await _event(client, "charge.refunded", obj)).json()["outcome"] == "refunds_mirrored"
    shown = (await client.get(f"/orders/{placed['id']}", headers=alice)).json()
    entries = {entry["providerRefundId"]: entry for entry in shown["metadata"][REFUNDS]}
    assert set(entries) == {"re_dash_1", "re_dash_3"}
    assert entries["re_dash_1"]["amount"] == {"amount": "3.00", "currency": "USD"}
    assert entries["re_dash_3"]["status"] == "pending"
    # The pending one fails later: it keeps its place, marked failed.
    stripe.refunded[intent_id][2] = Refund("re_dash_3", 100, "canceled", {})
    await _event(client, "refund.failed", obj)
    shown = (await client.get(f"/orders/{placed['id']}", headers=alice)).json()
    statuses = {entry["providerRefundId"]: entry["status"] for entry in shown["metadata"][REFUNDS]}
    assert statuses == {"re_dash_1": "succeeded", "re_dash_3": "failed"}


async def test_the_webhook_is_404_when_stripe_is_not_the_provider(
    client: httpx.AsyncClient, stripe: ScriptedStripe
) -> None:
    sandbox = providers.SandboxProvider()
    stripe_provider = providers.active()
    providers.install(sandbox)
    try:
        response = await _event(client, "payment_intent.succeeded", {"id": "pi_1"})
    finally:
        providers.install(stripe_provider)
    assert_error(response, 404, "not_found")
