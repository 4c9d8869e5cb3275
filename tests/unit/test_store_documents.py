"""What a merchant may write into a store's shipping and taxation documents and a webhook
subscription, refused with the field named (commerce/services/carts/charges.py,
webhooks/subscriptions.py, links.py), and how a stated option is priced."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from commerce_agent import links
from commerce_agent.commerce.capability_ids import STORE_SHIPPING as SHIPPING
from commerce_agent.commerce.capability_ids import STORE_TAXATION as TAXATION
from commerce_agent.commerce.services.carts import charges
from commerce_agent.commerce.services.webhooks import subscriptions
from commerce_agent.errors import CommerceError


def _option(calculation: Any = None, **changes: Any) -> dict[str, Any]:
    option: dict[str, Any] = {"id": "standard", "name": "Standard", **changes}
    if calculation is not None:
        option["costCalculation"] = calculation
    return option


TIERS = {"type": "tiered", "tiers": [{"threshold": "0", "rate": "9.00"},
                                     {"threshold": "50", "rate": "4.00"},
                                     {"threshold": "100", "rate": "0"}]}


@pytest.mark.parametrize(("merchandise", "rate"), [
    ("0", "9.00"), ("49.99", "9.00"), ("50", "4.00"), ("99.99", "4.00"), ("100", "0"),
    ("100000", "0"),
])
def test_a_tiered_option_costs_the_highest_tier_reached(merchandise: str, rate: str) -> None:
    assert charges.option_rate(_option(TIERS), Decimal(merchandise)) == Decimal(rate)


def test_options_that_cannot_be_priced() -> None:
    from_ten = {"type": "tiered", "tiers": [{"threshold": "10", "rate": "3"}]}
    assert charges.option_rate(_option(from_ten), Decimal("9.99")) is None
    assert charges.option_rate(_option({"type": "weight", "perKg": "2"}), Decimal(5)) is None
    assert charges.option_rate(_option({"type": "flat", "flatRate": "-1"}), Decimal(5)) is None
    assert charges.option_rate(_option({"type": "flat", "flatRate": True}), Decimal(5)) is None
    assert charges.option_rate(_option({"type": "flat", "flatRate": "NaN"}), Decimal(5)) is None
    assert charges.option_rate(_option(), Decimal(5)) == 0  # no calculation: free


def test_only_priceable_options_are_offered_with_the_handling_fee() -> None:
    metadata = {SHIPPING: {"additionalFees": {"handlingFee": "1.50"}, "shippingOptions": [
        _option({"type": "flat", "flatRate": "5"}, description="2-4 days",
                processingTime={"days": 1}),
        {"id": "freight", "costCalculation": {"type": "weight"}},
        {"name": "no id"},
        "not an option"]}}
    assert charges.options(metadata, Decimal(10), "USD") == [
        {"id": "standard", "name": "Standard", "amount": {"amount": "6.50", "currency": "USD"},
         "description": "2-4 days", "processingTime": {"days": 1}}]


def test_choosing_an_option_the_store_does_not_offer() -> None:
    offered = [{"id": "standard"}, {"id": "express"}]
    assert charges.choose(offered, None, "/m") == {"id": "standard"}
    assert charges.choose([], None, "/m") is None
    with pytest.raises(CommerceError) as raised:
        charges.choose(offered, "drone", "/shippingMethodId")
    error = raised.value
    assert (error.status, error.code) == (400, "shipping_method_invalid")
    assert error.message == "This store has no shipping option 'drone'; it offers standard, " \
                            "express."
    assert error.params == {"shippingMethodId": "drone", "options": ["standard", "express"]}
    with pytest.raises(CommerceError, match=r"no shipping option 'drone'\.$"):
        charges.choose([], "drone", "/shippingMethodId")


@pytest.mark.parametrize(("shipping", "problem"), [
    ({"shippingOptions": [_option({"type": "flat", "flatRate": "4.99"}), _option(TIERS, id="b")]},
     None),
    ({"shippingOptions": {}}, ("/shippingOptions", "must be a list of options")),
    ({"shippingOptions": [{"id": "a"}]}, ("/shippingOptions/0", "needs an id and a name")),
    ({"shippingOptions": [_option(), _option()]},
     ("/shippingOptions/1/id", "is used by another option")),
    ({"shippingOptions": [_option({"type": "distance"})]},
     ("/shippingOptions/0/costCalculation/type", "must be flat or tiered")),
    ({"shippingOptions": [_option({"type": "flat", "flatRate": "free"})]},
     ("/shippingOptions/0/costCalculation/flatRate", "must be an amount of 0 or more")),
    ({"shippingOptions": [_option({"type": "tiered", "tiers": [{"threshold": 5, "rate": 1}]})]},
     ("/shippingOptions/0/costCalculation/tiers", "must list {threshold, rate} from 0 up")),
    ({"additionalFees": {"handlingFee": "-2"}},
     ("/additionalFees/handlingFee", "must be an amount of 0 or more")),
    ({"additionalFees": "2.00"}, ("/additionalFees/handlingFee", "must be an amount of 0 or more")),
])
def test_shipping_problem(shipping: dict[str, Any], problem: tuple[str, str] | None) -> None:
    assert charges.shipping_problem(shipping) == problem


@pytest.mark.parametrize(("taxation", "problem", "rate"), [
    ({"rate": "20", "taxOnShipping": True}, None, (Decimal(20), True)),
    ({"rate": 8.25}, None, (Decimal("8.25"), False)),
    ({"rate": "0"}, None, None),  # a zero rate: no tax line
    ({"rate": "100.01"}, ("/rate", "must be a percentage from 0 to 100"),
     (Decimal("100.01"), False)),
    ({}, ("/rate", "must be a percentage from 0 to 100"), None),
    ({"rate": "5", "taxOnShipping": "yes"}, ("/taxOnShipping", "must be true or false"),
     (Decimal(5), True)),
    ({"rate": "5", "name": 7}, ("/name", "must be text"), (Decimal(5), False)),
])
def test_taxation_problem_and_rate(taxation: dict[str, Any], problem: tuple[str, str] | None,
                                   rate: tuple[Decimal, bool] | None) -> None:
    assert charges.taxation_problem(taxation) == problem
    assert charges.tax_rate({TAXATION: taxation}) == rate


def test_tax_is_on_merchandise_after_discount_and_on_shipping_when_asked() -> None:
    metadata: dict[str, dict[str, Any]] = {
        SHIPPING: {"shippingOptions": [_option({"type": "flat", "flatRate": "5.00"})]},
        TAXATION: {"rate": "10", "taxOnShipping": False}}
    plain = charges.compute(metadata, "USD", Decimal("30.00"), Decimal("10.00"), True, None)
    assert (plain.shipping, plain.tax, plain.total) == (
        Decimal("5.00"), Decimal("2.00"), Decimal("27.00"))
    metadata[TAXATION]["taxOnShipping"] = True
    taxed = charges.compute(metadata, "USD", Decimal("30.00"), Decimal("10.00"), True, None)
    assert taxed.tax == Decimal("2.50") and taxed.render("USD")["taxRate"] == "10"
    for rate, text in (("20", "20"), ("20.50", "20.5"), ("8.25", "8.25"), ("100", "100")):
        metadata[TAXATION]["rate"] = rate
        assert charges.compute(metadata, "USD", Decimal(1), Decimal(0), True, None).render(
            "USD")["taxRate"] == text
    assert "shipping" not in charges.compute(metadata, "USD", Decimal(1), Decimal(0), False,
                                             None).render("USD")


# --- webhook subscriptions -------------------------------------------------------------------

def _refused(check: Any, value: Any) -> tuple[str, str]:
    with pytest.raises(CommerceError) as raised:
        check(value)
    assert raised.value.status == 400
    detail = raised.value.details[0]
    return detail["field"], detail["reason"]


@pytest.mark.parametrize("url", [
    "https://hooks.example/orders", "http://127.0.0.1:9000/hook", "http://localhost/hook",
    "http://[::1]:8080/hook", "https://hooks.example:8443/a?b=c",
])
def test_a_webhook_url_we_may_call(url: str) -> None:
    subscriptions.check_url(url)


@pytest.mark.parametrize(("url", "reason"), [
    ("http://hooks.example/orders",
     "must use https (http is allowed only to 127.0.0.1, ::1 or localhost)"),
    ("https://user:pass@hooks.example/", "must not contain credentials"),
    ("https://token@hooks.example/", "must not contain credentials"),
    ("ftp://hooks.example/", "must be an http(s) URL"),
    ("https:///path-only", "must name a host"),
    ("https://hooks.example:port/", "has an invalid host or port"),
    ("https://hooks.example/a b", "must not contain spaces, backslashes or control characters"),
    ("https://hooks.example/" + "a" * 3000, f"must be at most {links.MAX_URL} characters"),
])
def test_a_webhook_url_we_refuse(url: str, reason: str) -> None:
    assert _refused(subscriptions.check_url, url) == ("/url", reason)


def test_webhook_events_are_known_and_listed_once() -> None:
    subscriptions.check_events(["order.created", "order.completed"])
    subscriptions.check_events([subscriptions.ALL_EVENTS])
    field, reason = _refused(subscriptions.check_events, ["order.created", "order.shipped"])
    assert field == "/events/1" and reason.startswith("is not a known event")
    assert _refused(subscriptions.check_events, ["*", "order.created", "*"]) == (
        "/events/2", "is listed twice")


def test_webhook_metadata_keys_are_1_to_100_characters() -> None:
    subscriptions.check_metadata({"k": 1, "k" * 100: 2})
    for key in ("", "k" * 101):
        assert _refused(subscriptions.check_metadata, {key: "v"}) == (
            "/metadata", "keys must be 1 to 100 characters")
