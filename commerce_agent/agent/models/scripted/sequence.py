"""Several requests in one message, served in order: "5 stars, and add a 15% tip", « enlève
les cache-pots, mets plutôt le dripper », 「抹茶を削除して、茶筅を追加してください」, "add the
books, then use READMORE15 and FOLIO3".

The message is cut where requests are joined (and, then, also, et, puis, pis, ensuite, a
comma or a sentence end, a Japanese 「…て、」 or a と after a count); each piece is read by
the intent stage. A piece that is no request of its own (an item of a list, a "ugh, no", a
code already kept for the purchase) joins the one before it (or after it, said first), and
so do pieces of the same request ("a plate and a teapot" is one add, which `several` serves
item by item). When
two or more requests remain, each is served in order by the handler a message of that one
request goes through, seeing only the calls made for it. One that asks (which variant?)
asks, and the rest wait. Each tool that changes an order or moves money still parks for
approval through the turn's one policy: this stage only chooses the calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from commerce_agent.agent.language.codes import read_code
from commerce_agent.agent.language.destination import names_destination, without_destination
from commerce_agent.agent.models.scripted.assent import goes_ahead
from commerce_agent.agent.models.scripted.intents import Frame, understand
from commerce_agent.agent.models.scripted.phrasing import asks
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.state import State

# Requests served one after the other. Checking out, buying, booking and cancelling are
# never started from a piece: a message with one of those is served whole, as before.
SERVED = ("add", "remove", "quantity", "replace", "promotion", "rate", "tip", "return",
          "cart", "status")
# Acts on plans, served in order too: each starts or changes one plan, and each parks for
# approval ("subscribe me to the studio membership and cancel the online one": a change of
# plan is the new one started, then the old one ended).
PLAN_ACTS = ("subscribe", "sub_pause", "sub_resume", "sub_cancel")
# A cancel beside an act on a plan ends a plan unless it names an order.
_AN_ORDER = re.compile(r"\b(?:order|orders|commande|commandes|purchase|ord_\w+)\b|注文",
                       re.IGNORECASE)
# Pieces that are no request of their own: they belong to a neighbour.
_JOINING = ("other", "search", "details", "yes", "no", "hedge", "policy")
# Where one request ends and the next begins (the joining words are kept with the pieces so
# a group of pieces reads as it was said).
_JOIN = re.compile(
    r"(\s*[,;]\s*(?:and then|and also|and|then|also|plus|et puis|et ensuite|puis|pis|"
    r"ensuite|et|after that)?\s+|"
    r"\s+(?:and then|and also|and|then|also|plus|et puis|et ensuite|puis|pis|ensuite|et)\s+|"
    r"(?<=[.!?。！？])\s*|(?<=[てで])、|、(?=それから|そして|あと)|"
    # 「星4つ と チップ15%」「チップ3ドルと星5つ」: と set apart, or after a count or an amount
    r"\s+と\s+|(?:(?<=\d)|(?<=[つ個%％])|(?<=ドル)|(?<=セント)|(?<=円))と(?!\s*[、。]|$))",
    re.IGNORECASE)
# "remove the planters, put the dripper instead": after a removal, a new count or a swap
# names what takes its place, a line of its own.
_AFTER_A_REMOVAL = ("quantity", "replace", "switch")
_INSTEAD = re.compile(r"\b(?:instead|rather|plut[oô]t|a la place|à la place|au lieu)\b|"
                      r"(?:代わり|かわり)に", re.IGNORECASE)


# A removal said as one: "skip X", "no X", 「…はいらない」 decline what the request beside
# them would bring, and take no line out.
_REMOVING = re.compile(r"\b(?:remove|take|drop|delete|get rid|ditch|lose|enl[eè]ve[rz]?|"
                       r"retire[rz]?|supprime[rz]?|ote[rz]?|ôte[rz]?|vire[rz]?)\b|"
                       r"削除|取り消|外して|消して|取って", re.IGNORECASE)


# What the shopper keeps is no request of its own: it bounds the one beside it ("I'll keep
# one plate and send the rest back", « je garde une tasse et je renvoie le reste »,
# 「1枚は残して、残りを返品」), whose handler reads the two together.
_KEEPING = re.compile(r"^(?:(?:i'?ll|i will|i'd|i would|i want to|i wanna|let me|i|we|we'll|"
                      r"please|pls|just|but|and|so|ok|je vais|je veux|je voudrais|je|on|"
                      r"like to)\s+)*(?:keep|keeping|garde[rz]?|gardant|conserve[rz]?)\b|"
                      r"(?:残して|残し|残す|キープ)", re.IGNORECASE)


# A verb of getting: a thing named after a return without one is more of what goes back.
_ACQUIRING = re.compile(r"\b(?:add|buy|get|order|want|need|take|put|throw|ajoute\w*|achete\w*|"
                        r"prends|prendre|commande\w*|veux|voudrais|mets|mettez)\b|"
                        r"追加|入れ|買|ください|下さい|注文|ほしい|欲しい", re.IGNORECASE)


# A thing named bare, its count or article first ("two plates", "the mug", « deux assiettes »).
_BARE_THING = re.compile(r"^\s*(?:\d+|one|two|three|four|five|six|a|an|the|un|une|deux|trois|"
                         r"quatre|le|la|les|l')\b|^[^\x00-\x7f]", re.IGNORECASE)


@dataclass(frozen=True)
class Request:
    kind: str
    text: str


def _read(piece: str) -> str:
    """The request a piece makes; the cart named as where things go is no request of its
    own ("practical rust in my basket" adds), and a promotion piece naming no code ("then
    use", its codes kept for the purchase) joins its neighbour."""
    if _KEEPING.search(piece):
        return "other"
    kind = understand(piece)[0]
    if kind == "cart" and names_destination(piece):
        kind = understand(without_destination(piece))[0]
    if kind == "promotion" and not read_code(piece, frozenset()).codes:
        return "other"
    if kind == "remove" and not _REMOVING.search(piece):
        return "other"  # "skip the gift box", 「100グラムはいらない」: a thing declined, not a line
    return kind


def requests(text: str) -> list[Request]:
    """The requests of a message in the order said, or [] unless it makes several that this
    stage serves."""
    parts = _JOIN.split(text)
    pieces = [(parts[i], parts[i + 1] if i + 1 < len(parts) else "")
              for i in range(0, len(parts), 2)]
    groups: list[list[str]] = []  # each: [kind, said, the joining words after it]
    waiting = ""  # pieces said before the first request
    for piece, joiner in pieces:
        kind = _read(piece.strip(" ,")) if piece.strip(" ,.!") else "other"
        if kind == "add" and groups and groups[-1][0] == "return" and \
                _BARE_THING.match(piece) and not _ACQUIRING.search(piece):
            kind = "return"  # "return one mug and two plates": the plates go back too
        if kind in _JOINING or (groups and groups[-1][0] == kind):
            if groups:
                groups[-1][1] += groups[-1][2] + piece
                groups[-1][2] = joiner
            else:
                waiting += piece + joiner
            continue
        if groups and groups[-1][0] == "remove" and kind in _AFTER_A_REMOVAL and \
                _INSTEAD.search(piece):
            kind = "add"
        if kind == "add" and groups and groups[-1][0] == "remove":
            piece = _INSTEAD.sub(" ", piece)  # "à la place" is where it goes, no count or name
        groups.append([kind, waiting + piece, joiner])
        waiting = ""
    if any(kind in PLAN_ACTS for kind, _, _ in groups):
        for group in groups:
            if group[0] == "cancel" and not _AN_ORDER.search(group[1]):
                group[0] = "sub_cancel"
    if len(groups) < 2 or any(kind not in (*SERVED, *PLAN_ACTS) for kind, _, _ in groups):
        return []
    return [Request(kind, said.strip(" ,;、")) for kind, said, _ in groups]


_TRAILING_JOIN = re.compile(r"(?:[\s,;、]|\b(?:and|then|also|et|puis|ensuite)\b)*$", re.IGNORECASE)


def concluded(text: str, known: str = "") -> tuple[str, str] | None:
    """(what comes first, the checkout) when a message ends by checking out after requests of
    its own: "actually remove the mug then pay", "yes but make it the 16 oz first, then go
    ahead and pay", « enlève le mug et on valide ». The requests are served first, as a
    message of only them would be; the checkout then orders the cart they left (its order
    still parks for the shopper's approval). `known`: the request the dialogue state already
    read the first part as ("yes but the cobalt blue one" changes the line's option), which the
    words alone may not show."""
    parts = _JOIN.split(text)
    pieces = [parts[i] + (parts[i + 1] if i + 1 < len(parts) else "")
              for i in range(0, len(parts), 2)]
    last = len(pieces)
    while last > 1 and (_read(pieces[last - 1].strip(" ,.!")) == "checkout" or
                        goes_ahead(pieces[last - 1].strip(" ,.!"))):
        last -= 1  # ("make it 2 and do it": once the cart is as wanted, the order)
    before = _TRAILING_JOIN.sub("", "".join(pieces[:last]))
    if last == len(pieces) or not before or (known or _read(before)) not in SERVED:
        return None
    return before, "".join(pieces[last:]).strip(" ,;、")


def serve(p: Planner, handlers: dict[str, Callable[[Planner], Decision]]) -> Decision | None:
    """The next call or the reply for a message of several requests, or None for one."""
    if len(p.frame.texts) != 1:  # (an answer to a question asked goes to its request)
        return None
    found = requests(p.frame.first)
    if not found:
        return None
    calls, start, said = p.state.calls, 0, []
    for request in found:
        handler = handlers[request.kind]
        decision: Decision = ""
        end = start
        for end in range(start, len(calls) + 1):
            sub = Planner(_as_of(p.state, start, end, request), p.tools)
            decision = handler(sub)
            if isinstance(decision, str):
                break
        if not isinstance(decision, str):
            return decision  # this request's next call
        said.append(decision)
        if asks(decision):
            break  # "which one would you like?": asked, the rest waits
        start = end
    return " ".join(said)


def _as_of(state: State, start: int, end: int, request: Request) -> State:
    """The state one request is served on: its own calls, and the orders and carts as they
    stood after them (a plan started by a later request is not yet held, nor an order ended
    by a later one already ended)."""
    seen = replace(state, calls=state.calls[start:end], frame=Frame(request.kind, (request.text,)))
    if end < len(state.before_calls):
        before = state.before_calls[end]
        seen = replace(seen, orders=before.orders, carts=before.carts,
                       last_order=before.last_order)
    return seen
