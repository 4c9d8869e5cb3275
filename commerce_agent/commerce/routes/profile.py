"""The signed-in user's profile (dev.commerce.user.profile@1.0): read it, change it."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.principal import require_principal, writer_principal
from commerce_agent.commerce.services import profile as service
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.http import decode_body, json_response
from commerce_agent.routing import Route

_patch = msgspec.json.Decoder(service.ProfilePatch)


async def get_profile(request: Request) -> Response:
    """The caller's own profile: saved addresses, billing address, preferences, consent."""
    principal = await require_principal(request)
    return json_response(await service.get_profile(request.app.state.db, principal.user_id))


async def patch_profile(request: Request) -> Response:
    """Change the caller's profile: fields sent replace, `null` clears, others stay."""
    principal = await writer_principal(request)
    body = await decode_body(request, _patch)
    service.check(body)

    async def work(tx: Transaction) -> Response:
        return json_response(await service.update_profile(tx, principal.user_id, body))

    return await write(request, principal, work)


routes = [
    Route("/user/profile", get_profile, methods=["GET"]),
    Route("/user/profile", patch_profile, methods=["PATCH"]),
]
