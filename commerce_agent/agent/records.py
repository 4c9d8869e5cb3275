"""The session record: everything about a session that is not an event, kept by its journal.

Every change to a record goes through `Journal.commit`, a compare-and-set on `version` that
appends the change's events in the same atomic step, so the record and the journal never
disagree, even with several server processes on one SQLite file or one Redis.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Status = Literal["running", "idle", "input", "authorization", "failed"]


class PendingInput(msgspec.Struct, kw_only=True):
    """An open `input.requested`: the tool call it guards and the options it accepts."""

    tool_call_id: str
    options: list[str]
    # The approval prompt's digest: the call runs only while the prompt still reads the same.
    digest: str = ""


class PendingAuthorization(msgspec.Struct, kw_only=True):
    connection: str
    tool_call_id: str
    secret_hash: str


class SessionRecord(msgspec.Struct, kw_only=True):
    id: str
    token_hash: str
    created_at: str
    agent: str
    status: Status = "running"
    # Incremented by every commit; a commit must name the version it read.
    version: int = 0
    # Number of events in the journal: the next event's streamIndex.
    length: int = 0
    turn: int = 1
    # The process driving the running turn and until when its lease holds (epoch seconds).
    owner: str = ""
    lease_until: float = 0.0
    user_id: str | None = None
    output_schema: dict[str, Any] | None = None
    client_context: dict[str, Any] = {}
    # The shopper's language when the session carries one (clientContext.locale, else the
    # creating request's Accept-Language); "" when it does not.
    locale: str = ""
    pending_input: dict[str, PendingInput] = {}
    pending_authorization: PendingAuthorization | None = None
    # Answers of this turn: toolCallId → the option chosen; "connection:<name>" → "declined".
    decisions: dict[str, str] = {}
    cancel_requested: bool = False
    error: str | None = None


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(SessionRecord)


def encode_record(record: SessionRecord) -> bytes:
    return _encoder.encode(record)


def decode_record(data: bytes | str) -> SessionRecord:
    return _decoder.decode(data)
