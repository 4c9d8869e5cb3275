"""An add asked for by weight or volume ("2 kg of genmaicha") becomes a count of the item's
packs (language/packs.py reads the amount and the pack size); an item that states no pack size
is asked about, since a unit is never a count. An add asked for by a sum of money ("$20 worth
of san pellegrino", « pour 3000 yens de genmaicha », 「3000円分」) becomes as many as the sum
buys at the line's price, said in the reply; a sum that buys none, or in another currency, is
asked about."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from commerce_agent.agent.language.packs import amount_asked, pack_size, packs, same_size, written
from commerce_agent.agent.language.reading import read_message
from commerce_agent.agent.models.scripted import choices
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.operations.base import money_text


@dataclass(frozen=True, slots=True)
class ByAmount:
    """The count of packs to add, and what to tell the shopper when it is rounded up."""

    quantity: int
    note: str | None


def by_sum(texts: tuple[str, ...], item: dict[str, Any], variant: choices.Choice | None,
           lang: str) -> ByAmount | str | None:
    """How many the sum the latest of `texts` asks to spend buys at the line's price (the
    variant's, else the item's), the question to ask when it buys none or is in another
    currency, or None when no sum was asked to be spent."""
    spend = next((found for text in reversed(texts)
                  if (found := read_message(text).spend) is not None), None)
    if spend is None:
        return None
    price = _price_of(item, variant)
    name, currency = str(item["name"]), str(price.get("currency", ""))
    amount = f"{spend.amount} {spend.currency}"
    try:
        each = Decimal(str(price.get("amount")))
    except InvalidOperation:
        each = Decimal(0)
    if spend.currency != currency or each <= 0:
        said = say(lang, "spend_other_currency", name=name, amount=amount, currency=currency)
        return f"{said} {say(lang, 'how_many')}"
    count = int(spend.amount // each)
    if count < 1:
        said = say(lang, "spend_too_little", name=name, amount=amount, price=money_text(price))
        return f"{said} {say(lang, 'how_many')}"
    total = money_text({"amount": str(each * count), "currency": currency})
    return ByAmount(count, say(lang, "spend_bought", amount=amount, count=count, name=name,
                               price=money_text(price), total=total))


def _price_of(item: dict[str, Any], variant: choices.Choice | None) -> dict[str, Any]:
    """The price of one of the line: its variant's, else the item's."""
    listed = choices.meta(item, PRODUCT_VARIANTS).get("variants") or []
    chosen = next((found.get("price") for found in listed
                   if variant is not None and found.get("id") == variant.id), None)
    price = chosen or item.get("price")
    return price if isinstance(price, dict) else {}


def by_amount(texts: tuple[str, ...], item: dict[str, Any], variant: choices.Choice | None,
              lang: str) -> ByAmount | str | None:
    """The packs that make the amount the latest of `texts` asks for, the question to ask when
    the item states no pack size, or None when no amount was asked for."""
    amount = next((found for text in reversed(texts)
                   if (found := amount_asked(text)) is not None), None)
    if amount is None:
        return None
    name = str(item["name"])
    sizes = [size for label in (name, *choices.option_labels(item))
             if (size := pack_size([label])) is not None]
    if any(same_size(amount, size) for size in sizes):
        return None  # "the 100 g culinary matcha" picks the pack, it asks for no amount
    pack = pack_size([variant.label] if variant is not None else []) or pack_size([name])
    made = packs(amount, pack) if pack is not None else None
    if made is None:
        return f"{say(lang, 'no_pack_size', name=name, amount=written(amount))} " \
               f"{say(lang, 'how_many')}"
    note = None if made.exact else say(lang, "packs_rounded", amount=written(amount),
                                       count=made.count, size=written(made.pack))
    return ByAmount(made.count, note)
