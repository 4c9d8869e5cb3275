"""Request decoding and response encoding shared by every Commerce API route."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

MEDIA_TYPE = "application/commerce+json; version=1.0"
_ACCEPTED_BODY_TYPES = ("application/commerce+json", "application/json")

encoder = msgspec.json.Encoder()
T = TypeVar("T")

_PATH_RE = re.compile(r" - at `\$(.*)`$")


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None,
                  media_type: str = MEDIA_TYPE) -> Response:
    return Response(encoder.encode(body), status_code=status, headers=headers,
                    media_type=media_type)


def _pointer(msgspec_path: str) -> str:
    # msgspec reports `$.items[0].quantity`; clients get the JSON pointer /items/0/quantity.
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", msgspec_path)
    return "/" + "/".join(name or index for name, index in parts) if parts else ""


async def read_body(request: Request) -> bytes:
    """The raw body, refused with 413 past the size limit and 415 for non-JSON types."""
    from commerce_agent.errors import CommerceError

    state = request.scope.setdefault("state", {})  # what request.state reads and writes
    cached: bytes | None = state.get("raw_body")
    if cached is not None:
        return cached
    limit: int = request.app.state.settings.max_body_bytes
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise CommerceError(413, "payload_too_large", f"Request body exceeds {limit} bytes.",
                            params={"limit": limit})
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise CommerceError(413, "payload_too_large", f"Request body exceeds {limit} bytes.",
                                params={"limit": limit})
        chunks.append(chunk)
    body = b"".join(chunks)
    state["raw_body"] = body
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if body and content_type not in _ACCEPTED_BODY_TYPES:
        raise CommerceError(415, "unsupported_media_type",
                            f"Send JSON bodies as {MEDIA_TYPE} or application/json.")
    return body


async def decode_body(request: Request, decoder: msgspec.json.Decoder[T]) -> T:
    """Decode the request body into a typed struct, turning every failure into a 400."""
    from commerce_agent.errors import CommerceError, validation_error

    body = await read_body(request)
    if not body.strip():
        raise CommerceError(400, "bad_request", "A JSON request body is required.",
                            details=[{"type": "validation", "field": "",
                                      "reason": "body is empty"}])
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        text = str(exc)
        match = _PATH_RE.search(text)
        field = _pointer(match.group(1)) if match else ""
        reason = text[: match.start()] if match else text
        if "Object contains unknown field" in reason:
            return_field = field + "/" + reason.split("`")[1] if "`" in reason else field
            raise validation_error(return_field, "is not a known field") from None
        raise validation_error(field or "/", reason.rstrip(".").lower()) from None
    except msgspec.DecodeError as exc:
        raise CommerceError(400, "bad_request", f"Malformed JSON: {exc}",
                            details=[{"type": "validation", "field": "",
                                      "reason": "malformed JSON"}]) from None
    except RecursionError:  # msgspec's guard against a stack overflow on absurd nesting
        raise CommerceError(400, "bad_request", "The JSON body is nested too deeply.",
                            details=[{"type": "validation", "field": "",
                                      "reason": "nested too deeply"}]) from None


def query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    from commerce_agent.errors import validation_error

    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise validation_error(name, f"must be an integer from {low} to {high}", raw)
    return int(raw)


def request_locale(request: Request) -> str | None:
    """The locale negotiated for this request (set by the i18n middleware), if any."""
    locale: str | None = getattr(request.state, "locale", None)
    return locale
