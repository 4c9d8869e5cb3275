"""Read the app itself: every route (mounts included), and what each handler's code uses.

The request body of an operation is the type of the module-level `msgspec.json.Decoder` its
handler (or a function nested in it) refers to, so the document follows the code: change a
request struct and /openapi.json changes with it. Auth and idempotency are read the same way,
from the helpers the handler refers to (`require_principal`, `writer_principal`,
`optional_principal`, `write`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType, FunctionType
from typing import Any

import msgspec
from starlette.routing import BaseRoute, Mount, Route

_PARAM_RE = re.compile(r"{([a-zA-Z_][a-zA-Z0-9_]*)(?::[a-zA-Z_]+)?}")


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str  # OpenAPI form: /carts/{cart_id}
    handler: Callable[..., Any]
    mount: str  # the Mount prefix the route sits under ("" at the top level)

    @property
    def params(self) -> list[str]:
        return _PARAM_RE.findall(self.path)


def openapi_path(path: str) -> str:
    """Starlette's `{name:convertor}` becomes OpenAPI's `{name}`."""
    return _PARAM_RE.sub(r"{\1}", path)


def _inner_routes(mount: Mount) -> list[BaseRoute]:
    if mount.routes:
        return list(mount.routes)
    app: Any = mount.app
    for _ in range(10):  # unwrap middleware (ExceptionMiddleware(router), …)
        routes = getattr(app, "routes", None)
        if routes is not None:
            return list(routes)
        app = getattr(app, "app", None)
        if app is None:
            break
    return []


def walk(routes: list[BaseRoute], prefix: str = "", mount: str = "") -> Iterator[Endpoint]:
    """Every (method, path) the app answers, HEAD left out (it mirrors GET)."""
    for route in routes:
        if isinstance(route, Route):
            for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                yield Endpoint(method, openapi_path(prefix + route.path), route.endpoint,
                               mount)
        elif isinstance(route, Mount):
            inner_prefix = prefix + route.path
            yield from walk(_inner_routes(route), inner_prefix, mount or inner_prefix)


def _codes(code: CodeType) -> Iterator[CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def _functions(handler: Callable[..., Any]) -> Iterator[FunctionType]:
    """The handler's function and the functions of its own module that its closure holds,
    theirs too: a handler a factory made (one per cart change) keeps its request reader
    there. Services it holds are another module's, and what they name is not the route's."""
    function = getattr(handler, "__wrapped__", handler)
    if not isinstance(function, FunctionType):
        return
    yield function
    for value in _contents(function):
        if isinstance(value, FunctionType) and value.__module__ == function.__module__:
            yield from _functions(value)


def _contents(function: FunctionType) -> list[object]:
    """What the function's closure cells hold (None for a cell not filled yet)."""
    values: list[object] = []
    for cell in function.__closure__ or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:  # an empty cell
            values.append(None)
    return values


def _named(handler: Callable[..., Any]) -> Iterator[object]:
    """Every object the handler's code names: module globals and closure variables."""
    for function in _functions(handler):
        scope = dict(function.__globals__)
        scope.update(zip(function.__code__.co_freevars, _contents(function), strict=True))
        names = {name for code in _codes(function.__code__) for name in code.co_names}
        names |= set(function.__code__.co_freevars)
        yield from (scope[name] for name in sorted(names) if name in scope)


def request_types(handler: Callable[..., Any]) -> list[Any]:
    """The types of the JSON body decoders the handler uses (usually one struct)."""
    found = []
    for value in _named(handler):
        if isinstance(value, msgspec.json.Decoder) and value.type not in found:
            found.append(value.type)
    return found


def refers_to(handler: Callable[..., Any], *targets: object) -> bool:
    """Whether the handler's code names one of `targets` (the objects, not just the names)."""
    return any(value is target for value in _named(handler) for target in targets)


def summary(handler: Callable[..., Any]) -> str:
    doc = (getattr(handler, "__doc__", None) or "").strip()
    if doc:
        return doc.splitlines()[0].rstrip(".")
    name = getattr(handler, "__name__", "operation")
    return name.replace("_", " ").strip().capitalize()
