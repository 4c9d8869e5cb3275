"""Images merchants uploaded (commerce/admin/image_routes.py keeps them in the database), served
at `GET /images/{id}` to every process and host."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.storage import images as storage
from commerce_agent.errors import not_found
from commerce_agent.routing import Route


async def get_image(request: Request) -> Response:
    """An uploaded image, as stored (it never changes: cached for a year)."""
    image_id = request.path_params["image_id"]
    row = await storage.get_image(request.app.state.db, image_id)
    if row is None:
        raise not_found("image", image_id)
    return Response(bytes(row["data"]), media_type=str(row["media_type"]), headers={
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'"})


routes = [Route("/images/{image_id}", get_image, methods=["GET"])]
