"""Session operations behind the routes: create, follow up, cancel, stream, authorize.

Each operation reads the session record, decides, and commits its events with a
compare-and-set; on a conflict (another request or process changed the session meanwhile) it
reads again and decides again. A request that is refused commits nothing, so a bad
continuation never forks a session or adds an event.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from commerce_agent import clock
from commerce_agent.agent.agents import DEFAULT_AGENT, Agent
from commerce_agent.agent.conversation import Conversation, close_turn, fold
from commerce_agent.agent.errors import AgentError, not_found, unauthorized
from commerce_agent.agent.events import BOUNDARIES, Event, decode_line, event
from commerce_agent.agent.journals import Conflict, Journal
from commerce_agent.agent.records import SessionRecord
from commerce_agent.agent.runner import Runner
from commerce_agent.agent.turn import lease
from commerce_agent.db import Database
from commerce_agent.ids import new_id
from commerce_agent.operations import policy
from commerce_agent.settings import Settings

# 28 hex digits (ids.new_id); 24 for sessions created before ids began with their time.
SESSION_ID = re.compile(r"ses_[0-9a-f]{24}(?:[0-9a-f]{4})?")
CACHED_CONVERSATIONS = 256
REPLAY_CHUNK = 500
TOKEN_PREFIX = "ct_"  # noqa: S105 - a public prefix, not a secret


class _Head(msgspec.Struct):
    type: str


_head = msgspec.json.Decoder(_Head)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def same_secret(given: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(given), stored_hash)


def user_message(turn: int, text: str) -> Event:
    return event("message.appended", {"id": f"msg_{turn}_user", "role": "user",
                                       "content": text, "toolCalls": []})


class Sessions:
    def __init__(self, *, settings: Settings, db: Database, journal: Journal,
                 agents: dict[str, Agent], owner: str, pay_to: str, max_promotions: int,
                 mount: str) -> None:
        self.settings = settings
        self.db = db
        self.journal = journal
        self.agents = agents
        self.owner = owner
        self.pay_to = pay_to
        self.max_promotions = max_promotions
        self.mount = mount
        self.runner = Runner(self)
        self._conversations: OrderedDict[str, tuple[Conversation, int]] = OrderedDict()

    async def conversation(self, session_id: str) -> Conversation:
        """The session's conversation, folded from its journal (incrementally when this
        process ran its previous turn)."""
        conversation, length = self._conversations.pop(session_id, (None, 0))
        conversation = conversation or Conversation()
        for line in await self.journal.read(session_id, length):
            conversation.apply(decode_line(line))
        return conversation

    def remember(self, session_id: str, length: int, conversation: Conversation) -> None:
        """Keep a finished turn's conversation (it folds the first `length` events)."""
        self._conversations[session_id] = (conversation, length)
        while len(self._conversations) > CACHED_CONVERSATIONS:
            self._conversations.popitem(last=False)

    @property
    def default_agent(self) -> Agent:
        return self.agents[DEFAULT_AGENT]

    def consent_url(self, session_id: str, secret: str) -> str:
        return f"{self.settings.base_url.rstrip('/')}{self.mount}/consent/{session_id}/{secret}"

    def agent(self, name: str | None, fallback: str = DEFAULT_AGENT) -> str:
        chosen = name if name is not None else fallback
        if chosen not in self.agents:
            raise AgentError(400, "unknown_agent", f"There is no agent named {chosen!r}; "
                             f"known agents: {', '.join(sorted(self.agents))}.")
        return chosen

    async def load(self, session_id: str) -> SessionRecord:
        record = await self.journal.load(session_id) if SESSION_ID.fullmatch(session_id) \
            else None
        if record is None:
            raise not_found(session_id)
        return record

    def check_token(self, record: SessionRecord, token: str | None) -> None:
        if not token:
            raise unauthorized("Send the session's continuation token as a Bearer token.")
        if not same_secret(token, record.token_hash):
            raise unauthorized("This continuation token does not belong to the session.")

    # -- create and follow up --------------------------------------------------------------

    async def create(self, message: str, agent: str | None, output_schema: dict[str, Any] | None,
                     client_context: dict[str, Any], locale: str = ""
                     ) -> tuple[SessionRecord, str]:
        name = self.agent(agent)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        record = SessionRecord(
            id=new_id("ses"), token_hash=hash_secret(token), created_at=clock.now_iso(),
            agent=name, owner=self.owner, lease_until=lease(), output_schema=output_schema,
            client_context=client_context, locale=locale)
        record = await self.journal.create(record, [
            event("session.started", {}), event("agent.start"), user_message(1, message)])
        self.runner.launch(record)
        return record, token

    async def follow_up(self, session_id: str, token: str | None, *, message: str | None,
                        agent: str | None, output_schema: dict[str, Any] | None,
                        responses: dict[str, str] | None) -> SessionRecord:
        record = await self.load(session_id)
        self.check_token(record, token)
        while True:
            if record.status == "failed":
                raise AgentError(410, "session_terminated",
                                 f"Session {session_id!r} has failed and cannot continue: "
                                 f"{record.error}")
            if record.status == "running":
                raise AgentError(409, "turn_in_progress",
                                 "A turn is still running; wait for it to end (or cancel it).")
            if responses is not None:
                events, changes = self._answers(record, responses, output_schema)
            else:
                events, changes = self._new_turn(record, message, agent, output_schema)
            try:
                record = await self.journal.commit(record, events, status="running",
                                                   owner=self.owner, lease_until=lease(),
                                                   **changes)
                break
            except Conflict:
                record = await self.load(session_id)
        self.runner.launch(record)
        return record

    def _answers(self, record: SessionRecord, responses: dict[str, str],
                 output_schema: dict[str, Any] | None
                 ) -> tuple[list[Event], dict[str, Any]]:
        unknown = [key for key in responses if key not in record.pending_input]
        if record.status != "input" or unknown or not responses:
            raise AgentError(409, "no_pending_input",
                             "No open input request matches "
                             f"{', '.join(map(repr, unknown or list(responses))) or 'this'}.")
        decisions = dict(record.decisions)
        for request_id, answer in responses.items():
            pending = record.pending_input[request_id]
            if pending.options and answer not in pending.options:
                raise AgentError(400, "invalid_input_response",
                                 f"Answer {request_id!r} with one of: "
                                 f"{', '.join(pending.options)}.")
            decisions[pending.tool_call_id] = answer
            if pending.digest:
                decisions[policy.approved_key(pending.tool_call_id)] = pending.digest
        remaining = {key: value for key, value in record.pending_input.items()
                     if key not in responses}
        if remaining:
            raise AgentError(400, "invalid_input_response",
                             f"Answer every open request at once: {', '.join(remaining)}.")
        changes: dict[str, Any] = {"pending_input": {}, "decisions": decisions}
        if output_schema is not None:
            changes["output_schema"] = output_schema
        return [event("input.resolved")], changes

    def _new_turn(self, record: SessionRecord, message: str | None, agent: str | None,
                  output_schema: dict[str, Any] | None) -> tuple[list[Event], dict[str, Any]]:
        if record.status == "input":
            raise AgentError(409, "input_required",
                             "The session waits for an answer to its input request: send "
                             "inputResponses (or cancel the turn).")
        if record.status == "authorization":
            raise AgentError(409, "authorization_required",
                             "The session waits for the connection to be authorized (or "
                             "cancel the turn).")
        assert message is not None
        turn = record.turn + 1
        changes = {"turn": turn, "agent": self.agent(agent, record.agent),
                   "output_schema": output_schema, "decisions": {}, "cancel_requested": False}
        return [event("agent.start"), user_message(turn, message)], changes

    # -- cancel --------------------------------------------------------------------------

    async def cancel(self, session_id: str, token: str | None) -> tuple[int, str]:
        record = await self.load(session_id)
        self.check_token(record, token)
        while True:
            if record.status == "failed":
                raise AgentError(410, "session_terminated",
                                 f"Session {session_id!r} has failed.")
            if record.status == "idle":
                return 200, "idle"
            try:
                if record.status == "running":
                    await self.journal.commit(record, [], cancel_requested=True)
                    self.runner.interrupt(session_id)
                    return 202, "cancelling"
                conversation = fold(await self.journal.read(session_id, 0))
                await self.journal.commit(record, close_turn(conversation, "cancelled"),
                                          status="idle", pending_input={},
                                          pending_authorization=None, decisions={},
                                          output_schema=None)
                return 200, "cancelled"
            except Conflict:
                record = await self.load(session_id)

    # -- authorization (the consent page) --------------------------------------------------

    async def pending_authorization(self, session_id: str, secret: str) -> SessionRecord | None:
        """The session waiting for this consent link, or None for a stale or wrong link."""
        if not SESSION_ID.fullmatch(session_id):
            return None
        record = await self.journal.load(session_id)
        if record is None or record.status != "authorization":
            return None
        pending = record.pending_authorization
        if pending is None or not same_secret(secret, pending.secret_hash):
            return None
        return record

    async def authorize(self, session_id: str, secret: str, user_id: str | None) -> bool:
        """Grant (user_id given) or decline the pending connection; resume the turn."""
        while True:
            record = await self.pending_authorization(session_id, secret)
            if record is None or record.pending_authorization is None:
                return False
            pending = record.pending_authorization
            if user_id is not None:
                events = [event("authorization.granted", {"connection": pending.connection})]
                changes: dict[str, Any] = {"user_id": user_id}
            else:
                events = []
                # Declined for the rest of the turn: other calls of this connection fail too.
                changes = {"decisions": {**record.decisions,
                                         f"connection:{pending.connection}": "declined"}}
            try:
                record = await self.journal.commit(
                    record, events, status="running", owner=self.owner, lease_until=lease(),
                    pending_authorization=None, **changes)
            except Conflict:
                continue
            self.runner.launch(record)
            return True

    # -- streams -------------------------------------------------------------------------

    async def stream(self, record: SessionRecord, start: int, follow: bool
                     ) -> AsyncIterator[bytes]:
        """The NDJSON body: replay from `start`; when not following, stop at the end of the
        replay if the session is idle, else right after the turn's next boundary event.
        Events that are ready together are sent as one chunk.

        `start` may lie beyond the journal's end (a client ahead of a lagging replica): the
        stream then reads from the end, to notice the boundary (or failure) that ends it, but
        sends only events from `start` on."""
        length = record.length
        if follow and record.status == "failed" and start >= length:
            return
        if not follow and record.status != "running":
            index = start
            while index < length:
                lines = await self.journal.read(record.id, index, min(REPLAY_CHUNK,
                                                                      length - index))
                if not lines:
                    return
                index += len(lines)
                yield b"".join(lines)
            return
        index = min(start, length)
        async for batch in self.journal.follow(record.id, index):
            if not batch:
                yield b"\n"
                continue
            skip = max(0, start - index)  # events of this batch below `start`
            for position, line in enumerate(batch):
                kind = _head.decode(line).type
                if kind == "session.failed" or (not follow and kind in BOUNDARIES
                                                and index + position >= length):
                    if position >= skip:
                        yield b"".join(batch[skip:position + 1])
                    return
            index += len(batch)
            if skip < len(batch):
                yield b"".join(batch[skip:])
