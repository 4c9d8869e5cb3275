"""The same thing sold by several stores: "I need a teapot" when Hearth & Kiln sells a celadon
teapot and Midori-dō a kyusu. With no store in view (none named or switched to, no cart, no
item in view when the shopper spoke, no order in the conversation), the agent does not pick
one silently: it lists the items that fit the words equally well, each with its store, and
asks which. Words that tell them apart ("a porcelain teapot", "the kyusu") choose as before.
Japanese requests are left out: names there have no spaces, and a word is found inside
another (インク in ドロップインクラス).
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.models.scripted import naming, words
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.operations.base import money_text

# Set on the planner's `extra` while a message of several items is served one by one.
SEVERAL = "several_items"


# A gloss in a name: "Kyusu de Tokoname (théière japonaise…)", 「セラドン釉のティーポット（急須）」.
_GLOSS = re.compile(r"\s*[(（][^)）]*[)）]")


def _named(item: dict[str, Any], wanted: frozenset[str]) -> frozenset[str]:
    """The words of the request the item's name carries outside a gloss in brackets."""
    return naming.carried({**item, "name": _GLOSS.sub(" ", str(item.get("name", "")))}, wanted)


def fit(item: dict[str, Any], wanted: frozenset[str]) -> tuple[int, int, int]:
    """How well an item fits the words: how many its name carries outside a gloss, then in
    all, then how many its data (name and description) says."""
    return (len(_named(item, wanted)), len(naming.carried(item, wanted)),
            sum(1 for word in wanted if naming.describes(item, word)))


def tied(items: list[dict[str, Any]], wanted: frozenset[str]) -> list[dict[str, Any]]:
    """The in-stock items that fit the words best, when they come from more than one store
    and their names carry a word of the request; [] otherwise."""
    kept = [item for item in items if item.get("available") is not False]
    if not kept or not wanted:
        return []
    best = max(fit(item, wanted) for item in kept)
    top = [item for item in kept if fit(item, wanted) == best]
    # the same thing: each name says the same words of the request (a "mug … coffret cadeau"
    # is no gift card, though each name says one word)
    if best[0] == 0 or len({naming.carried(item, wanted) for item in top}) > 1 or len(
            {item.get("storeId") for item in top}) < 2:
        return []
    return top


def store_in_view(p: Planner) -> bool:
    """Whether the shopper is shopping at one store already: named now, switched to, holding
    a cart, an item of it in view when they spoke, or an order placed in this conversation."""
    state = p.state
    return bool(state.store or state.open_carts() or p.mentioned_store() or state.orders
                or state.focus_heard)


def ask_which(p: Planner) -> Decision | None:
    """The question when this turn's search found the thing wanted at several stores, no store
    in view; None when one item fits best or a store is in view."""
    if p.lang == "ja" or words.re_japanese(p.frame.first):
        return None  # names without spaces: a word inside another (インク in ドロップインクラス)
    if p.frame.item_id or p.extra.get(SEVERAL) or p.state.done(
            "search_products") is None or store_in_view(p):
        return None  # (items named together: the store of the others decides)
    found = tied(p.state.results, naming.wanted(p.query()))
    if not found or len(p.by_measure(found)) == 1:  # "the 300 ml one": the kyusu
        return None
    if p.needs_stores():  # each is named with its store
        return p.call("list_stores")
    shown = "; ".join(
        f"{n}) {item['name']} — {p.state.store_name(str(item.get('storeId')))} "
        f"({money_text(item.get('price'))})" for n, item in enumerate(found[:5], 1))
    return f"{say(p.lang, 'several_stores', listing=shown)} {say(p.lang, 'which')}"
