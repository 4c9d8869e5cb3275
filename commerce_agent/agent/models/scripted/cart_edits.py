"""Changing carts: quantities, removing lines, viewing and emptying carts, promotion codes."""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.codes import codes_said, spelled_code
from commerce_agent.agent.language.offer_names import described_offer, mistyped
from commerce_agent.agent.language.option_numbers import option_numbers
from commerce_agent.agent.models.scripted import (
    aftermath,
    choices,
    line_options,
    option_change,
    words,
)
from commerce_agent.agent.models.scripted.browse import discounts
from commerce_agent.agent.models.scripted.explain import explain
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.naming import name_score
from commerce_agent.agent.models.scripted.phrasing import cart_text, lines
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.state import alias_score, said_words
from commerce_agent.operations.base import money_text


def _which_line(p: Planner) -> str:
    carts = p.state.open_carts()
    if not carts:
        return say(p.lang, "cart_empty")
    return (say(p.lang, "cart_holds", lines="; ".join(lines(cart, p.lang) for cart in carts))
            + " " + say(p.lang, "which"))


def _store_name(p: Planner, cart: dict[str, Any]) -> str:
    return p.state.store_name(cart.get("storeId"))


def set_quantity(p: Planner) -> Decision:
    added = p.state.done("add_to_cart")
    if added is not None:  # a variant change under way: the new line is in
        return _finish_variant_change(p, added.args)
    if p.state.done("remove_cart_item") is not None:  # "drop one" took the last one away
        return remove(p)
    found = p.resolve_line()
    if found is None:
        return _which_line(p)
    cart, line = found
    done = p.state.done("update_cart_item")
    change = quantities.relative(p.frame.last)
    quantity = p.frame.quantity() if change is None else quantities.applied(
        change, int(line["quantity"]))
    if done is not None:
        quantity = int(done.args["quantity"])
    other = _other_variant(p, line)
    if other is not None:
        # "not the 12 oz, the 16": a number the new variant carries names it, not a count
        counted = None if change is not None or str(quantity) in re.findall(
            r"\d+", other.words) else quantity
        return change_variant(p, cart, line, other, counted)
    gone = _named_unavailable(p, line)
    if gone is not None:  # "make it the white one" when white is sold out: say so
        return gone
    options = other_options(p, line)
    if options is not None:  # "bump it to 16 inch", "add mushrooms to it": not a count
        # ("make it two, with a gift box": a count said beside the extra is the new count)
        count = quantity if quantity and quantity > 0 and not _carried_by_an_option(
            p.item(line["itemId"]) or {}, quantity) else int(line["quantity"])
        return p.call("add_to_cart", cartId=cart["cartId"], itemId=line["itemId"],
                      quantity=count, **options,
                      **{key: line[key] for key in ("variantId", "timeSlotId")
                         if line.get(key)})
    if quantity is not None and quantity <= 0:  # "drop one" of the last one: the line goes
        return remove(p)
    if quantity is None:
        return (say(p.lang, "you_have", quantity=line["quantity"], name=line["name"]) + " " +
                say(p.lang, "how_many"))
    if done is None:
        return p.call("update_cart_item", cartId=cart["cartId"], cartItemId=line["cartItemId"],
                      quantity=quantity)
    p.extra["quantity"] = quantity
    cart = p.state.carts[str(cart["storeId"])]
    return (say(p.lang, "quantity_set", quantity=quantity, name=line["name"]) + " " +
            cart_text(cart, _store_name(p, cart), p.lang))


def _carried_by_an_option(item: dict[str, Any], number: int) -> bool:
    """Whether a number is one an option or variant of the item carries ("16" of "16-inch"):
    then it names that option, not a count."""
    labels = [choice.words for choice in choices.variant_choices(item)] + [
        choice.words for group in choices.groups(item) for choice in choices.option_choices(group)]
    return any(str(number) in re.findall(r"\d+", label) for label in labels)


def names_no_line(p: Planner) -> bool:
    """The message names a thing that is not in the cart ("another mug" with only plates
    there): a count relative to it is a new line, not a change to the last one."""
    wanted = aftermath.named_words(p.query(p.frame.last))  # not "encore une autre"
    if not wanted:
        return False
    # a line is named by its item's name, or by the words it was found with ("caesar salads")
    return not any(name_score(line, wanted) or alias_score(
        p.state.aliases.get(str(line["itemId"]), frozenset()), wanted)
        for cart in p.state.open_carts() for line in cart["items"])


def other_options(p: Planner, line: dict[str, Any]) -> dict[str, Any] | None:
    """The line's customizations and add-ons as the message changes them ("16 inch" for a
    12-inch pizza, "add mushrooms", "no gift box"), as `add_to_cart` arguments, or None when
    it changes none."""
    item = p.item(line["itemId"]) or {}
    said = choices.said_words((p.frame.last,), str(item.get("name", ""))) - \
        words.content_words(str(item.get("name", "")))
    current = dict(line.get("customizations") or {})
    wanted = dict(current)
    stems = {words.stem(word) for word in said}
    # "make it a 12", "not the 16, the 12": a number said as a thing names the option
    as_options = option_numbers(p.frame.last)
    for group in choices.groups(item):
        if group.get("selectionType") != "single":
            continue  # several may be chosen: what is added or taken away is line_options'
        # A number names an option with its unit ("16 inch", "five seats"); alone it is a count.
        chosen = [option for option in choices.pick_options(group, said) if not any(
            word.isdigit() for word in words.words(_label(group, option))) or any(
            words.stem(word) in stems for word in words.words(_label(group, option))
            if not word.isdigit()) or any(
            word in as_options for word in words.words(_label(group, option)))]
        if chosen:
            wanted[str(group["id"])] = chosen[0]
    if wanted == current:  # "swap to large": the size group moves along its sizes
        wanted = option_change.option_change(item, current, p.frame.last) or current
    edited = line_options.edit(item, {**line, "customizations": wanted}, p.frame.last)
    if edited is None and wanted == current:
        return None
    found: dict[str, Any] = edited or {"customizations": wanted,
                                       "addOnIds": list(line.get("addOnIds") or [])}
    return {key: value for key, value in found.items() if value}


def names_an_option_change(p: Planner) -> bool:
    """"switch to the blue one" is about a cart line's options, not about a store."""
    found = p.resolve_line()
    return found is not None and (_other_variant(p, found[1]) is not None
                                  or other_options(p, found[1]) is not None)


def _other_variant(p: Planner, line: dict[str, Any]) -> choices.Choice | None:
    """The variant a change names ("make it the blue one"), when it is not the line's own:
    of those the words allow, the one sharing most values with the current one."""
    item = p.item(line["itemId"]) or {}
    if not choices.variant_choices(item):
        return None
    said = choices.said_words(p.frame.texts) - words.content_words(str(item.get("name", "")))
    allowed = [c for c in choices.pick_variant(item, said) if c.available]
    every = choices.variant_choices(item)
    if not allowed or len(allowed) == len([c for c in every if c.available]):
        if _one_more_of_it(p.frame.last):
            return None  # "another one" right after the speckled mug: one more of that mug
        # no value named as written: a typo of one, a size relative to the line's, the other
        changed = option_change.variant_change(item, line.get("variantId"), p.frame.last)
        return next((c for c in every if c.id == changed), None)
    step = option_change.direction(p.frame.last)
    if step and len(allowed) > 1:  # "the ceremonial one, the small bag": its smallest size
        allowed = option_change.sized(item, allowed, step)
    current = next((c for c in every if c.id == line.get("variantId")), None)
    if current is not None and current in allowed:
        return None
    mine = set(words.words(current.words)) if current else set()
    return max(allowed, key=lambda c: len(mine & set(words.words(c.words))))


# "the other one", "a different colour", « une autre couleur », 「別の色」: another variant.
_ANOTHER_KIND = re.compile(r"\b(?:other|different|autre|diff[eé]rente?)\b|他の|ほかの|別の|違う")


def _one_more_of_it(text: str) -> bool:
    """Whether the message asks for more of the line ("another one", "one more", "another 2")
    rather than another variant of it ("the other one", "a different colour")."""
    change = quantities.relative(text)
    return change is not None and change.relation == "more" and not _ANOTHER_KIND.search(
        text.replace("another", "")) and not option_change.other_dimension(text)


def _named_unavailable(p: Planner, line: dict[str, Any]) -> str | None:
    """When the message names only variants that are sold out (and not the line's own), the
    sentence that says so and lists the ones there are."""
    item = p.item(line["itemId"]) or {}
    every = choices.variant_choices(item)
    if not every:
        return None
    said = choices.said_words((p.frame.last,)) - words.content_words(str(item.get("name", "")))
    named = choices.pick_variant(item, said)
    if not named or len(named) == len(every) or any(c.available for c in named) or any(
            c.id == line.get("variantId") for c in named):
        return None
    return say(p.lang, "variant_unavailable", name=item.get("name", ""),
               wanted=", ".join(c.words for c in named),
               listing="; ".join(c.label for c in every if c.available))


def change_variant(p: Planner, cart: dict[str, Any], line: dict[str, Any],
                   variant: choices.Choice, quantity: int | None) -> Decision:
    """A variant change is a new line in that variant, then the old line removed."""
    kept = {key: line[key] for key in ("customizations", "addOnIds") if line.get(key)}
    return p.call("add_to_cart", cartId=cart["cartId"], itemId=line["itemId"],
                  variantId=variant.id, quantity=quantity or int(line["quantity"]), **kept)


def _options_of(line: dict[str, Any]) -> tuple[str, str, list[str]]:
    """What tells two lines of one item apart: variant, customizations, add-ons."""
    return (str(line.get("variantId") or ""),
            repr(sorted((group, sorted(chosen) if isinstance(chosen, list) else chosen)
                        for group, chosen in (line.get("customizations") or {}).items())),
            sorted(str(addon) for addon in line.get("addOnIds") or []))


def _finish_variant_change(p: Planner, args: dict[str, Any]) -> Decision:
    cart = next((c for c in p.state.carts.values() if c.get("cartId") == args["cartId"]), None)
    if cart is None:
        return say(p.lang, "what")
    old = next((line for line in cart.get("items", []) if line["itemId"] == args["itemId"]
                and _options_of(line) != _options_of(args)), None)
    if old is not None and p.state.done("remove_cart_item") is None:
        return p.call("remove_cart_item", cartId=cart["cartId"], cartItemId=old["cartItemId"])
    item = p.item(str(args["itemId"])) or {}
    label = next((c.words for c in choices.variant_choices(item)
                  if c.id == args.get("variantId")), "") or ", ".join(
        [c.words for group in choices.groups(item) for c in choices.option_choices(group)
         if c.id in _chosen_ids(args.get("customizations") or {})]
        + [name for _, extra, name in line_options.extras(item)
           if extra in (args.get("addOnIds") or [])])
    options = f" ({label})" if label else ""
    if p.state.done("remove_cart_item") is not None:  # the line changed: not one more added
        done = say(p.lang, "quantity_set", quantity=args.get("quantity", 1),
                   name=f"{item.get('name', '')}{options}")
    else:
        done = say(p.lang, "added", quantity=args.get("quantity", 1), name=item.get("name", ""),
                   options=options)
    return done + " " + cart_text(cart, _store_name(p, cart), p.lang)


def remove(p: Planner) -> Decision:
    removed = p.state.done("remove_cart_item")
    if removed is not None:
        cart = next(c for c in p.state.carts.values() if c["cartId"] == removed.args["cartId"])
        name = p.state.line_names.get(str(removed.args.get("cartItemId")), "it")
        store = _store_name(p, cart)
        return f"{say(p.lang, 'removed', name=name)} {cart_text(cart, store, p.lang)}"
    found = p.resolve_line()
    if found is None:
        return _which_line(p)
    cart, line = found
    fewer = quantities.change(p.frame.last)
    if p.state.done("update_cart_item") is not None or (
            fewer is not None and int(line["quantity"]) + fewer > 0):
        return set_quantity(p)  # "take one plate off", "enlève une assiette": some of them
    return p.call("remove_cart_item", cartId=cart["cartId"], cartItemId=line["cartItemId"])


def keep_only(p: Planner) -> Decision:
    """"Keep only the plate": every other line of the cart that holds the line named goes.
    Removing lines moves no money; checkout still asks."""
    wanted = said_words(p.query(p.frame.last))
    carts = p.state.open_carts()

    def score(line: dict[str, Any]) -> int:
        return name_score(line, wanted) + alias_score(
            p.state.aliases.get(str(line["itemId"]), frozenset()), wanted)

    kept = [(cart, line) for cart in carts for line in cart["items"] if score(line) > 0]
    if not kept:
        return _which_line(p)
    cart = kept[0][0]
    others = [line for line in cart["items"] if score(line) == 0]
    if others:
        return [p.call("remove_cart_item", cartId=cart["cartId"], cartItemId=line["cartItemId"])
                for line in others]
    removed = [p.state.line_names.get(str(call.args.get("cartItemId")), "")
               for call in p.state.calls if call.name == "remove_cart_item"]
    if not removed:
        return cart_text(cart, _store_name(p, cart), p.lang)
    return (say(p.lang, "removed", name=", ".join(name for name in removed if name)) + " " +
            cart_text(cart, _store_name(p, cart), p.lang))


def view(p: Planner) -> Decision:
    carts = [cart for store, cart in p.state.carts.items()]
    if not carts:
        return say(p.lang, "cart_empty")
    unseen = [cart for cart in carts if p.state.done("view_cart", cartId=cart["cartId"]) is None]
    if unseen:
        return [p.call("view_cart", cartId=cart["cartId"]) for cart in unseen]
    carts = [p.state.carts[store] for store in reversed(p.state.cart_stores)
             if store in p.state.carts]
    return " ".join(cart_text(cart, _store_name(p, cart), p.lang) for cart in carts) + " " + \
        say(p.lang, "ready")


def empty(p: Planner) -> Decision:
    everything = any(word in words.words(p.frame.text) for word in ("all", "every", "both"))
    carts = p.state.open_carts()
    if not everything:
        current = p.state.cart_for(p.mentioned_store() or p.current_store())
        carts = [current] if current and current.get("items") else carts[:1]
    if p.state.done("remove_cart_item") is None:
        calls = [p.call("remove_cart_item", cartId=cart["cartId"], cartItemId=line["cartItemId"])
                 for cart in carts for line in cart["items"]]
        if not calls:
            return say(p.lang, "already_empty")
        return calls
    return say(p.lang, "emptied")


def promotion(p: Planner) -> Decision:
    """Every code the request names, applied to the cart in the order said ("use READMORE15
    and FOLIO3"); one refused is explained and the next still tried."""
    store = p.mentioned_store() or p.current_store()
    if store is not None and store not in p.state.store_info and \
            p.state.done("get_store", storeId=store) is None:
        return p.call("get_store", storeId=store)  # its codes: "use fiveoff" names one
    offers = p.state.store_info.get(store or "", {}).get("promotions", [])
    known = frozenset(str(entry.get("code", "")).upper() for entry in offers)
    codes = next((found for found in (codes_said(text, known)
                                      for text in reversed(p.frame.texts)) if found), ())
    # "WELCOM10": the store's code it mistypes; "the pizza friday code": the offer described
    codes = tuple(dict.fromkeys(_as_listed(code, known, p.frame.texts) for code in codes)) or next(
        ((found,) for found in (described_offer(text, offers) for text in reversed(
            p.frame.texts)) if found), ())
    if not codes:
        return discounts(p)
    cart = p.state.cart_for(p.mentioned_store() or p.current_store())
    if not cart or not cart.get("items"):
        carts = p.state.open_carts()
        cart = carts[0] if carts else None
    if cart is None:
        return say(p.lang, "code_needs_cart", code=" ".join(codes))
    tried = [call for call in p.state.calls if call.name == "apply_promotion"]
    untried = [code for code in codes if all(call.args.get("code") != code for call in tried)]
    if untried:
        return p.call("apply_promotion", cartId=cart["cartId"], code=untried[0])
    cart = p.state.carts[str(cart["storeId"])]
    said = [explain(call, p.state) if call.is_error else say(
        p.lang, "code_applied", code=call.args.get("code"),
        saved=money_text(call.result.get("discount") if isinstance(call.result, dict) else None))
        for call in tried]
    if all(call.is_error for call in tried):
        return " ".join(said)
    return " ".join((*said, cart_text(cart, _store_name(p, cart), p.lang)))


def _as_listed(code: str, known: frozenset[str], texts: tuple[str, ...]) -> str:
    """The store's code a code said means: itself, the one it mistypes ("WELCOM10"), or the
    one the request spells in pieces or with its number in words ("dolce four")."""
    code = mistyped(code, known)
    if code in known or not known:
        return code
    spelled = next((found for found in (spelled_code(text, known) for text in reversed(texts))
                    if found), None)
    return spelled if spelled is not None and code.replace("-", "").startswith(
        re.sub(r"\d+$", "", spelled)) else code


def _chosen_ids(customizations: dict[str, Any]) -> set[str]:
    return {str(value) for chosen in customizations.values()
            for value in (chosen if isinstance(chosen, list) else [chosen])}


def _label(group: dict[str, Any], option_id: str) -> str:
    return next((c.words for c in choices.option_choices(group) if c.id == option_id), "")
