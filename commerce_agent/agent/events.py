"""Stream events: the envelope, its NDJSON encoding, and constructors for each event type."""

from __future__ import annotations

from typing import Any

import msgspec

STREAM_FORMAT = "ndjson"
STREAM_VERSION = "16"
STREAM_CONTENT_TYPE = "application/x-ndjson; charset=utf-8"

# Events after which a session is idle: a stream that is not following ends on one of these.
BOUNDARIES = frozenset({"session.waiting", "input.requested", "authorization.required",
                        "session.failed"})
EVENT_TYPES = frozenset({
    "session.started", "session.waiting", "session.failed", "agent.start",
    "agent.content.delta", "message.appended", "message.completed", "agent.tool_call",
    "agent.tool_result", "agent.complete", "result.completed", "input.requested",
    "input.resolved", "authorization.required", "authorization.granted",
})


class Event(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One journal entry; `streamIndex` is assigned when the event is committed."""

    type: str
    data: dict[str, Any] | None = None
    streamIndex: int = -1


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def encode_line(event: Event) -> bytes:
    return _encoder.encode(event) + b"\n"


def decode_line(line: bytes) -> Event:
    return _decoder.decode(line)


def event(kind: str, data: dict[str, Any] | None = None) -> Event:
    assert kind in EVENT_TYPES, kind
    return Event(type=kind, data=data)


def session_failed(session_id: str, error: str) -> Event:
    return event("session.failed", {"sessionId": session_id, "error": error})


def delta(text: str) -> Event:
    return event("agent.content.delta", {"text": text})
