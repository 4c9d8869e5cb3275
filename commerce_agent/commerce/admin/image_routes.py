"""Images a merchant uploads (the console's item form): `POST /admin/stores/{id}/images` takes
the image itself as the body, checks its type by its first bytes (PNG, JPEG, GIF, WebP; never
SVG, which can carry scripts) and its size, and keeps it in the database, so every process
and host serves it at `GET /images/{id}` (the URL an item's image gallery then links to)."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal
from commerce_agent.commerce.admin.uploads import read_upload
from commerce_agent.commerce.shop import images
from commerce_agent.errors import validation_error
from commerce_agent.http import json_response
from commerce_agent.routing import Route

MAX_IMAGE_BYTES = images.MAX_IMAGE_BYTES
SIGNATURES = images.SIGNATURES
media_of = images.media_of


class UploadedImage(msgspec.Struct):
    """A stored image: link to it by `url`."""

    id: str
    url: str
    mediaType: str
    size: int


async def _read_image(request: Request) -> tuple[str, bytes]:
    media, data = await read_upload(request, SIGNATURES, MAX_IMAGE_BYTES,
                                    wrong_type="Send a PNG, JPEG, GIF or WebP image as the body.",
                                    what="image")
    if media_of(data) != media:
        raise validation_error("body", f"is not a {media.removeprefix('image/').upper()} "
                               "image (its content says otherwise)")
    return media, data


async def upload_image(request: Request) -> Response:
    """Store an image for the merchant's store; answers its id and URL."""
    principal = await merchant_principal(request)
    db, store_id = request.app.state.db, request.path_params["store_id"]
    await access.own_store(db, principal, store_id)
    media, data = await _read_image(request)
    async with db.transaction() as tx:
        image_id = await images.store_image(tx, store_id, media, data)
    return json_response(UploadedImage(image_id, f"/images/{image_id}", media, len(data)),
                         status=201, headers={"Location": f"/images/{image_id}"})


routes = [Route("/admin/stores/{store_id}/images", upload_image, methods=["POST"])]
