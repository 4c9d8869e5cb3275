"""An item named together with its configuration, with no verb of getting: "pixelforge pro
with the priority support and the film presets", "cacio e pepe with the gluten-free
spaghetti", « le mug moucheté avec un coffret cadeau, merci », "kyusu teapot, gift wrapped".

Said so, the item is asked for, not browsed: once the search found the item the words name
and its details are read, a message whose other words pick some of its variant values,
options or add-ons (`configuration.read`) is served as an addition to the cart, or as an
order when it ends by asking to check out ("…, then check me out"). A question never is.
"""

from __future__ import annotations

import re
from dataclasses import replace

from commerce_agent.agent.models.scripted import configuration, naming, words
from commerce_agent.agent.models.scripted.intents import intent
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.several import acquire_items
from commerce_agent.agent.models.scripted.speech import read_act

# A last clause that asks to pay ("then check me out", « puis je paie »).
_PAY = re.compile(r"\bcheck (?:me |us |it )?out\b|\bcheckout\b|\bpay (?:for it|now)\b|"
                  r"\b(?:je )?(?:paie|paye|regle)\b|\bpasse[rz]? (?:la )?commande\b|"
                  r"会計|購入手続き|決済")
_PIECES = re.compile(r"[,;.!?、。]|\b(?:then|and then|puis|ensuite|et)\b|してから|それから")


def serve(p: Planner) -> Decision | None:
    """The step that gets the configured item named, or None when the message is no such
    request (a question, no item found, or no choice of the item named)."""
    if read_act(p.frame.last).kind == "question" or words.address(p.frame.last):
        return None
    heard = p.frame
    pays = pays_after(heard.last)
    p.frame = replace(heard, intent="buy" if pays else "add")  # read as the request it is
    step = _step(p, pays)
    if step is None:
        p.frame = heard
    return step


def _step(p: Planner, pays: bool) -> Decision | None:
    query = p.query()
    if not words.content_words(query) and not words.re_japanese(query):
        return None
    step = p.search_step(query)
    if step is not None:
        return step
    top = p.top_matches()
    if not top or not naming.names_it(top[0], naming.wanted(query), p.lang):
        return None
    item_id = str(top[0]["itemId"])
    if item_id not in p.state.details:
        return p.call("get_item", itemId=item_id)
    reading = configuration.read(p.state.items[item_id], p.frame.last, p.lang)
    if not reading.named:
        return None
    return acquire_items(p, then_check_out=pays)


def pays_after(text: str) -> bool:
    """Whether a piece of the message asks to check out ("…, then check me out")."""
    folded = words.fold(text)
    return any(_PAY.search(piece) or intent(piece) == "checkout"
               for piece in _PIECES.split(folded) if piece.strip())
