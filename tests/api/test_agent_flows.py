"""Pauses: authorization through the consent page, approval before spending, cancel while
parked. The consent page is driven as a browser would: GET the form, POST it urlencoded."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.settings import Settings
from tests.support.agent_support import JOURNALS, consent, drop_redis_keys, journal_spec, ndjson

MOUNT = "/agent/v1"
ADDRESS = {"address": "1 Main St, Springfield, US", "countryCode": "US"}


@pytest.fixture(params=JOURNALS)
async def settings(request: pytest.FixtureRequest,
                   tmp_path: os.PathLike[str]) -> AsyncIterator[Settings]:
    spec = journal_spec(request.param, tmp_path)
    yield Settings(db_path=os.path.join(tmp_path, "commerce.db"), base_url="http://test",
                   simulate=False, sqlite_synchronous="NORMAL", journal=spec)
    if spec.startswith("redis"):
        await drop_redis_keys(spec)


class Conversation:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.session_id = ""
        self.token = ""
        self.events: list[dict[str, Any]] = []

    async def say(self, message: str, **body: Any) -> list[dict[str, Any]]:
        if not self.session_id:
            response = await self.client.post(f"{MOUNT}/session",
                                              json={"message": message, **body})
            assert response.status_code == 202, response.text
            self.session_id = response.json()["sessionId"]
            self.token = response.json()["continuationToken"]
        else:
            await self.post(message=message, **body)
        return await self.read()

    async def post(self, **body: Any) -> httpx.Response:
        response = await self.client.post(
            f"{MOUNT}/session/{self.session_id}", json={"continuationToken": self.token, **body},
            headers={"Authorization": f"Bearer {self.token}"})
        assert response.status_code == 200, response.text
        return response

    async def read(self) -> list[dict[str, Any]]:
        response = await self.client.get(f"{MOUNT}/session/{self.session_id}/stream",
                                         params={"startIndex": len(self.events)})
        new = ndjson(response.text)
        assert [e["streamIndex"] for e in new] == list(
            range(len(self.events), len(self.events) + len(new)))
        self.events += new
        return new

    async def answer(self, request_id: str, choice: str) -> list[dict[str, Any]]:
        await self.post(inputResponses={request_id: choice})
        return await self.read()


def last(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = [e for e in events if e["type"] == kind][-1]["data"]
    return found


def reply(events: list[dict[str, Any]]) -> str:
    return "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")


async def authorized_cart(client: httpx.AsyncClient) -> tuple[Conversation, str]:
    chat = Conversation(client)
    await chat.say("find a ceramic mug under $20", clientContext={"deliveryAddress": ADDRESS})
    parked = await chat.say("add two to my cart")
    assert parked[-1]["type"] == "authorization.required"
    url = parked[-1]["data"]["authUrl"]
    assert (await consent(client, url, "approve")).status_code == 200
    return chat, url


async def test_authorization_is_granted_through_the_consent_page(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    chat = Conversation(client)
    await chat.say("find a ceramic mug under $20")
    parked = await chat.say("add two to my cart")
    assert [e["type"] for e in parked][-2:] == ["message.appended", "authorization.required"]
    required = parked[-1]["data"]
    assert required["connection"] == "commerce"
    assert required["authUrl"].startswith(f"http://test{MOUNT}/consent/{chat.session_id}/")
    call = last(parked, "agent.tool_call")
    assert call["tool"]["name"] == "connection__commerce__create_cart"

    wrong = await consent(client, required["authUrl"], "approve", password="nope")
    assert wrong.status_code == 401 and "Wrong email or password" in wrong.text
    assert (await chat.read()) == []
    approved = await consent(client, required["authUrl"], "approve")
    assert approved.status_code == 200 and "alice@example.com" in approved.text

    resumed = await chat.read()
    assert resumed[0] == {"type": "authorization.granted", "data": {"connection": "commerce"},
                          "streamIndex": parked[-1]["streamIndex"] + 1}
    assert resumed[-1]["type"] == "session.waiting"
    results = [e["data"] for e in resumed if e["type"] == "agent.tool_result"]
    assert [r["tool"]["name"] for r in results] == ["connection__commerce__create_cart",
                                                    "connection__commerce__add_to_cart"]
    assert all(not r["isError"] for r in results)
    cart_id = results[-1]["result"]["cartId"]
    cart = (await client.get(f"/carts/{cart_id}", headers=alice)).json()
    assert [(line["itemId"], line["quantity"]) for line in cart["items"]] == [
        ("item_limited_glaze_mug", 2)]
    assert "Added 2 × Limited Edition Glaze Mug" in reply(resumed)
    assert (await client.get(required["authUrl"])).status_code == 404


async def test_a_declined_connection_is_a_failed_tool_result(client: httpx.AsyncClient) -> None:
    chat = Conversation(client)
    await chat.say("find a ceramic mug under $20")
    parked = await chat.say("add it to my cart")
    declined = await consent(client, parked[-1]["data"]["authUrl"], "decline")
    assert declined.status_code == 200
    resumed = await chat.read()
    result = last(resumed, "agent.tool_result")
    assert result["isError"] is True and result["result"]["code"] == "authorization_declined"
    assert "authorization.granted" not in [e["type"] for e in resumed]
    assert "declined" in reply(resumed)
    assert resumed[-1]["type"] == "session.waiting"


async def test_approval_is_asked_and_a_rejection_is_respected(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    chat, _ = await authorized_cart(client)
    await chat.read()
    asked = await chat.say("check out")
    assert asked[-1]["type"] == "input.requested"
    request = asked[-1]["data"]
    assert request["type"] == "approval" and request["options"] == ["approve", "reject"]
    assert "Total to pay: $44.50" in request["prompt"]
    assert "Shipping (Standard Shipping): $8.50" in request["prompt"]  # two mugs ship
    assert "2 × Limited Edition Glaze Mug: $36.00" in request["prompt"]

    resumed = await chat.answer(request["requestId"], "reject")
    assert resumed[0]["type"] == "input.resolved"
    result = last(resumed, "agent.tool_result")
    assert result["isError"] and result["result"]["code"] == "rejected_by_user"
    assert "didn't go ahead" in reply(resumed)
    orders = (await client.get("/orders", headers=alice)).json()
    assert orders["orders"] == []


async def test_input_responses_are_checked(app: Starlette, client: httpx.AsyncClient) -> None:
    chat, _ = await authorized_cart(client)
    await chat.read()
    asked = await chat.say("check out")
    request_id = asked[-1]["data"]["requestId"]
    url = f"{MOUNT}/session/{chat.session_id}"
    auth = {"Authorization": f"Bearer {chat.token}"}
    before = (await app.state.agent.journal.load(chat.session_id)).length
    message = await client.post(url, json={"message": "hi", "continuationToken": chat.token},
                                headers=auth)
    assert message.status_code == 409 and message.json()["error"]["code"] == "input_required"
    unknown = await client.post(url, json={"inputResponses": {"req_nope": "approve"},
                                           "continuationToken": chat.token}, headers=auth)
    assert unknown.status_code == 409
    assert unknown.json()["error"]["code"] == "no_pending_input"
    invalid = await client.post(url, json={"inputResponses": {request_id: "maybe"},
                                           "continuationToken": chat.token}, headers=auth)
    assert invalid.status_code == 400
    assert invalid.json()["error"]["code"] == "invalid_input_response"
    assert (await app.state.agent.journal.load(chat.session_id)).length == before
    await chat.answer(request_id, "reject")
    again = await client.post(url, json={"inputResponses": {request_id: "approve"},
                                         "continuationToken": chat.token}, headers=auth)
    assert again.status_code == 409 and again.json()["error"]["code"] == "no_pending_input"


async def test_cancel_while_parked_closes_the_turn(client: httpx.AsyncClient) -> None:
    chat = Conversation(client)
    await chat.say("find a ceramic mug under $20")
    parked = await chat.say("add it")
    assert parked[-1]["type"] == "authorization.required"
    response = await client.post(f"{MOUNT}/session/{chat.session_id}/cancel",
                                 headers={"Authorization": f"Bearer {chat.token}"})
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    closed = await chat.read()
    assert [e["type"] for e in closed] == ["agent.tool_result", "message.appended",
                                           "message.completed", "agent.complete",
                                           "session.waiting"]
    assert closed[0]["data"]["result"]["code"] == "cancelled"
    assert (await client.get(parked[-1]["data"]["authUrl"])).status_code == 404
    after = await chat.say("hello")
    assert after[-1]["type"] == "session.waiting"
    assert re.search(r"find products", reply(after))


async def test_the_consent_form_needs_its_csrf_token_and_reuses_the_browser_session(
        client: httpx.AsyncClient) -> None:
    chat = Conversation(client)
    await chat.say("find a ceramic mug under $20")
    url = (await chat.say("add it"))[-1]["data"]["authUrl"]
    forged = await client.post(url, data={"email": "alice@example.com",
                                          "password": "alice-demo-pass"})
    assert forged.status_code == 403 and await chat.read() == []
    assert (await consent(client, url)).status_code == 200
    assert (await chat.read())[0]["type"] == "authorization.granted"

    other = Conversation(client)  # the same browser, now signed in to the site
    await other.say("find a ceramic mug under $20")
    second = (await other.say("add it"))[-1]["data"]["authUrl"]
    page = await client.get(second)
    assert "Signed in as alice@example.com" in page.text and 'name="password"' not in page.text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token is not None
    approved = await client.post(second, data={"csrf_token": token.group(1),
                                               "decision": "approve"})
    assert approved.status_code == 200
    assert (await other.read())[0]["type"] == "authorization.granted"
