"""The rules every way into the shop shares (commerce/shop/checks.py): currencies, amounts in
the currency's minor digits, items with their variants, promotions, store files, and the 400
that names every problem."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.commerce.shop import checks
from commerce_agent.errors import CommerceError


def _item(**changes: Any) -> dict[str, Any]:
    return {"id": "item_mug", "name": "Mug", "price": {"amount": "12.50", "currency": "USD"},
            **changes}


def _fields(problems: list[checks.Problem]) -> list[str]:
    return [problem.field for problem in problems]


@pytest.mark.parametrize(("currency", "reason"), [
    ("USD", None), ("JPY", None), ("KWD", None),
    ("usd", "must be an ISO 4217 code such as USD"),
    ("US", "must be an ISO 4217 code such as USD"),
    (840, "must be an ISO 4217 code such as USD"),
    ("ZZZ", "is not a known ISO 4217 currency"),
])
def test_currency_problem(currency: Any, reason: str | None) -> None:
    assert checks.currency_problem(currency) == reason


@pytest.mark.parametrize(("amount", "currency", "ok"), [
    ("12.50", "USD", True), ("0.00", "USD", True), ("12.5", "USD", False),
    ("12", "USD", False), ("-1.00", "USD", False), ("1,00", "EUR", False),
    ("1800", "JPY", True), ("1800.00", "JPY", False),
    ("1.250", "KWD", True), ("1.25", "KWD", False),
    ("999999999999.99", "USD", True), ("1000000000000.00", "USD", False),  # 12 digits at most
    (12.5, "USD", False), (None, "USD", False),
])
def test_amounts_carry_exactly_the_currencys_minor_digits(amount: Any, currency: str,
                                                          ok: bool) -> None:
    assert (checks.amount_problem(amount, currency) is None) is ok


def test_the_amount_reason_gives_an_example_in_the_currency() -> None:
    assert checks.amount_problem("1", "USD") == \
        'must be decimal text with 2 decimals in USD, like "12.50"'
    assert checks.amount_problem("1.0", "JPY") == \
        'must be decimal text with 0 decimals in JPY, like "1800"'
    assert checks.amount_problem("1", "KWD") == \
        'must be decimal text with 3 decimals in KWD, like "1.000"'
    assert checks.amount_problem("0.00", "USD", positive=True) == "must be more than zero"
    assert checks.amount_problem("0.01", "USD", positive=True) is None


def test_a_good_item_has_no_problem() -> None:
    assert checks.item_problems(_item(stock=3, fulfillmentType="digital"), "USD") == []
    assert checks.item_problems(_item(stock=None, description="x" * 20_000), "USD") == []


@pytest.mark.parametrize(("item", "field", "reason"), [
    (_item(id="-mug"), "/id", "must be an id of letters, digits, _ . - (at most 100)"),
    (_item(id="m" * 101), "/id", "must be an id of letters, digits, _ . - (at most 100)"),
    ({"id": "i", "price": {"amount": "1.00", "currency": "USD"}}, "/name", "is required"),
    (_item(name="   "), "/name", "must be non-empty text"),
    (_item(name="n" * 301), "/name", "must be at most 300 characters"),
    (_item(description=5), "/description", "must be non-empty text"),
    (_item(price="12.50"), "/price", "must be an object {amount, currency}"),
    (_item(price={"amount": "12.50", "currency": "EUR"}), "/price/currency",
     "must be the store's currency USD"),
    (_item(fulfillmentType="teleport"), "/fulfillmentType",
     "must be one of physical, digital, pickup, hybrid"),
    (_item(stock=-1), "/stock", "must be a whole number of units from 0, or null for unlimited"),
    (_item(stock=True), "/stock",
     "must be a whole number of units from 0, or null for unlimited"),
    (_item(stock=10**9 + 1), "/stock",
     "must be a whole number of units from 0, or null for unlimited"),
    (_item(metadata=[]), "/metadata", "must be an object of capability documents"),
    (_item(metadata={"dev.x": "text"}), "/metadata/dev.x", 'must be an object with "_version"'),
    (_item(name="Mug\x00"), "", "must not contain U+0000 in any text"),
])
def test_item_problems_point_at_the_field(item: dict[str, Any], field: str,
                                          reason: str) -> None:
    problems = checks.item_problems(item, "USD")
    assert (field, reason) in [(problem.field, problem.reason) for problem in problems]


def test_an_item_that_is_not_an_object() -> None:
    assert checks.item_problems(["mug"], "USD") == [checks.Problem("", "must be an object")]


def _variants(options: Any, variants: Any) -> dict[str, Any]:
    return _item(metadata={PRODUCT_VARIANTS: {"_version": "1.0", "options": options,
                                              "variants": variants}})


def _variant(variant_id: str, *values: str, amount: str = "12.50") -> dict[str, Any]:
    return {"id": variant_id, "values": list(values),
            "price": {"amount": amount, "currency": "USD"}}


def test_variants_are_checked_one_by_one() -> None:
    base = f"/metadata/{PRODUCT_VARIANTS}"
    good = _variants(["Size"], [_variant("v_s", "S"), _variant("v_m", "M")])
    assert checks.item_problems(good, "USD") == []
    problems = checks.item_problems(_variants(["Size", "Colour"], [
        _variant("v_s", "S", "Red"),
        _variant("v_s", "M", "Red"),  # the id again
        _variant("v_l", "S", "Red"),  # the values again
        _variant("v x", "L"),  # a bad id, one value for two options
        _variant("v_xl", "XL", "Red", amount="12"),
        "not an object",
    ]), "USD")
    assert [(p.field.removeprefix(base), p.reason) for p in problems] == [
        ("/variants/1/id", "appears twice"),
        ("/variants/2/values", "repeat another variant's values"),
        ("/variants/3/id", "must be an id of letters, digits, _ . -"),
        ("/variants/3/values", "must give one value for each of 2 options"),
        ("/variants/4/price/amount",
         'must be decimal text with 2 decimals in USD, like "12.50"'),
        ("/variants/5", "must be an object"),
    ]


@pytest.mark.parametrize(("options", "variants", "field", "reason"), [
    ([], [_variant("v", "S")], "/options", "must list 1 to 3 option names"),
    (["A", "B", "C", "D"], [_variant("v", "S")], "/options", "must list 1 to 3 option names"),
    (["Size", " "], [_variant("v", "S")], "/options", "must list 1 to 3 option names"),
    (["Size"], [], "/variants", "must list at least one variant"),
    (["Size"], None, "/variants", "must list at least one variant"),
])
def test_variant_options_come_first(options: Any, variants: Any, field: str,
                                    reason: str) -> None:
    problems = checks.item_problems(_variants(options, variants), "USD")
    assert [(p.field, p.reason) for p in problems] == [
        (f"/metadata/{PRODUCT_VARIANTS}{field}", reason)]


# --- promotions ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["0.01", "1", "5", "10", "12.5", "99.99", "100", "100.00",
                                   "007", "0.5", "00.10"])
def test_a_percentage_from_one_hundredth_to_one_hundred(value: str) -> None:
    assert checks.promotion_problems({"code": "SAVE", "type": "percentage", "value": value},
                                     "USD") == []


@pytest.mark.parametrize("value", ["0", "0.00", "0.001", "100.01", "101", "1000", "12.345",
                                   "-5", "1e2", "", "50%", ".5"])
def test_a_percentage_out_of_range_is_refused(value: str) -> None:
    problems = checks.promotion_problems({"code": "SAVE", "type": "percentage", "value": value},
                                         "USD")
    assert problems == [checks.Problem("/value", "must be a percentage from 0.01 to 100", value)]


@given(st.decimals(min_value="0.01", max_value="100", places=2))
def test_every_two_decimal_percentage_in_range_is_accepted(value: Any) -> None:
    assert checks.PERCENTAGE.match(str(value)), value


def test_promotion_problems_name_each_field() -> None:
    problems = checks.promotion_problems({
        "code": "SAVE 10", "type": "fixed_amount", "value": "0.00", "minimumSubtotal": "5",
        "startsAt": "next tuesday", "expiresAt": "2026-12-31T00:00:00Z", "perUserLimit": 0,
        "description": "d" * 501}, "USD")
    assert _fields(problems) == ["/code", "/value", "/minimumSubtotal", "/startsAt",
                                 "/perUserLimit", "/description"]
    assert problems[1].reason == "must be more than zero"


@pytest.mark.parametrize(("changes", "field"), [
    ({"type": "bogo"}, "/type"),
    ({"perUserLimit": True}, "/perUserLimit"),
    ({"perUserLimit": 1_000_001}, "/perUserLimit"),
    ({"description": 3}, "/description"),
    ({"code": "c" * 51}, "/code"),
])
def test_promotion_edge_cases(changes: dict[str, Any], field: str) -> None:
    promotion = {"code": "SAVE", "type": "fixed_amount", "value": "1800", **changes}
    assert _fields(checks.promotion_problems(promotion, "JPY")) == [field]


# --- store files and the refusal -------------------------------------------------------------

def test_a_store_file_points_into_its_promotions_catalogs_and_items() -> None:
    store = {"id": "store_x", "name": "X", "currency": "USD", "promotions": [
        {"code": "OK", "type": "percentage", "value": "10"},
        {"code": "BAD", "type": "percentage", "value": "0"}],
        "catalogs": [{"id": "cat", "items": [_item(), _item(stock=-2)]},
                     {"id": "bad id!"}]}
    assert _fields(checks.store_problems(store)) == [
        "/promotions/1/value", "/catalogs/0/items/1/stock", "/catalogs/0/items/1/id",
        "/catalogs/1/id"]


def test_a_store_with_a_bad_currency_stops_there() -> None:
    problems = checks.store_problems({"id": "s", "name": "S", "currency": "dollars",
                                      "catalogs": [{"id": "c", "items": [{}]}]})
    assert _fields(problems) == ["/currency"]
    assert _fields(checks.store_problems({"id": "s", "name": "S", "currency": "USD",
                                          "catalogs": {}})) == ["/catalogs"]
    assert checks.store_problems("store") == [checks.Problem("", "must be an object")]


def test_the_refusal_is_one_400_naming_every_field() -> None:
    error = checks.refusal([checks.Problem("/price/amount", "must be decimal text", "1"),
                            checks.Problem("/stock", "must be whole", {"n": 1})], "/items/0")
    assert (error.status, error.code) == (400, "bad_request")
    assert error.message == "Invalid request: /items/0/price/amount must be decimal text."
    assert error.details == [
        {"type": "validation", "field": "/items/0/price/amount",
         "reason": "must be decimal text", "value": "1"},
        {"type": "validation", "field": "/items/0/stock", "reason": "must be whole"}]
    assert error.params == {"field": "/items/0/price/amount"}


def test_ensure_stored_refuses_a_nul_anywhere() -> None:
    checks.ensure_stored({"name": "fine", "nested": [{"text": "also fine"}]})
    with pytest.raises(CommerceError) as raised:
        checks.ensure_stored({"nested": [{"text": "bad\x00"}]}, "/doc")
    assert raised.value.status == 400
    assert raised.value.details[0]["field"] == "/doc"
