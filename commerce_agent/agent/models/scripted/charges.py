"""The shopper's own charges, answered from the order or the cart that holds them: "how much
did you charge me for delivery?" reads the order's shipping line (the option it went by, not
the store's list of rates), "what did I pay altogether?" its total, "what am I paying each
month for that?" the plan's own price, « ça fait combien au total avec la livraison ? » the
cart's total with its shipping. Nothing is changed (`language/charges` reads the question).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from commerce_agent.agent.language.charges import ChargeAsked, charge_asked
from commerce_agent.agent.models.scripted import aftercare, cart_edits, naming, words
from commerce_agent.agent.models.scripted.messages import how_often, say
from commerce_agent.agent.models.scripted.phrasing import lines
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.operations.base import money_text

# Intents a question about a charge may be read as by the keyword table.
MAY_ASK = ("policy", "status", "cart", "details", "other", "search", "checkout", "fees")
# The words of a charge question that name no thing of the cart.
_CHARGE_WORDS = frozenset("""
total totals altogether overall grand shipping delivery postage post courier charge charged
charges fee fees cost costs price pay paid paying owe bill billed amount everything all in
incl including included inclusive with livraison port frais montant prix cout tout compris
compris avec ensemble
""".split())


def asked(p: Planner) -> ChargeAsked | None:
    text = p.frame.first
    if len(p.frame.texts) > 1 and p.frame.intent not in ("status", "policy"):
        return None  # an answer to the agent's own question
    if read_act(text).kind != "question":
        return None
    return charge_asked(text)


def answer(p: Planner) -> Decision | None:
    """The charge the question asks for, read from the order (or cart) it is about; None
    when the message asks for none, for the other stages to read."""
    found = asked(p)
    if found is None:
        return None
    if found.placed:
        return _of_an_order(p, found)
    if not p.state.open_carts() or _names_another_thing(p):
        return None  # "how much is the teapot with shipping?": that item's, not the cart's
    return cart_edits.view(p)


def _names_another_thing(p: Planner) -> bool:
    """Whether the question names a thing none of the cart's lines is."""
    said = words.content_words(p.query()) - _CHARGE_WORDS
    if not said:
        return False
    lines_held = [line for cart in p.state.open_carts() for line in cart.get("items", [])]
    return not any(naming.name_score(line, said) for line in lines_held)


def _of_an_order(p: Planner, found: ChargeAsked) -> Decision:
    wanted = "subscription" if found.figure == "recurring" else None
    if (step := aftercare.need_orders(p, wanted)) is not None:
        return step
    if not p.state.orders and p.state.open_carts() and found.figure != "recurring":
        return cart_edits.view(p)  # nothing ordered yet: what the cart comes to
    chosen = aftercare.the_order(p, "no_subscription" if wanted else "no_orders", wanted)
    if not isinstance(chosen, aftercare.Chosen):
        return chosen
    order_id = chosen.order_id
    if p.state.done("get_order", orderId=order_id) is None:
        return p.call("get_order", orderId=order_id)
    order = p.state.orders.get(order_id) or {"orderId": order_id}
    return order_charge(order, found.figure, p.lang)


def _amount(money: Any) -> Decimal:
    try:
        return Decimal(str((money or {}).get("amount", "0")))
    except (InvalidOperation, AttributeError):
        return Decimal(0)


def order_charge(order: dict[str, Any], figure: str, lang: str) -> str:
    """One figure of a placed order, as the order document states it."""
    order_id, total = order.get("orderId", ""), money_text(order.get("total"))
    method = order.get("shippingMethod") if isinstance(order.get("shippingMethod"), dict) \
        else None
    if figure == "recurring" and order.get("subscription"):
        terms = order["subscription"]
        return say(lang, "plan_charge", name=next(
            (line.get("name") for line in order.get("items", [])), ""), id=order_id,
                   amount=money_text(order.get("total")),
                   frequency=how_often(lang, terms.get("frequency", "monthly")))
    if figure == "shipping":
        if method is None:
            return say(lang, "charged_no_shipping", id=order_id, total=total)
        return say(lang, "charged_shipping", id=order_id, amount=money_text(method.get("amount")),
                   method=method.get("name", ""), total=total)
    if figure == "discount":
        if _amount(order.get("discount")) <= 0:
            return say(lang, "charged_no_discount", id=order_id, total=total)
        return say(lang, "charged_discount", id=order_id,
                   discount=money_text(order.get("discount")), total=total)
    text = say(lang, "charged_total", id=order_id, lines=lines(order, lang), total=total)
    if method is not None:
        text += " " + say(lang, "charged_total_shipping", amount=money_text(method.get(
            "amount")), method=method.get("name", ""))
    return text
