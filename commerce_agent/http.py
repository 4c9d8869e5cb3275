"""Request decoding and response encoding shared by every Commerce API route."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request

from commerce_agent import json_input
from commerce_agent.digits import whole_number
from commerce_agent.errors import CommerceError, validation_error

# Re-exported: routes take their response helpers from here with the request helpers.
from commerce_agent.responses import MEDIA_TYPE as MEDIA_TYPE
from commerce_agent.responses import EncodedResponse as EncodedResponse
from commerce_agent.responses import encoder as encoder
from commerce_agent.responses import json_response as json_response

_ACCEPTED_BODY_TYPES = ("application/commerce+json", "application/json")

T = TypeVar("T")

_PATH_RE = re.compile(r" - at `\$(.*)`$")


def header(request: Request, name: bytes) -> str | None:
    """The first value of request header `name` (lower case, as ASGI gives names): cheaper
    than building Starlette's Headers for the one or two a route reads."""
    for key, value in request.scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _pointer(msgspec_path: str) -> str:
    # msgspec reports `$.items[0].quantity`; clients get the JSON pointer /items/0/quantity.
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", msgspec_path)
    return "/" + "/".join(name or index for name, index in parts) if parts else ""


def reason_of(message: str) -> str:
    r"""A msgspec message as a detail's reason: "Expected `int`, got `str`." becomes "expected
    `int`, got `str`". Only the first letter changes: the rest may quote a value or a pattern
    (`\S` is not `\s`)."""
    reason = message.rstrip(".")
    return reason[:1].lower() + reason[1:]


def _too_large(limit: int) -> Exception:
    return CommerceError(413, "payload_too_large", f"Request body exceeds {limit} bytes.",
                         params={"limit": limit})


async def read_body(request: Request) -> bytes:
    """The raw body, refused with 413 past the size limit and 415 for non-JSON types.

    Read straight from `receive`, once per request (kept in the scope's state), and the two
    headers it needs straight from the scope: every write reads its body, and Starlette's
    Headers and stream() cost more than the read. Never holds more than `limit` bytes: a
    declared length past it is refused unread, a chunked body as soon as it passes it, and
    body_limit.DrainUnreadBody reads the rest and throws it away before the 413 goes out."""
    state = request.scope.setdefault("state", {})  # what request.state reads and writes
    cached: bytes | None = state.get("raw_body")
    if cached is not None:
        return cached
    limit: int = request.app.state.settings.max_body_bytes
    declared = content_type = b""
    for name, value in request.scope["headers"]:
        if name == b"content-length":
            declared = value
        elif name == b"content-type":
            content_type = value
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    receive = request.receive
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    state["raw_body"] = body
    if body and content_type.split(b";")[0].strip().lower().decode("latin-1") \
            not in _ACCEPTED_BODY_TYPES:
        raise CommerceError(415, "unsupported_media_type",
                            f"Send JSON bodies as {MEDIA_TYPE} or application/json.")
    return body


async def decode_body(request: Request, decoder: msgspec.json.Decoder[T]) -> T:
    """Decode the request body into a typed struct, turning every failure into a 400: the
    rules of every JSON body first (json_input: UTF-8, no duplicate key, no U+0000, bounded
    depth), then the route's schema."""
    body = await read_body(request)
    if not body.strip():
        raise _refusal(None)
    try:
        json_input.check(body)
    except json_input.MalformedJson as exc:
        raise _refusal(exc) from None
    try:
        return decoder.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:  # ValidationError is a DecodeError
        failure: Exception = exc
        if isinstance(exc, msgspec.ValidationError) and "got `float`" in str(exc):
            try:
                return _with_whole_numbers(body, decoder)
            except (msgspec.DecodeError, RecursionError) as again:
                failure = again
    raise _refusal(failure) from None


def convert(value: Any, kind: type[T]) -> T:
    """`value` (built from a form's fields) as the struct `kind`, every failure a 400 naming
    the field, as for a JSON body."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as exc:
        raise _refusal(exc) from None


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole(item) for item in value]
    return value


def _with_whole_numbers(body: bytes, decoder: msgspec.json.Decoder[T]) -> T:
    """JSON has one number type: `4.0` is the integer 4 (JSON Schema says so too), which
    msgspec's typed decoding refuses. Only a body refused for a float where an int belongs
    comes here, so the common path pays nothing."""
    decoded: T = msgspec.convert(_whole(msgspec.json.decode(body)), decoder.type)
    return decoded


def _refusal(failure: Exception | None) -> Exception:
    """The 400 for a body that is empty (None), malformed, invalid or nested too deeply."""

    if failure is None:
        return CommerceError(400, "bad_request", "A JSON request body is required.",
                             details=[{"type": "validation", "field": "",
                                       "reason": "body is empty"}])
    if isinstance(failure, msgspec.ValidationError):
        text = str(failure)
        match = _PATH_RE.search(text)
        field = _pointer(match.group(1)) if match else ""
        reason = text[: match.start()] if match else text
        if "Object contains unknown field" in reason:
            return_field = field + "/" + reason.split("`")[1] if "`" in reason else field
            return validation_error(return_field, "is not a known field")
        return validation_error(field or "/", reason_of(reason))
    if isinstance(failure, json_input.MalformedJson):
        return CommerceError(400, "bad_request", failure.message,
                             details=[{"type": "validation", "field": "",
                                       "reason": failure.reason}])
    if isinstance(failure, RecursionError):  # msgspec's guard against absurd nesting
        return CommerceError(400, "bad_request", "The JSON body is nested too deeply.",
                             details=[{"type": "validation", "field": "",
                                       "reason": "nested too deeply"}])
    return CommerceError(400, "bad_request", f"Malformed JSON: {failure}",
                         details=[{"type": "validation", "field": "",
                                   "reason": "malformed JSON"}])


def query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    value = whole_number(raw)
    if value is None or not low <= value <= high:
        raise validation_error(name, f"must be an integer from {low} to {high}", raw)
    return value


def request_locale(request: Request) -> str | None:
    """The locale negotiated for this request (set by the i18n middleware), if any."""
    locale: str | None = getattr(request.state, "locale", None)
    return locale
