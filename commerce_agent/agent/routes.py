"""Agent Session Streaming API routes, mounted under `settings.agent_mount`.

Handlers decode and check the request, call `Sessions`, and encode the answer. The mount has
its own exception middleware so every failure under it, unknown routes and methods included,
answers {error: {code, message}}.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Annotated, Any

import msgspec
from starlette.exceptions import HTTPException
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Router

from commerce_agent.agent import consent, events, schemas
from commerce_agent.agent.agents import DEFAULT_AGENT, connections
from commerce_agent.agent.errors import AgentError, handle, unauthorized
from commerce_agent.agent.sessions import SESSION_ID, Sessions, same_secret
from commerce_agent.auth import bearer
from commerce_agent.digits import whole_number
from commerce_agent.errors import CommerceError
from commerce_agent.http import read_body
from commerce_agent.json_input import MalformedJson, check
from commerce_agent.operations import policy
from commerce_agent.routing import Mount, Route, share_methods
from commerce_agent.struct_rules import NOT_SPACE, Rule, Ruled, at_least_one, given

MAX_CONTEXT_DEPTH = 32


# A message says something: at least one character that is not white space. Typed so that
# /openapi.json says so too; a message that is not one is refused as message_required.
Message = Annotated[str, msgspec.Meta(pattern=NOT_SPACE, description="The user's message.")]
# A JSON Schema (an object) the final answer must match; checked against its metaschema.
OutputSchema = Annotated[dict[str, Any], msgspec.Meta(
    description="A JSON Schema (draft 2020-12) object the final answer must match.")]
# The name of an agent this server runs (/openapi.json lists them: see openapi/generator.py).
AgentName = Annotated[str, msgspec.Meta(extra_json_schema={"x-vocabulary": "agents"})]


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    message: Message
    agent: AgentName | None = None
    outputSchema: OutputSchema | None = None
    clientContext: dict[str, Any] | None = None


class FollowUpBody(Ruled, forbid_unknown_fields=True):
    rules = (
        Rule(at_least_one("message", "inputResponses"), lambda: AgentError(
            400, "message_or_input_required",
            "Send a message, or inputResponses to answer an input request.")),
        Rule({"not": {"allOf": [given("message"), given("inputResponses")]}}, lambda: AgentError(
            400, "invalid_request", "Send either a message or inputResponses, not both.")),
    )

    message: Message | None = None
    agent: AgentName | None = None
    continuationToken: str | None = None
    outputSchema: OutputSchema | None = None
    inputResponses: dict[str, str] | None = None


class CancelBody(msgspec.Struct, forbid_unknown_fields=True):
    continuationToken: str | None = None


_create = msgspec.json.Decoder(CreateBody)
_follow_up = msgspec.json.Decoder(FollowUpBody)
_cancel = msgspec.json.Decoder(CancelBody)


def sessions_of(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.agent
    return sessions


async def decode(request: Request, decoder: msgspec.json.Decoder[Any], *,
                 optional: bool = False) -> Any:
    body = await read_body(request)
    if not body.strip():
        if optional:
            return decoder.decode(b"{}")
        raise AgentError(400, "invalid_json", "The request body must be a JSON object.")
    try:
        check(body)
    except MalformedJson as exc:
        raise AgentError(400, "invalid_json", exc.message) from None
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        text = str(exc)
        if text.startswith("Expected `object`") and " - at " not in text:
            raise AgentError(400, "invalid_json",
                             "The request body must be a JSON object.") from None
        if text.endswith("at `$.outputSchema`"):
            raise AgentError(400, "invalid_output_schema",
                             "outputSchema must be a JSON Schema object.") from None
        if text.endswith("at `$.message`") or "required field `message`" in text:
            raise AgentError(400, "message_required",
                             "message must be a non-empty string.") from None
        raise AgentError(400, "invalid_request", f"Invalid request body: {text}") from None
    except msgspec.DecodeError as exc:
        raise AgentError(400, "invalid_json", f"The request body is not valid JSON: {exc}") \
            from None
    except RecursionError:
        # msgspec decodes nested values recursively: a deep body small enough to pass the
        # size limit would otherwise end as a 500.
        raise AgentError(400, "invalid_json", "The request body nests too deeply.") from None


def nests_deeper(value: Any, limit: int) -> bool:
    """True when `value` has more than `limit` levels of objects and arrays (no recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                return True
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
    return False


def client_context(value: dict[str, Any] | None) -> dict[str, Any]:
    # It is stored with the session and sent to the model: a bounded depth keeps encoding it
    # (recursive, in msgspec and json) from failing later.
    if value is not None and nests_deeper(value, MAX_CONTEXT_DEPTH):
        raise AgentError(400, "invalid_request",
                         f"clientContext nests too deeply (over {MAX_CONTEXT_DEPTH} levels).")
    return value or {}


async def output_schema(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    try:
        return await asyncio.to_thread(schemas.check, value)
    except schemas.SchemaRefused as exc:
        raise AgentError(400, "invalid_output_schema", str(exc)) from None


def message_text(value: Any, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise AgentError(400, "message_required", "message must be a non-empty string.")
    return value


def require_secret(request: Request, token_hash: str | None = None) -> None:
    """With --auth-secret set, demand it (or, for a stream, the session's own token)."""
    secret: str = request.app.state.settings.auth_secret
    if not secret:
        return
    token = bearer.token(request.scope)
    if token and hmac.compare_digest(token.encode(), secret.encode()):
        return
    if token and token_hash is not None and same_secret(token, token_hash):
        return
    raise unauthorized("This route requires an Authorization: Bearer token.")


async def health(request: Request) -> Response:
    sessions = sessions_of(request)
    return JSONResponse({"ok": True, "status": "ready", "workflowId": f"agent/{DEFAULT_AGENT}",
                         "journal": sessions.journal.name})


async def info(request: Request) -> Response:
    require_secret(request)
    sessions = sessions_of(request)
    agent = sessions.default_agent
    tools = list(agent.tools.values())
    return JSONResponse({
        "agent": agent.describe(), "tools": [tool.describe() for tool in tools],
        "connections": connections(tools),
        "agents": [candidate.describe() for candidate in sessions.agents.values()]})


async def create_session(request: Request) -> Response:
    require_secret(request)
    body: CreateBody = await decode(request, _create)
    message = message_text(body.message, required=True)
    assert message is not None
    schema = await output_schema(body.outputSchema)
    context = client_context(body.clientContext)
    locale = policy.session_locale(context.get("locale"),
                                   request.headers.get("accept-language"))
    record, token = await sessions_of(request).create(message, body.agent, schema, context,
                                                      locale)
    return JSONResponse({"sessionId": record.id, "continuationToken": token}, status_code=202,
                        headers={"x-agent-session-id": record.id})


def continuation_token(request: Request, in_body: str | None) -> str | None:
    header = bearer.token(request.scope)
    if header and in_body and not hmac.compare_digest(header.encode(), in_body.encode()):
        raise AgentError(400, "token_mismatch",
                         "The Authorization header and continuationToken differ.")
    return header or in_body


async def follow_up(request: Request) -> Response:
    sessions = sessions_of(request)
    session_id = request.path_params["session_id"]
    await sessions.load(session_id)
    body: FollowUpBody = await decode(request, _follow_up)
    token = continuation_token(request, body.continuationToken)
    message = message_text(body.message, required=False)
    schema = await output_schema(body.outputSchema)
    await sessions.follow_up(session_id, token, message=message, agent=body.agent,
                             output_schema=schema, responses=body.inputResponses)
    return JSONResponse({"sessionId": session_id, "continuationToken": token})


async def cancel(request: Request) -> Response:
    sessions = sessions_of(request)
    session_id = request.path_params["session_id"]
    await sessions.load(session_id)
    body: CancelBody = await decode(request, _cancel, optional=True)
    token = continuation_token(request, body.continuationToken)
    status, state = await sessions.cancel(session_id, token)
    return JSONResponse({"sessionId": session_id, "status": state}, status_code=status)


def start_index(request: Request) -> int:
    raw = request.query_params.get("startIndex")
    if raw is None:
        return 0
    index = whole_number(raw)
    if index is None:
        raise AgentError(400, "invalid_start_index",
                         "startIndex must be a non-negative integer.")
    return index


STREAM_HEADERS = {
    "content-type": events.STREAM_CONTENT_TYPE,
    "x-agent-stream-format": events.STREAM_FORMAT,
    "x-agent-stream-version": events.STREAM_VERSION,
    "cache-control": "no-cache",
    "connection": "keep-alive",
    "x-accel-buffering": "no",
}


async def stream(request: Request) -> Response:
    sessions = sessions_of(request)
    session_id = request.path_params["session_id"]
    record = await sessions.journal.load(session_id) if SESSION_ID.fullmatch(session_id) \
        else None
    require_secret(request, record.token_hash if record else None)
    if record is None:
        await sessions.load(session_id)  # raises session_not_found
    assert record is not None
    start = start_index(request)
    follow = request.query_params.get("follow", "").lower() in ("1", "true", "yes")
    return StreamingResponse(sessions.stream(record, start, follow), headers=STREAM_HEADERS)


def mount(path: str) -> Mount:
    router = Router(routes=[
        Route("/health", health, methods=["GET"]),
        Route("/info", info, methods=["GET"]),
        Route("/session", create_session, methods=["POST"]),
        Route("/session/{session_id}", follow_up, methods=["POST"]),
        Route("/session/{session_id}/stream", stream, methods=["GET"]),
        Route("/session/{session_id}/cancel", cancel, methods=["POST"]),
        *consent.routes,
    ])
    share_methods(router.routes)
    handlers = {AgentError: handle, CommerceError: handle, HTTPException: handle,
                Exception: handle}
    return Mount(path, app=ExceptionMiddleware(router, handlers=handlers))
