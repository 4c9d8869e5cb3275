"""The rules of every JSON document a client sends, on the bytes themselves: where a body is
not UTF-8, which key repeats (at any depth), U+0000 anywhere unless MCP judges it itself, and
nesting up to MAX_DEPTH but not past it (tests/api/test_request_input.py sends them to every
route)."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.json_input import MAX_DEPTH, MalformedJson, check, check_value


def _reason(body: bytes, **options: Any) -> tuple[str, str]:
    with pytest.raises(MalformedJson) as refused:
        check(body, **options)
    return refused.value.reason, refused.value.message


def _nested(levels: int, leaf: str = "1") -> bytes:
    return ('{"a": ' * levels + leaf + "}" * levels).encode()


@pytest.mark.parametrize("body", [b"{}", b"[]", b'"text"', b"null", b"1.5",
                                  '{"name": "Zoë 日本"}'.encode(), b'{"a": "\\u00e9"}',
                                  b'{"a": {"a": 1}, "b": {"a": 2}}'])
def test_well_formed_documents_pass(body: bytes) -> None:
    check(body)


def test_bad_utf_8_names_its_byte() -> None:
    assert _reason(b'{"name": "caf\xe9"}') == ("not UTF-8",
                                              "The body is not valid UTF-8 (byte 13).")
    assert _reason(b"\xef\xbb")[0] == "not UTF-8"  # a cut-off BOM


@pytest.mark.parametrize("body", [b'{"a": 1, "a": 2}', b'{"x": [{"id": 1, "id": 1}]}',
                                  b'[{"k": {"deep": 1, "deep": 1}}]'])
def test_a_repeated_key_is_refused_at_any_depth(body: bytes) -> None:
    reason, message = _reason(body)
    assert reason == "duplicate key" and "repeats the key" in message


@pytest.mark.parametrize("body", [b'{"a": "x\\u0000"}', b'{"a\\u0000": 1}',
                                  b'[["\\u0000"]]', b'{"a": [{"b": "\\u0000"}]}'])
def test_u_0000_is_refused_in_keys_and_strings(body: bytes) -> None:
    assert _reason(body)[0] == "contains U+0000"
    check(body, nul=False)  # MCP refuses it per argument instead


def test_an_escaped_backslash_before_u0000_is_no_nul() -> None:
    check(b'{"a": "\\\\u0000"}')  # the text \u0000, six characters


def test_nesting_up_to_max_depth_passes_and_one_more_is_refused() -> None:
    check(_nested(MAX_DEPTH))
    check(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    assert _reason(_nested(MAX_DEPTH + 1))[0] == "nested too deeply"
    assert _reason(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))[0] == "nested too deeply"


def test_many_brackets_inside_strings_are_not_nesting() -> None:
    check(b'{"a": "' + b"[{" * (MAX_DEPTH * 2) + b'"}')


def test_nesting_past_the_parser_is_refused_not_raised() -> None:
    assert _reason(b"[" * 200_000 + b"]" * 200_000)[0] == "nested too deeply"


@pytest.mark.parametrize("body", [b"", b"{", b"{'a': 1}", b'{"a": 1,}', b"[1] [2]", b"NaN1",
                                  b'{"a": 01}'])
def test_malformed_json_is_refused_with_the_parsers_message(body: bytes) -> None:
    reason, message = _reason(body)
    assert reason == "malformed JSON" and message.startswith("Malformed JSON: ")


def test_a_decoded_value_is_held_to_the_same_rules() -> None:
    check_value({"a": [1, {"b": "text"}]})
    for bad in ({"a": "x\x00"}, {"k\x00": 1}, [[["\x00"]]]):
        with pytest.raises(MalformedJson, match="U\\+0000"):
            check_value(bad)
    deep: Any = 1
    for _ in range(MAX_DEPTH):
        deep = [deep]
    check_value(deep)
    with pytest.raises(MalformedJson, match="more than 64 deep"):
        check_value([deep])


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_numbers_json_does_not_have_are_malformed(constant: str) -> None:
    reason, message = _reason(b'{"latitude": %s}' % constant.encode())
    assert reason == "malformed JSON" and f"{constant} is not a JSON number" in message
    check(b'{"name": "%s"}' % constant.encode())  # as text it is only a word
