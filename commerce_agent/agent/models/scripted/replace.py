"""Replacing a cart line with another product: "swap the mug for the dinner plate".

The line named first goes (`remove_cart_item`), then the new thing is served as its own
request by the same `acquire` an "add" goes through (search, options, add). When the new
words name an option of the line's own item ("swap it for the 16 oz", "the blue one instead")
the line changes instead, as any other change of a line does.
"""

from __future__ import annotations

from commerce_agent.agent.language import Swap, find_swap
from commerce_agent.agent.language.option_words import ENGLISH_OPTION_WORDS, english_option_words
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.agent.models.scripted.acquire import acquire
from commerce_agent.agent.models.scripted.cart_edits import set_quantity
from commerce_agent.agent.models.scripted.naming import name_score
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.several import planner_for
from commerce_agent.agent.models.scripted.state import said_words

_LINE_TOOLS = ("remove_cart_item", "add_to_cart", "update_cart_item")


def swap_of(text: str) -> Swap | None:
    return find_swap(words.fold(text))


def replace_line(p: Planner) -> Decision:
    swap = swap_of(p.frame.first)
    if swap is None:  # "make that the classic mug instead": the last line goes (state.hear)
        swap = Swap("", p.frame.first)
    if not _names_another_product(p, swap):  # "I'll take the blue one instead": an option
        return set_quantity(p)
    calls = p.state.calls
    first = next((i for i, call in enumerate(calls) if call.name in _LINE_TOOLS), None)
    if first is None and len(p.frame.texts) == 1:
        found = planner_for(p, swap.old, (), []).resolve_line()
        if found is None and _only_options(swap.old) and _only_options(swap.new):
            # "抹茶はお点前用じゃなくて製菓用で" with nothing in the cart: the item named, with
            # the one choice refused and the other wanted (its configuration reads both)
            return acquire(planner_for(p, p.frame.first, (), calls), then_check_out=False)
        if found is None:  # nothing of that name in the cart: only the new thing is wanted
            return acquire(planner_for(p, swap.new, (), calls), then_check_out=False)
        cart, line = found
        return p.call("remove_cart_item", cartId=cart["cartId"], cartItemId=line["cartItemId"])
    start = 0 if first is None or calls[first].name != "remove_cart_item" else first + 1
    return acquire(planner_for(p, swap.new, p.frame.texts[1:], calls[start:]),
                   then_check_out=False)


def _only_options(said: str) -> bool:
    """Whether the words name only option values ("お点前用", "the ceremonial")."""
    plain = words.content_words(said)
    return bool(english_option_words(said)) and not plain - ENGLISH_OPTION_WORDS or bool(
        plain) and plain <= ENGLISH_OPTION_WORDS


def _names_another_product(p: Planner, swap: Swap) -> bool:
    """The new words name a thing, not an option of the items the old words name."""
    wanted = said_words(p.query(swap.new))  # in Japanese too: "ほうじ茶"
    if not wanted or (p.state.open_carts() and _only_options(swap.new)):
        return False  # "not the large, the small one": a size, colour or finish of a line
    old_words = said_words(p.query(swap.old))
    lines = [p.item(str(line["itemId"])) or line for cart in p.state.open_carts()
             for line in cart["items"]]
    olds = [item for item in lines if not old_words or name_score(item, old_words) or any(
        choices.matches(label, set(old_words)) for label in choices.option_labels(item))]
    # (a line named by its option, "not the large, the small one", is that line: the catalog
    # is looked in only when no line is named)
    olds = olds or [item for item in p.state.items.values()
                    if old_words and name_score(item, old_words)]
    for item in olds:
        said = set(wanted - words.content_words(str(item.get("name", ""))))
        if not said or any(choices.matches(label, said) for label in choices.option_labels(item)):
            return False
    return True
