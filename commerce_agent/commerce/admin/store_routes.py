"""Admin routes for stores: create, read, edit (info, policies, shipping regions, constraints),
catalogs, and promotion codes."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.address import Address
from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal, owned, owned_write
from commerce_agent.commerce.capability_ids import STORE_INFO as INFO
from commerce_agent.commerce.catalog_import.source import slug
from commerce_agent.commerce.shop import checks, stores, writes
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, json_response
from commerce_agent.ids import new_id
from commerce_agent.routing import Route

Identifier = Annotated[str, Meta(pattern=checks.ID_PATTERN.pattern)]
PromotionCode = Annotated[str, Meta(pattern=checks.CODE_PATTERN.pattern)]
Name = stores.Name
Description = stores.Description
Document = stores.Document


class NewStore(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Name
    currency: stores.Currency
    id: Identifier | None = None
    description: Description = ""
    location: Address | None = None


class NewCatalog(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Name
    id: Identifier | None = None
    description: Description = ""


class CatalogPatch(msgspec.Struct, forbid_unknown_fields=True):
    name: Name | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    metadata: Document | UnsetType = UNSET


_new_store = msgspec.json.Decoder(NewStore)
_store_patch = msgspec.json.Decoder(stores.StorePatch)
_new_catalog = msgspec.json.Decoder(NewCatalog)
_promotion = msgspec.json.Decoder(stores.PromotionPut)
_catalog_patch = msgspec.json.Decoder(CatalogPatch)


async def _store_doc(tx: Any, store_id: str) -> dict[str, Any]:
    return await writes.admin_store(tx, store_id)


async def list_stores(request: Request) -> Response:
    """List the merchant's stores."""
    principal = await merchant_principal(request)
    db = request.app.state.db
    found = [await _store_doc(db, store_id)
              for store_id in await access.store_ids(db, principal)]
    return json_response({"stores": found})


async def create_store(request: Request) -> Response:
    """Create a store run by the calling merchant."""
    principal = await merchant_principal(request)
    body = await decode_body(request, _new_store)
    reason = checks.currency_problem(body.currency)
    if reason:
        raise validation_error("/currency", reason, body.currency)

    async def work(tx: Transaction) -> Response:
        store_id = body.id
        if store_id is None:
            base = f"store_{slug(body.name)}"
            store_id = new_id("store") if await storage.id_taken(tx, "stores", base) else base
        elif await storage.id_taken(tx, "stores", store_id):
            raise validation_error("/id", "is already used by another store", store_id)
        store = msgspec.to_builtins(body)
        store.update(id=store_id, metadata={INFO: {"_version": "1.0", "name": body.name}})
        await writes.add_store(tx, store)
        await storage.link_merchant(tx, store_id, principal.user_id)
        return json_response(await _store_doc(tx, store_id), status=201,
                             headers={"Location": f"/admin/stores/{store_id}"})

    return await write(request, principal, work)


async def get_store(request: Request) -> Response:
    """One of the merchant's stores."""
    store = await owned(request, access.own_store, "store_id")
    return json_response(await _store_doc(request.app.state.db, store.id))


async def update_store(request: Request) -> Response:
    """Edit a store: name, description, location, info, policies, shipping, constraints."""

    async def work(tx: Transaction, store: access.Target[None, stores.StorePatch]
                   ) -> Response:
        return json_response(await stores.update(tx, store.id, store.body))

    return await owned_write(request, access.own_store, "store_id", work, _store_patch)


async def create_catalog(request: Request) -> Response:
    """Add a catalog to one of the merchant's stores."""

    async def work(tx: Transaction, store: access.Target[None, NewCatalog]) -> Response:
        store_id, body = store.id, store.body
        catalog = msgspec.to_builtins(body)
        if body.id is None:
            base = f"cat_{slug(body.name)}"
            catalog["id"] = new_id("cat") if await storage.id_taken(tx, "catalogs", base) \
                else base
        elif await storage.id_taken(tx, "catalogs", body.id):
            raise validation_error("/id", "is already used by another catalog", body.id)
        await writes.put_catalog(tx, store_id, catalog)
        return json_response({**catalog, "storeId": store_id}, status=201,
                             headers={"Location": f"/catalogs/{catalog['id']}"})

    return await owned_write(request, access.own_store, "store_id", work, _new_catalog)


async def update_catalog(request: Request) -> Response:
    """Rename or describe a catalog of one of the merchant's stores."""
    principal = await merchant_principal(request)
    catalog_id = request.path_params["catalog_id"]
    body = await decode_body(request, _catalog_patch)

    async def work(tx: Transaction) -> Response:
        row = await storage.catalog_row(tx, catalog_id)
        if row is None or row["store_id"] not in await access.store_ids(tx, principal):
            raise not_found("catalog", catalog_id)
        catalog = writes.decode(row["doc"])
        catalog.update({key: value for key, value in msgspec.structs.asdict(body).items()
                        if value is not UNSET})
        await writes.put_catalog(tx, str(row["store_id"]), catalog)
        return json_response({**catalog, "storeId": row["store_id"]})

    return await write(request, principal, work)


async def list_promotions(request: Request) -> Response:
    """The store's promotion codes."""
    store = await owned(request, access.own_store, "store_id")
    return json_response({"promotions": await storage.promotions(request.app.state.db,
                                                                  store.id)})


async def put_promotion(request: Request) -> Response:
    """Create or replace a promotion code of the store."""
    code = request.path_params["code"]

    async def work(tx: Transaction, store: access.Target[None, stores.PromotionPut]
                   ) -> Response:
        promotion, created = await stores.put_promotion(tx, store.id, code, store.body)
        return json_response(promotion, status=201 if created else 200)

    return await owned_write(request, access.own_store, "store_id", work, _promotion)


async def delete_promotion(request: Request) -> Response:
    """Remove a promotion code (carts that applied it lose it at their next change)."""
    code = request.path_params["code"]

    async def work(tx: Transaction, store: access.Target[None, None]) -> Response:
        await writes.delete_promotion(tx, store.id, code)
        return Response(status_code=204)

    return await owned_write(request, access.own_store, "store_id", work)


routes = [
    Route("/admin/stores", list_stores, methods=["GET"]),
    Route("/admin/stores", create_store, methods=["POST"]),
    Route("/admin/stores/{store_id}", get_store, methods=["GET"]),
    Route("/admin/stores/{store_id}", update_store, methods=["PATCH"]),
    Route("/admin/stores/{store_id}/catalogs", create_catalog, methods=["POST"]),
    Route("/admin/catalogs/{catalog_id}", update_catalog, methods=["PATCH"]),
    Route("/admin/stores/{store_id}/promotions", list_promotions, methods=["GET"]),
    Route("/admin/stores/{store_id}/promotions/{code}", put_promotion, methods=["PUT"]),
    Route("/admin/stores/{store_id}/promotions/{code}", delete_promotion, methods=["DELETE"]),
]
