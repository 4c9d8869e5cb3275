"""The console's form helpers as pure functions: where each problem of a refusal is shown
(web/console/base.problems) and the flat shipping fee a store's settings form edits
(web/console/store.flat_fee)."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.commerce.capability_ids import STORE_SHIPPING
from commerce_agent.errors import CommerceError
from commerce_agent.web.console.base import problems
from commerce_agent.web.console.store import SETTINGS_FIELDS, flat_fee

FIELDS = {"/price": "amount", "/stock": "quantity", "/name": "name"}


def _refusal(*details: dict[str, Any]) -> CommerceError:
    return CommerceError(400, "bad_request", "Invalid request.", details=list(details))


def test_each_problem_goes_beside_the_field_its_pointer_names() -> None:
    error = _refusal({"field": "/price/amount", "reason": "must be decimal text"},
                     {"field": "/stock", "message": "must be 0 or more"},
                     {"field": "/name"})
    assert problems(error, FIELDS) == {
        "amount": "must be decimal text", "quantity": "must be 0 or more",
        "name": "is not valid", "": "Nothing was changed: amount must be decimal text; "
                                    "quantity must be 0 or more; name is not valid."}


def test_a_pointer_that_only_shares_a_prefix_is_not_the_fields() -> None:
    error = _refusal({"field": "/prices", "reason": "unknown"})
    assert problems(error, FIELDS) == {"": "unknown"}


def test_one_problem_beside_its_field_is_also_said_on_top() -> None:
    # On top too: the field may not be on the page shown again (its form's thing is gone).
    assert problems(_refusal({"field": "/stock", "reason": "must be whole"}), FIELDS) == {
        "quantity": "must be whole", "": "Nothing was changed: quantity must be whole."}


def test_the_first_problem_of_a_field_wins_and_unclaimed_ones_go_on_top() -> None:
    error = _refusal({"field": "/stock", "reason": "first"},
                     {"field": "/stock", "reason": "second"},
                     {"field": "/currency", "reason": "not a currency"})
    assert problems(error, FIELDS) == {"quantity": "first", "": "not a currency"}


def test_a_refusal_without_details_shows_its_message_on_top() -> None:
    assert problems(CommerceError(409, "conflict", "Someone changed it."), FIELDS) == {
        "": "Someone changed it."}


def test_the_settings_form_maps_the_admin_apis_pointers() -> None:
    error = _refusal({"field": "/shipping/shippingOptions/0/costCalculation/flatRate",
                      "reason": "must be an amount of 0 or more"},
                     {"field": "/location/address", "reason": "is required"})
    assert problems(error, SETTINGS_FIELDS) == {
        "shippingFee": "must be an amount of 0 or more", "address": "is required",
        "": "Nothing was changed: shipping fee must be an amount of 0 or more; "
            "address is required."}


@pytest.mark.parametrize(("shipping", "fee"), [
    (None, ""),
    ({"shippingOptions": []}, ""),
    ({"shippingOptions": [{"id": "std", "costCalculation": {"type": "flat",
                                                            "flatRate": "4.99"}}]}, "4.99"),
    ({"shippingOptions": [{"id": "std"}]}, "0"),  # no calculation: free
    ({"shippingOptions": [{"id": "std", "costCalculation": {"type": "tiered", "tiers": []}},
                          {"id": "b", "costCalculation": {"type": "flat", "flatRate": "2"}}]},
     None),  # the first option is not a flat rate: the form leaves it alone
])
def test_the_flat_fee_of_the_first_option(shipping: dict[str, Any] | None,
                                          fee: str | None) -> None:
    store: dict[str, Any] = {"metadata": {STORE_SHIPPING: shipping} if shipping else {}}
    assert flat_fee(store) == fee
