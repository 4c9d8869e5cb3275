"""`--payments stripe` against localstripe, a stateful Stripe-compatible server, with the
official `stripe` client: pay, decline, 3-D Secure, replay, late webhooks, refunds on cancel
and on return, the payment-link page, and Stripe going away mid-payment."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.payments.stripe_api import StripeConfig, StripeUnavailable
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.operations import all_tools
from commerce_agent.operations.base import ToolContext, ToolFailure
from commerce_agent.settings import Settings
from tests.support.helpers import (
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    assert_error,
    new_cart,
    payment_header,
)
from tests.support.lifecycle_support import complete, get_order
from tests.support.stripe_support import (
    DECLINED,
    NEEDS_3DS,
    PUBLISHABLE_KEY,
    SECRET_KEY,
    WEBHOOK_SECRET,
    LocalStripe,
    WebhookInbox,
    free_port,
    localstripe,
    sign,
    webhook_inbox,
)

__all__ = ["localstripe", "webhook_inbox"]  # fixtures, found here by pytest

REFUNDS = "dev.commerce.order.refunds"
ALICE = Principal("user_alice", "alice@example.com", "Alice Martin")


@pytest.fixture(autouse=True)
def stripe_keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("STRIPE_SECRET_KEY", SECRET_KEY)
    monkeypatch.setenv("STRIPE_PUBLISHABLE_KEY", PUBLISHABLE_KEY)
    monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET)
    yield
    providers.install(providers.SandboxProvider())  # the next app's default


@pytest.fixture
def settings(db_target: str, localstripe: LocalStripe) -> Settings:
    return Settings(db_path=db_target, base_url="http://test", simulate=False,
                    sqlite_synchronous="NORMAL", payments="stripe",
                    stripe_api_base=localstripe.url)


async def _cart(client: httpx.AsyncClient, headers: dict[str, str], quantity: int = 1
                ) -> dict[str, Any]:
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG, quantity)
    return {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}


async def _offer(client: httpx.AsyncClient, headers: dict[str, str], order: dict[str, Any]
                 ) -> dict[str, Any]:
    response = await client.post("/orders", json=order, headers=headers)
    assert response.status_code == 402, response.text
    [entry] = [e for e in response.json()["accepts"] if e["scheme"] == "fiat_intent"]
    return dict(entry)


def _proof(intent_id: str) -> dict[str, str]:
    return {"X-PAYMENT": payment_header("fiat_intent", "stripe",
                                        {"paymentIntentId": intent_id})}


async def _paid_order(client: httpx.AsyncClient, headers: dict[str, str],
                      localstripe: LocalStripe, quantity: int = 1) -> dict[str, Any]:
    order = await _cart(client, headers, quantity)
    entry = await _offer(client, headers, order)
    localstripe.pay(entry["extra"]["paymentIntentId"])
    placed = await client.post("/orders", json=order,
                               headers={**headers, **_proof(entry["extra"]["paymentIntentId"])})
    assert placed.status_code == 201, placed.text
    return dict(placed.json())


def _reason(response: httpx.Response, status: int, code: str) -> str:
    return str(assert_error(response, status, code)["details"][0]["reason"])


async def _no_orders(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    listed = await client.get("/orders", headers=headers)
    assert listed.json()["orders"] == []


@pytest.mark.both_backends
async def test_a_real_payment_intent_pays_the_order(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    order = await _cart(client, alice, 2)
    entry = await _offer(client, alice, order)
    extra = entry["extra"]
    # two mugs at 18.00 and Standard shipping 8.50: the 402 amount is the order total
    assert entry["network"] == "stripe" and entry["maxAmountRequired"] == "4450"
    assert extra["provider"] == "stripe" and extra["publishableKey"] == PUBLISHABLE_KEY
    intent = localstripe.client().v1.payment_intents.retrieve(extra["paymentIntentId"])
    assert (intent.amount, intent.currency) == (4450, "usd")
    assert intent.client_secret == extra["clientSecret"]
    assert intent.metadata["commerce_agent_owner"] == "user_alice"
    assert extra["inputAction"] == {"type": "link", "href": extra["paymentUrl"],
                                    "method": "GET"}
    # The same unchanged cart offers the same intent: a retried 402 opens no second charge.
    assert (await _offer(client, alice, order))["extra"]["paymentIntentId"] == intent.id

    unpaid = await client.post("/orders", json=order, headers={**alice, **_proof(intent.id)})
    assert _reason(unpaid, 400, "payment_failed") == "not_paid"
    localstripe.pay(intent.id)
    placed = await client.post("/orders", json=order, headers={**alice, **_proof(intent.id)})
    assert placed.status_code == 201, placed.text
    payment = placed.json()["payment"]
    assert payment["network"] == "stripe" and payment["reference"] == intent.id
    assert payment["amount"] == {"amount": "44.50", "currency": "USD"}
    capabilities = {c["id"]: c for c in
                    (await client.get("/capabilities")).json()["capabilities"]}
    [fiat] = capabilities["dev.commerce.payment.x402_fiat@1.0"]["metadata"]["providers"]
    assert (fiat["network"], fiat["publishableKey"]) == ("stripe", PUBLISHABLE_KEY)
    receipt = json.loads(base64.b64decode(placed.headers["X-PAYMENT-RESPONSE"]))
    assert receipt == {"success": True, "transaction": intent.id, "network": "stripe",
                       "payer": "user_alice", "settled": True}


async def test_the_same_proof_never_pays_twice(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    first = await _paid_order(client, alice, localstripe)
    intent_id = first["payment"]["reference"]
    other = await _cart(client, alice)
    await _offer(client, alice, other)
    replay = await client.post("/orders", json=other, headers={**alice, **_proof(intent_id)})
    assert _reason(replay, 400, "payment_failed") == "already_used"
    listed = await client.get("/orders", headers=alice)
    assert [o["id"] for o in listed.json()["orders"]] == [first["id"]]


async def test_another_owner_cannot_spend_the_intent(
        client: httpx.AsyncClient, alice: dict[str, str], bob: dict[str, str],
        localstripe: LocalStripe) -> None:
    order = await _cart(client, alice)
    intent_id = (await _offer(client, alice, order))["extra"]["paymentIntentId"]
    localstripe.pay(intent_id)
    bobs = await _cart(client, bob)
    await _offer(client, bob, bobs)
    stolen = await client.post("/orders", json=bobs, headers={**bob, **_proof(intent_id)})
    assert _reason(stolen, 400, "payment_failed") == "unknown_intent"


async def test_a_declined_card_places_nothing(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    order = await _cart(client, alice)
    intent_id = (await _offer(client, alice, order))["extra"]["paymentIntentId"]
    assert localstripe.pay(intent_id, DECLINED).status == "requires_payment_method"
    declined = await client.post("/orders", json=order, headers={**alice, **_proof(intent_id)})
    assert assert_error(declined, 400, "payment_failed")["details"][0] == {
        "type": "business_logic", "reason": "card_declined", "value": "card_declined"}
    await _no_orders(client, alice)
    cart = await client.get(f"/carts/{order['cartId']}", headers=alice)
    assert cart.json()["status"] != "submitted"
    # Paying again is offered on the same intent (Stripe takes another card on it; localstripe
    # cannot confirm a declined intent again, so that step is Stripe's own).
    assert (await _offer(client, alice, order))["extra"]["paymentIntentId"] == intent_id


async def test_three_d_secure_must_be_finished_before_the_order(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    order = await _cart(client, alice)
    extra = (await _offer(client, alice, order))["extra"]
    assert localstripe.pay(extra["paymentIntentId"], NEEDS_3DS).status == "requires_action"
    pending = await client.post("/orders", json=order,
                                headers={**alice, **_proof(extra["paymentIntentId"])})
    assert _reason(pending, 400, "payment_failed") == "requires_action"
    await _no_orders(client, alice)
    localstripe.authenticate(extra["paymentIntentId"], extra["clientSecret"])
    placed = await client.post("/orders", json=order,
                               headers={**alice, **_proof(extra["paymentIntentId"])})
    assert placed.status_code == 201, placed.text


async def test_a_changed_cart_does_not_take_the_old_payment(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    order = await _cart(client, alice)
    intent_id = (await _offer(client, alice, order))["extra"]["paymentIntentId"]
    localstripe.pay(intent_id)
    await add_item(client, alice, order["cartId"], LIMITED_MUG, 1)
    changed = await client.post("/orders", json=order, headers={**alice, **_proof(intent_id)})
    assert _reason(changed, 400, "payment_failed") == "amount_mismatch"


async def test_cancelling_refunds_through_stripe_once(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    placed = await _paid_order(client, alice, localstripe)
    cancelled = await client.post(f"/orders/{placed['id']}/cancel", json={}, headers=alice)
    assert cancelled.status_code == 200, cancelled.text
    [entry] = cancelled.json()["metadata"][REFUNDS]
    stripe_refunds = localstripe.client().v1.refunds.list(
        {"payment_intent": placed["payment"]["reference"]}).data
    assert [(r.id, r.amount) for r in stripe_refunds] == [(entry["providerRefundId"], 2650)]
    assert entry["amount"] == {"amount": "26.50", "currency": "USD"}
    assert entry["status"] == "succeeded"
    again = await client.post(f"/orders/{placed['id']}/cancel", json={}, headers=alice)
    assert_error(again, 403, "order_already_cancelled")
    assert len(localstripe.client().v1.refunds.list(
        {"payment_intent": placed["payment"]["reference"]}).data) == 1


async def test_a_completed_return_refunds_through_stripe(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        localstripe: LocalStripe) -> None:
    placed = await _paid_order(client, alice, localstripe, quantity=2)
    await complete(app, placed["id"])
    done = await get_order(client, alice, placed["id"])
    created = await client.post("/returns", json={
        "orderId": done["id"], "items": [{"cartItemId": done["items"][0]["id"],
                                          "quantity": 1, "reason": "damaged"}]}, headers=alice)
    assert created.status_code == 201, created.text
    ret = created.json()
    for _ in range(4):  # approved, in_transit, received, processed
        async with app.state.db.transaction() as tx:
            await returns.advance(tx, ret["id"])
    async with app.state.db.transaction() as tx:
        finished = await returns.advance(tx, ret["id"])
    assert finished["status"] == "completed"
    refunded = await get_order(client, alice, placed["id"])
    [entry] = refunded["metadata"][REFUNDS]
    assert finished["refund"]["id"] == entry["id"] and entry["returnId"] == ret["id"]
    stripe_refunds = localstripe.client().v1.refunds.list(
        {"payment_intent": placed["payment"]["reference"]}).data
    assert [(r.id, r.amount) for r in stripe_refunds] == [(entry["providerRefundId"], 1800)]


async def test_late_webhooks_record_success_and_failure(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        localstripe: LocalStripe, webhook_inbox: WebhookInbox) -> None:
    localstripe.send_webhooks_to(webhook_inbox.url)
    order = await _cart(client, alice)
    intent_id = (await _offer(client, alice, order))["extra"]["paymentIntentId"]
    localstripe.pay(intent_id)  # the shopper paid, but their client never came back
    succeeded = webhook_inbox.wait_for("payment_intent.succeeded", intent_id)
    response = await client.post("/payments/stripe/webhook", content=succeeded.body,
                                 headers={"Stripe-Signature": succeeded.signature})
    assert response.status_code == 200, response.text
    assert response.json()["outcome"] == "intent_succeeded"
    again = await client.post("/payments/stripe/webhook", content=succeeded.body,
                              headers={"Stripe-Signature": succeeded.signature})
    assert again.json()["outcome"] == "unchanged"  # a redelivery changes nothing
    async with app.state.db.transaction() as tx:
        row = await tx.fetch_one("SELECT status FROM payment_intents WHERE id = :id",
                                 {"id": intent_id})
    assert row is not None and row["status"] == "succeeded"
    placed = await client.post("/orders", json=order, headers={**alice, **_proof(intent_id)})
    assert placed.status_code == 201, placed.text

    other = await _cart(client, alice)
    failing = (await _offer(client, alice, other))["extra"]
    localstripe.pay(failing["paymentIntentId"], NEEDS_3DS)
    localstripe.authenticate(failing["paymentIntentId"], failing["clientSecret"], False)
    localstripe.pay(failing["paymentIntentId"], DECLINED)
    failed = webhook_inbox.wait_for("payment_intent.payment_failed", failing["paymentIntentId"])
    response = await client.post("/payments/stripe/webhook", content=failed.body,
                                 headers={"Stripe-Signature": failed.signature})
    assert response.json()["outcome"] == "intent_failed"


async def test_webhook_signatures_are_checked(
        client: httpx.AsyncClient, localstripe: LocalStripe) -> None:
    body = json.dumps({"id": "evt_1", "object": "event", "type": "payment_intent.succeeded",
                       "data": {"object": {"id": "pi_x", "object": "payment_intent"}}}).encode()
    for signature in ("", "t=1,v1=00", sign(body, "whsec_someone_else"),
                      sign(body + b" ")):
        response = await client.post("/payments/stripe/webhook", content=body,
                                     headers={"Stripe-Signature": signature})
        assert_error(response, 400, "webhook_signature_invalid")
    ok = await client.post("/payments/stripe/webhook", content=body,
                           headers={"Stripe-Signature": sign(body)})
    assert ok.status_code == 200 and ok.json()["outcome"] == "ignored"  # not our intent


async def test_refunds_made_at_stripe_are_mirrored_on_the_order(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    placed = await _paid_order(client, alice, localstripe)
    intent_id = placed["payment"]["reference"]
    refund = localstripe.client().v1.refunds.create({"payment_intent": intent_id,
                                                     "amount": 500})
    # localstripe sends no refund events: this one is made and signed as Stripe would.
    body = json.dumps({"id": "evt_refund", "object": "event", "type": "charge.refunded",
                       "data": {"object": {"id": "ch_x", "object": "charge",
                                           "payment_intent": intent_id}}}).encode()
    for _ in range(2):
        response = await client.post("/payments/stripe/webhook", content=body,
                                     headers={"Stripe-Signature": sign(body)})
        assert response.json()["outcome"] == "refunds_mirrored"
    shown = await get_order(client, alice, placed["id"])
    [entry] = shown["metadata"][REFUNDS]
    assert entry["providerRefundId"] == refund.id
    assert entry["amount"] == {"amount": "5.00", "currency": "USD"}


def _unreachable() -> providers.StripeProvider:
    """Stripe as seen while it is down: nothing listens at its address."""
    return providers.StripeProvider(StripeConfig(
        PUBLISHABLE_KEY, f"http://127.0.0.1:{free_port()}", SECRET_KEY, WEBHOOK_SECRET))


async def test_stripe_going_away_mid_payment_loses_nothing_and_charges_once(
        client: httpx.AsyncClient, alice: dict[str, str], localstripe: LocalStripe) -> None:
    order = await _cart(client, alice)
    intent_id = (await _offer(client, alice, order))["extra"]["paymentIntentId"]
    localstripe.pay(intent_id)
    working = providers.active()
    providers.install(unreachable := _unreachable())
    down = await client.post("/orders", json=order, headers={**alice, **_proof(intent_id)})
    body = assert_error(down, 503, "payment_provider_unavailable")
    assert down.headers["Retry-After"] == "5" and body["status"] == 503
    await _no_orders(client, alice)
    providers.install(working)
    await unreachable.close()
    placed = await client.post("/orders", json=order, headers={**alice, **_proof(intent_id)})
    assert placed.status_code == 201, placed.text

    providers.install(unreachable := _unreachable())
    order_id = placed.json()["id"]
    cancel = await client.post(f"/orders/{order_id}/cancel", json={}, headers=alice)
    assert_error(cancel, 503, "payment_provider_unavailable")
    assert (await get_order(client, alice, order_id))["status"] == "confirmed"
    providers.install(working)
    await unreachable.close()
    for _ in range(2):
        await client.post(f"/orders/{order_id}/cancel", json={}, headers=alice)
    assert (await get_order(client, alice, order_id))["status"] == "cancelled"
    assert len(localstripe.client().v1.refunds.list({"payment_intent": intent_id}).data) == 1


async def test_the_payment_link_page(client: httpx.AsyncClient, alice: dict[str, str],
                                     localstripe: LocalStripe) -> None:
    extra = (await _offer(client, alice, await _cart(client, alice)))["extra"]
    link = httpx.URL(extra["paymentUrl"])
    assert link.path == f"/shop/pay/{extra['paymentIntentId']}"
    page = await client.get(link.path, params={"secret": extra["clientSecret"],
                                               "return": "https://evil.example/"})
    assert page.status_code == 200, page.text
    assert PUBLISHABLE_KEY in page.text and extra["clientSecret"] in page.text
    assert 'data-return="/shop/cart"' in page.text  # never another site
    assert "https://js.stripe.com" in page.headers["content-security-policy"]
    wrong = await client.get(link.path, params={"secret": "pi_x_secret_wrong"},
                             headers={"Accept": "application/json"})
    assert wrong.status_code == 404


def test_keys_come_only_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STRIPE_SECRET_KEY")
    with pytest.raises(StripeUnavailable, match="STRIPE_SECRET_KEY"):
        providers.build("stripe", __import__("os").environ)
    config = StripeConfig.from_environment({"STRIPE_SECRET_KEY": SECRET_KEY,
                                            "STRIPE_PUBLISHABLE_KEY": PUBLISHABLE_KEY,
                                            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET})
    assert SECRET_KEY not in repr(config) and WEBHOOK_SECRET not in repr(config)
    assert msgspec.json.encode(Settings(payments="stripe")).find(b"sk_") == -1


async def test_the_agent_hands_the_shopper_a_payment_link(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        localstripe: LocalStripe) -> None:
    order = await _cart(client, alice)
    place = next(tool for tool in all_tools() if tool.short_name == "place_order")
    args = {"cartId": order["cartId"], "deliveryAddress": US_ADDRESS}
    state = app.state

    def context(key: str) -> ToolContext:
        return ToolContext(state.db, state.settings, state.pay_to, ALICE, key)

    with pytest.raises(ToolFailure) as failure:
        await place.run(context("turn-1"), args)
    assert failure.value.code == "payment_needs_shopper"
    link = failure.value.details["paymentUrl"]
    assert link in failure.value.message and "/shop/pay/pi_" in link
    await _no_orders(client, alice)
    localstripe.pay(failure.value.details["paymentIntentId"])  # the shopper, on the page
    placed = await place.run(context("turn-2"), args)
    assert placed["status"] == "confirmed"
    assert placed["payment"]["reference"] == failure.value.details["paymentIntentId"]
