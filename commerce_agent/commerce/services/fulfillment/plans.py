"""How each kind of order is fulfilled: the method chosen at order time and its plan of steps.

A plan is a list of steps; each may move the status (through the state machine) and updates
the capability metadata the customer sees (detailed_status, shipment_tracking,
delivery_tracking, kitchen_status, digital_access). The simulator runs the steps one by one,
`delay` seconds apart at speed 1; a step with `not_before` also waits for that moment (a
preorder's release date, the end of a booked session).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from commerce_agent import clock, links
from commerce_agent.commerce.capability_ids import RESTAURANT, STORE_SHIPPING
from commerce_agent.commerce.capability_ids import STORE_CONSTRAINTS as CONSTRAINTS
from commerce_agent.commerce.orders.model import (
    COMPLETED,
    CONFIRMED,
    DELIVERY_TRACKING,
    DETAILED_STATUS,
    FULFILLMENT_INTENT,
    IN_TRANSIT,
    KITCHEN_CONFIRMED,
    KITCHEN_STATUS,
    PENDING,
    PREORDER,
    PROCESSING,
    SCHEDULING,
    SHIPMENT_TRACKING,
)
from commerce_agent.commerce.orders.rules import ships
from commerce_agent.commerce.services.fulfillment import digital, tracking

DEFAULT_CARRIER_URL = "https://tracking.example.com"


@dataclass(frozen=True)
class Context:
    now: datetime
    speed: float
    base_url: str

    def later(self, seconds: float) -> str:
        return clock.iso(self.now + timedelta(seconds=seconds / self.speed))


Apply = Callable[[dict[str, Any], Context], None]


@dataclass(frozen=True)
class Step:
    delay: float
    apply: Apply
    status: str | None = None
    not_before: str | None = None


# --- what is decided when the order is placed -----------------------------------------------

def _shipping_option(store: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    shipping = store.get("metadata", {}).get(STORE_SHIPPING, {})
    options = shipping.get("shippingOptions", [])
    chosen = doc.get("metadata", {}).get(FULFILLMENT_INTENT, {}).get(
        "deliveryDetails", {}).get("shippingMethodId") \
        or doc.get("shippingMethod", {}).get("id")
    option: dict[str, Any] = next((o for o in options if o.get("id") == chosen), {}) \
        or next((o for o in options if o.get("providers")), {})
    carrier = next(iter(option.get("providers", [])), None) or "Sandbox Post"
    website = next((p.get("website") for p in shipping.get("providers", [])
                    if p.get("name") == carrier), None)
    return {"shippingMethodId": option.get("id"), "carrier": carrier,
            "carrierUrl": _carrier_url(website)}


def _carrier_url(website: Any) -> str:
    """The carrier's website as stored, if it is a link we may send (links.url_problem): a
    store saved before the rule, or an order placed then, falls back to the sandbox one."""
    return website if isinstance(website, str) and links.url_problem(website) is None \
        else DEFAULT_CARRIER_URL


def _method(doc: dict[str, Any], store: dict[str, Any]) -> str:
    if ships(doc):
        origin = tracking.coordinates(store.get("location"))
        target = tracking.coordinates(doc.get("deliveryAddress"))
        if origin and target and tracking.distance_km(origin, target) <= tracking.LOCAL_DELIVERY_KM:
            return "local_delivery"
        return "shipping"
    if doc.get("metadata", {}).get(SCHEDULING):
        return "appointment"
    kinds = {line.get("fulfillmentType") for line in doc.get("items", [])}
    picked_up = bool(kinds & {"pickup", "physical", "hybrid"})
    if picked_up and RESTAURANT in store.get("metadata", {}):
        return "kitchen_pickup"
    return "store_pickup" if picked_up else "digital"


def describe(doc: dict[str, Any], store: dict[str, Any]) -> dict[str, Any]:
    """The order's `fulfillment` object: method, return window and what the steps need."""
    method = _method(doc, store)
    window = store.get("metadata", {}).get(CONSTRAINTS, {}).get("returns", {}).get(
        "returnWindowDays", 0)
    described: dict[str, Any] = {"method": method, "returnWindowDays": int(window or 0)}
    if method in ("kitchen_pickup", "store_pickup", "appointment"):
        described["location"] = store.get("location", {}).get("address", store.get("name"))
    origin = tracking.coordinates(store.get("location"))
    if method == "local_delivery" and origin:
        described["origin"] = {"latitude": origin[0], "longitude": origin[1]}
    if method == "shipping":
        described.update(_shipping_option(store, doc))
    return described


def _status(title: str, description: str, progress: int, eta: str | None = None
            ) -> dict[str, Any]:
    status: dict[str, Any] = {"_version": "1.0", "title": title, "description": description,
                              "progressPercentage": progress}
    if eta:
        status["estimatedCompletionAt"] = eta
    return status


def initial_metadata(doc: dict[str, Any], ctx: Context) -> None:
    """Statuses a customer sees right after ordering."""
    metadata = doc["metadata"]
    method = doc["fulfillment"]["method"]
    release = metadata.get(PREORDER, {}).get("releaseDate")
    if release and release > clock.iso(ctx.now):
        metadata[DETAILED_STATUS] = _status(
            "Preorder confirmed", f"Your order ships after the release on {release}.", 0)
    elif method == "appointment":
        first = min(metadata[SCHEDULING]["bookings"], key=lambda b: b["startTime"])
        metadata[DETAILED_STATUS] = _status(
            "Booked", f"See you on {first['startTime']} at {first['location']}.", 50)
    elif method == "kitchen_pickup":
        metadata[KITCHEN_STATUS] = {"_version": "1.0", "status": KITCHEN_CONFIRMED,
                                    "estimatedReadyAt": ctx.later(_KITCHEN_READY)}
        metadata[DETAILED_STATUS] = _status("Order received",
                                            "The kitchen has your order.", 10)
    else:
        metadata[DETAILED_STATUS] = _status("Order confirmed", "We have your order.", 10)


# --- the plans -------------------------------------------------------------------------------

def _set_status(title: str, description: str, progress: int) -> Apply:
    def apply(doc: dict[str, Any], ctx: Context) -> None:
        doc["metadata"][DETAILED_STATUS] = _status(title, description, progress)
    return apply


def _both(*steps: Apply) -> Apply:
    def apply(doc: dict[str, Any], ctx: Context) -> None:
        for step in steps:
            step(doc, ctx)
    return apply


def _grant(doc: dict[str, Any], ctx: Context) -> None:
    digital.grant(doc, ctx.base_url)


def _digital_plan(doc: dict[str, Any]) -> list[Step]:
    return [Step(5, _both(_grant, _set_status("Ready", "Your digital items are ready.", 100)),
                 COMPLETED)]


def _shipping_plan(doc: dict[str, Any]) -> list[Step]:
    plan = doc["fulfillment"]
    carrier = plan.get("carrier", "Sandbox Post")

    def ship(order: dict[str, Any], ctx: Context) -> None:
        number = tracking.tracking_number(order["id"], carrier)
        order["metadata"][SHIPMENT_TRACKING] = [{
            "_version": "1.0", "carrier": carrier, "trackingNumber": number,
            "trackingUrl": tracking.tracking_url(_carrier_url(plan.get("carrierUrl")), number),
            "status": "in_transit", "shippedAt": clock.iso(ctx.now)}]
        order["metadata"][DETAILED_STATUS] = _status(
            "Shipped", f"Your parcel is on its way with {carrier}.", 50, ctx.later(180))

    def deliver(order: dict[str, Any], ctx: Context) -> None:
        for shipment in order["metadata"].get(SHIPMENT_TRACKING, []):
            shipment["status"] = "delivered"
            shipment["deliveredAt"] = clock.iso(ctx.now)
        order["metadata"][DETAILED_STATUS] = _status("Delivered", "Your parcel arrived.", 100)

    return [Step(30, _both(_grant, _set_status("Packing your order",
                                               "Your items are being packed.", 25)),
                 PROCESSING),
            Step(60, ship, IN_TRANSIT),
            Step(120, _set_status("Out for delivery", f"{carrier} is delivering today.", 85)),
            Step(60, deliver, COMPLETED)]


_LEGS = 4
_LEG_SECONDS = 30.0


def _courier_plan(doc: dict[str, Any]) -> list[Step]:
    origin = tracking.coordinates(doc["fulfillment"].get("origin")) or (0.0, 0.0)
    target = tracking.coordinates(doc.get("deliveryAddress")) or origin

    def move(leg: int) -> Apply:
        def apply(order: dict[str, Any], ctx: Context) -> None:
            remaining = (_LEGS - leg) * _LEG_SECONDS
            tracking_doc = order["metadata"].setdefault(DELIVERY_TRACKING, {
                "_version": "1.0", "driver": tracking.driver(order["id"])})
            tracking_doc["status"] = "arriving_soon" if leg >= _LEGS - 1 \
                else "en_route_to_customer"
            tracking_doc["liveLocation"] = tracking.position(origin, target, leg / _LEGS)
            tracking_doc["estimatedArrivalAt"] = ctx.later(remaining)
            order["metadata"][DETAILED_STATUS] = _status(
                "On the way" if leg < _LEGS else "Delivered",
                f"{tracking_doc['driver']['name']} is bringing your order."
                if leg < _LEGS else "Your order was handed over.",
                40 + 60 * leg // _LEGS, ctx.later(remaining) if leg < _LEGS else None)
        return apply

    return [Step(20, _both(_grant, _set_status("Preparing your order",
                                               "The store is getting it ready.", 20)),
                 PROCESSING),
            Step(30, move(0), IN_TRANSIT),
            *(Step(_LEG_SECONDS, move(leg)) for leg in range(1, _LEGS)),
            Step(_LEG_SECONDS, move(_LEGS), COMPLETED)]


_KITCHEN_READY = 75.0


def _kitchen(status: str, seconds_to_ready: float) -> Apply:
    def apply(doc: dict[str, Any], ctx: Context) -> None:
        kitchen = doc["metadata"].setdefault(KITCHEN_STATUS, {"_version": "1.0"})
        kitchen["status"] = status
        kitchen["estimatedReadyAt"] = ctx.later(seconds_to_ready)
    return apply


def _kitchen_plan(doc: dict[str, Any]) -> list[Step]:
    where = doc["fulfillment"].get("location", "the counter")
    return [Step(15, _both(_kitchen("preparing", _KITCHEN_READY - 15),
                           _set_status("In the kitchen", "Your food is being prepared.", 40))),
            Step(60, _both(_kitchen("ready_for_pickup", 0),
                           _set_status("Ready for pickup", f"Collect it at {where}.", 80))),
            Step(120, _set_status("Picked up", "Enjoy your meal!", 100), COMPLETED)]


def _pickup_plan(doc: dict[str, Any]) -> list[Step]:
    where = doc["fulfillment"].get("location", "the store")
    return [Step(60, _set_status("Ready for pickup", f"Collect it at {where}.", 60)),
            Step(120, _both(_grant, _set_status("Picked up", "Thank you!", 100)), COMPLETED)]


def _appointment_plan(doc: dict[str, Any]) -> list[Step]:
    bookings = doc["metadata"].get(SCHEDULING, {}).get("bookings", [])
    ends = max((b["endTime"] for b in bookings), default=None)
    return [Step(0, _both(_grant, _set_status("Completed", "Thank you for visiting!", 100)),
                 COMPLETED, not_before=clock.iso(clock.parse(ends)) if ends else None)]


_PLANS = {"digital": _digital_plan, "shipping": _shipping_plan,
          "local_delivery": _courier_plan, "kitchen_pickup": _kitchen_plan,
          "store_pickup": _pickup_plan, "appointment": _appointment_plan}


def plan(doc: dict[str, Any]) -> list[Step]:
    method = doc.get("fulfillment", {}).get("method")
    if method not in _PLANS:
        method = "shipping" if ships(doc) else "digital"
        doc = {**doc, "fulfillment": {**doc.get("fulfillment", {}), "method": method}}
    steps = _PLANS[method](doc)
    release = doc.get("metadata", {}).get(PREORDER, {}).get("releaseDate")
    if release and steps:
        first = steps[0]
        steps[0] = Step(first.delay, first.apply, first.status,
                        max(clock.iso(clock.parse(release)), first.not_before or ""))
    return steps


def statuses_before(steps: list[Step]) -> list[str]:
    """The order status each step expects to find (plans start from confirmed)."""
    current: str = CONFIRMED
    expected: list[str] = []
    for step in steps:
        expected.append(current)
        current = step.status or current
    return expected


_FORWARD: dict[str, str] = {PENDING: CONFIRMED, PROCESSING: IN_TRANSIT, IN_TRANSIT: COMPLETED}


def fallback_step(doc: dict[str, Any]) -> Step | None:
    """A bare forward move for an order that left its plan (moved by hand)."""
    status = str(doc.get("status"))
    target = _FORWARD.get(status)
    if status == CONFIRMED:
        target = PROCESSING if ships(doc) else COMPLETED
    if target is None:
        return None
    return Step(10, lambda order, ctx: None, target)
