"""JSON responses in the Commerce API's media type (below `errors` and `http`, which use them)."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.responses import Response

MEDIA_TYPE = "application/commerce+json; version=1.0"

encoder = msgspec.json.Encoder()
_CONTENT_TYPE = (b"content-type", MEDIA_TYPE.encode("latin-1"))


class EncodedResponse(Response):
    """A Response for a body already encoded. Without extra headers, in the Commerce API's
    media type, its two headers are set directly: Starlette's init_headers looks through
    the headers and the media type for every response, and most answers have neither."""

    def __init__(self, body: bytes, status: int, headers: dict[str, str] | None,
                 media_type: str) -> None:
        if headers or media_type != MEDIA_TYPE or status < 200 or status in (204, 304):
            super().__init__(body, status_code=status, headers=headers, media_type=media_type)
            return
        self.status_code = status
        self.media_type = media_type
        self.background = None
        self.body = body
        self.raw_headers = [(b"content-length", str(len(body)).encode("latin-1")),
                            _CONTENT_TYPE]


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None,
                  media_type: str = MEDIA_TYPE) -> Response:
    return EncodedResponse(encoder.encode(body), status, headers, media_type)
