"""The Agent Session Streaming API contract, on every journal backend, the sqlite journal also
with its database on PostgreSQL (in-process, finite streams: a stream that is not following
ends at the turn's next pause or end)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.settings import Settings
from tests.support.agent_support import JOURNALS, drop_redis_keys, journal_spec, ndjson

MOUNT = "/agent/v1"
EVENT_TYPES = {"session.started", "session.waiting", "session.failed", "agent.start",
               "agent.content.delta", "message.appended", "message.completed",
               "agent.tool_call", "agent.tool_result", "agent.complete", "result.completed",
               "input.requested", "input.resolved", "authorization.required",
               "authorization.granted"}


# (journal, database backend): the sqlite journal lives in the app's database, so it also
# runs on PostgreSQL.
CASES = [*((kind, "sqlite") for kind in JOURNALS), ("sqlite", "postgres")]


@pytest.fixture(params=CASES, ids=[*JOURNALS, "sqlite-on-postgres"])
async def settings(request: pytest.FixtureRequest,
                   tmp_path: os.PathLike[str]) -> AsyncIterator[Settings]:
    kind, backend = request.param
    spec = journal_spec(kind, tmp_path)
    db_path = (request.getfixturevalue("postgres_url") if backend == "postgres"
               else os.path.join(tmp_path, "commerce.db"))
    yield Settings(db_path=db_path, base_url="http://test",
                   simulate=False, sqlite_synchronous="NORMAL", journal=spec)
    if spec.startswith("redis"):
        await drop_redis_keys(spec)


async def create(client: httpx.AsyncClient, message: str = "hello",
                 **body: Any) -> tuple[str, str]:
    response = await client.post(f"{MOUNT}/session", json={"message": message, **body})
    assert response.status_code == 202, response.text
    created = response.json()
    assert response.headers["x-agent-session-id"] == created["sessionId"]
    return created["sessionId"], created["continuationToken"]


async def stream(client: httpx.AsyncClient, session_id: str, start: int | None = None
                 ) -> list[dict[str, Any]]:
    params = {} if start is None else {"startIndex": str(start)}
    response = await client.get(f"{MOUNT}/session/{session_id}/stream", params=params)
    assert response.status_code == 200, response.text
    return ndjson(response.text)


async def follow_up(client: httpx.AsyncClient, session_id: str, token: str,
                    **body: Any) -> httpx.Response:
    return await client.post(f"{MOUNT}/session/{session_id}",
                             json={"continuationToken": token, **body},
                             headers={"Authorization": f"Bearer {token}"})


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code and body["error"]["message"]


async def length(app: Starlette, session_id: str) -> int:
    record = await app.state.agent.journal.load(session_id)
    assert record is not None
    return int(record.length)


async def test_health_and_info(client: httpx.AsyncClient) -> None:
    health = await client.get(f"{MOUNT}/health")
    assert health.status_code == 200
    assert health.json()["ok"] is True and health.json()["status"] == "ready"
    assert health.json()["workflowId"]
    info = (await client.get(f"{MOUNT}/info")).json()
    assert info["agent"]["name"] == "shopper" and info["agent"]["model"] == "scripted"
    names = {tool["name"] for tool in info["tools"]}
    assert {"search_products", "connection__commerce__place_order",
            "connection__commerce__add_to_cart"} <= names
    for tool in info["tools"]:
        assert tool["description"] and tool["parameters"]["type"] == "object"
    [connection] = info["connections"]
    assert connection["name"] == "commerce"
    assert all(name.startswith("connection__commerce__") for name in connection["tools"])


async def test_a_turn_streams_in_order_and_ends_waiting(client: httpx.AsyncClient) -> None:
    session_id, _ = await create(client, "find a ceramic mug under $20")
    response = await client.get(f"{MOUNT}/session/{session_id}/stream")
    assert response.headers["content-type"] == "application/x-ndjson; charset=utf-8"
    assert response.headers["x-agent-stream-format"] == "ndjson"
    assert response.headers["x-agent-stream-version"] == "16"
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["x-accel-buffering"] == "no"
    events = ndjson(response.text)
    assert [event["streamIndex"] for event in events] == list(range(len(events)))
    assert set(types(events)) <= EVENT_TYPES
    assert types(events)[:3] == ["session.started", "agent.start", "message.appended"]
    assert events[0]["data"] == {}
    assert events[2]["data"]["role"] == "user"
    assert types(events)[-4:] == ["message.appended", "message.completed", "agent.complete",
                                  "session.waiting"]
    call = next(e for e in events if e["type"] == "agent.tool_call")["data"]
    assert call["tool"]["name"] == "search_products" and call["tool"]["parameters"]
    result = next(e for e in events if e["type"] == "agent.tool_result")["data"]
    assert result["toolCallId"] == call["toolCallId"] and result["isError"] is False
    text = "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")
    completed = next(e for e in events if e["type"] == "message.completed")["data"]
    assert completed["content"] == text and "Limited Edition Glaze Mug" in text
    state = [e for e in events if e["type"] == "message.appended"][-1]["data"]
    assert state["toolCalls"][0]["status"] == "complete"
    assert state["toolCalls"][0]["toolName"] == "search_products"


async def test_replay_from_every_index_matches_the_live_stream(
        client: httpx.AsyncClient) -> None:
    session_id, token = await create(client, "find a ceramic mug under $20")
    live = await stream(client, session_id)
    assert (await follow_up(client, session_id, token, message="hello")).status_code == 200
    live += await stream(client, session_id, len(live))
    assert [event["streamIndex"] for event in live] == list(range(len(live)))
    for start in range(len(live) + 2):
        assert await stream(client, session_id, start) == live[start:]


async def test_follow_up_continues_the_session(client: httpx.AsyncClient) -> None:
    session_id, token = await create(client, "hello")
    first = await stream(client, session_id)
    response = await follow_up(client, session_id, token, message="find teapots")
    assert response.status_code == 200
    assert response.json() == {"sessionId": session_id, "continuationToken": token}
    second = await stream(client, session_id, len(first))
    assert types(second)[:2] == ["agent.start", "message.appended"]
    assert second[0]["streamIndex"] == len(first)
    assert types(second)[-1] == "session.waiting"


async def test_unknown_sessions_are_404(client: httpx.AsyncClient) -> None:
    for session_id in ("ses_000000000000000000000000", "ses_" + "0" * 28, "nope", "ses_ABC"):
        assert_error(await client.get(f"{MOUNT}/session/{session_id}/stream"), 404,
                     "session_not_found")
        assert_error(await follow_up(client, session_id, "ct_x", message="hi"), 404,
                     "session_not_found")
        assert_error(await client.post(f"{MOUNT}/session/{session_id}/cancel"), 404,
                     "session_not_found")


async def test_start_index_must_be_a_non_negative_integer(client: httpx.AsyncClient) -> None:
    session_id, _ = await create(client)
    for bad in ("-1", "abc", "1.5", "NaN", "١", "", " ", "+1", "1e3"):
        response = await client.get(f"{MOUNT}/session/{session_id}/stream",
                                    params={"startIndex": bad})
        assert_error(response, 400, "invalid_start_index")


@pytest.mark.parametrize(("body", "headers", "status", "code"), [
    (b"{", {}, 400, "invalid_json"),
    (b"[1]", {}, 400, "invalid_json"),
    (b"", {}, 400, "invalid_json"),
    (b"{}", {}, 400, "message_required"),
    (b'{"message": ""}', {}, 400, "message_required"),
    (b'{"message": "   "}', {}, 400, "message_required"),
    (b'{"message": 42}', {}, 400, "message_required"),
    (b'{"message": "hi", "outputSchema": []}', {}, 400, "invalid_output_schema"),
    (b'{"message": "hi", "outputSchema": {"type": "nope"}}', {}, 400,
     "invalid_output_schema"),
    (b'{"message": "hi", "agent": "nobody"}', {}, 400, "unknown_agent"),
    (b'{"message": "hi", "colour": "red"}', {}, 400, "invalid_request"),
    (b'{"message": "hi", "clientContext": "x"}', {}, 400, "invalid_request"),
    (b"message=hi", {"content-type": "text/plain"}, 415, "unsupported_media_type"),
    # Refs resolve inside the schema only: nothing is fetched, at request time or later.
    (b'{"message": "hi", "outputSchema": {"$ref": "http://127.0.0.1:9/schema.json"}}', {},
     400, "invalid_output_schema"),
    (b'{"message": "hi", "outputSchema": {"$ref": "#/$defs/missing"}}', {}, 400,
     "invalid_output_schema"),
    (b'{"message": "hi", "outputSchema": {"properties": {"a": {"$schema": '
     b'"http://json-schema.org/draft-07/schema#", "pattern": "^(a|a)*$"}}}}', {}, 400,
     "invalid_output_schema"),
    (b'{"message": "hi", "outputSchema": {"unevaluatedProperties": false, '
     b'"patternProperties": {"^(a|a)*$": {}}}}', {}, 400, "invalid_output_schema"),
    (b'{"message": "hi", "outputSchema": ' + b'{"items": ' * 40 + b"{}" + b"}" * 40 + b"}", {},
     400, "invalid_output_schema"),
    (b'{"message": "hi", "clientContext": {"a": ' + b"[" * 40 + b"]" * 40 + b"}}", {}, 400,
     "invalid_request"),
])
async def test_create_validation(client: httpx.AsyncClient, body: bytes,
                                 headers: dict[str, str], status: int, code: str) -> None:
    response = await client.post(f"{MOUNT}/session", content=body,
                                 headers={"content-type": "application/json", **headers})
    assert_error(response, status, code)


async def test_too_large_bodies_are_413(client: httpx.AsyncClient, settings: Settings) -> None:
    big = "x" * (settings.max_body_bytes + 1)
    assert_error(await client.post(f"{MOUNT}/session", json={"message": big}), 413,
                 "payload_too_large")


async def test_unknown_routes_and_methods_use_the_agent_error_shape(
        client: httpx.AsyncClient) -> None:
    assert_error(await client.get(f"{MOUNT}/nothing-here"), 404, "not_found")
    assert_error(await client.get(f"{MOUNT}/session"), 405, "method_not_allowed")
    assert_error(await client.delete(f"{MOUNT}/health"), 405, "method_not_allowed")


async def test_bad_follow_ups_are_refused_and_add_no_event(app: Starlette,
                                                           client: httpx.AsyncClient) -> None:
    session_id, token = await create(client)
    await stream(client, session_id)
    before = await length(app, session_id)
    url = f"{MOUNT}/session/{session_id}"
    cases = [
        (await client.post(url, json={"message": "hi"}), 401, "unauthorized"),
        (await client.post(url, json={"message": "hi", "continuationToken": "ct_wrong"}), 401,
         "unauthorized"),
        (await client.post(url, json={"message": "hi", "continuationToken": token},
                           headers={"Authorization": "Bearer ct_other"}), 400,
         "token_mismatch"),
        (await follow_up(client, session_id, token), 400, "message_or_input_required"),
        (await follow_up(client, session_id, token, inputResponses={"req_x": "approve"}), 409,
         "no_pending_input"),
        (await follow_up(client, session_id, token, message="hi", agent="nobody"), 400,
         "unknown_agent"),
        (await follow_up(client, session_id, token, message="hi", outputSchema=3), 400,
         "invalid_output_schema"),
        (await client.post(url, content=b"{", headers={"content-type": "application/json"}),
         400, "invalid_json"),
    ]
    for response, status, code in cases:
        assert_error(response, status, code)
    assert response.headers.get("www-authenticate") is None
    assert cases[0][0].headers["www-authenticate"].startswith("Bearer")
    assert await length(app, session_id) == before


async def test_a_running_turn_refuses_a_follow_up_and_can_be_cancelled(
        app: Starlette, client: httpx.AsyncClient) -> None:
    app.state.agent.agents["shopper"].model.pace = 0.2
    session_id, token = await create(client, "hello there, what can you do for me today?")
    assert_error(await follow_up(client, session_id, token, message="again"), 409,
                 "turn_in_progress")
    cancel = await client.post(f"{MOUNT}/session/{session_id}/cancel",
                               headers={"Authorization": f"Bearer {token}"})
    assert cancel.status_code == 202 and cancel.json()["status"] == "cancelling"
    events = await stream(client, session_id)
    assert types(events)[-3:] == ["message.completed", "agent.complete", "session.waiting"]
    assert events[-2]["data"] == {"reason": "cancelled"}
    idle = await client.post(f"{MOUNT}/session/{session_id}/cancel",
                             json={"continuationToken": token})
    assert idle.status_code == 200 and idle.json()["status"] == "idle"
    assert_error(await client.post(f"{MOUNT}/session/{session_id}/cancel"), 401,
                 "unauthorized")


async def test_a_failed_session_is_terminal(client: httpx.AsyncClient) -> None:
    schema = {"type": "object", "properties": {"trackingNumber": {"type": "string"}},
              "required": ["trackingNumber"]}
    session_id, token = await create(client, "hello", outputSchema=schema)
    events = await stream(client, session_id)
    assert types(events)[-1] == "session.failed"
    failure = events[-1]["data"]
    assert failure["sessionId"] == session_id and "trackingNumber" in failure["error"]
    assert "result.completed" not in types(events)
    assert_error(await follow_up(client, session_id, token, message="again"), 410,
                 "session_terminated")
    assert await stream(client, session_id, len(events)) == []


async def test_structured_output_result_validates(client: httpx.AsyncClient) -> None:
    schema = {"type": "object", "properties": {
        "itemId": {"type": "string"}, "price": {"type": "number"},
        "message": {"type": "string"}}, "required": ["itemId", "price"],
        "additionalProperties": False}
    session_id, _ = await create(client, "find a ceramic mug under $20", outputSchema=schema)
    events = await stream(client, session_id)
    [result] = [e["data"]["result"] for e in events if e["type"] == "result.completed"]
    assert result["itemId"] == "item_limited_glaze_mug" and result["price"] == 18.0
    assert types(events)[-3:] == ["result.completed", "agent.complete", "session.waiting"]


async def test_auth_secret_guards_create_info_and_stream(tmp_path: os.PathLike[str]) -> None:
    from commerce_agent.app import create_app

    settings = Settings(db_path=os.path.join(tmp_path, "secret.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", journal="memory",
                        auth_secret="s3cret")
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            assert (await client.get(f"{MOUNT}/health")).status_code == 200
            for response in (await client.get(f"{MOUNT}/info"),
                             await client.post(f"{MOUNT}/session", json={"message": "hi"}),
                             await client.get(f"{MOUNT}/info",
                                              headers={"Authorization": "Bearer nope"})):
                assert_error(response, 401, "unauthorized")
                assert response.headers["www-authenticate"].startswith("Bearer")
            good = {"Authorization": "Bearer s3cret"}
            assert (await client.get(f"{MOUNT}/info", headers=good)).status_code == 200
            created = await client.post(f"{MOUNT}/session", json={"message": "hi"},
                                        headers=good)
            assert created.status_code == 202
            session_id, token = created.json()["sessionId"], created.json()["continuationToken"]
            url = f"{MOUNT}/session/{session_id}/stream"
            assert_error(await client.get(url), 401, "unauthorized")
            assert (await client.get(url, headers=good)).status_code == 200
            by_token = await client.get(url, headers={"Authorization": f"Bearer {token}"})
            assert by_token.status_code == 200 and ndjson(by_token.text)


def deep(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


async def test_deeply_nested_bodies_are_400_not_500(client: httpx.AsyncClient) -> None:
    """Under the size limit, but deeper than the decoder recurses: a 400, on every route."""
    json_type = {"content-type": "application/json"}
    for body in (b'{"message": "hi", "clientContext": {"a": ' + deep(5000) + b"}}",
                 b'{"message": "hi", "outputSchema": {"a": ' + deep(5000) + b"}}"):
        assert_error(await client.post(f"{MOUNT}/session", content=body, headers=json_type),
                     400, "invalid_json")
    # Depth is refused before any field is looked at (json_input, as on every route).
    assert_error(await client.post(f"{MOUNT}/session", content=b'{"message": ' + deep(5000)
                                   + b"}", headers=json_type), 400, "invalid_json")
    session_id, token = await create(client)
    await stream(client, session_id)
    auth = {**json_type, "Authorization": f"Bearer {token}"}
    assert_error(await client.post(f"{MOUNT}/session/{session_id}", content=b'{"message": "hi",'
                                   b' "outputSchema": {"a": ' + deep(5000) + b"}}",
                                   headers=auth), 400, "invalid_json")
    assert_error(await client.post(f"{MOUNT}/session/{session_id}", content=b'{"message": '
                                   + deep(5000) + b"}", headers=auth), 400, "invalid_json")
    cancel = f"{MOUNT}/session/{session_id}/cancel"
    assert_error(await client.post(cancel, content=deep(5000), headers=auth), 400,
                 "invalid_json")
    assert_error(await client.post(cancel, content=b'{"continuationToken": ' + deep(5000)
                                   + b"}", headers=auth), 400, "invalid_json")


async def test_follow_up_and_cancel_refuse_big_and_non_json_bodies(
        client: httpx.AsyncClient, settings: Settings) -> None:
    session_id, token = await create(client)
    await stream(client, session_id)
    auth = {"Authorization": f"Bearer {token}"}
    big = b'{"message": "' + b"x" * settings.max_body_bytes + b'"}'
    for path in (f"{MOUNT}/session/{session_id}", f"{MOUNT}/session/{session_id}/cancel"):
        assert_error(await client.post(path, content=big,
                                       headers={**auth, "content-type": "application/json"}),
                     413, "payload_too_large")
        assert_error(await client.post(path, content=b"message=hi",
                                       headers={**auth, "content-type": "text/plain"}),
                     415, "unsupported_media_type")


async def test_cancel_of_a_failed_session_is_410(client: httpx.AsyncClient) -> None:
    schema = {"type": "object", "properties": {"trackingNumber": {"type": "string"}},
              "required": ["trackingNumber"]}
    session_id, token = await create(client, "hello", outputSchema=schema)
    assert types(await stream(client, session_id))[-1] == "session.failed"
    assert_error(await client.post(f"{MOUNT}/session/{session_id}/cancel",
                                   headers={"Authorization": f"Bearer {token}"}), 410,
                 "session_terminated")


async def test_a_stream_from_beyond_the_journal_ends_at_the_turns_boundary(
        app: Starlette, client: httpx.AsyncClient) -> None:
    """startIndex past the end (a client ahead of a lagging replica) while a turn runs: the
    stream sends only events from startIndex on and still ends at the turn's boundary."""
    app.state.agent.agents["shopper"].model.pace = 0.05
    session_id, token = await create(client, "hello there, what can you do for me today?")
    far = await length(app, session_id) + 1000
    assert await asyncio.wait_for(stream(client, session_id, far), 10) == []
    first = await stream(client, session_id)
    assert types(first)[-1] == "session.waiting"

    assert (await follow_up(client, session_id, token, message="hello again, anyone there?")
            ).status_code == 200
    ahead = await length(app, session_id) + 3
    tail = await asyncio.wait_for(stream(client, session_id, ahead), 10)
    everything = await stream(client, session_id)
    assert tail == everything[ahead:] and types(tail)[-1] == "session.waiting"


async def test_a_custom_agent_mount_serves_the_api_and_its_consent_links(
        tmp_path: os.PathLike[str]) -> None:
    from commerce_agent.app import create_app
    from tests.support.agent_support import consent

    mount = "/bots/v2"
    settings = Settings(db_path=os.path.join(tmp_path, "mount.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", journal="memory",
                        agent_mount=mount)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            assert (await client.get(f"{mount}/health")).json()["ok"] is True
            assert (await client.get(f"{MOUNT}/health")).status_code == 404
            assert_error(await client.get(f"{mount}/nothing"), 404, "not_found")
            created = await client.post(f"{mount}/session",
                                        json={"message": "find a ceramic mug under $20"})
            assert created.status_code == 202
            session_id, token = created.json()["sessionId"], created.json()["continuationToken"]
            url = f"{mount}/session/{session_id}/stream"
            found = ndjson((await client.get(url)).text)
            assert types(found)[-1] == "session.waiting"
            answer = await client.post(f"{mount}/session/{session_id}",
                                       json={"message": "add it to my cart"},
                                       headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 200
            parked = ndjson((await client.get(url, params={"startIndex": len(found)})).text)
            auth_url = parked[-1]["data"]["authUrl"]
            assert auth_url.startswith(f"http://test{mount}/consent/{session_id}/")
            assert (await consent(client, auth_url)).status_code == 200
            resumed = ndjson((await client.get(url, params={
                "startIndex": len(found) + len(parked)})).text)
            assert resumed[0]["type"] == "authorization.granted"
            assert types(resumed)[-1] == "session.waiting"
