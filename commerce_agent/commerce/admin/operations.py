"""What /openapi.json says about the admin routes' answers (request bodies, auth and
Idempotency-Key come from the handlers themselves, as for every route)."""

from __future__ import annotations

from typing import Literal

import msgspec

from commerce_agent.commerce.admin.image_routes import SIGNATURES, UploadedImage
from commerce_agent.commerce.admin.import_routes import ImportResult
from commerce_agent.commerce.admin.item_routes import Identifier
from commerce_agent.commerce.admin.mail_routes import MailMessage
from commerce_agent.commerce.admin.store_routes import PromotionCode
from commerce_agent.commerce.orders.model import MerchantOrder, OrderStatus
from commerce_agent.commerce.services.returns.handling import ReturnStatus
from commerce_agent.commerce.shop.checks import ItemStatus
from commerce_agent.openapi import models
from commerce_agent.openapi.operations import PAGE, Answer, Operation, Param, ok

TAG = ("Admin",)
_ADMIN = ("Merchant accounts only (403 for others); another merchant's store, item, order "
          "or return answers 404.")


class AdminItem(models.ItemBasics):
    """An item as its merchant sees it: the stored document, status and live stock."""

    storeId: str
    catalogId: str
    status: ItemStatus
    stock: int | None = None
    description: str | None = None
    fulfillmentType: str | None = None
    metadata: models.Metadata | None = None


class AdminItemList(msgspec.Struct):
    items: list[AdminItem]
    pagination: models.Pagination


class AdminStoreList(msgspec.Struct):
    stores: list[models.Store]


class AdminCatalog(msgspec.Struct):
    id: str
    name: str
    storeId: str
    description: str | None = None


class Promotion(msgspec.Struct):
    code: str
    type: Literal["percentage", "fixed_amount"]
    value: str
    description: str | None = None
    minimumSubtotal: str | None = None
    startsAt: str | None = None
    expiresAt: str | None = None
    perUserLimit: int | None = None


class PromotionList(msgspec.Struct):
    promotions: list[Promotion]


class MailList(msgspec.Struct):
    messages: list[MailMessage]
    pagination: models.Pagination


class AdminOrderList(msgspec.Struct):
    orders: list[MerchantOrder]
    pagination: models.Pagination


class ReturnList(msgspec.Struct):
    returns: list[models.Return]
    pagination: models.Pagination


def _op(responses: dict[int, Answer], *query: Param, description: str = _ADMIN,
        path: tuple[Param, ...] = ()) -> Operation:
    return Operation(responses, path=path, query=query, description=description, tags=TAG)


_STORE_FILTER = Param("storeId", str, "Only this store of the merchant.")
_ORDER_STATUS = Param("status", OrderStatus, "Only this status.")
_RETURN_STATUS = Param("status", ReturnStatus, "Only this status.")
_ITEM_STATUS = Param("status", ItemStatus, "Only this status.")
_CREATED = ("Location",)
_DRY_RUN = Param("dryRun", bool, "Check and count everything, change nothing.")
_FILE_NAME = Param("filename", str, "The file's name, used in problem messages.")
_IMPORT_BODY = {"text/csv": "A Shopify product CSV export (UTF-8).",
                "application/json": "A JSON store file (docs/sample-data.md)."}
_IMAGE_BODY = {media: "The image file itself." for media in SIGNATURES}
_RETURN_OK = ok(models.Return)

ADMIN_OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", "/admin/stores"): _op(ok(AdminStoreList)),
    ("POST", "/admin/stores"): _op(ok(models.Store, "Created", 201, _CREATED)),
    ("GET", "/admin/stores/{store_id}"): _op(ok(models.Store)),
    ("PATCH", "/admin/stores/{store_id}"): _op(ok(models.Store)),
    ("POST", "/admin/stores/{store_id}/catalogs"): _op(ok(AdminCatalog, "Created", 201,
                                                          _CREATED)),
    ("PATCH", "/admin/catalogs/{catalog_id}"): _op(ok(AdminCatalog)),
    ("GET", "/admin/stores/{store_id}/promotions"): _op(ok(PromotionList)),
    ("PUT", "/admin/stores/{store_id}/promotions/{code}"): _op(
        {200: Answer("Replaced.", Promotion), 201: Answer("Created.", Promotion)},
        path=(Param("code", PromotionCode, "The code customers type (kept in upper case)."),)),
    ("DELETE", "/admin/stores/{store_id}/promotions/{code}"): _op(
        {204: Answer("Deleted.")}),
    ("GET", "/admin/stores/{store_id}/items"): _op(ok(AdminItemList), _ITEM_STATUS, *PAGE),
    ("POST", "/admin/stores/{store_id}/items"): _op(ok(AdminItem, "Created", 201, _CREATED)),
    ("GET", "/admin/items/{item_id}"): _op(ok(AdminItem)),
    ("PATCH", "/admin/items/{item_id}"): _op(ok(AdminItem)),
    ("POST", "/admin/items/{item_id}/archive"): _op(ok(AdminItem)),
    ("PUT", "/admin/items/{item_id}/variants/{variant_id}"): _op(
        {200: Answer("Replaced.", AdminItem), 201: Answer("Created.", AdminItem)},
        path=(Param("variant_id", Identifier, "The variant's id."),)),
    ("DELETE", "/admin/items/{item_id}/variants/{variant_id}"): _op(ok(AdminItem)),
    ("PUT", "/admin/items/{item_id}/stock"): _op(ok(AdminItem)),
    ("POST", "/admin/items/{item_id}/stock/adjustments"): _op(
        ok(AdminItem), description=_ADMIN + " 409 insufficient_stock when the adjustment "
        "would take stock below zero (nothing changes)."),
    ("GET", "/admin/orders"): _op(ok(AdminOrderList), _STORE_FILTER, _ORDER_STATUS, *PAGE),
    ("GET", "/admin/orders/{order_id}"): _op(ok(MerchantOrder)),
    ("POST", "/admin/orders/{order_id}/advance"): _op(ok(MerchantOrder)),
    ("POST", "/admin/orders/{order_id}/ready-for-pickup"): _op(ok(MerchantOrder)),
    ("POST", "/admin/orders/{order_id}/cancel"): _op(ok(MerchantOrder)),
    ("GET", "/admin/mail"): _op(ok(MailList), _STORE_FILTER, *PAGE),
    ("GET", "/admin/returns"): _op(ok(ReturnList), _STORE_FILTER, _RETURN_STATUS, *PAGE),
    ("POST", "/admin/returns/{return_id}/approve"): _op(_RETURN_OK),
    ("POST", "/admin/returns/{return_id}/reject"): _op(_RETURN_OK),
    ("POST", "/admin/returns/{return_id}/receive"): _op(_RETURN_OK),
    ("POST", "/admin/returns/{return_id}/refund"): _op(_RETURN_OK),
    ("POST", "/admin/stores/{store_id}/images"): Operation(
        ok(UploadedImage, "Created", 201, _CREATED), tags=TAG, raw_body=_IMAGE_BODY,
        description=_ADMIN + " The image is checked by its first bytes (PNG, JPEG, GIF or "
        "WebP; 415 otherwise, 400 when the content is not the declared type), 413 past 2 MiB, "
        "and kept in the database: link to it by its `url` (`/images/{id}`)."),
    ("POST", "/admin/stores/{store_id}/catalog/import"): Operation(
        ok(ImportResult), query=(_DRY_RUN, _FILE_NAME), tags=TAG, raw_body=_IMPORT_BODY,
        description=_ADMIN + " The same loader as `commerce-agent catalog import`: all or "
        "nothing; 400 lists every problem (`line`, `column`, `reason`); 413 past 10 MiB."),
}
