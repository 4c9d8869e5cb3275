"""Public browsing: stores, catalogs, single items and item reviews."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from commerce_agent import clock
from commerce_agent.auth.principal import optional_principal, require_principal
from commerce_agent.commerce.pagination import next_link, pagination, read_page
from commerce_agent.commerce.services.catalog import catalog_json
from commerce_agent.commerce.services.catalog import storefront as service
from commerce_agent.commerce.services.catalog.cache import MAX_ITEMS, CatalogCache
from commerce_agent.commerce.storage import catalog as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from commerce_agent.http import MEDIA_TYPE, decode_body, json_response, request_locale
from commerce_agent.ids import new_id
from commerce_agent.routing import Route


async def list_stores(request: Request) -> Response:
    page = read_page(request)
    stores, total = await service.list_stores(request.app.state.db, page.limit, page.offset,
                                              request_locale(request))
    return json_response({"stores": stores, "pagination": pagination(page, total)})


async def get_store(request: Request) -> Response:
    store = await service.get_store(request.app.state.db, request.path_params["store_id"],
                                    request_locale(request))
    return json_response(store)


async def list_catalogs(request: Request) -> Response:
    page = read_page(request)
    catalogs, total = await service.list_catalogs(request.app.state.db, page.limit, page.offset,
                                                  request_locale(request))
    link = next_link(request, page, total)
    return json_response(catalogs, headers={"Link": link} if link else None)


async def get_catalog(request: Request) -> Response:
    """The catalog whole (the default; streamed batch by batch when large), or with one page
    of its items when `limit` or `cursor` is given (docs/decisions.md, "Catalog pages")."""
    principal = await optional_principal(request)
    db, catalog_id, locale = request.app.state.db, request.path_params["catalog_id"], \
        request_locale(request)
    if "limit" in request.query_params or "cursor" in request.query_params:
        page = read_page(request, key=(int, str))
        return json_response(await catalog_json.page(db, catalog_id, principal, locale, page))
    if principal is None:  # review actions differ per user: signed-in reads are never kept
        cache: CatalogCache = request.app.state.catalog_cache
        key = (catalog_id, locale, request.headers.get("accept-commerce-capabilities", ""))
        parts = await cache.read(
            key, lambda: catalog_json.build(db, catalog_id, locale, MAX_ITEMS),
            lambda kept: catalog_json.restock(db, kept, locale))
        if parts.complete:
            return Response(parts.body, media_type=MEDIA_TYPE)
    first, rest = await catalog_json.whole(db, catalog_id, principal, locale)
    if rest is None:
        return Response(first, media_type=MEDIA_TYPE)
    return StreamingResponse(_chained(first, rest), media_type=MEDIA_TYPE)



async def _chained(first: bytes, rest: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    yield first
    async for chunk in rest:
        yield chunk


async def get_item(request: Request) -> Response:
    principal = await optional_principal(request)
    item = await service.get_item(request.app.state.db, request.path_params["item_id"],
                                  principal, request_locale(request))
    return json_response(item)


class ReviewRequest(msgspec.Struct, forbid_unknown_fields=True):
    rating: Annotated[int, Meta(ge=1, le=5)]
    comment: Annotated[str, Meta(max_length=2000)] = ""


_review_decoder = msgspec.json.Decoder(ReviewRequest)


async def add_review(request: Request) -> Response:
    principal = await require_principal(request)
    item_id = request.path_params["item_id"]
    body = await decode_body(request, _review_decoder)  # rating 1 to 5, comment ≤ 2000
    db = request.app.state.db
    if not await storage.items_with_stock(db, [item_id]):
        raise CommerceError(404, "item_not_found", f"No item with id {item_id!r}.")
    if item_id not in await storage.purchased_item_ids(db, principal.user_id, [item_id]):
        raise CommerceError(403, "forbidden", "Only customers who bought this item can review it.")
    review = {"id": new_id("rev"), "itemId": item_id, "ownerId": principal.user_id,
              "rating": body.rating, "comment": body.comment, "createdAt": clock.now_iso()}

    async def insert(tx: Transaction) -> Response:
        if not await storage.insert_review(tx, review):
            raise CommerceError(409, "review_exists", "You have already reviewed this item.")
        public = {key: review[key] for key in ("id", "itemId", "rating", "comment", "createdAt")}
        return json_response(public, status=201)

    return await write(request, principal, insert)


routes = [
    Route("/stores", list_stores, methods=["GET"]),
    Route("/stores/{store_id}", get_store, methods=["GET"]),
    Route("/catalogs", list_catalogs, methods=["GET"]),
    Route("/catalogs/{catalog_id}", get_catalog, methods=["GET"]),
    Route("/items/{item_id}", get_item, methods=["GET"]),
    Route("/items/{item_id}/reviews", add_review, methods=["POST"]),
]
