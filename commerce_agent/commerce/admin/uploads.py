"""A file sent as the request body (catalog import, image upload): its media type checked
(415), its size capped while it streams in (413), a cut-off upload refused (400)."""

from __future__ import annotations

from collections.abc import Collection

from starlette.requests import ClientDisconnect, Request

from commerce_agent.digits import whole_number
from commerce_agent.errors import CommerceError, validation_error


async def read_upload(request: Request, media_types: Collection[str], limit: int, *,
                      wrong_type: str, what: str) -> tuple[str, bytes]:
    """(media type, bytes) of the body; `wrong_type` says what to send instead, `what` names
    the file in the size and emptiness messages."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media not in media_types:
        raise CommerceError(415, "unsupported_media_type", wrong_type)
    too_large = CommerceError(413, "payload_too_large", f"The {what} exceeds {limit} bytes.",
                              params={"limit": limit})
    declared = request.headers.get("content-length", "")
    if (whole_number(declared) or 0) > limit:
        raise too_large
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        raise CommerceError(400, "bad_request", "The upload was cut off.") from None
    if not size:
        raise validation_error("body", f"must be the {what} (it is empty)")
    return media, b"".join(chunks)
