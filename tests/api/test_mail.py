"""Order mail: each order change queues its messages in the outbox (mail_messages), in the
same transaction, localized in the recipient's saved language, with totals from the order."""

from __future__ import annotations

import asyncio
import os
from email import message_from_bytes
from email.message import Message
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.services.mail.sender import SmtpTarget
from commerce_agent.commerce.storage import mail as storage
from commerce_agent.settings import Settings
from tests.support.admin_support import CERAMICS, EBOOKS, merchant_headers
from tests.support.app import running
from tests.support.lifecycle_support import mug_order, order
from tests.support.live import free_port

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def owner(app: Starlette) -> dict[str, str]:
    return await merchant_headers(app, "owner@hearth.example", CERAMICS)


async def outbox(app: Starlette, order_id: str) -> list[dict[str, Any]]:
    return [dict(row) for row in await storage.for_order(app.state.db, order_id)]


def money_text(total: dict[str, Any]) -> str:
    return f"{total['amount']}"


async def test_placing_an_order_queues_a_confirmation_and_a_merchant_note(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    messages = await outbox(app, placed["id"])
    assert sorted(m["kind"] for m in messages) == ["order_new", "order_placed"]
    confirmation = next(m for m in messages if m["kind"] == "order_placed")
    note = next(m for m in messages if m["kind"] == "order_new")
    assert confirmation["recipient_id"] == "user_alice"
    assert confirmation["to_address"].startswith("alice")
    assert note["to_address"] == "owner@hearth.example"
    assert note["store_id"] == confirmation["store_id"] == "store_ceramics"
    assert {m["status"] for m in messages} == {"pending"}
    amount = placed["total"]["amount"]
    assert placed["id"] in confirmation["subject"]
    assert amount.split(".")[0] in confirmation["body"] and amount.split(".")[0] in note["body"]
    assert confirmation["locale"] == "en"


async def test_cancelling_and_shipping_queue_a_note(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    cancelled = await mug_order(client, alice)
    response = await client.post(f"/admin/orders/{cancelled['id']}/cancel", headers=owner,
                                 json={"reason": "Out of glaze"})
    assert response.status_code == 200, response.text
    kinds = [m["kind"] for m in await outbox(app, cancelled["id"])]
    assert kinds.count("order_cancelled") == 1 and kinds.count("order_refunded") == 1, kinds
    shipped = await mug_order(client, alice)
    response = await client.post(f"/admin/orders/{shipped['id']}/advance", headers=owner,
                                 json={"carrier": "UPS", "trackingNumber": "1Z999AA10123456784"})
    assert response.status_code == 200, response.text
    kinds = [m["kind"] for m in await outbox(app, shipped["id"])]
    assert kinds.count("order_shipped") == 1 and "order_cancelled" not in kinds
    pickup = await order(client, alice, CERAMICS, [("item_studio_seconds_box", 1)])
    ready = await client.post(f"/admin/orders/{pickup['id']}/ready-for-pickup", headers=owner)
    assert ready.status_code == 200, ready.text
    kinds = [m["kind"] for m in await outbox(app, pickup["id"])]
    assert kinds.count("order_ready") == 1 and "order_shipped" not in kinds


async def test_a_french_customer_gets_french_mail(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    saved = await client.patch("/user/profile", headers=alice,
                               json={"preferences": {"language": "fr-CA"}})
    assert saved.status_code == 200, saved.text
    placed = await mug_order(client, alice)
    messages = await outbox(app, placed["id"])
    confirmation = next(m for m in messages if m["kind"] == "order_placed")
    assert confirmation["locale"] == "fr"
    assert confirmation["subject"].startswith("Votre commande")
    note = next(m for m in messages if m["kind"] == "order_new")
    assert note["locale"] == "en" and note["subject"].startswith("New order")


async def test_kept_mail_is_listed_for_the_store_merchants_only(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    first = await mug_order(client, alice)
    second = await mug_order(client, alice)
    listed = await client.get("/admin/mail", headers=owner)
    assert listed.status_code == 200, listed.text
    messages = listed.json()["messages"]
    assert len(messages) == 4 and listed.json()["pagination"]["totalCount"] == 4
    assert {m["orderId"] for m in messages} == {first["id"], second["id"]}
    assert messages[0]["orderId"] == second["id"] and messages[0]["status"] == "pending"
    page = (await client.get("/admin/mail", params={"limit": 3}, headers=owner)).json()
    assert len(page["messages"]) == 3
    rest = (await client.get("/admin/mail", params={"cursor": page["pagination"]["nextCursor"]},
                             headers=owner)).json()
    assert len(rest["messages"]) == 1
    assert {m["id"] for m in page["messages"] + rest["messages"]} == {m["id"] for m in messages}
    other = await merchant_headers(app, "books@shelf.example", EBOOKS)
    theirs = await client.get("/admin/mail", headers=other)
    assert theirs.status_code == 200 and theirs.json()["messages"] == []
    foreign = await client.get("/admin/mail", params={"storeId": CERAMICS}, headers=other)
    assert foreign.status_code == 404
    shopper = await client.get("/admin/mail", headers=alice)
    assert shopper.status_code == 403
    anonymous = await client.get("/admin/mail")
    assert anonymous.status_code == 401


class Inbox:
    """An aiosmtpd handler keeping the messages it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def smtp_server(port: int = 0) -> tuple[Any, Inbox]:
    try:
        from aiosmtpd.controller import Controller
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("aiosmtpd is not installed (the test extra)")
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    return controller, inbox


async def until(condition: Any, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def text(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


async def test_smtp_delivers_the_confirmation_and_the_merchant_note(
        settings: Settings) -> None:
    controller, inbox = smtp_server()
    try:
        async with running(settings, smtp=f"smtp://127.0.0.1:{controller.port}",
                           mail_from="shop@hearth.example") as (app, client, alice):
            owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
            placed = await mug_order(client, alice)

            async def both() -> bool:
                return len(inbox.messages) >= 2
            await until(both)
            cancel = await client.post(f"/admin/orders/{placed['id']}/cancel", headers=owner,
                                       json={"reason": "Out of glaze"})
            assert cancel.status_code == 200, cancel.text

            async def four() -> bool:  # the cancellation and the refund
                return len(inbox.messages) >= 4
            await until(four)

            async def all_sent() -> bool:  # recorded just after the server took them
                return {m["status"] for m in await outbox(app, placed["id"])} == {"sent"}
            await until(all_sent)
    finally:
        controller.stop()
    by_to = {str(m["To"]): m for m in inbox.messages[:2]}
    note = by_to["owner@hearth.example"]
    confirmation = next(m for to, m in by_to.items() if to != "owner@hearth.example")
    amount = placed["total"]["amount"].split(".")[0]
    assert placed["id"] in str(confirmation["Subject"]) and amount in text(confirmation)
    assert amount in text(note) and str(note["From"]) == "shop@hearth.example"
    later = sorted(str(m["Subject"]) for m in inbox.messages[2:])
    assert later == [f"A refund for your order {placed['id']}",
                     f"Your order {placed['id']} was cancelled"]


async def test_mail_waits_while_smtp_is_down_and_is_sent_later(settings: Settings) -> None:
    port = free_port()
    async with running(settings, smtp=f"smtp://127.0.0.1:{port}",
                       mail_retry_base_seconds=0.2) as (app, client, alice):
        placed = await mug_order(client, alice)

        async def tried() -> bool:
            rows = await app.state.db.fetch_all(
                "SELECT attempts, status, last_error FROM mail_messages WHERE order_id = :o",
                {"o": placed["id"]})
            return bool(rows) and all(int(r["attempts"]) >= 1 for r in rows)
        await until(tried)
        waiting = await outbox(app, placed["id"])
        assert {m["status"] for m in waiting} == {"pending"}
        controller, inbox = smtp_server(port)
        try:
            async def delivered() -> bool:
                return {m["status"] for m in await outbox(app, placed["id"])} == {"sent"}
            await until(delivered, 30)
        finally:
            controller.stop()
    assert len(inbox.messages) == 1


def test_the_smtp_password_is_never_shown() -> None:
    configured = Settings(smtp="smtp://shop:hunter2@mail.example:587")
    assert "hunter2" not in repr(configured) and "shop:***@mail.example:587" in repr(configured)
    assert "hunter2" not in repr(SmtpTarget(configured.smtp))
