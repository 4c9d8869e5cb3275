"""Store settings and promotions (GET /console/store): name, currency, delivery areas, pickup
address, shipping fee and the fulfillment simulator; promotion codes (value, dates, minimum,
per-customer limit) and their deletion. The writes are commerce/shop/stores', as for
PATCH /admin/stores/{id} and PUT …/promotions/{code}.

A new currency keeps every price's number (nothing is converted, as on Shopify): with items in
the store the form asks the merchant to confirm that first (docs/decisions.md)."""

from __future__ import annotations

import re
from typing import Any

from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.shop import stores as service
from commerce_agent.commerce.shop import writes
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.db import Transaction
from commerce_agent.digits import whole_number
from commerce_agent.errors import validation_error
from commerce_agent.web import paths
from commerce_agent.web.console.base import Console, form_endpoint, page_endpoint, submit, typed

PAGE = "console-store"
SETTINGS_FIELDS = {"/name": "name", "/currency": "currency",
                   "/shipping/deliveryAreas": "deliveryAreas",
                   "/shipping/shippingOptions": "shippingFee", "/location": "address",
                   "/shipping": "shippingFee"}
PROMOTION_FIELDS = {f"/{name}": name for name in (
    "code", "type", "value", "description", "minimumSubtotal", "startsAt", "expiresAt",
    "perUserLimit")}
_LOCAL_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$")


def flat_fee(store: dict[str, Any]) -> str | None:
    """The flat rate of the store's first shipping option ("" when it has none; None when
    that option is not a flat rate, so the form leaves it alone)."""
    options = store.get("metadata", {}).get(service.SHIPPING, {}).get("shippingOptions", [])
    if not options:
        return ""
    calculation = options[0].get("costCalculation") or {"type": "flat", "flatRate": "0"}
    return str(calculation.get("flatRate", "")) if calculation.get("type") == "flat" else None


async def _store(console: Console, status: int = 200, **extra: Any) -> Response:
    """Store settings and promotion codes (?store=)."""
    store = console.chosen_store()
    promotions = await storage.promotions(console.db, store["id"]) if store else []
    return console.show("console/store.html", status, store=store, promotions=promotions,
                        fee=flat_fee(store) if store else "", **extra)


store_page = page_endpoint(PAGE)(_store)


def _shipping(store: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
    shipping = {key: value for key, value in
                store.get("metadata", {}).get(service.SHIPPING, {}).items() if key != "_version"}
    shipping["deliveryAreas"] = [area.strip().upper() for area in
                                 form.get("deliveryAreas", "").split(",") if area.strip()]
    fee = form.get("shippingFee", "").strip()
    if fee and flat_fee(store) is not None:
        options = [dict(option) for option in shipping.get("shippingOptions", [])] or [
            {"id": "standard", "name": "Standard"}]
        options[0]["costCalculation"] = {"type": "flat", "flatRate": fee}
        shipping["shippingOptions"] = options
    return shipping


@form_endpoint(PAGE)
async def save_settings(console: Console) -> Response:
    """POST /console/stores/{id}/settings."""
    form = console.form
    store_id = console.request.path_params["store_id"][:100]

    async def work(tx: Transaction) -> str:
        await access.own_store(tx, console.principal, store_id)
        store = await writes.admin_store(tx, store_id)
        currency = form.get("currency", "").strip().upper() or store["currency"]
        if currency != store["currency"] and not form.get("confirmCurrency") and \
                await storage.store_items(tx, store_id, None, 1):
            raise validation_error("/currency", "prices keep their numbers in the new "
                                   "currency (nothing is converted): tick the box to confirm")
        patch: dict[str, Any] = {"name": form.get("name", "").strip(), "currency": currency,
                                 "shipping": _shipping(store, form),
                                 "simulateFulfillment": bool(form.get("simulate"))}
        address = form.get("address", "").strip()
        if address:
            patch["location"] = {**(store.get("location") or {}), "address": address}
        await service.update(tx, store_id, typed(patch, service.StorePatch))
        return "Settings saved."

    return await submit(console, work, "settings", SETTINGS_FIELDS, _store,
                        f"{paths.CONSOLE_STORE}?store={store_id}")


def _moment(text: str, field: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    if not _LOCAL_TIME.match(text):
        raise validation_error(f"/{field}", "must be a date and time", text)
    return text + ("Z" if text.count(":") == 2 else ":00Z")


@form_endpoint(PAGE)
async def save_promotion(console: Console) -> Response:
    """POST /console/stores/{id}/promotions: create or replace a code."""
    form = console.form
    store_id = console.request.path_params["store_id"][:100]
    code = form.get("code", "").strip().upper()

    async def work(tx: Transaction) -> str:
        await access.own_store(tx, console.principal, store_id)
        if not code:
            raise validation_error("/code", "is required")
        body: dict[str, Any] = {"type": form.get("type", "percentage"),
                                "value": form.get("value", "").strip(),
                                "description": form.get("description", "").strip()}
        for name in ("startsAt", "expiresAt"):
            moment = _moment(form.get(name, ""), name)
            if moment:
                body[name] = moment
        minimum = form.get("minimumSubtotal", "").strip()
        if minimum:
            body["minimumSubtotal"] = minimum
        limit = form.get("perUserLimit", "").strip()
        if limit:
            per_user = whole_number(limit)
            if per_user is None:
                raise validation_error("/perUserLimit", "must be a whole number from 1", limit)
            body["perUserLimit"] = per_user
        await service.put_promotion(tx, store_id, code, typed(body, service.PromotionPut))
        return f"{code} is saved."

    return await submit(console, work, "promotion", PROMOTION_FIELDS, _store,
                        f"{paths.CONSOLE_STORE}?store={store_id}#promotions-heading")


@form_endpoint(PAGE)
async def delete_promotion(console: Console) -> Response:
    """POST /console/stores/{id}/promotions/{code}/delete."""
    store_id = console.request.path_params["store_id"][:100]
    code = console.request.path_params["code"][:50]

    async def work(tx: Transaction) -> str:
        await access.own_store(tx, console.principal, store_id)
        await writes.delete_promotion(tx, store_id, code)
        return f"{code} is deleted."

    return await submit(console, work, f"delete-{code}", {}, _store,
                        f"{paths.CONSOLE_STORE}?store={store_id}#promotions-heading")
