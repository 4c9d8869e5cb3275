"""Return routes: start a return (POST /returns) and follow it (GET /returns/{id})."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.principal import require_principal, writer_principal
from commerce_agent.commerce.services.returns import handling as service
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.http import decode_body, json_response
from commerce_agent.routing import Route

Identifier = Annotated[str, Meta(min_length=1, max_length=100)]
Reason = Literal["wrong_item", "defective", "damaged", "wrong_size", "wrong_color",
                 "not_as_described", "changed_mind", "quality_issue", "other"]


class ReturnItem(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    cartItemId: Identifier
    quantity: Annotated[int, Meta(ge=1, le=999)]
    reason: Reason | None = None
    comment: Annotated[str, Meta(max_length=500)] | None = None


class ReturnRequest(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    orderId: Identifier
    items: Annotated[list[ReturnItem], Meta(min_length=1, max_length=100)]
    reason: Annotated[str, Meta(max_length=500)] | None = None
    preferredResolution: Literal["refund", "exchange", "store_credit"] | None = None
    returnMethod: Literal["ship", "in_store", "pickup"] | None = None


_create = msgspec.json.Decoder(ReturnRequest)


async def create_return(request: Request) -> Response:
    principal = await writer_principal(request)
    body = msgspec.to_builtins(await decode_body(request, _create))

    async def work(tx: Transaction) -> Response:
        ret = await service.create(tx, principal.user_id, body)
        return json_response(ret, status=201, headers={"Location": f"/returns/{ret['id']}"})

    return await write(request, principal, work)


async def get_return(request: Request) -> Response:
    principal = await require_principal(request)
    ret = await service.get(request.app.state.db, principal.user_id,
                            request.path_params["return_id"])
    return json_response(ret)


routes = [
    Route("/returns", create_return, methods=["POST"]),
    Route("/returns/{return_id}", get_return, methods=["GET"]),
]
