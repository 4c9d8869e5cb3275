"""A cart's quantities against a model (hypothesis): any sequence of adds, changes and removals
of lines — quantities from 0 past the 999 a line may hold, items with a few left in stock,
none left, or none counted — leaves the cart exactly as the model says, and each refusal is
the one the model predicts (`invalid_quantity` outside 1 to 999, a line's sum included,
`product_unavailable`, `insufficient_stock` with what is left) and changes nothing. A lower
quantity is always accepted, even above what is left in stock."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette

from tests.support.helpers import new_cart

MAX_LINE = 999
# Items of the ceramics store and what is in stock (None: not counted).
STOCK: dict[str, int | None] = {
    "item_limited_glaze_mug": 10,
    "item_celadon_teapot": 1,
    "item_stoneware_dinner_plate": 120,
    "item_glazing_guide_ebook": None,
    "item_serving_bowl_large": 0,
}
QUANTITIES = st.integers(0, 12) | st.sampled_from([119, 120, 121, 998, 999, 1000, 10**6])
ADD = st.tuples(st.just("add"), st.sampled_from(sorted(STOCK)), QUANTITIES)
CHANGE = st.tuples(st.just("change"), st.integers(0, 4), QUANTITIES)
REMOVE = st.tuples(st.just("remove"), st.integers(0, 4), st.just(0))


@dataclass
class Model:
    quantities: dict[str, int] = field(default_factory=dict)  # item → quantity, in line order

    def add(self, item_id: str, quantity: int) -> tuple[int, str] | None:
        """The refusal (status, code) the API must give, or None (and the model changes)."""
        if not 1 <= quantity <= MAX_LINE:
            return 400, "invalid_quantity"
        total = quantity + self.quantities.get(item_id, 0)
        if total > MAX_LINE:
            return 400, "invalid_quantity"
        on_hand = STOCK[item_id]
        if on_hand == 0:
            return 400, "product_unavailable"
        if on_hand is not None and total > on_hand:
            return 409, "insufficient_stock"
        self.quantities[item_id] = total
        return None

    def change(self, item_id: str, quantity: int) -> tuple[int, str] | None:
        if not 1 <= quantity <= MAX_LINE:
            return 400, "invalid_quantity"
        on_hand = STOCK[item_id]
        if quantity > self.quantities[item_id] and on_hand is not None and quantity > on_hand:
            return 409, "insufficient_stock"
        self.quantities[item_id] = quantity
        return None


def check_cart(cart: dict[str, Any], model: Model) -> None:
    assert [(line["itemId"], line["quantity"]) for line in cart["items"]] == list(
        model.quantities.items()
    )
    assert cart["itemCount"] == sum(model.quantities.values())
    for line in cart["items"]:
        price, total = line["price"]["amount"], line["lineTotal"]["amount"]
        assert round(float(price) * line["quantity"], 2) == float(total), line


def check_refusal(
    response: httpx.Response, expected: tuple[int, str], item_id: str, model: Model
) -> None:
    status, code = expected
    assert response.status_code == status, (expected, response.text)
    body = response.json()
    assert body["code"] == code, (expected, body)
    if code == "insufficient_stock":
        assert body["details"][0]["availableQuantity"] == STOCK[item_id]
        assert body["userMessage"]["params"]["availableQuantity"] == STOCK[item_id]


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(ADD | CHANGE | REMOVE, min_size=1, max_size=10))
async def test_quantities_follow_the_model(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    operations: list[tuple[str, Any, int]],
) -> None:
    cart = await new_cart(client, alice)
    base = f"/carts/{cart['id']}/items"
    model = Model()
    for kind, target, quantity in operations:
        lines = cart["items"]
        if kind == "add":
            item_id = str(target)
            expected = model.add(item_id, quantity)
            response = await client.post(
                base, headers=alice, json={"itemId": item_id, "quantity": quantity}
            )
        elif not lines:
            continue
        else:
            line = lines[int(target) % len(lines)]
            item_id = line["itemId"]
            if kind == "remove":
                response = await client.delete(f"{base}/{line['cartItemId']}", headers=alice)
                assert response.status_code in (200, 204), response.text
                del model.quantities[item_id]
                expected = None
            else:
                expected = model.change(item_id, quantity)
                response = await client.patch(
                    f"{base}/{line['cartItemId']}", headers=alice, json={"quantity": quantity}
                )
        if expected is not None:
            check_refusal(response, expected, item_id, model)
        elif response.status_code != 204:
            assert response.status_code == 200, response.text
        cart = (await client.get(f"/carts/{cart['id']}", headers=alice)).json()
        check_cart(cart, model)
