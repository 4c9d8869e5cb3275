"""Admin routes for stores: create, read, edit (info, policies, shipping regions, constraints),
catalogs, and promotion codes."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce import money
from commerce_agent.commerce.address import Address
from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal, owned, owned_write
from commerce_agent.commerce.capability_ids import STORE_CONSTRAINTS as CONSTRAINTS
from commerce_agent.commerce.capability_ids import STORE_INFO as INFO
from commerce_agent.commerce.capability_ids import STORE_POLICIES as POLICIES
from commerce_agent.commerce.capability_ids import STORE_SHIPPING as SHIPPING
from commerce_agent.commerce.capability_ids import STORE_TAXATION
from commerce_agent.commerce.catalog_import.source import slug
from commerce_agent.commerce.services.carts import charges
from commerce_agent.commerce.shop import checks, writes
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, json_response
from commerce_agent.ids import new_id
from commerce_agent.routing import Route
from commerce_agent.struct_rules import Rule, Ruled

Identifier = Annotated[str, Meta(pattern=checks.ID_PATTERN.pattern)]
PromotionCode = Annotated[str, Meta(pattern=checks.CODE_PATTERN.pattern)]
Name = Annotated[str, Meta(min_length=1, max_length=checks.MAX_NAME)]
Description = Annotated[str, Meta(max_length=checks.MAX_DESCRIPTION)]
Document = Annotated[dict[str, Any], Meta(max_length=100)]


class NewStore(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Name
    # checks.currency_problem refuses the codes outside the enum (with its own reason)
    currency: Annotated[str, Meta(pattern="^[A-Z]{3}$", extra_json_schema={
        "enum": sorted(money.CURRENCIES)})]
    id: Identifier | None = None
    description: Description = ""
    location: Address | None = None


class Taxation(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The store's one tax rate (`dev.commerce.store.taxation`; services/carts/charges.py)."""

    rate: Annotated[str, Meta(pattern=r"^(100(\.0+)?|\d{1,2}(\.\d+)?)$")] | \
        Annotated[float, Meta(ge=0, le=100)]  # a percentage
    taxOnShipping: bool = False
    name: str = ""


class StorePatch(msgspec.Struct, forbid_unknown_fields=True):
    """Fields to change. info, policies, shipping and constraints replace the store's
    dev.commerce.store.* documents (docs/sample-data.md, "Store metadata")."""

    name: Name | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    location: Address | UnsetType = UNSET
    info: Document | UnsetType = UNSET
    policies: Document | UnsetType = UNSET
    shipping: Document | UnsetType = UNSET
    constraints: Document | UnsetType = UNSET
    # Let the fulfillment simulator move this store's new orders (the sample stores do).
    simulateFulfillment: bool | UnsetType = UNSET
    taxation: Taxation | UnsetType = UNSET


class NewCatalog(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Name
    id: Identifier | None = None
    description: Description = ""


class CatalogPatch(msgspec.Struct, forbid_unknown_fields=True):
    name: Name | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    metadata: Document | UnsetType = UNSET


class PromotionPut(Ruled, forbid_unknown_fields=True, omit_defaults=True):
    # (a fixed amount's digits depend on the store's currency: checks.promotion_problems)
    rules = (Rule({"if": {"properties": {"type": {"const": "percentage"}}},
                   "then": {"properties": {"value": {"pattern": checks.PERCENTAGE.pattern}}}},
                  lambda: validation_error("/value", "must be a percentage from 0.01 to 100")),)

    type: Literal["percentage", "fixed_amount"]
    value: Annotated[str, Meta(max_length=20)]
    description: Annotated[str, Meta(max_length=500)] = ""
    minimumSubtotal: Annotated[str, Meta(max_length=20)] | None = None
    startsAt: Annotated[str, Meta(max_length=40)] | None = None
    expiresAt: Annotated[str, Meta(max_length=40)] | None = None
    # How many of one customer's orders may use the code (not cancelled ones); none: no limit.
    perUserLimit: Annotated[int, Meta(ge=1, le=1_000_000)] | None = None


_new_store = msgspec.json.Decoder(NewStore)
_store_patch = msgspec.json.Decoder(StorePatch)
_new_catalog = msgspec.json.Decoder(NewCatalog)
_promotion = msgspec.json.Decoder(PromotionPut)
_catalog_patch = msgspec.json.Decoder(CatalogPatch)


async def _store_doc(tx: Any, store_id: str) -> dict[str, Any]:
    return await writes.admin_store(tx, store_id)


def _check_shipping(shipping: dict[str, Any]) -> None:
    areas = shipping.get("deliveryAreas", [])
    if not isinstance(areas, list):
        raise validation_error("/shipping/deliveryAreas", "must be a list of country codes")
    for index, area in enumerate(areas):
        if not isinstance(area, str) or not re.fullmatch(r"[A-Z]{2}", area):
            raise validation_error(f"/shipping/deliveryAreas/{index}",
                                   "must be an ISO 3166 alpha-2 country code", str(area))
    problem = charges.shipping_problem(shipping)
    if problem is not None:
        raise validation_error(f"/shipping{problem[0]}", problem[1])


def _check_constraints(constraints: dict[str, Any], currency: str) -> None:
    minimum = constraints.get("minimumOrderValue")
    if minimum is not None:
        if not isinstance(minimum, dict):
            raise validation_error("/constraints/minimumOrderValue", "must be Money")
        reason = checks.amount_problem(minimum.get("amount"), currency)
        if reason or minimum.get("currency") != currency:
            raise validation_error("/constraints/minimumOrderValue/amount",
                                   reason or f"must be in the store's currency {currency}")
    items = constraints.get("maxCartItems")
    if items is not None and (not isinstance(items, int) or isinstance(items, bool)
                              or not 1 <= items <= 1000):
        raise validation_error("/constraints/maxCartItems", "must be 1 to 1000")
    stacking = constraints.get("promotions", {}).get("stackingPolicy")
    if stacking is not None and stacking not in ("none", "all"):
        raise validation_error("/constraints/promotions/stackingPolicy", "must be none or all",
                               str(stacking))


async def list_stores(request: Request) -> Response:
    """List the merchant's stores."""
    principal = await merchant_principal(request)
    db = request.app.state.db
    stores = [await _store_doc(db, store_id)
              for store_id in await access.store_ids(db, principal)]
    return json_response({"stores": stores})


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

    async def work(tx: Transaction, store: access.Target[None, StorePatch]) -> Response:
        store_id, body = store.id, store.body
        row = await catalog_storage.get_store(tx, store_id)
        assert row is not None
        changes: dict[str, Any] = {}
        metadata: dict[str, Any] = {}
        for key, value in msgspec.structs.asdict(body).items():
            if value is UNSET:
                continue
            name = {"info": INFO, "policies": POLICIES, "shipping": SHIPPING,
                    "constraints": CONSTRAINTS, "taxation": STORE_TAXATION}.get(key)
            if name is None:
                changes[key] = msgspec.to_builtins(value)
            else:
                metadata[name] = {**msgspec.to_builtins(value), "_version": "1.0"}
        if SHIPPING in metadata:
            _check_shipping(metadata[SHIPPING])
        if STORE_TAXATION in metadata:
            problem = charges.taxation_problem(metadata[STORE_TAXATION])
            if problem is not None:
                raise validation_error(f"/taxation{problem[0]}", problem[1])
        if CONSTRAINTS in metadata:
            _check_constraints(metadata[CONSTRAINTS], str(row["currency"]))
        if metadata:
            changes["metadata"] = metadata
        return json_response(await writes.update_store(tx, store_id, changes))

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

    async def work(tx: Transaction, store: access.Target[None, PromotionPut]) -> Response:
        store_id = store.id
        row = await catalog_storage.get_store(tx, store_id)
        assert row is not None
        promotion = {"code": code.upper(), **msgspec.to_builtins(store.body)}
        problems = checks.promotion_problems(promotion, str(row["currency"]))
        if problems:
            raise checks.refusal(problems)
        created = await writes.put_promotion(tx, store_id, promotion)
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
