"""An add asked for by weight or volume ("2 kg of genmaicha") becomes a count of the item's
packs (language/packs.py reads the amount and the pack size); an item that states no pack size
is asked about, since a unit is never a count."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from commerce_agent.agent.language.packs import amount_asked, pack_size, packs, same_size, written
from commerce_agent.agent.models.scripted import choices
from commerce_agent.agent.models.scripted.messages import say


@dataclass(frozen=True, slots=True)
class ByAmount:
    """The count of packs to add, and what to tell the shopper when it is rounded up."""

    quantity: int
    note: str | None


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
