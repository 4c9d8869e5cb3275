"""GET /carts, guest cart tokens and adoption: a shopper's carts follow the shopper."""

from __future__ import annotations

import httpx
import pytest

from commerce_agent import clock
from tests.support.helpers import (
    CERAMICS,
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    assert_error,
    new_cart,
    pay_and_order,
)

pytestmark = pytest.mark.both_backends


async def _guest(client: httpx.AsyncClient) -> dict[str, str]:
    response = await client.post("/guest-tokens")
    assert response.status_code == 201
    body = response.json()
    assert body["tokenType"] == "Bearer" and body["guestToken"].startswith("cgt_")
    assert response.headers["cache-control"] == "no-store"
    return {"Authorization": f"Bearer {body['guestToken']}"}


async def test_list_is_the_callers_open_carts(client: httpx.AsyncClient,
                                              alice: dict[str, str],
                                              bob: dict[str, str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    first = await new_cart(client, alice)
    second = await new_cart(client, alice)
    # the change comes a second later: stamps have milliseconds, and in-process requests can
    # all fall in one (the tie then goes to the later id, the second cart)
    later = clock.seconds() + 1
    monkeypatch.setattr(clock, "seconds", lambda: later)
    await add_item(client, alice, first["id"], LIMITED_MUG, 2)
    await new_cart(client, bob)
    response = await client.get("/carts", headers=alice)
    assert response.status_code == 200
    body = response.json()
    # most recently changed first, each rendered as GET /carts/{id} renders it
    assert [cart["id"] for cart in body["carts"]] == [first["id"], second["id"]]
    assert body["carts"][0] == (await client.get(f"/carts/{first['id']}",
                                                 headers=alice)).json()
    assert body["pagination"]["totalCount"] == 2 and body["pagination"]["nextCursor"] is None


async def test_list_pages(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    made = [(await new_cart(client, alice))["id"] for _ in range(3)]
    page = (await client.get("/carts", params={"limit": 2}, headers=alice)).json()
    assert len(page["carts"]) == 2 and page["pagination"]["totalCount"] == 3
    rest = (await client.get("/carts", params={"limit": 2,
                                               "cursor": page["pagination"]["nextCursor"]},
                             headers=alice)).json()
    seen = [cart["id"] for cart in page["carts"] + rest["carts"]]
    assert sorted(seen) == sorted(made) and rest["pagination"]["nextCursor"] is None
    assert_error(await client.get("/carts", params={"limit": 0}, headers=alice), 400,
                 "bad_request")
    assert_error(await client.get("/carts", params={"cursor": "nope"}, headers=alice), 400,
                 "bad_request")


async def test_submitted_carts_leave_the_list(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    kept = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    response = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                   "deliveryAddress": US_ADDRESS})
    assert response.status_code == 201, response.text
    listed = (await client.get("/carts", headers=alice)).json()
    assert [c["id"] for c in listed["carts"]] == [kept["id"]]
    assert listed["pagination"]["totalCount"] == 1


async def test_list_needs_a_token(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/carts"), 401, "unauthorized")
    assert_error(await client.get("/carts", headers={"Authorization": "Bearer cgt_short"}),
                 401, "unauthorized")


async def test_a_guest_holds_its_own_carts(client: httpx.AsyncClient,
                                           alice: dict[str, str]) -> None:
    guest, other = await _guest(client), await _guest(client)
    assert (await client.get("/carts", headers=guest)).json()["carts"] == []
    cart = await new_cart(client, guest)
    cart = await add_item(client, guest, cart["id"], LIMITED_MUG, 1)
    listed = (await client.get("/carts", headers=guest)).json()["carts"]
    assert [c["id"] for c in listed] == [cart["id"]] and listed[0]["itemCount"] == 1
    # nobody else sees it: another guest, a user
    assert (await client.get("/carts", headers=other)).json()["carts"] == []
    assert_error(await client.get(f"/carts/{cart['id']}", headers=other), 404, "cart_not_found")
    assert_error(await client.get(f"/carts/{cart['id']}", headers=alice), 404,
                 "cart_not_found")
    # a guest token opens the cart routes only
    assert_error(await client.get("/orders", headers=guest), 401, "unauthorized")
    assert_error(await client.post("/orders", json={"cartId": cart["id"]}, headers=guest),
                 401, "unauthorized")


async def test_signing_in_adopts_the_guest_carts(client: httpx.AsyncClient,
                                                 alice: dict[str, str],
                                                 bob: dict[str, str]) -> None:
    guest = await _guest(client)
    token = guest["Authorization"].removeprefix("Bearer ")
    cart = await new_cart(client, guest)
    await add_item(client, guest, cart["id"], LIMITED_MUG, 2)
    mine = await new_cart(client, alice)
    response = await client.post("/carts/adopt", json={"guestToken": token}, headers=alice)
    assert response.status_code == 200
    adopted = response.json()["carts"]
    assert [c["id"] for c in adopted] == [cart["id"]] and adopted[0]["itemCount"] == 2
    listed = [c["id"] for c in (await client.get("/carts", headers=alice)).json()["carts"]]
    assert sorted(listed) == sorted([cart["id"], mine["id"]])
    # the guest token holds nothing now; adopting again moves nothing
    assert (await client.get("/carts", headers=guest)).json()["carts"] == []
    assert_error(await client.get(f"/carts/{cart['id']}", headers=guest), 404, "cart_not_found")
    again = await client.post("/carts/adopt", json={"guestToken": token}, headers=bob)
    assert again.status_code == 200 and again.json()["carts"] == []
    # the adopted cart goes on working for its new owner
    cart = await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    assert cart["itemCount"] == 3


async def test_adopt_refuses_bad_input(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    guest = await _guest(client)
    body = assert_error(await client.post("/carts/adopt", json={"guestToken": "cat_x"},
                                          headers=alice), 400, "bad_request")
    assert body["details"][0]["field"] == "/guestToken"
    assert_error(await client.post("/carts/adopt", json={}, headers=alice), 400, "bad_request")
    token = guest["Authorization"].removeprefix("Bearer ")
    assert_error(await client.post("/carts/adopt", json={"guestToken": token}), 401,
                 "unauthorized")
    # a guest cannot adopt into itself
    assert_error(await client.post("/carts/adopt", json={"guestToken": token}, headers=guest),
                 401, "unauthorized")


async def test_capabilities_and_openapi_name_them(client: httpx.AsyncClient) -> None:
    capabilities = (await client.get("/capabilities")).json()
    found = {c["id"]: c for c in capabilities["capabilities"]}
    cart = found["dev.commerce.cart@1.0"]["metadata"]
    assert cart["persistencePolicy"] == "user" and cart["autoMergeOnLogin"] is True
    assert cart["listUrl"].endswith("/carts")
    guest = found["dev.commerce.cart.guest@1.0"]["metadata"]
    assert guest["tokenUrl"].endswith("/guest-tokens")
    assert guest["adoptUrl"].endswith("/carts/adopt")
    document = (await client.get("/openapi.json")).json()
    listing = document["paths"]["/carts"]["get"]
    assert listing["responses"]["200"]["content"]
    assert {"bearerAuth": []} in listing["security"]
    assert {"guestCartToken": []} in listing["security"]
    assert "/guest-tokens" in document["paths"] and "/carts/adopt" in document["paths"]
    assert CERAMICS  # the sample store the helpers use
