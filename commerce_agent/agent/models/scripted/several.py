"""Several items in one message ("a glaze mug and two dinner plates"): each item phrase is
served as its own request, in order, by the same `acquire` a single item goes through.

Each item's turn starts with its own search, so this turn's calls split into one stretch per
item (from the last search for its words); an item is done once its stretch holds a
successful add. An item that cannot be had (not found, sold out) is reported and the next
one served; an item that needs an answer (its variant, its size) asks, and the answer in the
next message goes to it while the items before it, already in the cart, are not added again.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from commerce_agent.agent.language.shown_sets import shown_set, takes_shown, without_shown_set
from commerce_agent.agent.models.scripted import configuration, line_options, words
from commerce_agent.agent.models.scripted.acquire import acquire, check_out
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.naming import name_score
from commerce_agent.agent.models.scripted.phrasing import asks, cart_text, sold_out_text
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.state import Call, in_stock_or_sold_out


def acquire_items(p: Planner, then_check_out: bool) -> Decision:
    shown = every_shown(p)
    said = _said_of_every_shown(p) if shown else ""
    # a shown item by its name, without what the name counts ("Espresso Cup & Saucer Set (2)"
    # is one set, not two)
    named = [re.sub(r"\s*\([^)]*\)", "", name).strip() or name for name in shown]
    mentions = tuple((name, f"{name}, {said}" if said else name) for name in named) or tuple(
        _referred(p, head, whole) for head, whole in words.item_mentions(
            p.frame.first, lambda head, piece: _belongs(p, head, piece),
            lambda head, piece: _configures(p, head, piece)))
    # a "with" list may hold other items ("a caesar with chicken and 2 san pellegrinos"):
    # served one by one until its item is read and tells
    apart = len(shown) or len(words.item_mentions(p.frame.first, lambda head, piece: False))
    if apart < 2 or p.state.done("place_order") is not None:
        return acquire(p, then_check_out)
    calls = p.state.calls
    answers = p.frame.texts[1:]
    failed: list[str] = []
    question: str | None = None  # the first item that needs an answer asks once the rest are in
    queries = [_query_of(p, head) for head, _ in mentions]
    for at, (head, whole) in enumerate(mentions):
        query = queries[at]
        found = planner_for(p, head, (), [])
        if not query.strip():
            continue  # a piece naming nothing once its verbs are gone ("could you pop one in")
        start = _last_search(calls, query)
        if start is None:
            if answers and _in_cart(p, query):
                continue  # added in an earlier turn of this request
            step = found.search_step(query)
            return step if step is not None else acquire(found, then_check_out=False)
        end = _next_search(calls, start, query, frozenset(queries[at + 1:]))
        stretch = calls[start:end]
        if _added(calls[start:], stretch):
            continue
        decision = _serve(p, head, whole, answers, stretch)
        asking = isinstance(decision, str) and asks(decision)
        if end < len(calls):
            # served already, and the next item taken up after it
            if asking:
                question = question or str(decision)
            else:
                failed.append(_why_not(p, whole, calls[start]))
            continue
        if not isinstance(decision, str):
            return decision
        if asking:  # asked once the others are in; a later one in the next turn
            question = question or decision
        else:
            failed.append(decision)
    if question is not None:
        return reply_added(p, failed, question)
    if then_check_out:
        return check_out(p)
    return reply_added(p, failed)


def _serve(p: Planner, head: str, whole: str, answers: tuple[str, ...],
           stretch: list[Call]) -> Decision:
    """The next step for one item: found by its head words, served with all of its own
    (its count, options and add-ons)."""
    item = _head_item(p, head)
    if item is None:  # read the item first: its options tell what the rest of its words are
        return acquire(planner_for(p, head, answers, stretch), then_check_out=False)
    return acquire(planner_for(p, whole, answers, stretch, str(item["itemId"])),
                   then_check_out=False)


def _belongs(p: Planner, head: str, piece: str) -> bool:
    """Whether a piece said after the item's "with" list is more of that item, by the item's
    own data: its extras ("and anchovies", "et le coffret cadeau") or its option values; a
    piece that names anything else is an item of its own ("and 2 san pellegrinos"). Unread
    items keep the piece until read."""
    item = _head_item(p, head)
    return item is None or line_options.only_its_own(item, piece)


def _configures(p: Planner, head: str, piece: str) -> bool:
    """Whether a piece said apart is a choice of the item named before it, once that item is
    read ("…cobalt mugs, the bigger 16 oz size"); an unread item keeps nothing yet."""
    item = _head_item(p, head)
    return item is not None and configuration.configures(item, piece, p.lang)


def _head_item(p: Planner, head: str) -> dict[str, Any] | None:
    """The item the words `head` found in this turn, once read in full; None before."""
    calls = p.state.calls
    found = planner_for(p, head, (), [])
    query = found.searched(found.query())
    start = _last_search(calls, query)
    if start is None:
        return None
    end = _next_search(calls, start, query)
    stretch = calls[start:end]
    read = [str(call.args.get("itemId")) for call in stretch if not call.is_error and
            call.name in ("add_to_cart", "get_item")]
    added = [str(call.args.get("itemId")) for call in stretch
             if call.name == "add_to_cart" and not call.is_error]
    if added or len(set(read)) == 1:
        item_id = (added or read)[0]
    elif end == len(calls):  # the latest search: the item it chose, as serving it would
        probe = planner_for(p, head, (), stretch)
        probe.extra = {}
        acquire(probe, then_check_out=False)
        chosen = probe.extra.get("item")
        item_id = str(chosen["itemId"]) if isinstance(chosen, dict) else ""
    else:
        return None
    return p.state.items.get(item_id) if item_id in p.state.details else None


def _added(since: list[Call], stretch: list[Call]) -> bool:
    """Whether the item of this stretch is in the cart: an add in its stretch, or (an item
    whose question was answered after the others were served) a later add of the item it
    read."""
    read = {str(call.args.get("itemId")) for call in stretch
            if call.name == "get_item" and not call.is_error}
    return any(call.name == "add_to_cart" and not call.is_error and (
        call in stretch or str(call.args.get("itemId")) in read) for call in since)


def every_shown(p: Planner) -> tuple[str, ...]:
    """The names of the items just shown when the message takes them all ("add both", "all
    of them, 12 inch") or the first or last few ("the first two", « les deux premiers »,
    「最初の2つ」), and names no product of its own, only options of them; empty otherwise."""
    text = words.fold(p.frame.first)
    shown = p.state.shown
    if not shown or shown_set(text) is None:
        return ()  # most messages: no set said, no product words to weigh
    found = takes_shown(text, words.names_only_options(
        words.content_words(p.query(words.without_measures(without_shown_set(text))))))
    if found is None:
        return ()
    if found.last:
        return tuple(str(item["name"]) for item in shown[-found.count:])
    return tuple(str(item["name"]) for item in shown[:found.count])


def _said_of_every_shown(p: Planner) -> str:
    """The options said for every item shown ("all of them, 12 inch": "12 inch")."""
    rest = without_shown_set(words.fold(p.frame.first))
    return rest if words.content_words(p.query(rest)) or words.names_a_measure(rest) else ""


def _referred(p: Planner, head: str, whole: str) -> tuple[str, str]:
    """(head, whole) of a list's piece, its head the name of the item shown that it points
    at ("4 of those and a hanging planter": the dinner plates shown), by its position
    ("the second one") or else the best match shown."""
    if words.content_words(_query_of(p, head)) or not words.points_at_one(head):
        return head, whole
    shown = p.state.shown
    position = words.ordinal(head)
    if shown and (position is None or -len(shown) <= position < len(shown)):
        return str(shown[position or 0]["name"]), whole
    focus = p.state.items.get(p.state.focus or "")
    if position is None and focus is not None:
        return str(focus["name"]), whole  # "that one too and a tiramisu": the one in view
    return head, whole


def planner_for(p: Planner, part: str, answers: tuple[str, ...], calls: list[Call],
                item_id: str | None = None) -> Planner:
    """A planner serving only `part` (with its answers), seeing only `calls` of this turn;
    `item_id` when the item is settled already."""
    frame = Frame(p.frame.intent, (part, *answers), item_id=item_id,
                  item_at=1 if item_id else 0)
    sub = Planner(replace(p.state, calls=calls, frame=frame), p.tools)
    sub.extra = p.extra
    return sub


def _last_search(calls: list[Call], query: str) -> int | None:
    found = [i for i, call in enumerate(calls)
             if call.name == "search_products" and call.args.get("query") == query]
    return found[-1] if found else None


def _query_of(p: Planner, head: str) -> str:
    found = planner_for(p, head, (), [])
    return found.searched(found.query())


def _next_search(calls: list[Call], start: int, query: str,
                 later: frozenset[str] | None = None) -> int:
    """Where the stretch of the item searched at `start` ends: at the next search for another
    item (one of `later`, the items after it, when known: a search of its own words spelt
    again, 棒ホウジ茶 or ほうじ茶 for 棒ほうじ茶, is still its own)."""
    return next((i for i in range(start + 1, len(calls)) if calls[i].name == "search_products"
                 and calls[i].args.get("query") != query and (
                     later is None or calls[i].args.get("query") in later)), len(calls))


def _why_not(p: Planner, part: str, search: Call) -> str:
    """Why an item served in an earlier step is not in the cart: sold out, or not found."""
    found = search.result.get("results", []) if isinstance(search.result, dict) else []
    gone = in_stock_or_sold_out(list(found), str(search.args.get("query", "")))[1]
    if gone:
        return sold_out_text(p.lang, gone[0], [])
    return say(p.lang, "not_found", query=p.query(part))


def _in_cart(p: Planner, query: str) -> bool:
    """A line whose name carries every word of the item phrase ("glaze mug" is not the
    "Classic Stoneware Mug" already in the cart)."""
    wanted = words.content_words(query)
    return bool(wanted) and any(name_score(line, wanted) == len(wanted)
                                for cart in p.state.open_carts() for line in cart["items"])


def reply_added(p: Planner, failed: list[str], question: str | None = None) -> str:
    """What this turn added, what could not be had, then the question still open or the cart."""
    text: list[str] = []
    added = [call for call in p.state.calls if call.name == "add_to_cart" and not call.is_error]
    for call in added:
        item: dict[str, Any] = p.state.items.get(str(call.args.get("itemId"))) or {}
        text.append(say(p.lang, "added", quantity=call.args.get("quantity", 1),
                        name=item.get("name", ""), options=""))
    text += failed
    cart = p.state.open_carts()[0] if p.state.open_carts() else None
    if question is not None:  # what was added, then the one thing still to choose
        return " ".join([*text, question])
    if cart is not None:
        text.append(cart_text(cart, p.state.store_name(cart.get("storeId")), p.lang))
        text.append(say(p.lang, "ready"))
    return " ".join(text)
