"""The Commerce API's one way to read a request, on a bare ASGI request: the body's size and
type, every decoding failure as a 400 that points at its field, JSON's `2.0` read as the
integer 2, and integer query parameters held to their bounds."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from starlette.requests import ClientDisconnect, Request
from starlette.types import Message

from commerce_agent import http
from commerce_agent.errors import CommerceError

LIMIT = 64


class Line(msgspec.Struct, forbid_unknown_fields=True):
    quantity: int


class Body(msgspec.Struct, forbid_unknown_fields=True):
    lines: list[Line]
    note: str = ""


DECODER = msgspec.json.Decoder(Body)


class _Client:
    """The receive side of one request: its body in `chunks`, counting the reads."""

    def __init__(self, *chunks: bytes, disconnect: bool = False) -> None:
        self.messages: list[Message] = [
            {"type": "http.request", "body": chunk, "more_body": at < len(chunks) - 1}
            for at, chunk in enumerate(chunks)]
        if disconnect:
            self.messages = [{**self.messages[0], "more_body": True},
                             {"type": "http.disconnect"}]
        self.reads = 0

    async def receive(self) -> Message:
        self.reads += 1
        return self.messages.pop(0)


def _request(client: _Client, *, content_type: str | None = "application/json",
             length: int | None = None, query: bytes = b"") -> Request:
    headers = [(b"content-type", content_type.encode())] if content_type else []
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    app = SimpleNamespace(state=SimpleNamespace(settings=SimpleNamespace(max_body_bytes=LIMIT)))
    scope: dict[str, Any] = {"type": "http", "method": "POST", "path": "/", "headers": headers,
                             "query_string": query, "app": app}
    return Request(scope, client.receive)


async def _refusal(*chunks: bytes, **options: Any) -> CommerceError:
    with pytest.raises(CommerceError) as refused:
        await http.decode_body(_request(_Client(*chunks), **options), DECODER)
    return refused.value


async def test_a_body_in_chunks_is_decoded() -> None:
    body = await http.decode_body(_request(_Client(b'{"lines": [{"quan', b'tity": 2}]}')),
                                  DECODER)
    assert body == Body([Line(2)])


async def test_whole_floats_are_integers_and_others_point_at_their_field() -> None:
    decoded = await http.decode_body(_request(_Client(b'{"lines": [{"quantity": 2.0}]}')),
                                     DECODER)
    assert decoded.lines[0].quantity == 2 and type(decoded.lines[0].quantity) is int
    error = await _refusal(b'{"lines": [{"quantity": 1}, {"quantity": 2.5}]}')
    assert error.details == [{"type": "validation", "field": "/lines/1/quantity",
                              "reason": "expected `int`, got `float`"}]


async def test_an_unknown_field_is_named_in_its_pointer() -> None:
    error = await _refusal(b'{"lines": [{"quantity": 1, "colour": "red"}]}')
    assert error.status == 400
    assert error.details[0]["field"] == "/lines/0/colour"
    assert error.details[0]["reason"] == "is not a known field"


async def test_a_missing_field_and_a_wrong_top_level_type() -> None:
    assert (await _refusal(b'{"note": "x"}')).details[0]["reason"] \
        == "object missing required field `lines`"
    assert (await _refusal(b"[]")).details[0]["field"] == "/"


async def test_an_empty_body_is_400_whatever_its_type() -> None:
    for content_type in ("application/json", "text/plain", None):
        error = await _refusal(b"", content_type=content_type)
        assert (error.status, error.details[0]["reason"]) == (400, "body is empty")
    blank = await _refusal(b"  \n\t")
    assert (blank.status, blank.details[0]["reason"]) == (400, "body is empty")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/jsonx", None])
async def test_a_body_that_is_not_json_by_type_is_415(content_type: str | None) -> None:
    error = await _refusal(b'{"lines": []}', content_type=content_type)
    assert (error.status, error.code) == (415, "unsupported_media_type")


@pytest.mark.parametrize("content_type", ["Application/JSON; charset=utf-8",
                                          "application/commerce+json; version=1.0"])
async def test_json_types_are_matched_without_case_or_parameters(content_type: str) -> None:
    request = _request(_Client(b'{"lines": []}'), content_type=content_type)
    assert await http.decode_body(request, DECODER) == Body([])


async def test_a_declared_length_past_the_limit_is_refused_unread() -> None:
    client = _Client(b"x" * (LIMIT + 1))
    with pytest.raises(CommerceError) as refused:
        await http.read_body(_request(client, length=LIMIT + 1))
    assert (refused.value.status, refused.value.params) == (413, {"limit": LIMIT})
    assert client.reads == 0


async def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit() -> None:
    client = _Client(b"x" * LIMIT, b"y", b"z" * 1000)
    with pytest.raises(CommerceError) as refused:
        await http.read_body(_request(client))
    assert refused.value.status == 413
    assert client.reads == 2  # the third chunk is left for body_limit to drain


async def test_a_body_of_exactly_the_limit_is_read() -> None:
    assert await http.read_body(_request(_Client(b"1" * LIMIT))) == b"1" * LIMIT


async def test_the_body_is_read_once_per_request() -> None:
    client = _Client(b'{"lines": []}')
    request = _request(client)
    assert await http.read_body(request) == await http.read_body(request) == b'{"lines": []}'
    assert client.reads == 1


async def test_a_client_gone_mid_body_is_a_disconnect_not_an_error_answer() -> None:
    with pytest.raises(ClientDisconnect):
        await http.read_body(_request(_Client(b"{", disconnect=True)))


def test_header_reads_the_first_value_as_latin_1() -> None:
    request = _request(_Client(b""))
    request.scope["headers"] += [(b"x-name", "Zoë".encode("latin-1")), (b"x-name", b"2")]
    assert http.header(request, b"x-name") == "Zoë"
    assert http.header(request, b"x-missing") is None


@pytest.mark.parametrize(("query", "value"), [(b"", 20), (b"limit=1", 1), (b"limit=100", 100),
                                              (b"limit=007", 7), (b"other=5", 20)])
def test_query_int_reads_a_bounded_integer(query: bytes, value: int) -> None:
    assert http.query_int(_request(_Client(b""), query=query), "limit", 20, 1, 100) == value


@pytest.mark.parametrize("raw", ["0", "101", "-1", "1.5", "", "%D9%A3", "1e2", "+5"])
def test_query_int_refuses_anything_else_naming_the_parameter(raw: str) -> None:
    with pytest.raises(CommerceError) as refused:
        http.query_int(_request(_Client(b""), query=f"limit={raw}".encode()),
                       "limit", 20, 1, 100)
    assert refused.value.status == 400
    detail = refused.value.details[0]
    assert (detail["field"], detail["reason"]) == ("limit", "must be an integer from 1 to 100")


def test_reason_of_lowers_only_the_first_letter() -> None:
    assert http.reason_of("Expected `str` matching regex `\\S+`.") \
        == "expected `str` matching regex `\\S+`"
    assert http.reason_of("") == ""
