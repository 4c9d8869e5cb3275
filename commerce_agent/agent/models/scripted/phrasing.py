"""The agent's words: its fixed questions and how carts and orders read (`explain` turns tool
errors into next steps; `messages` holds the sentences in each language)."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Any

from commerce_agent.agent.models.scripted.messages import (
    QUESTION_KEYS,
    catalog_text,
    every_language,
    say,
)
from commerce_agent.operations.base import money_text

# Questions that leave the request open: the next message answers them.
WHICH = "Which one would you like?"
WHICH_TIME = "Which time suits you?"
WHERE = "Where should I deliver it?"
WHICH_STORE = "Which store do you mean?"
HOW_MANY = "How many would you like?"
WHAT = "What would you like me to add?"
HOW_MANY_STARS = "How many stars would you give it, from 1 to 5?"
HOW_MUCH_TIP = "How much should the tip be?"
QUESTIONS = (WHICH, WHICH_TIME, WHERE, WHICH_STORE, HOW_MANY, WHAT, HOW_MANY_STARS,
             HOW_MUCH_TIP)
SUGGEST_ADD = "Want me to add it to your cart?"
HELP = ("I can find products (“find a ceramic mug under $20”), show details, add them to your "
        "cart (“add two to my cart”, “the blue one”), change or remove lines, apply a code, "
        "check out or “buy it now”, book a class or session, start or pause a subscription, "
        "tell you where your order is, cancel it, return it, rate it or tip.")
EXAMPLE_ADDRESS = "Give me an address such as “1 Main St, Springfield, US”."


# The agent's own questions in every language it speaks: a reply holding one leaves the request
# open for the next message to answer.
# (a question that names its subject, "Which country is “{address}” in?", matches any subject)
_ASKS = re.compile("|".join(re.sub(r"\\\{\w+\\\}", ".+?", re.escape(question))
                            for key in QUESTION_KEYS for question in every_language(key)))
_SUGGESTS = tuple(every_language("suggest_add"))


@lru_cache(maxsize=4096)  # the dialogue state reads every past reply again each turn
def asks(content: str) -> bool:
    return _ASKS.search(content) is not None


def suggests_add(content: str) -> bool:
    return content.rstrip().endswith(_SUGGESTS)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def lines(container: dict[str, Any], language: str = "en") -> str:
    parts = [f"{line['quantity']} × {line['name']}" for line in container.get("items", [])]
    return ", ".join(parts) if parts else say(language, "no_items")


def cart_text(cart: dict[str, Any], store: str, language: str = "en") -> str:
    if not cart.get("items"):
        return say(language, "cart_empty_at", store=store)
    discount = cart.get("discount") or {}
    saved = f" (−{money_text(discount)})" if str(discount.get("amount", "0")).strip(
        "0.") else ""
    return say(language, "cart", store=store, lines=lines(cart, language),
               total=f"{money_text(cart['total'])}{saved}{charges_text(cart, language)}")


def charges_text(cart: dict[str, Any], language: str) -> str:
    """" (goods + shipping + tax)" when the total holds shipping or tax, so the shopper sees what
    the goods come to and what the store adds, in the approval prompt's words."""
    charges = []
    if isinstance(cart.get("shipping"), dict):
        method = cart.get("shippingMethod") or {}
        charges.append(catalog_text(language, "approval.shipping", method=method.get("name", ""),
                                    amount=money_text(cart["shipping"])))
    if isinstance(cart.get("tax"), dict):
        charges.append(catalog_text(language, "approval.tax", rate=cart.get("taxRate", ""),
                                    amount=money_text(cart["tax"])))
    if not charges:
        return ""
    goods = Decimal(str(cart["total"]["amount"]))
    for charge in ("shipping", "tax"):
        if isinstance(cart.get(charge), dict):
            goods -= Decimal(str(cart[charge]["amount"]))
    places = len(str(cart["total"]["amount"]).partition(".")[2])
    goods_text = money_text({"amount": f"{goods:.{places}f}",
                             "currency": cart["total"].get("currency", "")})
    return f" ({' + '.join([goods_text, *charges])})"


def listing(choices: list[Any]) -> str:
    return "; ".join(f"{n}) {choice.label}" for n, choice in enumerate(choices, 1))


def option_question(language: str, name: str, group: str, choices_listed: str) -> str:
    """Which option of a required group, in the shopper's language. The group's name is the
    catalog's (English only: options are not translated), so another language's question
    names the item and its options, not the group."""
    if language == "en":
        asked = say(language, "option_question", name=name, group=group.lower(),
                    listing=choices_listed)
    else:
        asked = say(language, "comes_in", name=name, listing=choices_listed)
    return f"{asked} {say(language, 'which')}"


def sold_out_text(language: str, item: dict[str, Any],
                  alternatives: list[dict[str, Any]]) -> str:
    """What was asked for is sold out, named as such, with what the same search found in
    stock offered instead (never put in its place)."""
    if not alternatives:
        return say(language, "item_sold_out", name=item["name"])
    return say(language, "sold_out", name=item["name"]) + " " + say(
        language, "in_stock_instead", listing=numbered(alternatives[:3]))


def numbered(items: list[dict[str, Any]]) -> str:
    """"1) Stoneware Dinner Plate (22.00 USD); 2) …": items to choose from, with prices."""
    return "; ".join(f"{n}) {item['name']} ({money_text(item.get('price'))})"
                     for n, item in enumerate(items, 1))


def in_store_words(reply: str, items: Any) -> str:
    """`reply` with the English names of options, add-ons and shipping methods replaced by the
    store's own in the shopper's language (`optionNames` of the items read in that language):
    « Pizza margherita (16 pouces) », not "(16-inch)". Names inside quotes are left alone."""
    names: dict[str, str] = {}
    for item in items:
        names.update(item.get("optionNames") or {})
    names = {english: own for english, own in names.items() if english and english != own}
    if not names:
        return reply
    return _names_pattern(tuple(sorted(names, key=len, reverse=True))).sub(
        lambda found: names[found.group(0)], reply)


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'’-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w'’-])")
