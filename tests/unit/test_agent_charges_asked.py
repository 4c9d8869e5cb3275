"""The shopper's own charges asked about (ans17): which figure of an order or cart a question
asks for (language/charges.py), how the order's own figure is said (scripted/charges.py), and
the questions about the store's terms that name a thing to get or pay for (intents.py,
speech.py) — asked, never done."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.charges import ChargeAsked, charge_asked
from commerce_agent.agent.models.scripted.charges import order_charge
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act


def test_a_charge_of_an_order_placed_in_each_language() -> None:
    assert charge_asked("how much did you charge me for delivery?") == ChargeAsked(
        "shipping", True)
    assert charge_asked("what did I pay for shipping on my order?") == ChargeAsked(
        "shipping", True)
    assert charge_asked("how much was i charged altogether?") == ChargeAsked("total", True)
    assert charge_asked("combien j'ai payé pour la livraison ?") == ChargeAsked(
        "shipping", True)
    assert charge_asked("送料はいくらでしたか") == ChargeAsked("shipping", True)
    assert charge_asked("how much did i save with the code?") == ChargeAsked("discount", True)


def test_what_a_plan_costs_each_period_is_the_plans_own() -> None:
    assert charge_asked("remind me what I'm paying each month for that?") == ChargeAsked(
        "recurring", True)
    assert charge_asked("月額はいくら払っていますか") == ChargeAsked("recurring", True)
    # a plan not taken yet: its price is the item's, not a charge
    assert charge_asked("how much is folio unlimited per month after the trial") is None


def test_the_cart_is_asked_only_for_its_total() -> None:
    assert charge_asked("ca fait combien au total avec la livraison ?") == ChargeAsked(
        "total", False)
    assert charge_asked("合計はいくらですか") == ChargeAsked("total", False)
    # the store's rates and an item's price are no charge of the shopper's own
    assert charge_asked("how much is shipping to canada") is None
    assert charge_asked("whats shipping gonna cost me on this") is None
    assert charge_asked("how much is the teapot") is None
    assert charge_asked("how many cups does it make") is None


ORDER = {"orderId": "ord_1", "total": {"amount": "62.00", "currency": "USD"},
         "items": [{"name": "Hanging Planter", "quantity": 1}],
         "shippingMethod": {"id": "ship_x", "name": "Express Shipping",
                            "amount": {"amount": "24.00", "currency": "USD"}}}


def test_the_orders_own_shipping_not_the_stores_rates() -> None:
    said = order_charge(ORDER, "shipping", "en")
    assert "24.00 USD" in said and "Express Shipping" in said
    nothing_shipped = {**ORDER, "shippingMethod": None}
    assert "no shipping" in order_charge(nothing_shipped, "shipping", "en")
    assert "62.00 USD" in order_charge(ORDER, "total", "en")
    assert "24.00 USD" in order_charge(ORDER, "total", "en")  # with what shipping added


def test_said_in_french_and_japanese() -> None:
    assert "livraison" in order_charge(ORDER, "shipping", "fr")
    assert "送料" in order_charge(ORDER, "shipping", "ja")


@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999"), places=2))
def test_any_discount_taken_off_is_said_with_its_amount(off: Decimal) -> None:
    order = {**ORDER, "discount": {"amount": f"{off:.2f}", "currency": "USD"}}
    assert f"{off:.2f}" in order_charge(order, "discount", "en")


def test_no_discount_is_said_plainly() -> None:
    order = {**ORDER, "discount": {"amount": "0.00", "currency": "USD"}}
    assert "No discount" in order_charge(order, "discount", "en")


def test_a_question_naming_a_thing_to_get_asks_the_terms_never_orders() -> None:
    assert understand("do I pay shipping on the sourdough year ebook?")[0] == "policy"
    assert understand("how much to post the cork yoga mat to me in london?")[0] == "policy"
    # a request to act stays one
    assert understand("can you check out and ship it to 12 Oak St, Portland OR 97202?")[0] \
        == "checkout"


def test_a_question_run_on_after_a_negated_clause_is_kept() -> None:
    act = read_act("if the kyusu arrives and i dont like it how long do i have to send it back?")
    assert act.kind == "question"
    assert "how long do i have to send it back" in act.text
    assert understand("if the kyusu arrives and i dont like it how long do i have to send it "
                      "back?")[0] == "policy"
    # with no question mark, nothing is cut
    assert read_act("i dont like it how long it took").text == "i dont like it how long it took"


def test_a_minimum_asked_about_is_no_charge() -> None:
    assert charge_asked("最低注文金額はいくらですか") is None
    assert charge_asked("what's the minimum order amount?") is None
