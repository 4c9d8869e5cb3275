"""What an owner can do to an order after buying: cancel, rate, tip, manage the subscription,
download digital goods. Each route is the target of one action of order_view.actions()."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.principal import require_principal, writer_principal
from commerce_agent.commerce.orders import cancellation, feedback, lifecycle, rules, subscriptions
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.services.fulfillment import digital
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, json_response, read_body
from commerce_agent.routing import Route
from commerce_agent.struct_rules import Rule, Ruled, at_least_one, exactly_one

Stars = Annotated[int, Meta(ge=1, le=5)]


class CancelRequest(msgspec.Struct, forbid_unknown_fields=True):
    reason: Annotated[str, Meta(max_length=500)] | None = None


_STARS = ("overall", "food", "delivery", "restaurant", "packaging")


class RatingRequest(Ruled, forbid_unknown_fields=True, omit_defaults=True):
    """Upstream RatingRequest (food, delivery, restaurant, comment) plus the rating_request
    action schema's overall, packaging and wouldRecommend."""

    rules = (Rule(at_least_one(*_STARS), lambda: validation_error(
        "/overall", "at least one rating (overall, food, delivery, restaurant, packaging) is "
                    "required")),)

    overall: Stars | None = None
    food: Stars | None = None
    delivery: Stars | None = None
    restaurant: Stars | None = None
    packaging: Stars | None = None
    comment: Annotated[str, Meta(max_length=1000)] | None = None
    wouldRecommend: bool | None = None


class Money(msgspec.Struct, forbid_unknown_fields=True):
    amount: Annotated[str, Meta(pattern=r"^[0-9]+(\.[0-9]{1,2})?$", max_length=20)]
    currency: Annotated[str, Meta(pattern="^[A-Z]{3}$")]


class TipRequest(Ruled, forbid_unknown_fields=True):
    """Upstream tip_request: a fixed amount or a percentage of the order total."""

    rules = (Rule(exactly_one("amount", "percentage"), lambda: validation_error(
        "/amount", "give exactly one of amount and percentage")),)

    amount: Money | None = None
    percentage: Annotated[float, Meta(gt=0, le=100)] | None = None
    recipient: Literal["driver", "restaurant", "split"] | None = None
    message: Annotated[str, Meta(max_length=200)] | None = None


_cancel = msgspec.json.Decoder(CancelRequest)
_rating = msgspec.json.Decoder(RatingRequest)
_tip = msgspec.json.Decoder(TipRequest)


async def cancel_order(request: Request) -> Response:
    principal = await writer_principal(request)
    body = await decode_body(request, _cancel) if (await read_body(request)).strip() \
        else CancelRequest()
    order_id = request.path_params["order_id"]

    async def work(tx: Transaction) -> Response:
        doc = await cancellation.cancel(tx, order_id, owner_id=principal.user_id,
                                        reason=body.reason)
        return json_response(order_view.render(doc))

    return await write(request, principal, work)


async def rate_order(request: Request) -> Response:
    principal = await writer_principal(request)
    body = await decode_body(request, _rating)
    rating: dict[str, Any] = msgspec.to_builtins(body)

    async def work(tx: Transaction) -> Response:
        doc = await feedback.rate(tx, principal.user_id, request.path_params["order_id"],
                                  rating)
        return json_response(order_view.render(doc), status=201)

    return await write(request, principal, work)


async def tip_order(request: Request) -> Response:
    principal = await writer_principal(request)
    body = await decode_body(request, _tip)
    amount = msgspec.to_builtins(body.amount) if body.amount is not None else None

    async def work(tx: Transaction) -> Response:
        doc = await feedback.tip(tx, principal.user_id, request.path_params["order_id"],
                                 amount, body.percentage, body.recipient, body.message)
        return json_response(order_view.render(doc), status=201)

    return await write(request, principal, work)


async def subscription_action(request: Request) -> Response:
    principal = await writer_principal(request)
    action = request.path_params["action"]
    if action not in rules.SUBSCRIPTION_ACTIONS:
        raise not_found("action", action)

    async def work(tx: Transaction) -> Response:
        doc = await subscriptions.change(tx, principal.user_id, request.path_params["order_id"],
                                         action)
        return json_response(order_view.render(doc))

    return await write(request, principal, work)


async def download(request: Request) -> Response:
    principal = await require_principal(request)
    _, doc = await lifecycle.load(request.app.state.db, request.path_params["order_id"],
                                  principal.user_id)
    name, content = digital.download(doc, request.path_params["asset_id"], principal.email)
    return Response(content, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Cache-Control": "private, no-store"})


routes = [
    Route("/orders/{order_id}/cancel", cancel_order, methods=["POST"]),
    Route("/orders/{order_id}/ratings", rate_order, methods=["POST"]),
    Route("/orders/{order_id}/tips", tip_order, methods=["POST"]),
    Route("/orders/{order_id}/subscription/{action}", subscription_action, methods=["POST"]),
    Route("/orders/{order_id}/downloads/{asset_id}", download, methods=["GET"]),
]
