"""Webhook subscriptions over HTTP: create (secret once), list, read, delete, ownership, every
validation error, and the events an order's life sends to a real receiver on 127.0.0.1.

`Receiver` (a small HTTP/1.1 server on asyncio streams) and the helpers here are shared by the
other tests/*/test_webhooks_*.py modules.
"""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.storage import signing_key
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.commerce.services.webhooks import signing as webhook_signing
from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.settings import Settings
from tests.support.admin_support import merchant_headers
from tests.support.app import MEDIA
from tests.support.helpers import assert_error, buy
from tests.support.lifecycle_support import advance, complete, mug_order
from tests.support.openapi import check, fetch_document
from tests.support.webhooks import (
    Answer,
    Received,
    Receiver,
    deliveries,
    is_postgres,
    quick,
    settled,
    stored_events,
    subscribe,
)

pytestmark = pytest.mark.both_backends


# --- a real receiver --------------------------------------------------------------------------


# --- helpers shared by the webhook tests ------------------------------------------------------


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return quick(settings)


# --- create -----------------------------------------------------------------------------------

async def test_create_answers_the_secret_once(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    response = await client.post("/webhooks", headers=alice, json={
        "url": "https://example.com/hooks", "events": ["order.created", "refund.created"],
        "description": "ERP sync", "metadata": {"team": "ops"}})
    assert response.status_code == 201, response.text
    created = response.json()
    assert response.headers["location"] == f"/webhooks/{created['id']}"
    assert response.headers["content-type"] == MEDIA
    assert created["url"] == "https://example.com/hooks" and created["active"] is True
    assert created["events"] == ["order.created", "refund.created"]
    assert created["description"] == "ERP sync" and created["metadata"] == {"team": "ops"}
    assert created["createdAt"] == created["updatedAt"]
    secret = created["secret"]
    key = await signing_key(app.state.db, webhook_signing.KEY_NAME)
    assert secret == webhook_signing.derive_secret(key, created["id"])
    assert secret.startswith("whsec_")
    shown = await client.get(f"/webhooks/{created['id']}", headers=alice)
    assert shown.status_code == 200
    assert shown.json() == {name: value for name, value in created.items() if name != "secret"}
    listed = (await client.get("/webhooks", headers=alice)).json()["webhooks"]
    assert [hook["id"] for hook in listed] == [created["id"]] and "secret" not in listed[0]
    # Not stored anywhere (not even by the Idempotency-Key store).
    if is_postgres(app.state.db):
        listing = ("SELECT table_name AS name FROM information_schema.tables "
                   "WHERE table_schema = current_schema()")
    else:
        listing = "SELECT name FROM sqlite_master WHERE type = 'table'"
    for table in [row["name"] for row in await app.state.db.fetch_all(listing)]:
        for row in await app.state.db.fetch_all(f"SELECT * FROM {table}"):  # noqa: S608
            text = " ".join(bytes(value).decode("latin-1")
                            if isinstance(value, bytes | memoryview) else str(value)
                            for value in dict(row).values())
            assert secret not in text, table


async def test_create_replays_with_its_idempotency_key(client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    body = {"url": "https://example.com/hooks", "events": ["*"]}
    headers = {**alice, "Idempotency-Key": "hook-1"}
    first = await client.post("/webhooks", headers=headers, json=body)
    again = await client.post("/webhooks", headers=headers, json=body)
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()  # the same subscription, the same secret
    assert again.headers["location"] == first.headers["location"]
    listed = (await client.get("/webhooks", headers=alice)).json()
    assert listed["pagination"]["totalCount"] == 1
    other = await client.post("/webhooks", headers=headers,
                              json={**body, "url": "https://example.org/"})
    assert_error(other, 409, "idempotency_key_reused")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/hook", "http://localhost/x",
                                 "http://[::1]:9/", "https://hooks.example.com/a?b=c",
                                 "HTTPS://EXAMPLE.COM/"])
async def test_accepted_urls(client: httpx.AsyncClient, alice: dict[str, str],
                             url: str) -> None:
    created = await subscribe(client, alice, url)
    assert created["url"] == url


BAD_BODIES: list[tuple[Any, str]] = [
    ({"events": ["*"]}, ""),
    ({"url": "https://example.com"}, ""),
    ({"url": 5, "events": ["*"]}, "/url"),
    ({"url": "", "events": ["*"]}, "/url"),
    ({"url": "ftp://example.com/x", "events": ["*"]}, "/url"),
    ({"url": "example.com/hook", "events": ["*"]}, "/url"),
    ({"url": "http://example.com/hook", "events": ["*"]}, "/url"),
    ({"url": "http://10.0.0.1/hook", "events": ["*"]}, "/url"),
    ({"url": "https://user:pw@example.com/", "events": ["*"]}, "/url"),
    ({"url": "https://token@example.com/", "events": ["*"]}, "/url"),
    ({"url": "https:///path-only", "events": ["*"]}, "/url"),
    ({"url": "https://example.com:99999/", "events": ["*"]}, "/url"),
    ({"url": "https://exa mple.com/", "events": ["*"]}, "/url"),
    ({"url": "https://example.com/\nx", "events": ["*"]}, "/url"),
    ({"url": "https://example.com/" + "a" * 2040, "events": ["*"]}, "/url"),
    ({"url": "https://example.com", "events": []}, "/events"),
    ({"url": "https://example.com", "events": "order.created"}, "/events"),
    ({"url": "https://example.com", "events": ["order.shipped"]}, "/events/0"),
    ({"url": "https://example.com", "events": ["order.created", "cart.abandoned"]},
     "/events/1"),
    ({"url": "https://example.com", "events": ["order.created", "order.created"]},
     "/events/1"),
    ({"url": "https://example.com", "events": [5]}, "/events/0"),
    ({"url": "https://example.com", "events": [""]}, "/events/0"),
    ({"url": "https://example.com", "events": ["*"], "description": "d" * 501},
     "/description"),
    ({"url": "https://example.com", "events": ["*"], "metadata": []}, "/metadata"),
    ({"url": "https://example.com", "events": ["*"],
      "metadata": {f"k{i}": i for i in range(51)}}, "/metadata"),
    ({"url": "https://example.com", "events": ["*"], "metadata": {"": 1}}, "/metadata"),
    ({"url": "https://example.com", "events": ["*"], "secret": "mine"}, "/secret"),
    (["https://example.com"], ""),
]


@pytest.mark.parametrize(("body", "pointer"), BAD_BODIES)
async def test_bad_subscriptions_are_400_with_a_pointer(
        client: httpx.AsyncClient, alice: dict[str, str], body: Any, pointer: str) -> None:
    response = await client.post("/webhooks", headers=alice, json=body)
    error = assert_error(response, 400, "bad_request")
    fields = [detail.get("field") for detail in error["details"]]
    assert fields and fields[0] in ({pointer, "/"} if pointer == "" else {pointer}), error
    assert (await client.get("/webhooks", headers=alice)).json()["webhooks"] == []


async def test_malformed_and_empty_bodies(client: httpx.AsyncClient,
                                          alice: dict[str, str]) -> None:
    json_headers = {**alice, "Content-Type": "application/json"}
    assert_error(await client.post("/webhooks", headers=json_headers, content=b"{"),
                 400, "bad_request")
    assert_error(await client.post("/webhooks", headers=json_headers, content=b""),
                 400, "bad_request")
    assert_error(await client.post("/webhooks", headers={**alice, "Content-Type": "text/plain"},
                                   content=b"url=x"), 415, "unsupported_media_type")


async def test_subscriptions_per_owner_are_limited(client: httpx.AsyncClient,
                                                   alice: dict[str, str],
                                                   bob: dict[str, str]) -> None:
    created = [await subscribe(client, alice, f"https://example.com/{index}")
               for index in range(webhooks.MAX_SUBSCRIPTIONS)]
    refused = await client.post("/webhooks", headers=alice,
                                json={"url": "https://example.com/one-more", "events": ["*"]})
    body = assert_error(refused, 409, "webhook_limit_reached")
    assert body["userMessage"]["params"] == {"max": webhooks.MAX_SUBSCRIPTIONS}
    await subscribe(client, bob, "https://example.com/bob")  # the limit is per owner
    deleted = await client.delete(f"/webhooks/{created[0]['id']}", headers=alice)
    assert deleted.status_code == 204
    await subscribe(client, alice, "https://example.com/one-more")


# --- read, list, delete, ownership ----------------------------------------------------------

@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/webhooks"), ("GET", "/webhooks"), ("GET", "/webhooks/wh_x"),
    ("DELETE", "/webhooks/wh_x"), ("GET", "/webhooks/wh_x/deliveries"),
    ("POST", "/webhooks/wh_x/deliveries/whd_x/redeliver")])
async def test_every_route_needs_a_token(client: httpx.AsyncClient, method: str,
                                         path: str) -> None:
    response = await client.request(method, path, json={"url": "https://e.com",
                                                         "events": ["*"]})
    assert_error(response, 401, "unauthorized")


async def test_another_owner_gets_404(client: httpx.AsyncClient, alice: dict[str, str],
                                      bob: dict[str, str]) -> None:
    hook = await subscribe(client, alice, "https://example.com/alice")
    base = f"/webhooks/{hook['id']}"
    assert_error(await client.get(base, headers=bob), 404, "webhook_not_found")
    assert_error(await client.delete(base, headers=bob), 404, "webhook_not_found")
    assert_error(await client.get(f"{base}/deliveries", headers=bob), 404,
                 "webhook_not_found")
    assert_error(await client.post(f"{base}/deliveries/whd_x/redeliver", headers=bob), 404,
                 "webhook_not_found")
    assert (await client.get("/webhooks", headers=bob)).json()["webhooks"] == []
    assert (await client.get(base, headers=alice)).status_code == 200  # still there
    missing = await client.get("/webhooks/wh_missing", headers=alice)
    assert assert_error(missing, 404, "webhook_not_found")["userMessage"]["params"] == {
        "id": "wh_missing"}


async def test_list_pages_newest_first(client: httpx.AsyncClient,
                                       alice: dict[str, str]) -> None:
    ids = [(await subscribe(client, alice, f"https://example.com/{i}"))["id"] for i in range(3)]
    first = (await client.get("/webhooks?limit=2", headers=alice)).json()
    assert first["pagination"]["totalCount"] == 3 and first["pagination"]["limit"] == 2
    assert first["pagination"]["previousCursor"] is None
    cursor = first["pagination"]["nextCursor"]
    second = (await client.get(f"/webhooks?limit=2&cursor={cursor}", headers=alice)).json()
    assert second["pagination"]["nextCursor"] is None
    listed = [hook["id"] for hook in first["webhooks"] + second["webhooks"]]
    assert sorted(listed) == sorted(ids) and len(set(listed)) == 3
    for query, field_name in [("limit=0", "limit"), ("limit=x", "limit"),
                              ("cursor=%25%25", "cursor"),
                              ("includeInactive=yes", "includeInactive")]:
        error = assert_error(await client.get(f"/webhooks?{query}", headers=alice), 400,
                             "bad_request")
        assert error["details"][0]["field"] == field_name


async def test_delete_stops_events_and_cancels_what_waits(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    async with Receiver(Answer(503)) as receiver:
        hook = await subscribe(client, alice, receiver.url)
        await buy(client, alice)  # order.created, order.confirmed: retried while 503
        await receiver.wait_for(lambda requests: len(requests) >= 2)
        response = await client.delete(f"/webhooks/{hook['id']}", headers=alice)
        assert response.status_code == 204 and response.content == b""
        rows = await deliveries(app.state.db, hook["id"])
        assert len(rows) == 2 and {row["status"] for row in rows} == {"cancelled"}
        assert all(row["next_attempt_at"] is None for row in rows)
        assert_error(await client.get(f"/webhooks/{hook['id']}", headers=alice), 404,
                     "webhook_not_found")
        assert_error(await client.delete(f"/webhooks/{hook['id']}", headers=alice), 404,
                     "webhook_not_found")
        assert_error(await client.get(f"/webhooks/{hook['id']}/deliveries", headers=alice),
                     404, "webhook_not_found")
        assert (await client.get("/webhooks?includeInactive=true",
                                 headers=alice)).json()["webhooks"] == []
        events_before = len(await stored_events(app.state.db))
        await buy(client, alice)
        # Nobody listens: nothing stored.
        assert len(await stored_events(app.state.db)) == events_before
        assert len(await deliveries(app.state.db, hook["id"])) == 2


async def test_delete_with_idempotency_key_replays_204(client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    hook = await subscribe(client, alice, "https://example.com/x")
    headers = {**alice, "Idempotency-Key": "delete-1"}
    first = await client.delete(f"/webhooks/{hook['id']}", headers=headers)
    again = await client.delete(f"/webhooks/{hook['id']}", headers=headers)
    assert first.status_code == again.status_code == 204
    assert again.headers["idempotent-replayed"] == "true"


# --- what an order's life sends -----------------------------------------------------------------

async def test_an_orders_life_arrives_as_events(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    async with Receiver() as receiver:
        everything = await subscribe(client, alice, receiver.url)
        completed_only = await subscribe(client, alice, receiver.url + "?only=completed",
                                         ["order.completed"])
        placed = await mug_order(client, alice)
        await complete(app, placed["id"])
        all_rows = await settled(app, everything["id"], 2)
        only_rows = await settled(app, completed_only["id"], 1)
        stored = await stored_events(app.state.db)
        await receiver.wait_for(lambda requests: len(requests) == len(all_rows) + 1)
    assert {row["status"] for row in all_rows + only_rows} == {"delivered"}
    names = [name for name, _ in stored.values()]
    statuses = [name for name in names if name not in {"order.created", "order.updated"}]
    assert names[0] == "order.created"
    assert statuses == ["order.confirmed", "order.processing", "order.in_transit",
                        "order.completed"]
    assert names.count("order.updated") >= 3
    by_path: dict[str, list[Received]] = {}
    for request in receiver.requests:
        by_path.setdefault(request.path, []).append(request)
    [only] = by_path["/hook?only=completed"]
    assert only.event["event"] == "order.completed"
    assert sorted(request.event["id"] for request in by_path["/hook"]) == sorted(stored)
    final = (await client.get(f"/orders/{placed['id']}", headers=alice)).json()
    for request in receiver.requests:
        event = request.event
        name, body = stored[event["id"]]
        assert request.body == body and event["event"] == name
        assert request.headers["content-type"] == "application/json"
        assert request.headers["x-commerce-webhook-event"] == name
        assert request.headers["x-commerce-webhook-id"] == event["id"]
        assert request.headers["webhook-id"] == event["id"]
        assert set(event) <= {"id", "event", "timestamp", "storeId", "data", "previousData"}
        assert event["storeId"] == placed["storeId"]
        assert event["data"]["id"] == placed["id"]
        if name == "order.created":
            assert "previousData" not in event and event["data"]["status"] == "confirmed"
        elif name == "order.updated":
            assert event["previousData"] != event["data"]
        else:
            assert event["data"]["status"] == name.removeprefix("order.")
            if name != "order.confirmed":
                assert event["previousData"]["status"] != event["data"]["status"]
    assert only.event["data"] == final


async def test_refund_and_return_events(app: Starlette, client: httpx.AsyncClient,
                                        alice: dict[str, str]) -> None:
    async with Receiver() as receiver:
        hook = await subscribe(client, alice, receiver.url,
                               ["order.cancelled", "refund.created", "return.created",
                                "return.updated"])
        cancelled = await mug_order(client, alice)
        response = await client.post(f"/orders/{cancelled['id']}/cancel", headers=alice,
                                     json={"reason": "Changed my mind"})
        assert response.status_code == 200
        kept = await mug_order(client, alice)
        done = await complete(app, kept["id"])
        returned = await client.post("/returns", headers=alice, json={
            "orderId": kept["id"], "items": [{"cartItemId": done["items"][0]["id"],
                                              "quantity": 1, "reason": "damaged"}]})
        assert returned.status_code == 201, returned.text
        async with app.state.db.transaction() as tx:
            await returns.advance(tx, returned.json()["id"], "approved")
        await settled(app, hook["id"], 4)
        requests = await receiver.wait_for(lambda found: len(found) >= 4)
    by_name = {request.event["event"]: request.event for request in requests}
    assert set(by_name) == {"order.cancelled", "refund.created", "return.created",
                            "return.updated"}
    assert len(requests) == 4
    moved = by_name["return.updated"]
    assert moved["previousData"]["status"] == "requested"
    assert moved["data"]["status"] == "approved"
    refund = by_name["refund.created"]["data"]
    assert refund["orderId"] == cancelled["id"] and refund["reason"] == "Cancellation"
    assert by_name["return.created"]["data"]["id"] == returned.json()["id"]
    assert by_name["order.cancelled"]["previousData"]["status"] == "confirmed"


async def test_other_owners_orders_send_nothing(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str],
                                                bob: dict[str, str]) -> None:
    hook = await subscribe(client, alice, "https://example.com/x", ["order.created"])
    await buy(client, bob)
    await advance(app, (await buy(client, alice))["id"])  # order.processing: not wanted
    rows = await deliveries(app.state.db, hook["id"])
    assert len(rows) == 1
    stored = await stored_events(app.state.db)
    assert [name for name, _ in stored.values()] == ["order.created"]


async def test_the_stores_merchants_hear_of_its_orders(app: Starlette,
                                                      client: httpx.AsyncClient,
                                                      alice: dict[str, str]) -> None:
    """Order, refund and return events reach the store's merchants too, marked with storeId;
    a merchant of another store hears nothing; the delivery log shows the store."""
    ceramics = await merchant_headers(app, "potter@example.com", "store_ceramics")
    ebooks = await merchant_headers(app, "books@example.com", "store_ebooks")
    async with Receiver() as receiver:
        shop_hook = await subscribe(client, ceramics, receiver.url + "?who=shop")
        other_hook = await subscribe(client, ebooks, receiver.url + "?who=other")
        cancelled = await mug_order(client, alice)
        response = await client.post(f"/orders/{cancelled['id']}/cancel", headers=alice,
                                     json={"reason": "Changed my mind"})
        assert response.status_code == 200
        kept = await mug_order(client, alice)
        done = await complete(app, kept["id"])
        returned = await client.post("/returns", headers=alice, json={
            "orderId": kept["id"], "items": [{"cartItemId": done["items"][0]["id"],
                                              "quantity": 1, "reason": "damaged"}]})
        assert returned.status_code == 201, returned.text
        async with app.state.db.transaction() as tx:
            await returns.advance(tx, returned.json()["id"], "approved")
        rows = await settled(app, shop_hook["id"], 10)
        await receiver.wait_for(lambda found: len(found) >= len(rows))
    assert await deliveries(app.state.db, other_hook["id"]) == []
    names = {request.event["event"] for request in receiver.requests}
    assert {"order.created", "order.confirmed", "order.cancelled", "order.completed",
            "refund.created", "return.created", "return.updated"} <= names
    assert {request.path for request in receiver.requests} == {"/hook?who=shop"}
    assert {request.event["storeId"] for request in receiver.requests} == {"store_ceramics"}
    created = [request.event for request in receiver.requests
               if request.event["event"] == "order.created"]
    assert {event["data"]["id"] for event in created} == {cancelled["id"], kept["id"]}
    log = (await client.get(f"/webhooks/{shop_hook['id']}/deliveries?limit=100",
                            headers=ceramics)).json()["deliveries"]
    assert len(log) == len(rows)
    assert {entry["storeId"] for entry in log} == {"store_ceramics"}
    assert {entry["status"] for entry in log} == {"delivered"}
    # The customer's own subscription still hears of its orders, marked the same way.
    mine = await subscribe(client, alice, "https://example.com/mine", ["order.created"])
    placed = await mug_order(client, alice)
    [entry] = (await client.get(f"/webhooks/{mine['id']}/deliveries",
                                headers=alice)).json()["deliveries"]
    assert entry["storeId"] == placed["storeId"] == "store_ceramics"


async def test_capability_is_advertised(client: httpx.AsyncClient) -> None:
    capabilities = (await client.get("/capabilities")).json()["capabilities"]
    [entry] = [cap for cap in capabilities if cap["id"] == "dev.commerce.server.webhooks@1.0"]
    assert entry["schemaUrl"] == "http://test/schemas/server/webhooks/v1.json"
    metadata = entry["metadata"]
    assert metadata["supportedEvents"] == list(webhooks.EVENTS)
    assert metadata["signatureMechanism"] == "hmac-sha256"
    assert metadata["managementEndpoint"] == "http://test/webhooks"
    assert metadata["retryPolicy"]["maxAttempts"] == 16
    assert "X-Commerce-Webhook-Signature" in metadata["signatureHeaders"]
    assert "webhook-signature" in metadata["signatureHeaders"]
    schema = (await client.get("/schemas/server/webhooks/v1.json")).json()
    jsonschema.validate(metadata, schema, cls=jsonschema.Draft202012Validator)


async def test_answers_match_the_openapi_document(app: Starlette, client: httpx.AsyncClient,
                                                  alice: dict[str, str]) -> None:
    document = await fetch_document(client)
    async with Receiver() as receiver:
        created = await client.post("/webhooks", headers=alice,
                                    json={"url": receiver.url, "events": ["order.created"]})
        check(document, "POST", "/webhooks", created)
        hook = created.json()
        await buy(client, alice)
        [row] = await settled(app, hook["id"], 1)
        base, other = f"/webhooks/{hook['id']}", "/webhooks/wh_nope"
        calls = [("GET", "/webhooks", "/webhooks?includeInactive=true"),
                 ("GET", "/webhooks", "/webhooks?limit=0"),
                 ("GET", "/webhooks/{webhook_id}", base),
                 ("GET", "/webhooks/{webhook_id}", other),
                 ("GET", "/webhooks/{webhook_id}/deliveries", f"{base}/deliveries"),
                 ("POST", "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
                  f"{base}/deliveries/{row['id']}/redeliver"),
                 ("POST", "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
                  f"{base}/deliveries/whd_nope/redeliver"),
                 ("DELETE", "/webhooks/{webhook_id}", other)]
        for method, template, url in calls:
            check(document, method, template, await client.request(method, url,
                                                                   headers=alice))
        check(document, "POST", "/webhooks", await client.post(
            "/webhooks", headers=alice, json={"url": "ftp://x", "events": ["*"]}))
        check(document, "DELETE", "/webhooks/{webhook_id}",
              await client.delete(base, headers=alice))
