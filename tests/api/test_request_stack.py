"""The one request layer of the Commerce API (request_stack) answers as Starlette's
ServerErrorMiddleware, ExceptionMiddleware and our negotiation middlewares did together."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce_agent.app import create_app
from commerce_agent.commerce import versions
from commerce_agent.errors import CommerceError
from commerce_agent.http import json_response
from commerce_agent.settings import Settings
from tests.support.app import MEDIA


def _varies(response: httpx.Response) -> set[str]:
    return {value.strip() for value in ",".join(response.headers.get_list("vary")).split(",")}


async def _boom(request: Request) -> Response:
    raise RuntimeError("something broke")


async def _refuse(request: Request) -> Response:
    raise CommerceError(409, "out_of_luck", "Not today.", headers={"Retry-After": "5"})


async def _shaped(request: Request) -> Response:
    return json_response({"served": str(versions.current().served(
        "dev.commerce.product.variants").version)})


@pytest.fixture
def extra_routes(app: Starlette) -> None:
    app.router.routes[:0] = [Route("/carts/test/boom", _boom), Route("/carts/test/refuse", _refuse),
                             Route("/carts/test/shaped", _shaped),
                             Route("/agent/v1/test/boom", _boom)]


async def test_a_success_carries_the_negotiated_headers(client: httpx.AsyncClient,
                                                        extra_routes: None) -> None:
    response = await client.get("/carts/test/shaped", headers={
        "Accept-Language": "fr",
        "Accept-Commerce-Capabilities": "dev.commerce.product.variants@1.0"})
    assert response.status_code == 200
    assert response.json() == {"served": "1.0"}
    assert response.headers["content-language"] == "en"  # nothing in it was translated
    assert _varies(response) == {"Accept-Language", "Accept-Commerce-Capabilities"}
    assert versions.current() is versions.NOTHING_ASKED  # left behind with its request


async def test_a_handled_error_goes_through_its_handler_with_the_headers(
        client: httpx.AsyncClient, extra_routes: None) -> None:
    response = await client.get("/carts/test/refuse", headers={"Accept-Language": "fr"})
    assert response.status_code == 409
    assert response.json()["code"] == "out_of_luck"
    assert response.headers["retry-after"] == "5"
    assert response.headers["content-type"] == MEDIA
    assert "content-language" in response.headers
    assert _varies(response) == {"Accept-Language", "Accept-Commerce-Capabilities"}


async def test_an_unknown_route_is_a_structured_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/carts/a/b/c/d/e")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert "Accept-Commerce-Capabilities" in _varies(response)


async def test_an_unexpected_error_is_a_500_and_still_reaches_the_server(
        app: Starlette, extra_routes: None) -> None:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get("/carts/test/boom")
    assert response.status_code == 500
    body = response.json()
    assert body["code"] == "internal_error"
    assert "something broke" not in response.text
    # The server logs what escaped the app (uvicorn does, for an exception raised on).
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        with pytest.raises(RuntimeError, match="something broke"):
            await client.get("/carts/test/boom")


async def test_the_agent_api_keeps_starlettes_stack(app: Starlette, extra_routes: None,
                                                    client: httpx.AsyncClient) -> None:
    response = await client.get("/agent/v1/nothing-here", headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    assert "content-language" not in response.headers  # its text is not localized
    assert "Accept-Commerce-Capabilities" not in _varies(response)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as plain:
        failed = await plain.get("/agent/v1/test/boom")
    assert failed.status_code == 500 and failed.json()["code"] == "internal_error"


class _Seen:
    """Plain ASGI middleware noting each request's path and response status."""

    def __init__(self, app: ASGIApp, seen: list[tuple[str, int]]) -> None:
        self.app = app
        self.seen = seen

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def noting(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.seen.append((scope["path"], message["status"]))
                message = {**message, "headers": [*message.get("headers", ()),
                                                   (b"x-seen", b"yes")]}
            await send(message)

        await self.app(scope, receive, noting)


async def test_add_middleware_sees_every_route_commerce_api_included(
        settings: Settings) -> None:
    app = create_app(settings)
    seen: list[tuple[str, int]] = []
    app.add_middleware(_Seen, seen=seen)
    app.router.routes[:0] = [Route("/carts/test/refuse", _refuse)]
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=transport, base_url="http://test") as client:
        found = await client.get("/capabilities")
        refused = await client.get("/carts/test/refuse", headers={"Accept-Language": "fr"})
        missing = await client.get("/carts/cart_nope")
        agent = await client.get("/agent/v1/health")
    assert seen == [("/capabilities", 200), ("/carts/test/refuse", 409),
                    ("/carts/cart_nope", 401), ("/agent/v1/health", 200)]
    assert all(response.headers["x-seen"] == "yes"
               for response in (found, refused, missing, agent))
    # Still inside the negotiation layer: its headers wrap what the middleware answered.
    assert refused.json()["code"] == "out_of_luck" and "content-language" in refused.headers
    assert "Accept-Commerce-Capabilities" in _varies(found)
