"""Keep a conversation within the model's context: old tool results go first.

Tokens are estimated at four characters each (the usual figure for English and JSON), so the
budget is approximate: set it below the model's real context length. Local servers (Ollama's
2048–4096 tokens by default) otherwise cut the prompt from the front, losing the instructions.
"""

from __future__ import annotations

import json
from typing import Any

CHARS_PER_TOKEN = 4
# Each message costs a few tokens of framing beyond its text.
MESSAGE_OVERHEAD = 4
TRIMMED = json.dumps({"trimmed": "This older tool result was removed to keep the conversation "
                                 "within the context budget; call the tool again if needed."})


def estimate_tokens(value: Any) -> int:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return len(text) // CHARS_PER_TOKEN + 1


def _cost(messages: list[dict[str, Any]]) -> int:
    return sum(estimate_tokens(message) + MESSAGE_OVERHEAD for message in messages)


def _last_step(messages: list[dict[str, Any]]) -> int:
    """Index of the latest assistant message that called tools (its results stay whole)."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "assistant" and messages[index].get("tool_calls"):
            return index
    return len(messages)


def fit_messages(messages: list[dict[str, Any]], budget_tokens: int,
                 fixed: Any = None) -> list[dict[str, Any]]:
    """`messages` (system first) trimmed to `budget_tokens` with `fixed` (the tools) counted:
    older tool results are replaced by a note, oldest first; then, if still over, the oldest
    exchanges are dropped whole, always keeping the system message and the latest user
    message. A conversation that cannot fit is sent as it stands (the endpoint says so)."""
    room = budget_tokens - (estimate_tokens(fixed) if fixed else 0)
    fitted = [dict(message) for message in messages]
    total = _cost(fitted)
    if total <= room:
        return fitted
    for index in range(1, _last_step(fitted)):
        message = fitted[index]
        if message.get("role") == "tool" and message.get("content") != TRIMMED:
            before = estimate_tokens(message)
            message["content"] = TRIMMED
            total -= before - estimate_tokens(message)
            if total <= room:
                return fitted
    users = [index for index, message in enumerate(fitted) if message.get("role") == "user"]
    # Drop from the front up to the next user message, never the last user message.
    for cut in users[1:]:
        kept = [fitted[0], *fitted[cut:]]
        if _cost(kept) <= room:
            return kept
    return [fitted[0], *fitted[users[-1]:]] if users else fitted
