"""`AgentClient` and `commerce-agent chat` against the app in-process, streaming as a network
would (tests/support/streaming_asgi.py): the client resumes a dropped stream from the last
event it handed out, so nothing is lost or repeated; the chat shows text, tool calls and
results, waits for the consent page, asks until it gets one of the options, and reports
failures."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from commerce_agent.agent.agents import OPENAI_AGENT
from commerce_agent.agent.chat import Chat
from commerce_agent.agent.client import AgentAPIError, AgentClient, Session
from commerce_agent.settings import Settings
from tests.support.agent_support import consent
from tests.support.lifecycle_support import mug_order
from tests.support.openai_fake import FakeOpenAI, OpenAIApp, Reply
from tests.support.streaming_asgi import Cut, StreamingASGITransport

BANNER = "Chatting with openai-shopper (openai:gpt-4o-mini). Type /quit to leave.\n"



@pytest.fixture
async def streaming(openai_api: OpenAIApp) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=StreamingASGITransport(openai_api[0]),
                                 base_url="http://test") as http:
        yield http


class Terminal:
    """The chat's terminal: typed lines in, everything shown (prompts too) collected."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.shown: list[str] = []
        self.on_write: Any = None

    def read(self, prompt: str) -> str:
        self.shown.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def write(self, text: str) -> None:
        self.shown.append(text)
        if self.on_write is not None:
            self.on_write(text)

    @property
    def text(self) -> str:
        return "".join(self.shown)


async def chat(http: httpx.AsyncClient, terminal: Terminal, agent: str | None = OPENAI_AGENT
               ) -> int:
    async with AgentClient("http://test", http=http) as client:
        return await Chat(client, agent, terminal.write, terminal.read).run()


# -- the chat --------------------------------------------------------------------------------

async def test_the_chat_shows_text_calls_and_results(streaming: httpx.AsyncClient,
                                                     openai_fake: FakeOpenAI) -> None:
    openai_fake.replies = [
        Reply(text="Let me look. ", calls=[("search_products", '{"query": "mug"}'),
                                           ("delete_the_store", "{}")]),
        Reply(text="The Glaze Mug is 18.00 USD.")]
    terminal = Terminal("find a mug", "   ", "/quit")
    assert await chat(streaming, terminal) == 0
    assert terminal.text == (
        BANNER + "you> "
        + "agent> Let me look. \n"
        + '  → search_products {"query":"mug"}\n'
        + "  → delete_the_store {}\n"
        + "  ← search_products: ok\n"
        + "  ← delete_the_store: error: There is no tool 'delete_the_store'.\n"
        + "agent> The Glaze Mug is 18.00 USD.\n\n"
        + "you> you> ")
    assert len(openai_fake.requests) == 2  # the blank line asked nothing


async def test_the_next_message_continues_the_same_session(streaming: httpx.AsyncClient,
                                                           openai_fake: FakeOpenAI) -> None:
    openai_fake.replies = [Reply(text="Hello."), Reply(text="Again.")]
    terminal = Terminal("hi", "and again")  # then end of input leaves
    assert await chat(streaming, terminal) == 0
    assert "agent> Hello.\n\nyou> agent> Again.\n\n" in terminal.text
    assert [m["content"] for m in openai_fake.requests[1]["messages"] if m["role"] == "user"] == [
        "hi", "and again"]


async def test_a_failed_session_ends_the_chat(streaming: httpx.AsyncClient,
                                              openai_fake: FakeOpenAI) -> None:
    openai_fake.replies = [Reply(status=401, error={"message": "Incorrect API key provided."})]
    terminal = Terminal("hi", "never read")
    assert await chat(streaming, terminal) == 1
    assert "The session failed: The model endpoint rejected the API key" in terminal.text
    assert terminal.lines == ["never read"]


async def test_a_refused_message_is_shown_and_the_chat_goes_on(
        streaming: httpx.AsyncClient, openai_fake: FakeOpenAI, settings: Settings) -> None:
    openai_fake.replies = [Reply(text="Short is fine.")]
    terminal = Terminal("x" * (settings.max_body_bytes + 1), "short", "/exit")
    assert await chat(streaming, terminal) == 0
    assert f"error: Request body exceeds {settings.max_body_bytes} bytes.\n" in terminal.text
    assert "agent> Short is fine." in terminal.text and len(openai_fake.requests) == 1


async def test_an_unknown_agent_stops_before_any_session(streaming: httpx.AsyncClient,
                                                         openai_api: OpenAIApp) -> None:
    terminal = Terminal("hi")
    assert await chat(streaming, terminal, agent="nobody") == 1
    assert terminal.text == ("error: the server has no agent 'nobody' (it has: shopper, "
                             "openai-shopper).\n")
    assert terminal.lines == ["hi"]


async def test_without_a_name_the_servers_default_agent_is_used(
        streaming: httpx.AsyncClient) -> None:
    terminal = Terminal()
    assert await chat(streaming, terminal, agent=None) == 0
    assert terminal.text == "Chatting with shopper (scripted). Type /quit to leave.\nyou> "


@pytest.mark.parametrize(("answers", "asked", "status"), [
    (["maybe", "  APPROVE "], 2, "cancelled"),
    (["no"], 2, "confirmed"),  # then end of input: the last option, reject
    (["reject"], 1, "confirmed"),
])
async def test_the_chat_waits_for_consent_and_asks_until_it_gets_an_option(
        openai_api: OpenAIApp, streaming: httpx.AsyncClient, openai_fake: FakeOpenAI,
        answers: list[str], asked: int, status: str) -> None:
    _, http, alice = openai_api
    order_id = (await mug_order(http, alice))["id"]
    openai_fake.replies = [Reply(text="Cancelling. ", calls=[
        ("connection__commerce__cancel_order", json.dumps({"orderId": order_id}))]),
        Reply(text="As you wish.")]
    terminal = Terminal("cancel my order", *answers)
    consented: list[asyncio.Task[httpx.Response]] = []

    def browser(text: str) -> None:  # the person opens the printed link and approves
        if match := re.search(r"http://test\S+/consent/\S+", text):
            consented.append(asyncio.get_running_loop().create_task(
                consent(http, match.group(0))))

    terminal.on_write = browser
    assert await chat(streaming, terminal) == 0
    assert consented and (await consented[0]).status_code == 200
    shown = terminal.text
    assert "The agent needs your commerce account. Open this link" in shown
    assert "  ✓ commerce connection authorized\n" in shown
    assert f"Cancel order {order_id}" in shown
    assert shown.count("[approve/reject]> ") == asked
    order = (await http.get(f"/orders/{order_id}", headers=alice)).json()
    assert order["status"] == status
    outcome = "ok" if status == "cancelled" else "error: "
    assert f"  ← connection__commerce__cancel_order: {outcome}" in shown
    assert shown.endswith("agent> As you wish.\n\nyou> ")


def test_a_structured_result_and_long_arguments_are_shown_compactly() -> None:
    terminal = Terminal()
    view = Chat(AgentClient("http://unused"), None, terminal.write, terminal.read)
    view.show({"type": "agent.tool_call",
               "data": {"tool": {"name": "search_products"}, "args": {"query": "é" * 200}}})
    view.show({"type": "result.completed", "data": {"result": {"price": 18, "item": "Mug"}}})
    view.show({"type": "agent.tool_result", "data": {"tool": {"name": "get_item"},
                                                     "isError": True, "result": None}})
    view.show({"type": "message.appended", "data": {}})  # not shown
    lines = terminal.text.splitlines()
    assert lines[0].startswith('  → search_products {"query":"éé') and lines[0].endswith("…")
    assert len(lines[0]) == len("  → search_products ") + 120
    assert lines[1:] == ['result: {"price": 18, "item": "Mug"}', "  ← get_item: error: "]


# -- the client ------------------------------------------------------------------------------

async def finished_session(http: httpx.AsyncClient, openai_fake: FakeOpenAI) -> tuple[
        Session, list[dict[str, Any]]]:
    openai_fake.replies = [
        Reply(text="Let me look. ", calls=[("search_products", '{"query": "mug"}')]),
        Reply(text="The Limited Edition Glaze Mug is 18.00 USD.", piece=3)]
    async with AgentClient("http://test", http=http) as client:
        session = await client.create("a mug", agent=OPENAI_AGENT)
        clean = [item async for item in client.events(session)]
    assert clean[-1]["type"] == "session.waiting"
    assert [item["streamIndex"] for item in clean] == list(range(len(clean)))
    return session, clean


async def test_a_dropped_stream_is_resumed_without_loss_or_repeats(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    """Dropped at every line boundary, just after it, and inside lines; once or twice in a
    row; from any start: the events handed out are exactly the clean stream's."""
    app, http, _ = openai_api
    session, clean = await finished_session(http, openai_fake)
    body = (await http.get(f"/agent/v1/session/{session.session_id}/stream")).content
    ends = [match.end() for match in re.finditer(b"\n", body)]
    offsets = sorted({0, 1, *ends, *(end + 1 for end in ends), *(end - 5 for end in ends)}
                     & set(range(len(body))))
    # (The client waits 0.2 s before a reconnect: a sample of the offsets keeps this quick.)
    cases = [([offset], 0) for offset in offsets[::max(1, len(offsets) // 10)]]
    cases += [([offset, 7], 2) for offset in offsets[1::len(offsets) // 2]]  # dropped again
    cases += [([ends[0]], start) for start in (5, len(clean), 99)]
    for cuts, start in cases:
        cut = Cut(httpx.ASGITransport(app=app), "/stream", cuts)
        async with httpx.AsyncClient(transport=cut, base_url="http://test") as flaky:
            client = AgentClient("http://test", http=flaky, retries=len(cuts))
            resumed_session = Session(session.session_id, session.continuation_token,
                                      next_index=start)
            resumed = [item async for item in client.events(resumed_session)]
        assert resumed == clean[start:], (cuts, start)
        assert resumed_session.next_index == max(len(clean), start)
        # Every reconnect asked from the first event not yet handed out.
        asked = [int(request.url.params["startIndex"]) for request in cut.requests]
        handed = [start] + [clean.index(item) + 1 for item in resumed]
        assert asked == sorted(asked) and set(asked) <= set(handed), (cuts, asked)
        assert len(asked) == len(cuts) + 1  # each cut did drop the connection


async def test_a_stream_that_keeps_dropping_gives_up(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    app, http, _ = openai_api
    session, clean = await finished_session(http, openai_fake)
    cut = Cut(httpx.ASGITransport(app=app), "/stream", [10, 0])
    async with httpx.AsyncClient(transport=cut, base_url="http://test") as flaky:
        client = AgentClient("http://test", http=flaky, retries=1)
        seen: list[dict[str, Any]] = []
        with pytest.raises(httpx.RemoteProtocolError):
            async for item in client.events(Session(session.session_id,
                                                    session.continuation_token)):
                seen.append(item)
    assert seen == [] and len(cut.requests) == 2


async def test_until_pause_follows_across_turns(streaming: httpx.AsyncClient,
                                                openai_fake: FakeOpenAI) -> None:
    openai_fake.replies = [Reply(text="One."), Reply(text="Two.")]
    async with AgentClient("http://test", http=streaming) as client:
        session = await client.create("first", agent=OPENAI_AGENT,
                                      client_context={"country": "US"})
        first = await client.until_pause(session)
        await client.send(session, "second")
        second = await client.until_pause(session)
    assert first[0]["streamIndex"] == 0 and first[-1]["type"] == "session.waiting"
    assert second[0]["streamIndex"] == first[-1]["streamIndex"] + 1
    assert second[-1]["type"] == "session.waiting"
    text = [item["data"]["text"] for item in second if item["type"] == "agent.content.delta"]
    assert "".join(text) == "Two."
    assert "Client context: " in openai_fake.requests[0]["messages"][0]["content"]


async def test_the_client_says_what_the_server_refused(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    async with AgentClient("http://test", http=http) as client:
        health = await client.health()
        assert health["status"] == "ready"
        session, _ = await finished_session(http, openai_fake)
        with pytest.raises(AgentAPIError) as unknown:
            async for _ in client.events(Session("sess_" + "0" * 26, "cat_x")):
                pass
        assert (unknown.value.status, unknown.value.code) == (404, "session_not_found")
        with pytest.raises(AgentAPIError) as wrong:
            await client.send(Session(session.session_id, "not-the-token"), "hi")
        assert (wrong.value.status, wrong.value.code) == (401, "unauthorized")
        assert str(wrong.value).startswith("401 unauthorized: ")
        assert await client.cancel(session) == "idle"
        with pytest.raises(AgentAPIError) as schema:
            await client.create("hi", output_schema={"type": "nonsense"})
        assert schema.value.status == 400
    async with AgentClient("http://test", http=http, mount="/nowhere") as lost:
        with pytest.raises(AgentAPIError) as missing:
            await lost.info()
    # Not the agent API's error shape: the status and the body's text.
    assert missing.value.status == 404 and missing.value.code == "http_error"


async def test_approve_and_reject_answer_the_open_request(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    _, http, alice = openai_api
    orders = [(await mug_order(http, alice))["id"] for _ in range(2)]
    async with AgentClient("http://test", http=http) as client:
        for order_id, answer in zip(orders, ["approve", "reject"], strict=True):
            openai_fake.replies = [Reply(calls=[("connection__commerce__cancel_order",
                                                 json.dumps({"orderId": order_id}))]),
                                   Reply(text="Done.")]
            session = await client.create("cancel", agent=OPENAI_AGENT)
            parked = [item async for item in client.events(session)]
            assert (await consent(http, parked[-1]["data"]["authUrl"])).status_code == 200
            asked = [item async for item in client.events(session)][-1]
            assert asked["type"] == "input.requested"
            answering = client.approve if answer == "approve" else client.reject
            await answering(session, asked["data"]["requestId"])
            rest = [item async for item in client.events(session)]
            assert rest[-1]["type"] == "session.waiting"
    statuses = [(await http.get(f"/orders/{order_id}", headers=alice)).json()["status"]
                for order_id in orders]
    assert statuses == ["cancelled", "confirmed"]
