"""Images a merchant uploads for items: the type checked by the first bytes (PNG, JPEG, GIF,
WebP; never SVG, which can carry scripts), the size capped, kept in the database so every
process and host serves them at /images/{id}. The admin API and the console's item form
both store them here."""

from __future__ import annotations

from commerce_agent import clock
from commerce_agent.commerce.storage import images as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.ids import new_id

MAX_IMAGE_BYTES = 2 * 1024 * 1024
# media type → how its files start
SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}


def media_of(data: bytes) -> str | None:
    """The image type `data` is, by its first bytes, or None."""
    for media, starts in SIGNATURES.items():
        if data.startswith(starts) and (media != "image/webp" or data[8:12] == b"WEBP"):
            return media
    return None


def check(media: str, data: bytes, field: str = "body") -> None:
    """Refuse what is not an image of the declared type (400/415) or too large (413)."""
    if media not in SIGNATURES:
        raise CommerceError(415, "unsupported_media_type",
                            "Send a PNG, JPEG, GIF or WebP image.",
                            details=[{"type": "validation", "field": field,
                                      "reason": "must be a PNG, JPEG, GIF or WebP image"}])
    if len(data) > MAX_IMAGE_BYTES:
        raise CommerceError(413, "payload_too_large",
                            f"The image exceeds {MAX_IMAGE_BYTES} bytes.",
                            details=[{"type": "validation", "field": field,
                                      "reason": "is larger than 2 MiB"}],
                            params={"limit": MAX_IMAGE_BYTES})
    if not data:
        raise validation_error(field, "must be the image (it is empty)")
    if media_of(data) != media:
        raise validation_error(field, f"is not a {media.removeprefix('image/').upper()} "
                               "image (its content says otherwise)")


async def store_image(tx: Transaction, store_id: str, media: str, data: bytes) -> str:
    """Keep the image for the store; its id."""
    image_id = new_id("img")
    await storage.insert_image(tx, image_id, store_id, media, data, clock.now_iso())
    return image_id
