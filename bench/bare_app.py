"""The ceiling: a bare Starlette JSON endpoint, served by uvicorn exactly like our server."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def hello(request: Request) -> JSONResponse:
    return JSONResponse({"id": "cat_bare", "name": "Bare Starlette", "items": []})


app = Starlette(routes=[Route("/catalogs/bare", hello)])
