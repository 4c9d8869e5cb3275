"""What every JSON document a client sends must be, beyond the schema of its route.

msgspec decodes a body into its struct, but leaves four things through: a duplicate key (the
last one wins, so `{"storeId":"a","storeId":"b"}` would mean "b" to us and "a" to a proxy or
log reader that keeps the first), U+0000 in a string (PostgreSQL refuses it in text), nesting
that makes every later recursive walk costly, and invalid UTF-8 inside a string (raised as
UnicodeDecodeError rather than as a DecodeError). `check` refuses all four, and malformed JSON
(NaN and Infinity included: a store file read by Python's json would keep them), with one
MalformedJson each front end renders in its own error shape: the Commerce API
(http.decode_body), the agent API (agent.routes), MCP (mcp.routes), payment proofs and
catalog imports.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64  # levels of objects and arrays; the deepest sample document has 8


class MalformedJson(ValueError):
    """A JSON document refused before decoding: `reason` is short (for details), `message`
    a sentence."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _NotANumber(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, JSON (RFC 8259) has none."""


def _no_constant(name: str) -> Any:
    raise _NotANumber(name)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return value


def _walk(value: Any, *, depth: bool, nul: bool) -> None:
    """Depth past MAX_DEPTH and U+0000 in any key or string, without recursion."""
    stack = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            if depth and level > MAX_DEPTH:
                raise _too_deep()
            if nul and any("\x00" in key for key in node):
                raise _nul()
            stack.extend((child, level + 1) for child in node.values())
        elif isinstance(node, list):
            if depth and level > MAX_DEPTH:
                raise _too_deep()
            stack.extend((child, level + 1) for child in node)
        elif nul and isinstance(node, str) and "\x00" in node:
            raise _nul()


def _too_deep() -> MalformedJson:
    return MalformedJson("nested too deeply",
                         f"The JSON body nests objects and arrays more than {MAX_DEPTH} deep.")


def _nul() -> MalformedJson:
    return MalformedJson("contains U+0000", "Strings in the JSON body must not contain U+0000.")


def check(body: bytes, *, nul: bool = True) -> None:
    """Raise MalformedJson unless `body` is one well-formed JSON document in UTF-8 (no NaN or
    Infinity, which Python's parser reads), without duplicate keys, U+0000 (unless `nul` is
    False: MCP refuses it per argument, as invalid params) or nesting past MAX_DEPTH. Costs a
    few microseconds for a typical body; the walk runs only when a cheap count says it could
    find something."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedJson("not UTF-8", f"The body is not valid UTF-8 (byte {exc.start}).") \
            from None
    try:
        value = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant)
    except _DuplicateKey as exc:
        raise MalformedJson("duplicate key",
                            f"The JSON body repeats the key {exc.key!r} in one object.") \
            from None
    except _NotANumber as exc:
        raise MalformedJson("malformed JSON", f"Malformed JSON: {exc} is not a JSON number.") \
            from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:  # json.JSONDecodeError
        raise MalformedJson("malformed JSON", f"Malformed JSON: {exc}") from None
    deep = body.count(b"{") + body.count(b"[") > MAX_DEPTH
    nul = nul and b"\\u0000" in body
    if deep or nul:
        _walk(value, depth=deep, nul=nul)


def check_value(value: Any) -> None:
    """The same rules for a value a library decoded already (MCP tool arguments): no U+0000
    in a key or string, no nesting past MAX_DEPTH."""
    _walk(value, depth=True, nul=True)
