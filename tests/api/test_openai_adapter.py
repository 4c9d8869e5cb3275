"""The `openai` model's step against an in-process chat-completions server (tests/support/
openai_fake.py): what it sends, how it reads streamed and whole answers, which failures it
retries and for how long, and the reason it gives when it stops."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelError,
    ModelRequest,
    StructuredResult,
    TextDelta,
)
from commerce_agent.agent.models.openai import OpenAIModel, RetryPolicy
from tests.support.openai_fake import (
    BASE_URL,
    FULL_TEXT,
    KEY,
    LONG_TEXT,
    FakeOpenAI,
    Reply,
    Sleeps,
    calls_of,
    chunk,
    outputs,
    recording_payloads,
    text_of,
)

SCHEMA = {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"],
          "additionalProperties": False}


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenAI]:
    yield FakeOpenAI()


@pytest.fixture
async def http(fake: FakeOpenAI) -> AsyncIterator[httpx.AsyncClient]:
    async with fake.client() as client:
        yield client


def model_for(http: httpx.AsyncClient, sleeps: Sleeps | None = None, key: str = KEY,
              **options: Any) -> OpenAIModel:
    return OpenAIModel(options.pop("base_url", BASE_URL), key, "gpt-4o-mini", http,
                       sleep=sleeps or Sleeps(),
                       policy=options.pop("policy", RetryPolicy(max_retries=3, base_delay=0.5)),
                       **options)


# -- what is sent --------------------------------------------------------------------------

async def test_a_streamed_answer_arrives_piece_by_piece(fake: FakeOpenAI,
                                                       http: httpx.AsyncClient) -> None:
    fake.replies = [Reply("openai_text.sse")]
    found = await outputs(model_for(http, base_url=BASE_URL + "/"))
    assert text_of(found) == FULL_TEXT
    assert len([output for output in found if isinstance(output, TextDelta)]) > 3
    assert all(output.text for output in found if isinstance(output, TextDelta))
    (body,) = fake.requests
    assert body["model"] == "gpt-4o-mini" and body["stream"] is True
    assert body["messages"] == [{"role": "system", "content": "You shop."},
                                {"role": "user", "content": "a mug please"}]
    assert "tools" not in body and "response_format" not in body
    assert fake.headers[0]["authorization"] == f"Bearer {KEY}"


async def test_without_a_key_no_authorization_is_sent(fake: FakeOpenAI,
                                                      http: httpx.AsyncClient) -> None:
    """A local server (Ollama) needs no key: no empty `Bearer ` header goes out."""
    with pytest.raises(ModelError, match=r"rejected the API key \(401"):
        await outputs(model_for(http, key=""))
    assert "authorization" not in fake.headers[0]


async def test_client_context_reaches_the_system_message(fake: FakeOpenAI,
                                                         http: httpx.AsyncClient) -> None:
    request = ModelRequest("You shop.", [Message("user", "hi")], [],
                           client_context={"country": "FR", "note": "café"})
    await outputs(model_for(http), request)
    system = fake.requests[0]["messages"][0]["content"]
    assert system.startswith("You shop.\n\nClient context: ")
    assert json.loads(system.split("Client context: ", 1)[1]) == {"country": "FR",
                                                                  "note": "café"}


# -- retries -------------------------------------------------------------------------------

async def test_429_waits_as_long_as_the_server_asks(fake: FakeOpenAI,
                                                    http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(status=429, headers={"Retry-After": "7"}),
                    Reply(status=429, headers={"retry-after-ms": "250", "Retry-After": "9"}),
                    Reply(status=429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),
                    Reply("openai_text.sse")]
    sleeps = Sleeps()
    found = await outputs(model_for(http, sleeps))
    # A date already past means "now", never a negative sleep.
    assert sleeps.waits == [7.0, 0.25, 0.0]
    assert text_of(found) == FULL_TEXT and len(fake.requests) == 4


@pytest.mark.parametrize("status", [408, 409, 500, 502, 503, 504])
async def test_retryable_statuses_are_asked_again(fake: FakeOpenAI, http: httpx.AsyncClient,
                                                  status: int) -> None:
    fake.replies = [Reply(status=status), Reply("openai_text.sse")]
    sleeps = Sleeps()
    assert text_of(await outputs(model_for(http, sleeps))) == FULL_TEXT
    assert len(sleeps.waits) == 1 and 0.25 <= sleeps.waits[0] <= 0.5


async def test_backoff_doubles_up_to_its_cap_then_gives_up(fake: FakeOpenAI,
                                                           http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(status=503)] * 6
    sleeps = Sleeps()
    policy = RetryPolicy(max_retries=5, base_delay=1.0, max_backoff=4.0)
    with pytest.raises(ModelError, match=r"answered 503: overloaded \(gave up after 6 "):
        await outputs(model_for(http, sleeps, policy=policy))
    assert len(fake.requests) == 6 and len(sleeps.waits) == 5
    for wait, ceiling in zip(sleeps.waits, [1.0, 2.0, 4.0, 4.0, 4.0], strict=True):
        assert ceiling / 2 <= wait <= ceiling


async def test_no_retries_means_one_attempt(fake: FakeOpenAI, http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(status=500)]
    sleeps = Sleeps()
    with pytest.raises(ModelError, match=r"gave up after 1 attempts"):
        await outputs(model_for(http, sleeps, policy=RetryPolicy(max_retries=0)))
    assert sleeps.waits == [] and len(fake.requests) == 1


async def test_a_retry_after_beyond_the_limit_fails_now(fake: FakeOpenAI,
                                                        http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(status=429, headers={"Retry-After": "90"})]
    sleeps = Sleeps()
    with pytest.raises(ModelError, match=r"asked to retry after 90 s \(more than 60 s\)"):
        await outputs(model_for(http, sleeps))
    assert sleeps.waits == [] and len(fake.requests) == 1


async def test_exhausted_quota_is_a_refusal_not_a_retry(fake: FakeOpenAI,
                                                        http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(status=429, error={"message": "You exceeded your current quota.",
                                             "type": "insufficient_quota",
                                             "code": "insufficient_quota"})]
    with pytest.raises(ModelError, match=r"quota is used up \(429 insufficient_quota\): "
                                         r"You exceeded your current quota\."):
        await outputs(model_for(http))
    assert len(fake.requests) == 1


@pytest.mark.parametrize(("status", "error", "reason"), [
    (403, {"message": "Project is not allowed."}, r"refused access with this API key "
                                                  r"\(403 Forbidden\): Project is not allowed\."),
    (404, {"message": "The model `gpt-4o-mini` does not exist.", "code": "model_not_found"},
     r"answered 404 for model 'gpt-4o-mini' at http://openai\.test/v1/chat/completions: "
     r"The model `gpt-4o-mini` does not exist\. Check --openai-base-url"),
    (400, {"message": "Invalid schema for response_format."},
     r"answered 400: Invalid schema for response_format\.$"),
    (404, "model 'llama3' not found, try pulling it first",  # Ollama's {"error": "..."}
     r"answered 404 for model .*: model 'llama3' not found, try pulling it first"),
    (422, {"detail": "unprocessable"}, r"answered 422: \{'detail': 'unprocessable'\}$"),
    (400, b"Bad Gateway Request", r"answered 400: Bad Gateway Request$"),
    (400, b"x" * 1000, r"answered 400: x{300}$"),  # clipped to what a person reads
])
async def test_refusals_say_what_to_fix_and_are_not_retried(
        fake: FakeOpenAI, http: httpx.AsyncClient, status: int, error: Any,
        reason: str) -> None:
    fake.replies = [Reply(status=status, error=error)]
    sleeps = Sleeps()
    with pytest.raises(ModelError, match=reason):
        await outputs(model_for(http, sleeps))
    assert sleeps.waits == [] and len(fake.requests) == 1


async def test_a_retryable_status_with_a_text_body_keeps_its_reason(
        fake: FakeOpenAI, http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(status=502, error=b"<html>502 Bad Gateway</html>")] * 2
    with pytest.raises(ModelError, match=r"answered 502: <html>502 Bad Gateway</html> "
                                         r"\(gave up after 2 attempts\)"):
        await outputs(model_for(http, policy=RetryPolicy(max_retries=1)))


@pytest.mark.parametrize(("fault", "reason"), [
    (httpx.ConnectError, r"could not be reached at http://openai\.test/v1/chat/completions "
                         r"\(ConnectError: .*\); is the server running\?"),
    (httpx.ConnectTimeout, r"could not be reached at .*ConnectTimeout"),
    (httpx.ReadTimeout, r"timed out \(ReadTimeout\)"),
    (httpx.PoolTimeout, r"timed out \(PoolTimeout\)"),
    (httpx.ReadError, r"dropped the connection \(ReadError: "),
])
async def test_network_failures_are_retried_then_named(
        fake: FakeOpenAI, http: httpx.AsyncClient, fault: type[httpx.TransportError],
        reason: str) -> None:
    fake.replies = [Reply(fault=fault)] * 3 + [Reply("openai_text.sse")]
    sleeps = Sleeps()
    assert text_of(await outputs(model_for(http, sleeps))) == FULL_TEXT
    assert len(sleeps.waits) == 3
    fake.replies = [Reply(fault=fault)] * 4
    with pytest.raises(ModelError, match=reason + r".*\(gave up after 4 attempts\)"):
        await outputs(model_for(http))


# -- streams cut short ---------------------------------------------------------------------

@pytest.mark.parametrize("dropped", [True, False])
async def test_a_cut_stream_is_retried_without_repeating_text(
        fake: FakeOpenAI, http: httpx.AsyncClient, dropped: bool) -> None:
    fake.replies = [Reply("openai_long_text.sse", cut_after=8, dropped=dropped),
                    Reply("openai_long_text.sse")]
    sleeps = Sleeps()
    found = await outputs(model_for(http, sleeps))
    assert text_of(found) == LONG_TEXT
    assert len(fake.requests) == 2 and len(sleeps.waits) == 1


async def test_a_regenerated_answer_goes_on_from_the_first_difference(
        fake: FakeOpenAI, http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(text="The Limited mug", cut_after=4),  # "The Limited " sent
                    Reply(text="The Limited Edition mug is 18.00 USD.")]
    found = await outputs(model_for(http))
    assert text_of(found) == "The Limited Edition mug is 18.00 USD."
    fake.replies = [Reply(text="Sure, the blue one", cut_after=4),
                    Reply(text="Here: the red one.")]
    assert text_of(await outputs(model_for(http))) == "Sure, the blHere: the red one."


async def test_a_finish_reason_without_done_is_a_complete_answer(
        fake: FakeOpenAI, http: httpx.AsyncClient) -> None:
    payloads = recording_payloads("openai_text.sse")
    assert payloads[-1] == "[DONE]"
    fake.replies = [Reply(events=payloads[:-1])]
    sleeps = Sleeps()
    assert text_of(await outputs(model_for(http, sleeps))) == FULL_TEXT
    assert sleeps.waits == [] and len(fake.requests) == 1


async def test_tool_calls_of_a_cut_stream_are_not_run(fake: FakeOpenAI,
                                                      http: httpx.AsyncClient) -> None:
    """Only a stream that reached its end gives calls: the retry's calls, once."""
    fake.replies = [Reply(text="", calls=[("search_products", '{"query": "mug"}')],
                          cut_after=4),
                    Reply(text="", calls=[("search_products", '{"query": "teapot"}')])]
    found = await outputs(model_for(http))
    assert calls_of(found) == [CallTool("search_products", {"query": "teapot"})]


async def test_events_after_done_are_ignored(fake: FakeOpenAI, http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(events=[chunk({"content": "Hello."}), "[DONE]",
                                  chunk({"content": " Ignored."}), "not json"])]
    assert text_of(await outputs(model_for(http))) == "Hello."


@pytest.mark.parametrize(("payload", "reason"), [
    ("{not json", r"sent a malformed chunk: Expecting property name"),
    ("[1, 2]", r"sent a malformed chunk: \[1, 2\]"),
    ('"text"', r"sent a malformed chunk: \"text\""),
    (json.dumps({"error": {"message": "The server had an error while processing your "
                                      "request."}}),
     r"failed mid-answer: The server had an error while processing your request\."),
])
async def test_a_broken_chunk_fails_the_step_without_retrying(
        fake: FakeOpenAI, http: httpx.AsyncClient, payload: str, reason: str) -> None:
    fake.replies = [Reply(events=[chunk({"content": "Hel"}), payload, "[DONE]"])]
    sleeps = Sleeps()
    with pytest.raises(ModelError, match=reason):
        await outputs(model_for(http, sleeps))
    assert sleeps.waits == [] and len(fake.requests) == 1


# -- answers not streamed ------------------------------------------------------------------

async def test_a_whole_completion_is_read_as_one_chunk(fake: FakeOpenAI,
                                                       http: httpx.AsyncClient) -> None:
    fake.replies = [Reply("not_streamed_completion.json")]
    found = await outputs(model_for(http))
    assert found == [TextDelta("Looking that up."),
                     CallTool("search_products", {"query": "celadon teapot"})]


@pytest.mark.parametrize("body", [b"{}", b'{"choices": []}', b"nonsense",
                                  b'{"choices": ["x"]}', b"[]"])
async def test_a_json_answer_that_is_no_completion_is_refused(
        fake: FakeOpenAI, http: httpx.AsyncClient, body: bytes) -> None:
    fake.replies = [Reply(whole=body)]
    with pytest.raises(ModelError, match="sent an answer that is not a chat completion"):
        await outputs(model_for(http))


async def test_a_whole_completion_without_a_finish_reason_is_complete(
        fake: FakeOpenAI, http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(whole=json.dumps({"choices": [{"index": 0, "message": {
        "role": "assistant", "content": "Done."}}]}).encode())]
    sleeps = Sleeps()
    assert await outputs(model_for(http, sleeps)) == [TextDelta("Done.")]
    assert sleeps.waits == []


# -- tool calls and results ----------------------------------------------------------------

@pytest.mark.parametrize(("arguments", "invalid"), [
    ('{"query": "mug"', "The arguments are not valid JSON (Expecting"),
    ("[1, 2]", "The arguments must be a JSON object, not [1, 2]"),
    ('"mug"', 'The arguments must be a JSON object, not "mug"'),
    ("x" * 400, "…"),
])
async def test_unreadable_arguments_make_an_invalid_call(
        fake: FakeOpenAI, http: httpx.AsyncClient, arguments: str, invalid: str) -> None:
    fake.replies = [Reply(calls=[("search_products", arguments)])]
    (call,) = calls_of(await outputs(model_for(http)))
    assert call.name == "search_products" and call.args == {}
    assert invalid in call.invalid and len(call.invalid) < 400


async def test_empty_arguments_are_an_empty_object(fake: FakeOpenAI,
                                                   http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(calls=[("list_stores", ""), ("list_stores", "  ")])]
    assert calls_of(await outputs(model_for(http))) == [CallTool("list_stores", {})] * 2


@pytest.mark.parametrize(("recording", "expected"), [
    ("openai_split_arguments.sse", [("search_products", {"query": "glaze mug",
                                                         "maxPrice": "20"})]),
    ("openai_two_calls.sse", [("search_products", {"query": "teapot"}),
                              ("search_products", {"query": "matcha bowl",
                                                   "storeId": "store_midori"})]),
    ("ollama_whole_calls.sse", [("search_products", {"query": "teapot"}),
                                ("list_stores", {})]),
])
async def test_recorded_calls_are_assembled(fake: FakeOpenAI, http: httpx.AsyncClient,
                                            recording: str,
                                            expected: list[tuple[str, dict[str, Any]]]) -> None:
    fake.replies = [Reply(recording)]
    found = await outputs(model_for(http))
    assert [(call.name, call.args, call.invalid) for call in calls_of(found)] == \
        [(name, args, "") for name, args in expected]
    assert not [output for output in found if isinstance(output, StructuredResult)]


async def test_the_pre_tools_function_call_protocol_is_read(fake: FakeOpenAI,
                                                            http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(events=[
        chunk({"role": "assistant", "content": None,
               "function_call": {"name": "search_", "arguments": ""}}),
        chunk({"function_call": {"name": "products", "arguments": '{"query":'}}),
        chunk({"function_call": {"arguments": ' "vase"}'}}),
        chunk({}, "function_call"), "[DONE]"])]
    assert calls_of(await outputs(model_for(http))) == [
        CallTool("search_products", {"query": "vase"})]


async def test_a_second_choice_is_not_mixed_into_the_answer(fake: FakeOpenAI,
                                                            http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(events=[chunk({"content": "One."}), chunk({"content": "Two."}, index=1),
                                  chunk({}, "stop"), "[DONE]"])]
    assert text_of(await outputs(model_for(http))) == "One."


# -- structured output ---------------------------------------------------------------------

async def test_a_json_answer_becomes_the_structured_result(fake: FakeOpenAI,
                                                           http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(text='{"item": "Glaze Mug"}')]
    request = ModelRequest("You shop.", [Message("user", "as JSON")], [], output_schema=SCHEMA)
    found = await outputs(model_for(http), request)
    assert found[-1] == StructuredResult({"item": "Glaze Mug"})
    assert fake.requests[0]["response_format"]["json_schema"] == {
        "name": "result", "schema": SCHEMA, "strict": True}


async def test_a_retried_json_answer_is_parsed_whole(fake: FakeOpenAI,
                                                     http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(text='{"item": "Glaze Mug"}', cut_after=3),
                    Reply(text='{"item": "Glaze Mug"}')]
    request = ModelRequest("You shop.", [Message("user", "as JSON")], [], output_schema=SCHEMA)
    assert (await outputs(model_for(http), request))[-1] == StructuredResult({"item":
                                                                             "Glaze Mug"})


async def test_an_answer_that_is_not_json_fails_the_schema(fake: FakeOpenAI,
                                                           http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(text="The Glaze Mug, of course!")]
    request = ModelRequest("You shop.", [Message("user", "as JSON")], [], output_schema=SCHEMA)
    with pytest.raises(ModelError, match="not the JSON the output schema asks for"):
        await outputs(model_for(http), request)


async def test_calls_come_before_any_structured_result(fake: FakeOpenAI,
                                                       http: httpx.AsyncClient) -> None:
    fake.replies = [Reply(text="", calls=[("search_products", '{"query": "mug"}')])]
    request = ModelRequest("You shop.", [Message("user", "as JSON")], [], output_schema=SCHEMA)
    found = await outputs(model_for(http), request)
    assert found == [CallTool("search_products", {"query": "mug"})]
