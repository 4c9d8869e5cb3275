"""Helpers for the order lifecycle tests: buying any basket, moving orders, watching events."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.orders import events as order_events
from commerce_agent.commerce.services.fulfillment import simulator
from tests.support.helpers import US_ADDRESS, add_item, new_cart, pay_and_order

PORTLAND_NEARBY = {"address": "800 SW Broadway, Portland, OR, US", "countryCode": "US",
                   "latitude": 45.5187, "longitude": -122.6794}
JP_ADDRESS = {"address": "1-1 Marunouchi, Chiyoda-ku, Tokyo", "countryCode": "JP"}
EU_ADDRESS = {"address": "Unter den Linden 1, Berlin", "countryCode": "DE"}

Line = tuple[str, int] | tuple[str, int, dict[str, Any]]


async def place(client: httpx.AsyncClient, headers: dict[str, str], store_id: str,
                lines: list[Line], **body: Any) -> httpx.Response:
    """Fill a cart of `store_id` with `lines` and pay for the order; the final response."""
    cart = await new_cart(client, headers, store_id)
    for line in lines:
        extra = line[2] if len(line) == 3 else {}  # type: ignore[misc]
        await add_item(client, headers, cart["id"], line[0], line[1], **extra)
    return await pay_and_order(client, headers, {"cartId": cart["id"], **body})


async def order(client: httpx.AsyncClient, headers: dict[str, str], store_id: str,
                lines: list[Line], **body: Any) -> dict[str, Any]:
    response = await place(client, headers, store_id, lines, **body)
    assert response.status_code == 201, response.text
    placed: dict[str, Any] = response.json()
    return placed


async def mug_order(client: httpx.AsyncClient, headers: dict[str, str],
                    address: dict[str, Any] | None = None) -> dict[str, Any]:
    return await order(client, headers, "store_ceramics", [("item_limited_glaze_mug", 1)],
                       deliveryAddress=address or US_ADDRESS)


async def digital_order(client: httpx.AsyncClient, headers: dict[str, str],
                        item_id: str = "item_ebook_python_patterns") -> dict[str, Any]:
    return await order(client, headers, "store_ebooks", [(item_id, 1)])


async def kitchen_order(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    return await order(client, headers, "store_trattoria", [("item_arancini", 2)])


async def get_order(client: httpx.AsyncClient, headers: dict[str, str], order_id: str
                    ) -> dict[str, Any]:
    response = await client.get(f"/orders/{order_id}", headers=headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def advance(app: Starlette, order_id: str, to: str | None = None) -> dict[str, Any]:
    """The merchant's move, as `commerce-agent orders advance` makes it."""
    async with app.state.db.transaction() as tx:
        return await simulator.advance(tx, order_id, "http://test", to)


async def complete(app: Starlette, order_id: str) -> dict[str, Any]:
    return await advance(app, order_id, "completed")


async def edit_doc(app: Starlette, order_id: str, change: Callable[[dict[str, Any]], None]
                   ) -> None:
    """Change a stored order behind the API's back (to set up dates and odd states)."""
    async with app.state.db.transaction() as tx:
        row = await tx.fetch_one("SELECT doc FROM orders WHERE id = :id", {"id": order_id})
        assert row is not None
        doc = json.loads(row["doc"])
        change(doc)
        await tx.execute("UPDATE orders SET doc = :doc, status = :status WHERE id = :id",
                         {"doc": json.dumps(doc), "status": doc["status"], "id": order_id})


async def stock(app: Starlette, item_id: str, variant_id: str = "") -> int:
    row = await app.state.db.fetch_one(
        "SELECT quantity FROM stock WHERE item_id = :i AND variant_id = :v",
        {"i": item_id, "v": variant_id})
    return int(row["quantity"])


def action_ids(doc: dict[str, Any]) -> set[str]:
    return {action["id"] for action in doc["actions"]}


class EventLog:
    """Every order_events.order_changed call, with the documents as they were passed."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any] | None, dict[str, Any]]] = []

    def for_order(self, order_id: str) -> list[tuple[dict[str, Any] | None, dict[str, Any]]]:
        return [(before, after) for _, before, after in self.calls if after["id"] == order_id]

    def assert_chained(self, order_id: str, final: dict[str, Any]) -> None:
        """Each change starts where the previous one ended, and the last is what is stored."""
        calls = self.for_order(order_id)
        assert calls and calls[0][0] is None
        for (_, previous), (before, _) in zip(calls, calls[1:], strict=False):
            assert before == previous
        stored = {key: value for key, value in final.items() if key != "actions"}
        assert calls[-1][1] == stored


def record_events(monkeypatch: pytest.MonkeyPatch) -> EventLog:
    """Wrap the order_events seam so a test sees every call (the real body still runs)."""
    log = EventLog()
    original = order_events.order_changed

    async def record(tx: Any, owner_id: str, before: dict[str, Any] | None,
                     after: dict[str, Any]) -> dict[str, Any]:
        log.calls.append((owner_id, copy.deepcopy(before), copy.deepcopy(after)))
        return await original(tx, owner_id, before, after)

    monkeypatch.setattr(order_events, "order_changed", record)
    return log
