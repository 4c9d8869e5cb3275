"""The card providers' endpoints: the sandbox's confirm (advertised in the 402 as
`extra.confirmUrl`) and Stripe's webhook.

Like a provider's client-side confirm, the sandbox confirm takes no bearer token: the client
secret from the 402 is the credential. The webhook takes none either: its Stripe-Signature is.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.orders import provider_events
from commerce_agent.commerce.payments import providers, sandbox
from commerce_agent.errors import CommerceError
from commerce_agent.http import decode_body, header, json_response
from commerce_agent.routing import Route


class ConfirmIntentRequest(msgspec.Struct, forbid_unknown_fields=True):
    clientSecret: Annotated[str, Meta(min_length=1, max_length=200)]
    # Card number, digits with optional spaces (test cards only).
    card: Annotated[str, Meta(pattern=r"^[0-9 ]{12,24}$")]


class ConfirmedIntent(msgspec.Struct):
    paymentIntentId: str
    status: str


_confirm = msgspec.json.Decoder(ConfirmIntentRequest)


async def confirm_intent(request: Request) -> Response:
    """Confirm a sandbox payment intent with a test card."""
    body = await decode_body(request, _confirm)
    intent_id = request.path_params["intent_id"]
    async with request.app.state.db.transaction() as tx:
        confirmed = await sandbox.confirm_intent(tx, intent_id, body.clientSecret,
                                                 body.card.replace(" ", ""))
    return json_response(ConfirmedIntent(confirmed, "succeeded"))


async def stripe_webhook(request: Request) -> Response:
    """An event from Stripe: its signature checked with the endpoint's secret, then applied."""
    provider = providers.active()
    if not isinstance(provider, providers.StripeProvider):
        raise CommerceError(404, "not_found", "Stripe is not this server's payment provider.")
    payload = await request.body()
    try:
        event = provider.gateway.event(payload, header(request, b"stripe-signature") or "")
    except ValueError:
        raise CommerceError(400, "webhook_signature_invalid",
                            "The Stripe-Signature header does not sign this payload with "
                            "this endpoint's secret.") from None
    async with request.app.state.db.transaction() as tx:
        outcome = await provider_events.handle(tx, event)
    return json_response({"received": True, "outcome": outcome})


routes = [
    Route("/payments/sandbox/intents/{intent_id}/confirm", confirm_intent, methods=["POST"]),
    Route("/payments/stripe/webhook", stripe_webhook, methods=["POST"]),
]
