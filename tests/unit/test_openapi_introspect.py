"""What the OpenAPI introspection reads from a handler's code: the decoders and helpers it
names as globals, and those a factory left in its closure (the cart change handlers)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from commerce_agent.commerce.routes import carts
from commerce_agent.openapi import introspect


class Greeting(msgspec.Struct):
    text: str


class Farewell(msgspec.Struct):
    text: str


_greeting = msgspec.json.Decoder(Greeting)


def _helper() -> None:
    """Stands for a helper such as `write`: the introspection asks whether a handler names
    it."""


async def global_handler(request: Any) -> Any:
    _helper()
    return _greeting.decode(request)


def _reader(decoder: msgspec.json.Decoder[Any]) -> Callable[[Any], Awaitable[Any]]:
    async def read(request: Any) -> Any:
        return decoder.decode(request)

    return read


def _factory(read: Callable[[Any], Awaitable[Any]], helper: Callable[[], None]
             ) -> Callable[[Any], Awaitable[Any]]:
    async def handler(request: Any) -> Any:
        helper()
        return await read(request)

    return handler


def test_a_handler_names_its_decoder_and_helpers_as_globals() -> None:
    assert introspect.request_types(global_handler) == [Greeting]
    assert introspect.refers_to(global_handler, _helper)
    assert not introspect.refers_to(global_handler, _reader)


def test_a_factory_made_handler_is_read_through_its_closures() -> None:
    handler = _factory(_reader(msgspec.json.Decoder(Farewell)), _helper)
    assert introspect.request_types(handler) == [Farewell]
    assert introspect.refers_to(handler, _helper)
    assert not introspect.refers_to(handler, global_handler)


def test_a_function_of_another_module_in_the_closure_is_not_read() -> None:
    """A service a factory holds names its own module's things, not the route's: the cart
    reader `carts._new_line` decodes AddItemRequest, but only for the cart routes."""
    assert introspect.request_types(carts.add_item) == [carts.AddItemRequest]
    handler = _factory(carts._new_line, _helper)
    assert introspect.request_types(handler) == []
    assert introspect.refers_to(handler, _helper)


def test_a_handler_without_a_body_has_no_request_type() -> None:
    async def plain(request: Any) -> Any:
        return request

    assert introspect.request_types(plain) == []
    assert introspect.request_types(len) == []  # not Python code: nothing to read
