"""POST a chat completion and read its server-sent events, saying clearly what went wrong.

Failures worth another attempt (429, 408, 409, 5xx, a refused or timed-out connection, a
stream cut off before its end) raise `Retryable`, carrying the server's `Retry-After` when it
sent one; the rest (a wrong key, an unknown model, a bad request, exhausted quota) raise
`ModelError` with a reason a person can act on.
"""

from __future__ import annotations

import email.utils
import json
import random
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

import httpx

from commerce_agent.agent.models.base import ModelError

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})


class Retryable(Exception):
    """A failure another attempt may get past; `retry_after` is the server's wish, if any."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded attempts with exponential backoff and jitter; a server's Retry-After wins."""

    max_retries: int = 3
    # First backoff delay in seconds; doubled per attempt, capped at `max_backoff`.
    base_delay: float = 0.5
    max_backoff: float = 8.0
    # A Retry-After longer than this fails the step now instead of stalling the turn.
    max_retry_after: float = 60.0

    def delay(self, retry: int, failure: Retryable) -> float:
        """Seconds to wait before retry number `retry` (1-based)."""
        if failure.retry_after is not None:
            return max(failure.retry_after, 0.0)
        backoff: float = min(self.base_delay * 2.0 ** (retry - 1), self.max_backoff)
        return backoff * (0.5 + random.random() / 2)  # noqa: S311 - jitter, not a secret


def retry_after(headers: httpx.Headers) -> float | None:
    """The wait a response asks for: `retry-after-ms` (OpenAI), else `Retry-After` in seconds
    or as an HTTP date."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            return float(milliseconds) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return when.timestamp() - time.time()


def _error_text(body: bytes) -> tuple[str, str]:
    """(message, code) from an error body: OpenAI's {error: {message, code}}, Ollama's
    {error: "..."}, or the text itself."""
    text = body.decode(errors="replace").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return text[:300], ""
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        return str(error.get("message") or error)[:300], str(error.get("code") or "")
    return str(error)[:300], ""


def _refusal(status: int, message: str, code: str, url: str, model: str) -> ModelError:
    if status == 401:
        return ModelError(f"The model endpoint rejected the API key (401 Unauthorized): "
                          f"{message} Check --openai-api-key.")
    if status == 403:
        return ModelError(f"The model endpoint refused access with this API key "
                          f"(403 Forbidden): {message}")
    if status == 404:
        return ModelError(f"The model endpoint answered 404 for model {model!r} at {url}: "
                          f"{message} Check --openai-base-url and --openai-model.")
    if status == 429:
        return ModelError(f"The model endpoint's quota is used up (429 {code}): {message}")
    return ModelError(f"The model endpoint answered {status}: {message}")


def _as_chunk(body: bytes) -> dict[str, Any]:
    """A whole (not streamed) chat.completion as the one chunk that would have carried it."""
    try:
        completion = json.loads(body)
        choice = completion["choices"][0]
        message = choice.get("message") or {}
    except (json.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError):
        raise ModelError(f"The model endpoint sent an answer that is not a chat "
                         f"completion: {body[:200]!r}") from None
    calls = [{**call, "index": index} for index, call in
             enumerate(message.get("tool_calls") or []) if isinstance(call, dict)]
    delta = {"content": message.get("content"), "tool_calls": calls}
    return {"choices": [{"index": 0, "delta": delta,
                         "finish_reason": choice.get("finish_reason") or "stop"}]}


async def chunks(client: httpx.AsyncClient, url: str, body: dict[str, Any],
                 headers: dict[str, str], timeout: httpx.Timeout
                 ) -> AsyncGenerator[dict[str, Any] | None, None]:
    """The stream's decoded `data:` chunks, then None for `[DONE]` (and nothing after it)."""
    try:
        async with client.stream("POST", url, json=body, headers=headers,
                                 timeout=timeout) as response:
            if response.status_code != 200:
                message, code = _error_text(await response.aread())
                if response.status_code in RETRY_STATUSES and code != "insufficient_quota":
                    raise Retryable(f"answered {response.status_code}: {message}",
                                    retry_after(response.headers))
                raise _refusal(response.status_code, message, code, url, body["model"])
            if "json" in response.headers.get("content-type", ""):
                # A server that ignores `stream: true` answers one chat.completion object.
                yield _as_chunk(await response.aread())
                yield None
                return
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue  # comments (": keep-alive"), event names, blank lines
                data = line[5:].strip()
                if data == "[DONE]":
                    yield None
                    return
                try:
                    chunk = json.loads(data)
                except json.JSONDecodeError as exc:
                    raise ModelError(f"The model endpoint sent a malformed chunk: {exc}: "
                                     f"{data[:200]}") from None
                if not isinstance(chunk, dict):
                    raise ModelError(f"The model endpoint sent a malformed chunk: {data[:200]}")
                if chunk.get("error"):
                    message, _ = _error_text(json.dumps(chunk).encode())
                    raise ModelError(f"The model endpoint failed mid-answer: {message}")
                yield chunk
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        raise Retryable(f"could not be reached at {url} ({type(exc).__name__}: {exc}); "
                        "is the server running?") from exc
    except httpx.TimeoutException as exc:
        raise Retryable(f"timed out ({type(exc).__name__})") from exc
    except httpx.TransportError as exc:
        raise Retryable(f"dropped the connection ({type(exc).__name__}: {exc})") from exc
