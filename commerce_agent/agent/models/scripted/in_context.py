"""Answers to follow-ups about what is in view (`follow_ups`): the other free times of the
service in view, things of the same kind for less (or more), the item's own options.

They only read and answer: a time or an item is booked or added once the shopper says so.
"""

from __future__ import annotations

from commerce_agent.agent.models.scripted import choices, follow_ups
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.phrasing import listing
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.operations.base import money_text


def answer(p: Planner) -> Decision:
    asked = follow_ups.read(p.frame.first) or follow_ups.FollowUp(shift="other")
    if asked.shift:
        return _times(p, asked)
    if asked.price:
        return _by_price(p, asked.price)
    return _options(p, asked.option or "")


def _times(p: Planner, asked: follow_ups.FollowUp) -> Decision:
    state = p.state
    found = follow_ups.service_in_view(state.items, state.open_carts(), state.focus,
                                       state.last_line)
    if found is None:
        return say(p.lang, "help")
    item, booked = found
    free = choices.open_slots(item, p.state.now)
    others = [choice for choice in free if choice.id != booked]
    fitting = follow_ups.times_asked(asked, item, booked, p.state.now)
    name = str(item["name"])
    if not free:
        return say(p.lang, "fully_booked", name=name)
    if not fitting:
        return (say(p.lang, "no_time_then", name=name, listing=listing(choices.localized(
            others[:choices.SLOTS_OFFERED] or free[:choices.SLOTS_OFFERED], p.lang))) + " " +
                say(p.lang, "which_time"))
    return (say(p.lang, "next_times", name=name, listing=listing(choices.localized(
        fitting[:choices.SLOTS_OFFERED], p.lang))) + " " + say(p.lang, "which_time"))


def _by_price(p: Planner, order: str) -> Decision:
    """Things of the same kind (the item's catalog) for less, nearest in price first; or for
    more, with `order` "dearer"."""
    focus = p.item(p.state.focus)
    if focus is None or not focus.get("catalogId"):
        return say(p.lang, "help")
    read = p.state.done("get_catalog", catalogId=focus["catalogId"])
    if read is None:
        return p.call("get_catalog", catalogId=str(focus["catalogId"]))
    found = read.result.get("items", []) if isinstance(read.result, dict) else []
    kin = follow_ups.same_kind(focus, found, order)
    dearer = order == "dearer"
    name = str(focus["name"])
    if not kin:
        return say(p.lang, "nothing_dearer" if dearer else "nothing_cheaper", name=name)
    shown = "; ".join(f"{n}) {item['name']} ({money_text(item.get('price'))})"
                      for n, item in enumerate(kin[:follow_ups.SHOWN], 1))
    return say(p.lang, "dearer_than" if dearer else "cheaper_than", name=name, listing=shown)


def _options(p: Planner, said: str) -> Decision:
    """The item's options the words name ("in blue": its blue ones), or, when none carries
    them, what it comes in."""
    focus = p.item(p.state.focus)
    if focus is None:
        return say(p.lang, "help")
    if focus["itemId"] not in p.state.details and p.state.done(
            "get_item", itemId=focus["itemId"]) is None:
        return p.call("get_item", itemId=focus["itemId"])
    name = str(focus["name"])
    offered = [choice for choice in choices.variant_choices(focus) if choice.available]
    named = [choice for choice in choices.pick_variant(focus, choices.said_words((said,), name))
             if choice.available]
    if named and len(named) < len(offered) or (named and len(offered) == 1):
        return say(p.lang, "comes_in", name=name, listing=listing(named)) + " " + say(
            p.lang, "which")
    if not offered:
        return say(p.lang, "option_not_offered", name=name, wanted=said)
    return " ".join((say(p.lang, "option_not_offered", name=name, wanted=said),
                     say(p.lang, "comes_in", name=name, listing=listing(offered)),
                     say(p.lang, "which")))
