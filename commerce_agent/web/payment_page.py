"""GET /payments/stripe/pay/{intent_id}?secret=…: the small page a shopper pays a Stripe
payment intent on, with Stripe's own card form (Stripe.js, loaded from Stripe).

The web checkout sends the shopper here, and the agent and MCP hand this link over, since
they cannot type a card. The client secret in the link is the credential (as in Stripe's own
redirects): a wrong one answers the same 404 as an unknown intent.
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.pages import safe_next
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.errors import CommerceError
from commerce_agent.web import paths, templates

# Stripe.js comes from Stripe and talks to Stripe; everything else stays on this server.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self' https://js.stripe.com; style-src 'self'; "
    "img-src 'self' data: https://*.stripe.com; connect-src 'self' https://api.stripe.com; "
    "frame-src https://js.stripe.com https://hooks.stripe.com; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'")


def _return_path(value: str | None) -> str:
    """Where to go once paid: a path on this server only (never another site), by the rule
    the sign-in's `next` follows (no control character: browsers drop tabs and line breaks,
    so "/\t/evil.example" would be "//evil.example"), and at most 500 characters."""
    kept = safe_next(value) if value and len(value) <= 500 else None
    return kept or paths.CART


async def pay_page(request: Request) -> Response:
    provider = providers.active()
    intent_id = request.path_params["intent_id"]
    secret = request.query_params.get("secret", "")
    row = (await storage.intent(request.app.state.db, intent_id)
           if isinstance(provider, providers.StripeProvider) else None)
    if row is None or row["provider"] != "stripe" or not hmac.compare_digest(
            row["client_secret_hash"], hashlib.sha256(secret.encode()).hexdigest()):
        raise CommerceError(404, "payment_intent_not_found",
                            f"No payment intent {intent_id!r} with this client secret.",
                            params={"id": intent_id})
    assert isinstance(provider, providers.StripeProvider)
    response = templates.render(
        "pay.html", intent_id=intent_id, client_secret=secret,
        publishable_key=provider.publishable_key, amount=row["amount"],
        currency=row["currency"], paid=row["status"] in ("succeeded", "consumed"),
        return_path=_return_path(request.query_params.get("return")))
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response
