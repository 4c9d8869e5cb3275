"""The sandbox card provider's confirm endpoint, advertised in the 402 as `extra.confirmUrl`.

Like a provider's client-side confirm, it takes no bearer token: the client secret from the 402
is the credential.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.payments import sandbox
from commerce_agent.http import decode_body, json_response
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


routes = [
    Route("/payments/sandbox/intents/{intent_id}/confirm", confirm_intent, methods=["POST"]),
]
