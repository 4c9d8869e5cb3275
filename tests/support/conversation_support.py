"""Run a written conversation through the Agent Session API in-process, answering its pauses as
a person would, then read the end state back through the Commerce API.

A conversation is data (tests/conversations/*.json):

    {"name": "…", "store": "store_ceramics", "covers": ["variants", "add", …],
     "context": {"deliveryAddress": {…}},          # optional clientContext
     "turns": ["I'm looking for a ceramic mug",    # what the person types
               {"say": "check out", "approve": false},   # reject the payment approval
               {"merchant": "complete"}],          # the store completes the latest order
     "expect": {"orders": [{"store": "store_ceramics", "currency": "USD",
                            "status": "confirmed",
                            "items": [["item_classic_mug", 2, {"variantId": "var_…"}]],
                            "total": "48.00",                       # optional
                            "slots": ["slot_…"], "subscription": "paused", "rating": 5,
                            "returns": 1, "tipped": true,
                            "address": "12 Oak St, Portland, OR 97202",  # or "addressHas": [parts]
                            }],
                "carts": {"store_ceramics": [["item_limited_glaze_mug", 3]]}}}

A conversation may carry "knownFailure": "why" (expected to fail, strictly). A turn may also
check its reply: {"say": "…", "reply": {"has": ["ord_"],   # one of these
"not": ["size?"], "lang": "fr"}} (the reply is in that language), and the approval
prompts it raised: {"prompt": {"has": ["Delivery to: 12 Oak St"], "not": ["thanks"]}} (the
turn must raise one). `{order}` in what the
person says is their most recent order's id, `{first_order}` their oldest (`{order_tail}`,
`{first_order_tail}`: their last six characters). A conversation's
"lang" checks every reply and approval prompt is in that language.

`orders` lists every order the person has, oldest first (so "exactly one order" is a list of
one); `carts` lists every open cart that still holds lines, by store.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette

from commerce_agent.app import create_app
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.settings import Settings
from tests.support.agent_support import consent, ndjson
from tests.support.seeded import cheapen_demo_passwords

MOUNT = "/agent/v1"
FOLDER = Path(__file__).parents[1] / "conversations"
# Words a reply must never show: raw request errors instead of a next step.
RAW_ERRORS = ("Invalid request", "/variantId", "/timeSlotId", "/customizations", "bad_request",
              "invalid_arguments", "That didn't work")


async def seeded_database(folder: Path) -> Path:
    """A database file seeded from sample_data/ and closed (its WAL folded in), the demo users'
    passwords hashed at the least cost (tests/support/seeded.py)."""
    path = folder / "seeded.db"
    app = create_app(Settings(db_path=str(path), base_url="http://test", simulate=False,
                              sqlite_synchronous="NORMAL"))
    async with app.router.lifespan_context(app):
        pass
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    cheapen_demo_passwords(path)
    return path


def load_all() -> list[dict[str, Any]]:
    found = []
    for path in sorted(FOLDER.glob("*.json")):
        for conversation in json.loads(path.read_text(encoding="utf-8")):
            conversation["file"] = path.name
            found.append(conversation)
    return found


class Person:
    """One shopper in one session: types, signs in when asked, approves or rejects."""

    def __init__(self, app: Starlette, client: httpx.AsyncClient,
                 headers: dict[str, str]) -> None:
        self.app = app
        self.client = client
        self.headers = headers
        self.session_id = ""
        self.token = ""
        self.events: list[dict[str, Any]] = []
        self.replies: list[str] = []

    async def _post(self, **body: Any) -> None:
        if not self.session_id:
            response = await self.client.post(f"{MOUNT}/session", json=body)
            assert response.status_code == 202, response.text
            self.session_id = response.json()["sessionId"]
            self.token = response.json()["continuationToken"]
            return
        response = await self.client.post(
            f"{MOUNT}/session/{self.session_id}", json={"continuationToken": self.token, **body},
            headers={"Authorization": f"Bearer {self.token}"})
        assert response.status_code == 200, response.text

    async def _read(self) -> list[dict[str, Any]]:
        response = await self.client.get(f"{MOUNT}/session/{self.session_id}/stream",
                                         params={"startIndex": len(self.events)})
        new = ndjson(response.text)
        self.events += new
        return new

    async def say(self, text: str, approve: bool = True, context: dict[str, Any] | None = None
                  ) -> str:
        body: dict[str, Any] = {"message": text}
        if context and not self.session_id:
            body["clientContext"] = context
        await self._post(**body)
        said: list[str] = []
        for _ in range(20):
            new = await self._read()
            said += [e["data"]["text"] for e in new if e["type"] == "agent.content.delta"]
            last: dict[str, Any] = new[-1] if new else {"type": ""}
            if last["type"] == "session.waiting":
                break
            if last["type"] == "session.failed":
                raise AssertionError(f"the session failed at {text!r}: {last['data']}")
            if last["type"] == "authorization.required":
                approved = await consent(self.client, last["data"]["authUrl"], "approve")
                assert approved.status_code == 200, approved.text
            elif last["type"] == "input.requested":
                choice = "approve" if approve else "reject"
                await self._post(inputResponses={last["data"]["requestId"]: choice})
            else:
                raise AssertionError(f"the turn stopped at {last} after {text!r}")
        else:
            raise AssertionError(f"the turn after {text!r} never ended")
        reply = "".join(said)
        self.replies.append(reply)
        return reply

    def cart_ids(self) -> list[str]:
        ids = []
        for e in self.events:
            if e["type"] == "agent.tool_result" and not e["data"]["isError"]:
                result = e["data"]["result"]
                if isinstance(result, dict) and "cartId" in result and \
                        result["cartId"] not in ids:
                    ids.append(result["cartId"])
        return ids

    def tool_errors(self) -> list[str]:
        return [e["data"]["result"].get("code", "") for e in self.events
                if e["type"] == "agent.tool_result" and e["data"]["isError"]]

    async def merchant(self, move: str) -> None:
        orders = (await self.client.get("/orders", headers=self.headers)).json()["orders"]
        assert orders, "the merchant has no order to move"
        async with self.app.state.db.transaction() as tx:
            await simulator.advance(tx, orders[0]["id"], "http://test",
                                    None if move == "next" else move)


def _line(line: dict[str, Any]) -> list[Any]:
    """[itemId, quantity] and, when the line has any, its options."""
    found: list[Any] = [line["itemId"], line["quantity"]]
    options = {key: line[key] for key in ("variantId", "customizations", "addOnIds")
               if line.get(key)}
    if options:
        found.append(options)
    return found


def _sorted(lines: list[list[Any]]) -> list[list[Any]]:
    return sorted(lines, key=json.dumps)


async def with_order_ids(person: Person, text: str) -> str:
    """`{order}` is the person's most recent order id, `{first_order}` their oldest;
    `{order_tail}` and `{first_order_tail}` the last six characters of each, as a shopper
    reading the id off a receipt may say it."""
    if "{" not in text:
        return text
    listed = (await person.client.get("/orders", headers=person.headers)).json()["orders"]
    ids = [summary["id"] for summary in listed] or ["(no order)"]
    return (text.replace("{order_tail}", ids[0][-6:]).replace("{first_order_tail}", ids[-1][-6:])
            .replace("{order}", ids[0]).replace("{first_order}", ids[-1]))


def goods_total(doc: dict[str, Any]) -> str:
    """What the order's goods came to: its total less shipping and tax. Conversations check what
    the shopper asked for; shipping and tax are the store's (tests/api/test_shipping.py checks
    them), so a conversation's `total` holds without knowing the store's shipping table."""
    total = Decimal(doc["total"]["amount"])
    for charge in ("shipping", "tax"):
        if isinstance(doc.get(charge), dict):
            total -= Decimal(doc[charge]["amount"])
    places = len(doc["total"]["amount"].partition(".")[2])  # as the currency writes it
    return f"{total:.{places}f}"


async def end_state(person: Person) -> dict[str, Any]:
    """Orders (oldest first) and open carts, as the Commerce API shows them."""
    client, headers = person.client, person.headers
    listed = (await client.get("/orders", headers=headers)).json()["orders"]
    orders = []
    for summary in reversed(listed):
        doc = (await client.get(f"/orders/{summary['id']}", headers=headers)).json()
        metadata = doc.get("metadata", {})
        found: dict[str, Any] = {
            "store": doc["storeId"], "currency": doc["total"]["currency"],
            "status": doc["status"], "items": _sorted([_line(line) for line in doc["items"]]),
            "total": goods_total(doc)}
        slots = [line["timeSlotId"] for line in doc["items"] if line.get("timeSlotId")]
        if slots:
            found["slots"] = slots
            for line in doc["items"]:
                if line.get("timeSlotId"):
                    item = (await client.get(f"/items/{line['itemId']}")).json()
                    slot = next(s for s in item["metadata"]["dev.commerce.service.scheduling"][
                        "timeSlots"] if s["id"] == line["timeSlotId"])
                    assert slot["available"] is False, f"{slot['id']} is not shown booked"
        if "dev.commerce.order.subscription" in metadata:
            found["subscription"] = metadata["dev.commerce.order.subscription"]["status"]
        if "dev.commerce.order.ratings" in metadata:
            found["rating"] = metadata["dev.commerce.order.ratings"]["overall"]
        if "dev.commerce.order.tipping" in metadata:
            found["tipped"] = True
        if isinstance(doc.get("deliveryAddress"), dict):
            found["address"] = doc["deliveryAddress"].get("address", "")
        if doc.get("returns"):
            for summary_return in doc["returns"]:
                ret = await client.get(f"/returns/{summary_return['id']}", headers=headers)
                assert ret.status_code == 200, ret.text
            found["returns"] = len(doc["returns"])
        orders.append(found)
    carts: dict[str, list[list[Any]]] = {}
    for cart_id in person.cart_ids():
        cart = (await client.get(f"/carts/{cart_id}", headers=headers)).json()
        if cart.get("status") == "active" and cart.get("items"):
            carts[cart["storeId"]] = _sorted([_line(line) for line in cart["items"]])
    return {"orders": orders, "carts": carts}


def expected_state(expect: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """The expectation in the end state's shape; an order's total is checked where given."""
    orders = []
    for position, order in enumerate(expect.get("orders", [])):
        wanted = {"status": "confirmed", **order}
        wanted["items"] = _sorted(wanted["items"])
        mine = found["orders"][position] if position < len(found["orders"]) else {}
        if "total" not in wanted:
            mine.pop("total", None)
        given = mine.pop("address", None)
        parts = wanted.pop("addressHas", None)
        if parts is not None:  # each part, in any spacing or punctuation
            missing = [part for part in parts if _address_key(part) not in _address_key(given)]
            mine["addressHas"] = missing or parts
            wanted["addressHas"] = parts
        if "address" in wanted:
            mine["address"] = given
            if _address_key(given) == _address_key(wanted["address"]):
                mine["address"] = wanted["address"]
        orders.append(wanted)
    carts = {store: _sorted(lines) for store, lines in expect.get("carts", {}).items()}
    return {"orders": orders, "carts": carts}


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# Words frequent in any French reply and absent from English ones.
_FRENCH = re.compile(r"\b(?:vous|votre|vos|est|dans|pour|le|la|les|des|une|je|il|à)\b",
                     re.IGNORECASE)
_ENGLISH = re.compile(r"\b(?:the|your|you|is|and|to|it|would|which)\b", re.IGNORECASE)


def _address_key(address: str | None) -> str:
    """An address's words without its punctuation, spacing and case: "12 Oak St,\nPortland"
    and "12 oak st portland" are the same address."""
    return " ".join(re.findall(r"[^\W_]+", (address or "").casefold()))


def reply_problems(said: str, reply: str, wanted: dict[str, Any]) -> list[str]:
    """What is wrong with a reply, checked against a turn's `reply` expectation."""
    problems = []
    has = wanted.get("has", [])
    if has and not any(part.lower() in reply.lower() for part in has):
        problems.append(f"{said!r}: the reply names none of {has}")
    problems += [f"{said!r}: the reply says {part!r}" for part in wanted.get("not", [])
                 if part.lower() in reply.lower()]
    lang = wanted.get("lang")
    reply = re.sub(r"“[^”]*”", " ", reply)  # quoted examples or echoes are not the reply's own
    if lang == "ja" and not _JAPANESE.search(reply):
        problems.append(f"{said!r}: the reply is not in Japanese")
    if lang == "fr" and len(_FRENCH.findall(reply)) <= len(_ENGLISH.findall(reply)):
        problems.append(f"{said!r}: the reply is not in French")
    return problems
