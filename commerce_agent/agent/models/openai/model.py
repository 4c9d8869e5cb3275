"""The `openai` model: one streamed chat completion per step, retried when it fails midway.

A step that fails with a retryable error is asked again, up to the policy's attempts. Text
already passed on is not passed on twice: the new answer's text is skipped while it repeats
what was sent (a regenerated answer that differs continues from where the old one stopped).
Tool calls and the structured result are only taken from a stream that reached its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx

from commerce_agent.agent.models.base import (
    ModelError,
    ModelOutput,
    ModelRequest,
    StructuredResult,
    TextDelta,
)
from commerce_agent.agent.models.openai import transport
from commerce_agent.agent.models.openai.stream import StreamAssembler
from commerce_agent.agent.models.openai.wire import request_body

Sleep = Callable[[float], Awaitable[None]]


class _Resent:
    """Drops the part of a retried stream's text that was passed on by an earlier attempt."""

    def __init__(self, sent: str) -> None:
        self.left = sent

    def unsent(self, text: str) -> str:
        if not self.left:
            return text
        if self.left.startswith(text):
            self.left = self.left[len(text):]
            return ""
        if text.startswith(self.left):
            text, self.left = text[len(self.left):], ""
            return text
        self.left = ""  # the new answer differs: go on from here
        return text


class OpenAIModel:
    name = "openai"

    def __init__(self, base_url: str, api_key: str, model: str,
                 client: httpx.AsyncClient, *, policy: transport.RetryPolicy | None = None,
                 timeout: float = 120.0, context_tokens: int | None = 16000,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.model = model
        self.client = client
        self.policy = policy or transport.RetryPolicy()
        # Seconds without a byte from the endpoint (and to connect) before the attempt fails.
        self.timeout = httpx.Timeout(timeout, connect=min(timeout, 10.0))
        self.context_tokens = context_tokens
        self.sleep = sleep

    async def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = f"{self.base_url}/chat/completions"
        body = request_body(self.model, request, self.context_tokens)
        sent = ""
        retry = 0
        while True:
            assembler = StreamAssembler()
            resent = _Resent(sent)
            try:
                async with contextlib.aclosing(transport.chunks(
                        self.client, url, body, headers, self.timeout)) as stream:
                    async for chunk in stream:
                        if chunk is None:
                            assembler.done = True
                            continue  # the stream ends right after [DONE]
                        for text in assembler.feed(chunk):
                            fresh = resent.unsent(text)
                            if fresh:
                                sent += fresh
                                yield TextDelta(fresh)
                if not assembler.complete:
                    raise transport.Retryable("ended its stream before the answer was complete")
                break
            except transport.Retryable as failure:
                retry += 1
                wait = self.policy.delay(retry, failure)
                if retry > self.policy.max_retries:
                    raise ModelError(f"The model endpoint {failure.reason} (gave up after "
                                     f"{retry} attempts).") from None
                if wait > self.policy.max_retry_after:
                    raise ModelError(f"The model endpoint {failure.reason}, and asked to retry "
                                     f"after {wait:.0f} s (more than "
                                     f"{self.policy.max_retry_after:.0f} s).") from None
                await self.sleep(wait)
        calls = assembler.tool_calls()
        for call in calls:
            yield call
        if not calls and request.output_schema is not None:
            try:
                yield StructuredResult(json.loads(sent))
            except json.JSONDecodeError:
                raise ModelError("The model's answer is not the JSON the output schema "
                                 "asks for.") from None
