""""Same again" just after lines were added: those lines once more ("add 2 arancini", then
"same again": 4), with their variants, options and add-ons. Said after an order was placed,
or naming an order ("same as last time", "reorder"), it orders a past order again
(`reorder`). Adding to a cart moves no money, so no approval is asked here; the checkout
asks as always."""

from __future__ import annotations

import re

from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.several import reply_added

# Words that point at a past order, not at the lines just added.
_PAST_ORDER = re.compile(r"\b(?:order\w*|re-?order|last time|before|yesterday|last week|"
                         r"commande\w*|la derniere fois)\b|前回|この前|注文|前と")


def repeats_the_last_add(p: Planner) -> bool:
    """Whether "same again" means the lines the latest request added, still in a cart."""
    adds = p.state.last_adds
    if not adds or _PAST_ORDER.search(words.fold(p.frame.first)):
        return False
    open_carts = {str(cart.get("cartId")) for cart in p.state.open_carts()}
    return all(str(args.get("cartId")) in open_carts for args in adds)


def add_again(p: Planner) -> Decision:
    adds = p.state.last_adds
    done = [call for call in p.state.calls if call.name == "add_to_cart" and not call.is_error]
    tried = [call for call in p.state.calls if call.name == "add_to_cart"]
    if len(tried) < len(adds):
        return p.call("add_to_cart", **adds[len(tried)])
    failed = [] if len(done) == len(tried) else [str(call.result.get("message", ""))
                                                   for call in tried if call.is_error
                                                   and isinstance(call.result, dict)]
    return reply_added(p, [text for text in failed if text])
