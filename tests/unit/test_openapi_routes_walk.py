"""Walking routes for the OpenAPI document (`openapi/introspect.py`) on small apps made here:
paths in OpenAPI form, HEAD left out, mounts (and mounts wrapping their router in middleware)
walked, objects compared by identity, wrapped handlers read as what they wrap, empty closure
cells, and summaries from docstrings or names. (Decoders found through closures:
test_openapi_introspect.py.)"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route, Router

from commerce_agent.openapi import introspect


class Note(msgspec.Struct):
    text: str


class Tag(msgspec.Struct):
    name: str


_note = msgspec.json.Decoder(Note)
_tag = msgspec.json.Decoder(Tag)
_MARKER = object()


async def create_note(request: Request) -> Response:
    """Create a note.

    More text that is not the summary."""
    _note.decode(await request.body())
    return PlainTextResponse("ok")


async def list_tags(request: Request) -> Response:
    return PlainTextResponse(str(_MARKER))


def test_paths_are_written_the_openapi_way() -> None:
    assert introspect.openapi_path("/carts/{cart_id}") == "/carts/{cart_id}"
    assert introspect.openapi_path("/files/{name:path}/x/{n:int}") == "/files/{name}/x/{n}"
    endpoint = introspect.Endpoint("GET", "/a/{b}/c/{d}", list_tags, "")
    assert endpoint.params == ["b", "d"]


def test_every_method_but_head_and_every_mount_is_walked() -> None:
    inner = Router(routes=[Route("/{note_id:int}", create_note, methods=["PUT"])])
    wrapped = ExceptionMiddleware(Router(routes=[Route("/tags", list_tags)]))
    routes = [
        Route("/notes", create_note, methods=["POST", "GET"]),
        Mount("/v1", routes=[Route("/tags", list_tags),
                             Mount("/deep", routes=[Route("/x", list_tags)])]),
        Mount("/agent", app=inner),
        Mount("/wrapped", app=wrapped),
        Mount("/static", app=PlainTextResponse("not a router")),
    ]
    found = [(e.method, e.path, e.mount) for e in introspect.walk(routes)]
    assert found == [
        ("GET", "/notes", ""), ("POST", "/notes", ""),
        ("GET", "/v1/tags", "/v1"), ("GET", "/v1/deep/x", "/v1"),
        ("PUT", "/agent/{note_id}", "/agent"),
        ("GET", "/wrapped/tags", "/wrapped"),
    ]


def test_the_whole_app_is_walked_from_its_router() -> None:
    app = Starlette(routes=[Route("/notes", create_note, methods=["POST"])])
    assert [(e.method, e.path) for e in introspect.walk(app.router.routes)] == [
        ("POST", "/notes")]


def test_refers_to_compares_objects_not_names() -> None:
    assert introspect.refers_to(list_tags, _MARKER)
    assert not introspect.refers_to(list_tags, object())
    assert introspect.refers_to(create_note, _note)
    assert not introspect.refers_to(create_note, _tag)


def test_a_wrapped_handler_is_read_as_the_function_it_wraps() -> None:
    async def wrapper(request: Request) -> Response:
        return await create_note(request)

    wrapper.__wrapped__ = create_note  # type: ignore[attr-defined]
    assert introspect.request_types(wrapper) == [Note]
    assert introspect.request_types(PlainTextResponse("x")) == []  # no function at all


def test_a_summary_is_the_first_docstring_line_else_the_name() -> None:
    assert introspect.summary(create_note) == "Create a note"
    assert introspect.summary(list_tags) == "List tags"

    async def _private_thing(request: Request) -> Response:
        return PlainTextResponse("")

    assert introspect.summary(_private_thing) == "Private thing"


def test_an_empty_closure_cell_is_read_as_nothing() -> None:
    def outer() -> Any:
        def inner() -> Any:
            return later  # noqa: F821 - assigned after inner is made

        cell_reader = inner
        later = None  # noqa: F841
        return cell_reader

    def unfilled() -> Any:
        def inner() -> Any:
            return value  # type: ignore[has-type]  # noqa: F821

        return inner
        value = 1  # noqa: F841 - never reached: the cell stays empty

    assert introspect.request_types(outer()) == []
    assert introspect.request_types(unfilled()) == []
