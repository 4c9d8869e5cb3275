"""The indexed router answers exactly as Starlette's plain router would, only faster."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, Router

from commerce_agent.routing import IndexedRouter
from tests.support.app import MEDIA


def _sample_paths(app: Starlette) -> list[str]:
    """A concrete path for every route (parameters filled in), plus near misses."""
    paths = {"/", "/nothing", "/carts/", "/capabilities/", "/carts/x/items/y/z",
             "/agent/v1/info", "/agent/v1/sessions/x/events", "/.well-known/commerce"}
    for route in app.routes:
        path = getattr(route, "path", "")
        if "{" in path:
            filled = "/".join("x" if part.startswith("{") else part for part in path.split("/"))
            paths.add(filled)
        else:
            paths.add(path or "/")
    return sorted(paths)


async def _answers(client: httpx.AsyncClient, paths: list[str], headers: dict[str, str]
                   ) -> dict[tuple[str, str], tuple[int, str | None]]:
    answers = {}
    for path in paths:
        for method in ("GET", "POST", "PATCH", "DELETE"):
            if method == "POST" and path.startswith(("/auth/", "/account/sign-out")):
                continue  # these would sign the caller out between the two passes
            response = await client.request(method, path, headers=headers, content=b"{}")
            answers[(method, path)] = (response.status_code, response.headers.get("allow"))
    return answers


async def test_every_route_answers_as_with_a_plain_router(app: Starlette,
                                                          client: httpx.AsyncClient,
                                                          alice: dict[str, str]) -> None:
    assert isinstance(app.router, IndexedRouter)
    paths = _sample_paths(app)
    headers = {**alice, "Content-Type": "application/json"}
    indexed = await _answers(client, paths, headers)
    plain = Router(routes=app.router.routes, redirect_slashes=app.router.redirect_slashes)
    indexed_router, app.router = app.router, plain
    app.middleware_stack = None  # rebuilt around the plain router
    try:
        expected = await _answers(client, paths, headers)
    finally:
        app.router, app.middleware_stack = indexed_router, None
    assert len(indexed) > 150
    assert indexed == expected
    assert {status for status, _ in indexed.values()} >= {200, 404, 405}


async def test_routes_added_later_are_matched(app: Starlette, client: httpx.AsyncClient
                                              ) -> None:
    async def special(request: Request) -> JSONResponse:
        return JSONResponse({"special": request.path_params["name"]})

    assert (await client.get("/carts/special/one")).status_code == 404
    app.router.routes.insert(0, Route("/carts/special/{name}", special))
    response = await client.get("/carts/special/one")
    assert response.status_code == 200 and response.json() == {"special": "one"}


async def test_url_paths_are_built_from_every_route(app: Starlette) -> None:
    assert app.url_path_for("get_cart", cart_id="c1") == "/carts/c1"
    assert app.url_path_for("get_capabilities") == "/capabilities"


async def test_a_root_path_is_still_routed(app: Starlette) -> None:
    """Behind a proxy prefix (root_path) the index steps aside and the full list is tried."""
    transport = httpx.ASGITransport(app=app, root_path="/shop")
    async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                 headers={"Accept": MEDIA}) as client:
        response = await client.get("/shop/capabilities")
    assert response.status_code == 200 and response.json()["capabilities"]


def test_routes_whose_first_segment_is_a_parameter_join_every_group() -> None:
    async def endpoint(request: Request) -> JSONResponse:
        return JSONResponse({})

    anywhere = Route("/{kind}/list", endpoint)
    router = IndexedRouter([Route("/carts", endpoint), anywhere, Route("/orders", endpoint)])
    groups: dict[str, Any] = router._groups
    assert set(groups) == {"carts", "orders"}
    assert all(anywhere in group.routes for group in groups.values())
