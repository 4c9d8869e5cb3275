"""Drive one turn: model steps, tool calls, pauses for approval or authorization, the end.

A turn runs in the process that holds its lease (`record.owner`). It starts by folding the
journal, so the same code starts a new turn and resumes one after a crash or a pause: tool
calls without a result are (re)run first, with the idempotency key of their call id, then the
model is asked for the next step. Whether a call runs, waits for the person's approval or was
rejected is the policy's answer (commerce_agent.operations.policy), asked again on every resume.
Every event is committed before the turn goes on, through a compare-and-set on the session
record that also renews the lease.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

from commerce_agent.agent import schemas, storage
from commerce_agent.agent.conversation import (
    CallState,
    Conversation,
    call_id,
    close_turn,
    tool_result,
)
from commerce_agent.agent.events import Event, delta, event, session_failed
from commerce_agent.agent.journals import Conflict, Journal
from commerce_agent.agent.language import reply_language
from commerce_agent.agent.models.base import (
    CallTool,
    ModelError,
    ModelRequest,
    StructuredResult,
    TextDelta,
)
from commerce_agent.agent.records import PendingAuthorization, PendingInput, SessionRecord
from commerce_agent.auth.tokens import Principal
from commerce_agent.background import stop
from commerce_agent.db import Database
from commerce_agent.errors import CommerceError
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE
from commerce_agent.operations import Tool, ToolContext, ToolFailure, policy
from commerce_agent.settings import Settings

if TYPE_CHECKING:
    from commerce_agent.agent.agents import Agent

log = logging.getLogger("commerce_agent.agent")

LEASE_SECONDS = 10.0


class SessionHost(Protocol):
    """What a turn (and the runner) use of the process's sessions (agent/sessions.py), which
    create the runner: typed here so that neither imports the sessions module back."""

    settings: Settings
    db: Database
    journal: Journal
    agents: dict[str, Agent]
    owner: str
    pay_to: str
    max_promotions: int

    async def conversation(self, session_id: str) -> Conversation: ...

    def remember(self, session_id: str, length: int, conversation: Conversation) -> None: ...

    def consent_url(self, session_id: str, secret: str) -> str: ...
# Model steps (each one answer or one round of tool calls) a turn may take: a model that keeps
# calling tools would otherwise loop, and spend, forever.
MAX_MODEL_STEPS = 25


class LostLease(Exception):
    """Another process owns this turn now (or it ended); stop without writing."""


class Cancelled(Exception):
    pass


def lease() -> float:
    return time.time() + LEASE_SECONDS


class Turn:
    def __init__(self, sessions: SessionHost, record: SessionRecord) -> None:
        self.sessions = sessions
        self.journal = sessions.journal
        self.record = record
        self.conversation = Conversation()
        self.interrupted = False
        self.last_commit = time.monotonic()
        self._lock = asyncio.Lock()

    @property
    def session_id(self) -> str:
        return self.record.id

    # -- committing ----------------------------------------------------------------------

    async def commit(self, events: list[Event], **changes: Any) -> None:
        """Append events (already applied to the conversation) and renew the lease."""
        async with self._lock:
            while True:
                try:
                    if changes.get("owner", self.record.owner) == self.sessions.owner:
                        changes.setdefault("lease_until", lease())
                    self.record = await self.journal.commit(self.record, events, **changes)
                    self.last_commit = time.monotonic()
                    return
                except Conflict:
                    await self._reload()

    async def _reload(self) -> None:
        fresh = await self.journal.load(self.session_id)
        if fresh is None or fresh.owner != self.sessions.owner or fresh.status != "running":
            raise LostLease(self.session_id)
        self.record = fresh

    async def heartbeat(self) -> None:
        """Renew the lease when the turn has been quiet; notice a cancel from elsewhere."""
        if time.monotonic() - self.last_commit >= LEASE_SECONDS / 3:
            await self.commit([])

    def check_cancel(self) -> None:
        if self.interrupted or self.record.cancel_requested:
            raise Cancelled

    async def emit(self, *events: Event, **changes: Any) -> None:
        for item in events:
            self.conversation.apply(item)
        await self.commit(list(events), **changes)

    # -- the turn ------------------------------------------------------------------------

    async def run(self) -> None:
        self.conversation = await self.sessions.conversation(self.session_id)
        try:
            await self._drive()
        except Cancelled:
            await self._end_cancelled()
        except ModelError as exc:
            await self._fail(str(exc))
        except (LostLease, asyncio.CancelledError):
            raise
        except Exception as exc:
            log.exception("turn %s failed", self.session_id)
            await self._fail(f"The turn failed unexpectedly: {type(exc).__name__}: {exc}")
        self.sessions.remember(self.session_id, self.record.length, self.conversation)

    async def _drive(self) -> None:
        agent = self.sessions.agents.get(self.record.agent)
        if agent is None:
            raise ModelError(f"The agent {self.record.agent!r} is not available on this server.")
        while True:
            self.check_cancel()
            if not await self._run_pending(agent):
                return
            # `step` counts the turn's steps that called tools, also across a resume.
            if self.conversation.step >= MAX_MODEL_STEPS:
                raise ModelError(f"The agent took {MAX_MODEL_STEPS} steps without finishing "
                                 "its answer; the turn was stopped.")
            if await self._model_step(agent):
                return

    async def _fail(self, message: str) -> None:
        await self.emit(session_failed(self.session_id, message), status="failed",
                        error=message, owner="", lease_until=0.0)

    async def _end_cancelled(self) -> None:
        events = close_turn(self.conversation, "cancelled")
        await self.commit(events, status="idle", owner="", lease_until=0.0, decisions={},
                          cancel_requested=False, output_schema=None)

    # -- tool calls ----------------------------------------------------------------------

    async def _run_pending(self, agent: Agent) -> bool:
        """Run tool calls that have no result yet; False when the turn parked."""
        for call in self.conversation.pending:
            self.check_cancel()
            tool = agent.tools.get(call.name)
            if tool is None:
                await self._result(call, {"code": "unknown_tool",
                                          "message": f"There is no tool {call.name!r}."}, True)
                continue
            try:
                # Before asking for consent or approval: a call that cannot run asks nobody.
                tool.check_args(call.args)
            except ToolFailure as exc:
                await self._result(call, exc.as_result(), True)
                continue
            if tool.connection and self.record.user_id is None:
                if self.record.decisions.get(f"connection:{tool.connection}") == "declined":
                    await self._result(call, {
                        "code": "authorization_declined",
                        "message": f"The user declined the {tool.connection} connection."}, True)
                    continue
                await self._park_for_authorization(tool, call)
                return False
            verdict = policy.verdict(tool, self.record.decisions.get(call.tool_call_id))
            if verdict == "ask":
                prompt = await self._prompt(tool, call)
                if prompt is None:
                    continue
                await self._park_for_input(call, prompt)
                return False
            if verdict == "rejected":
                await self._result(call, policy.rejected(tool, call.args), True)
                continue
            if policy.needs_approval(tool) and not self._started(call):
                # Approved: but is it still what the person saw? (The cart or order may have
                # changed since.) A call resumed after it started skips this: it replays.
                prompt = await self._prompt(tool, call)
                if prompt is None:
                    continue
                if not policy.still_approved(self.record.decisions, call.tool_call_id, prompt):
                    await self._park_for_input(call, prompt)
                    return False
                await self.commit([], decisions={**self.record.decisions,
                                                 policy.started_key(call.tool_call_id): "1"})
            result, is_error = await self._invoke(tool, call)
            await self._result(call, result, is_error)
        return True

    def _started(self, call: CallState) -> bool:
        return policy.started_key(call.tool_call_id) in self.record.decisions

    def _locale(self) -> str:
        said = [message.content for message in self.conversation.messages
                if message.role == "user"]
        return shopper_locale(self.record.locale, said)

    async def _prompt(self, tool: Tool, call: CallState) -> str | None:
        """The approval prompt for the call, written now; None when the call cannot run (its
        failure is then the call's result and nobody is asked)."""
        try:
            return await policy.prompt(tool, await self._context(call), call.args,
                                       self._locale())
        except (CommerceError, ToolFailure) as exc:
            await self._result(call, _failure(exc), True)
            return None

    async def _context(self, call: CallState) -> ToolContext:
        principal = None
        if self.record.user_id is not None:
            row = await storage.user_by_id(self.sessions.db, self.record.user_id)
            if row is not None:
                principal = Principal(row["id"], row["email"], row["name"])
        return ToolContext(self.sessions.db, self.sessions.settings, self.sessions.pay_to,
                           principal, f"agent-{self.session_id}-{call.tool_call_id}",
                           self.sessions.max_promotions)

    async def _invoke(self, tool: Tool, call: CallState) -> tuple[Any, bool]:
        try:
            tool.check_args(call.args)
            return await tool.run(await self._context(call), call.args), False
        except (CommerceError, ToolFailure) as exc:
            return _failure(exc), True

    async def _result(self, call: CallState, result: Any, is_error: bool) -> None:
        item = tool_result(call, result, is_error)
        self.conversation.apply(item)
        await self.commit([item, event("message.appended", self.conversation.assistant_state())])

    async def _park_for_authorization(self, tool: Tool, call: CallState) -> None:
        assert tool.connection is not None
        secret = secrets.token_urlsafe(24)
        url = self.sessions.consent_url(self.session_id, secret)
        pending = PendingAuthorization(connection=tool.connection,
                                       tool_call_id=call.tool_call_id,
                                       secret_hash=hashlib.sha256(secret.encode()).hexdigest())
        await self.emit(event("authorization.required", {"connection": tool.connection,
                                                         "authUrl": url}),
                        status="authorization", pending_authorization=pending, owner="",
                        lease_until=0.0)

    async def _park_for_input(self, call: CallState, prompt: str) -> None:
        """Ask for approval of `prompt`; asked again (what it acts on changed since the last
        answer), the request gets a new id and the earlier answer is dropped."""
        identifier = call.tool_call_id
        decisions = {key: value for key, value in self.record.decisions.items()
                     if key not in (identifier, policy.approved_key(identifier))}
        asked = int(decisions.get(policy.asked_key(identifier), "0")) + 1
        decisions[policy.asked_key(identifier)] = str(asked)
        request_id = f"req_{identifier[len('call_'):]}" + (f"_{asked}" if asked > 1 else "")
        await self.emit(event("input.requested", {
            "type": "approval", "requestId": request_id, "prompt": prompt,
            "options": policy.OPTIONS, "toolCallId": identifier}),
            status="input", owner="", lease_until=0.0, decisions=decisions,
            pending_input={request_id: PendingInput(tool_call_id=identifier,
                                                    options=policy.OPTIONS,
                                                    digest=policy.digest(prompt))})

    # -- model steps ---------------------------------------------------------------------

    async def _model_step(self, agent: Agent) -> bool:
        """Ask the model for one step; True when the turn is over."""
        conversation = self.conversation
        step, already = conversation.step, conversation.step_text
        request = ModelRequest(agent.instructions, list(conversation.messages),
                               list(agent.tools.values()), self.record.output_schema,
                               self.record.client_context, self.session_id)
        calls: list[CallTool] = []
        structured: list[Any] = []
        outputs: asyncio.Queue[object] = asyncio.Queue()
        producer = asyncio.create_task(_produce(agent, request, outputs))
        try:
            finished = False
            while not finished:
                # Group commit: deltas that arrived while the last commit ran go together.
                batch = [await outputs.get()]
                while not outputs.empty():
                    batch.append(outputs.get_nowait())
                texts = []
                for output in batch:
                    if output is _END:
                        finished = True
                    elif isinstance(output, BaseException):
                        raise output
                    elif isinstance(output, TextDelta):
                        text, already = _unsent(output.text, already)
                        if text:
                            texts.append(text)
                    elif isinstance(output, CallTool):
                        calls.append(output)
                    elif isinstance(output, StructuredResult):
                        structured.append(output.value)
                if texts:
                    self.check_cancel()
                    await self.emit(*(delta(text) for text in texts))
        finally:
            await stop(producer)
        if calls:
            events = []
            garbled: list[tuple[CallState, str]] = []
            for position, call in enumerate(calls):
                tool = agent.tools.get(call.name)
                description = tool.describe() if tool else {"name": call.name,
                                                            "description": "",
                                                            "parameters": {}}
                item = event("agent.tool_call", {
                    "toolCallId": call_id(conversation.turn, step, position),
                    "tool": description, "args": call.args})
                conversation.apply(item)
                events.append(item)
                if call.invalid:
                    garbled.append((conversation.calls[-1], call.invalid))
            # Arguments the model garbled: it hears why (as the calls' results), nothing runs.
            for state, reason in garbled:
                answer = tool_result(state, {"code": "invalid_arguments", "message": reason},
                                     True)
                conversation.apply(answer)
                events.append(answer)
            events.append(event("message.appended", conversation.assistant_state()))
            await self.commit(events)
            return False
        await self._finish(structured)
        return True

    async def _finish(self, structured: list[Any]) -> None:
        conversation = self.conversation
        events = [event("message.appended", conversation.assistant_state())]
        completed = event("message.completed", {"id": conversation.assistant_id,
                                                "role": "assistant",
                                                "content": conversation.content})
        events.append(completed)
        schema = self.record.output_schema
        if schema is not None:
            if not structured:
                raise ModelError("The model gave no structured result for the output schema.")
            problem = await asyncio.to_thread(schemas.problem, schema, structured[-1])
            if problem is not None:
                raise ModelError(f"The model's result does not match the output schema: "
                                 f"{problem}.")
            events.append(event("result.completed", {"result": structured[-1]}))
        events.extend([event("agent.complete"), event("session.waiting")])
        for item in events:
            conversation.apply(item)
        await self.commit(events, status="idle", owner="", lease_until=0.0, decisions={},
                          output_schema=None, cancel_requested=False)


_END = object()


async def _produce(agent: Agent, request: ModelRequest, outputs: asyncio.Queue[object]) -> None:
    """Run the model's step, queueing what it yields (an exception is queued too)."""
    try:
        async for output in agent.model.step(request):
            outputs.put_nowait(output)
    except Exception as exc:
        outputs.put_nowait(exc)
    else:
        outputs.put_nowait(_END)


def _unsent(text: str, already: str) -> tuple[str, str]:
    """The part of a resumed step's fragment not streamed before the crash."""
    if not already:
        return text, ""
    if already.startswith(text):
        return "", already[len(text):]
    if text.startswith(already):
        return text[len(already):], ""
    return text, ""


def _failure(exc: CommerceError | ToolFailure) -> dict[str, Any]:
    if isinstance(exc, ToolFailure):
        return exc.as_result()
    result: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if exc.details:
        result["details"] = exc.details
    if exc.params:  # what the error's sentence names, to say it in the shopper's language
        result["params"] = exc.params
    return result


# How many of the shopper's latest messages tell their language (each one read with the
# language of those before it as the default, so "yes" or an address keeps it).
LANGUAGE_WINDOW = 5


def shopper_locale(session_locale: str | None, user_messages: list[str]) -> str:
    """The shopper's language: the session's locale when it carries one, else the language
    of their latest messages."""
    if session_locale:
        return policy.prompt_locale(session_locale)
    language: str | None = None
    for message in user_messages[-LANGUAGE_WINDOW:]:
        language = reply_language(message, language)
    language = language or DEFAULT_LOCALE
    return policy.prompt_locale(language)
