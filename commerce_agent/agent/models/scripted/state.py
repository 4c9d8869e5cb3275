"""What the conversation has established, folded from its messages alone.

The state is rebuilt from the journal's messages on every model step (no clock, no chance), so
a turn replayed after a crash sees exactly what it saw before: the items shown and looked at,
the open cart of each store, the orders, the store the person chose, and the request still
being served when the agent's last reply asked a question. Folding on from a kept past
(folds.py) must give the same state, so the fold reads nothing but the messages and context.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from commerce_agent.agent.language import conditions, gifting, quantities, reply_language
from commerce_agent.agent.language.checkout_acts import read_checkout, says_nothing_else
from commerce_agent.agent.language.closing import (
    closing,
    concludes_it,
    resolves_on_it,
    without_closing,
)
from commerce_agent.agent.language.codes import code_answer, read_code, waves_a_code_away
from commerce_agent.agent.language.delivery import (
    amended,
    collects_in_person,
    country_of,
    missing,
    read_delivery,
    without_pickup,
)
from commerce_agent.agent.language.destination import names_destination, without_destination
from commerce_agent.agent.language.measures import points_at_a_size, with_size_named
from commerce_agent.agent.language.offer_names import mistyped
from commerce_agent.agent.language.option_words import english_option_words
from commerce_agent.agent.language.pickup_place import asks_where_to_collect, drops_delivery
from commerce_agent.agent.language.shown_sets import takes_shown, without_shown_set
from commerce_agent.agent.language.spoken_counts import with_counts_plain
from commerce_agent.agent.models.base import Message
from commerce_agent.agent.models.scripted import (
    aftermath,
    assent,
    choices,
    compound,
    coverage,
    follow_ups,
    line_options,
    mind,
    naming,
    offers,
    option_change,
    phrasing,
    picked,
    which_order,
    words,
    yes_with_edit,
)
from commerce_agent.agent.models.scripted.intents import (
    ASKS_WHEN_OPEN,
    BARE_NUMBER,
    SHOPPING,
    Frame,
    understand,
)
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.naming import name_score
from commerce_agent.agent.models.scripted.normalized import reading
from commerce_agent.agent.models.scripted.refused_options import refuses_an_option
from commerce_agent.agent.models.scripted.speech import read_act, settle
from commerce_agent.agent.models.scripted.typed import catalogue_words, item_names, typed
from commerce_agent.commerce.orders.model import CANCELLED

_CART_TOOLS = ("create_cart", "add_to_cart", "view_cart", "update_cart_item",
               "remove_cart_item", "apply_promotion")
_ORDER_TOOLS = ("get_order", "cancel_order", "tip_order", "rate_order", "change_subscription")
_GONE = ("cart_not_found", "cart_expired", "cart_already_submitted")
SUGGESTED = Frame("add", ("add it",))  # what "yes" means after "Want me to add it?"
# Intents a change of a cart line's option may be read as ("the other colour" names no intent).
_MAY_CHANGE_A_LINE = ("other", "search", "details", "add", "switch", "yes")
# Requests a message keeps when it also gives an address ("buy the mug and ship it to …");
# any other reading of what is left around an address is a checkout to that address.
_KEPT_WITH_AN_ADDRESS = (*SHOPPING, "checkout", "policy", "status", "cancel", "return")
# What a follow-up about the thing in view ("anything earlier?", "is there something
# cheaper?", "what about in green?") is taken for by the keyword table.
_MAY_FOLLOW_UP = ("other", "search", "details", "policy", "status", "hours")
# What an answer to a follow-up's own question ("Which time suits you?") is read as.
_ANSWERS_IN_CONTEXT = ("yes", "other", "add", "buy", "book", "quantity", "details", "reslot",
                       "search")
# Readings of a message that may name another time for a booking ("the 2pm then", "plutôt
# 14h", "14時で").
_MAY_NAME_A_TIME = ("other", "search", "details", "quantity", "book", "yes", "switch")
# Readings of a message that only speaks of collecting the order ("can I pick it up?").
# A request that speaks of the cart only fills it ("add it to my cart, I'm at 12 Oak St").
_CART_WORD = re.compile(r"\b(?:cart|basket|panier)\b|カート")
# When the shopper will collect: "at 7", "à 19h", "7時に".
_PICKUP_TIME = re.compile(r"\b(?:at|a|vers)\s+\d{1,2}(?:[:h]\d{2})?\s*(?:am|pm|h)?\b|"
                          r"\b\d{1,2}\s*(?:h|heures?)\b|\d{1,2}時")
# 「茶筅を」: a thing named as the object of the sentence.
_JAPANESE_OBJECT = re.compile(r"[\u30a0-\u30ff\u4e00-\u9fff]{2,}を")
# Requests a code said beside them goes with: the purchase it discounts.
_CARRIES_A_CODE = (*SHOPPING, "checkout", "pickup")
# More of a thing just ordered: "order it again", "another one", « encore », 「もう一つ」.
_MORE_OF_IT = re.compile(r"\b(?:again|another|more|one more|second|extra|encore|autre|"
                         r"de plus|nouveau)\b|もう(?:一|ひと|1)|追加|また")
_ABOUT_PICKUP = ("other", "search", "details", "add", "quantity", "yes", "policy")
# A pronoun for the thing in view: "buy it", « envoyez-la », 「それを」.
_POINTING = re.compile(r"\b(?:it|them|this|that|these|those|le|la|les|ca|cela)\b|-(?:le|la|les)\b|"
                       r"それ|これ|あれ")


# A code said in place of the one kept before ("use FIVEOFF instead", « à la place »,
# 「代わりにMIDORI500で」).
_INSTEAD = re.compile(r"\b(?:instead|rather|a la place|plutot)\b|代わりに|かわりに")


def short(name: str) -> str:
    return name.rsplit("__", 1)[-1]



# Words of looking: "show me the mugs in my cart" asks to see, not to add.
_LOOKING = re.compile(r"\b(?:show|find|search|look|looking|browse|see|view|list|montre[rz]?|"
                      r"cherche[rz]?|trouve[rz]?|voir|affiche[rz]?)\b|見せて|探して|見たい")

@dataclass
class Call:
    name: str
    args: dict[str, Any]
    result: Any
    is_error: bool

    @property
    def code(self) -> str:
        return str(self.result.get("code", "")) if isinstance(self.result, dict) else ""


@dataclass(frozen=True)
class Snapshot:
    orders: dict[str, dict[str, Any]]
    carts: dict[str, dict[str, Any]]
    last_order: str | None


def relevant(results: list[dict[str, Any]], query: str, described: bool = False,
             lang: str = "en") -> list[dict[str, Any]]:
    """The results whose names carry more than half of the best match's query words, best
    first (a search that matched only a description falls back to all it found, and so does
    a request that describes, `described` (whom it is for: "a gift for a tea lover" keeps
    every tea the search found, named a tea or not) or with words no name carries half of)."""
    wanted = naming.wanted(query)
    weights = naming.rarity(results, wanted)
    fits = [naming.fit(item, wanted, weights) for item in results]
    best = max((score for score, _ in fits), default=0)
    if best == 0 or described or (len(wanted) > 2 and best * 2 <= len(wanted)):
        return results
    # Ties go to the rarer words ("茶道" before "ワークショップ", which several names carry),
    # then to the name with the fewest other words ("Uji Matcha" before "Genmaicha with
    # Matcha, 200 g" for "matcha"), then to the search's order.
    extra = [len(words.content_words(str(item.get("name", ""))) - wanted) for item in results]
    ranked = sorted(zip(fits, extra, range(len(results)), results, strict=True),
                    key=lambda entry: (-entry[0][0], -entry[0][1], entry[1], entry[2]))
    # An item whose head noun is said stays, however many modifiers another carries ("matcha
    # cérémonie": the matcha, beside the tea-ceremony workshop).
    kept = [item for (score, _), _, _, item in ranked
            if score * 2 > best or naming.head_named(item, wanted, lang)]
    return [*described_by_head(results, query, lang, kept), *kept]


def described_by_head(results: list[dict[str, Any]], query: str, lang: str,
                      named: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results whose data says the head noun of an English request that no name in
    `named` says ("matcha whisks": the chasen, a "bamboo whisk" by its description, is what
    is asked for; the matcha workshop only carries a modifier), first found first."""
    said = [word for word in query.split() if words.content_words(word)]
    if lang != "en" or len(said) < 2:
        return []
    head = words.content_words(said[-1])
    if not head or any(naming.carried(item, head) for item in results):
        return []  # a name says it, maybe misspelt ("a ceramic mugg"): the names decide

    def says(item: dict[str, Any]) -> bool:  # as written or as a word's start, no typo
        known = words.content_words(f"{item.get('description', '')}".replace("-", " "))
        return all(word in known or any(other.startswith(word) for other in known)
                   for word in head)

    return [item for item in results if item not in named and says(item)]


def in_stock_or_sold_out(found: list[dict[str, Any]], query: str, described: bool = False,
                         lang: str = "en") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(in stock, sold out) of a search's results: the in-stock ones that fit the words, and
    the sold-out ones that fit them better than anything in stock (then every in-stock item
    the search found is an alternative)."""
    fitting = relevant(found, query, described, lang)
    in_stock = [item for item in fitting if item.get("available") is not False]
    wanted = naming.wanted(query)
    best = max((name_score(item, wanted) for item in in_stock), default=0)
    gone = [item for item in fitting if item.get("available") is False and (
        not in_stock or name_score(item, wanted) > best)]
    shown = [item for item in (found if gone else fitting) if item.get("available") is not False]
    return shown, gone


def said_words(text: str) -> frozenset[str]:
    """The product words of what the shopper said, in any of their languages."""
    return words.content_words(text) | frozenset(words.japanese_query(text).split())


def alias_score(aliases: frozenset[str], wanted: frozenset[str]) -> int:
    """How many of the wanted words are the shopper's own words for an item; a Japanese phrase
    counts inside a longer one ("玉露" in "八女玉露")."""
    def fits(word: str) -> bool:
        if word in aliases:
            return True
        return not word.isascii() and len(word) >= 2 and any(
            not alias.isascii() and (word in alias or alias in word) for alias in aliases)
    return sum(1 for word in wanted if fits(word))


def of_the_kind(found: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """The in-stock results of the kind asked for, to rank by price: the items named so, and
    the others their stores file in the same catalogs ("the most affordable tea" is the
    genmaicha, in the tea catalog, though its name says no "tea"), in the currency most of
    the named items (or, with none named, of the results) are priced in: prices in different
    currencies do not compare."""
    wanted = words.content_words(query)
    in_stock = [item for item in found if item.get("available") is not False]
    named = [item for item in in_stock if name_score(item, wanted) > 0]
    currencies = Counter((item.get("price") or {}).get("currency") for item in named or in_stock)
    if not currencies:
        return []
    currency = currencies.most_common(1)[0][0]
    if not named:  # "the priciest book": no name says "book"; the currency most of them use
        return [item for item in in_stock
                if (item.get("price") or {}).get("currency") == currency]
    catalogs = {item.get("catalogId") for item in named if item.get("catalogId")}
    return [item for item in in_stock
            if (item in named or item.get("catalogId") in catalogs)
            and (item.get("price") or {}).get("currency") == currency]


def price_amount(item: dict[str, Any]) -> Decimal | None:
    """The item's price as an exact amount (None when it has none)."""
    try:
        return Decimal(str((item.get("price") or {}).get("amount")))
    except ArithmeticError:
        return None


def price_of(item: dict[str, Any]) -> float:
    try:
        return float((item.get("price") or {}).get("amount", "inf"))
    except (TypeError, ValueError):
        return float("inf")


@dataclass
class State:
    results: list[dict[str, Any]] = field(default_factory=list)
    # What the latest search was asked for when only sold-out items fit it: named as sold
    # out, never swapped for an in-stock item that fits the words less.
    sold_out: list[dict[str, Any]] = field(default_factory=list)
    # The results shown when the person last spoke: "both", "all of them" point at these even
    # after this turn's own searches replaced `results`.
    shown: list[dict[str, Any]] = field(default_factory=list)
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    details: set[str] = field(default_factory=set)
    focus: str | None = None
    carts: dict[str, dict[str, Any]] = field(default_factory=dict)
    cart_stores: list[str] = field(default_factory=list)  # most recently changed last
    last_line: str | None = None
    line_names: dict[str, str] = field(default_factory=dict)
    # The shopper's own words for an item (the search that found it): "玄米茶", "assiettes".
    aliases: dict[str, frozenset[str]] = field(default_factory=dict)
    store_names: dict[str, str] = field(default_factory=dict)
    # A store's own name in a language, as an item read in it gave it (locale, store id):
    # « Hearth & Kiln Céramiques » in a French reply, where carts carry the name as written.
    own_store_names: dict[tuple[str, str], str] = field(default_factory=dict)
    stores: list[dict[str, Any]] | None = None
    store_info: dict[str, dict[str, Any]] = field(default_factory=dict)
    store: str | None = None
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    last_order: str | None = None
    # The order talked about before this turn began ("the order before that" counts from it;
    # this turn's own reads move `last_order`).
    order_in_view: str | None = None
    address: dict[str, Any] | None = None
    frame: Frame | None = None
    # The offer a bare "yes" takes up (`offers`): the agent's suggestion, or a request
    # whose approval the shopper just turned down. A question leaves it on the table.
    offer: Frame | None = None
    # The words of the request the agent's suggestion answered, when they named a time ("the
    # private session on jan 12 in the morning?"): a yes to "Want me to add it?" books it.
    offered_when: str | None = None
    # What the shopper said when the item was offered ("the classic mug in blue 16oz?"):
    # accepting the offer takes the options those words named
    offered_with: str = ""
    calls: list[Call] = field(default_factory=list)
    # The orders, carts and latest order as they stood before each of this turn's calls
    # (`sequence` serves each request of a message on the state its own calls made).
    before_calls: list[Snapshot] = field(default_factory=list)
    language: str = "en"  # the shopper's, from their latest message that tells
    heard: int = 0  # messages heard so far: the first one sets the language on its own
    # A question asked inside the latest message's request ("add the mug — is shipping
    # free?"): answered after the request is served, never done.
    asked: str | None = None
    # The promotion codes said with a purchase ("…, use code WELCOME10"): applied to the cart
    # in the order said before its order is asked for; each gone once applied or refused, all
    # once the order is placed.
    codes: tuple[str, ...] = ()
    # The codes said last in the conversation: "try the code once more" means them.
    said_codes: tuple[str, ...] = ()
    # The latest message spoke of a code without saying it ("I have a coupon"): asked for
    # before ordering, never guessed from the next word.
    code_wanted: bool = False
    # The words that spoke of a code without saying it ("use my 10% code", "and the dessert
    # discount"): they may describe one of the store's offers, applied at the checkout
    # instead of asking; kept until a code is applied or the order placed.
    code_hint: str = ""
    # The last size or measure the shopper said ("12 oz"): what "that same size" points at.
    size_said: str | None = None
    # The words of the latest search asked for: a bare price limit after it ("under $20",
    # « pas plus de 20 $ », 「2000円以下で」) narrows that search.
    searched: str = ""
    # Whether the turn before the latest message added a cart line: "やっぱりやめます",
    # "actually, forget it" then take that line back (`mind`).
    line_added: bool = False
    # A cart line was added or recounted in the last turn: a count said alone next is its count.
    line_counted: bool = False
    # The adds (their arguments) of the latest request that added lines, until an order is
    # placed: "same again" just after them means those lines once more, not the last order.
    last_adds: tuple[dict[str, Any], ...] = ()
    searched_now: int = 0  # the searches made since the latest message
    turn_query: str = ""  # the words of the first of them
    focus_heard: str | None = None  # the item in view when the latest message came
    priced_now: int = 0  # the catalogs read since the latest message for a price limit alone
    # What the agent's last reply reported (an order placed, an item sold out): the next
    # message is read against it (`aftermath`); the next reply replaces it.
    outcome: aftermath.Outcome | None = None
    # An order was placed since the latest message.
    ordered: bool = False
    # The shopper's clock, from the client context (`now`, ISO 8601, and `timeZone`):
    # "tomorrow", "next Saturday" count from it; None counts from the current time.
    now: datetime | None = None
    time_zone: str = "UTC"

    # -- reading --------------------------------------------------------------------------

    def done(self, name: str, **args: Any) -> Call | None:
        """This turn's last call of `name` (with these arguments, when given)."""
        return next((call for call in reversed(self.calls) if call.name == name and all(
            call.args.get(key) == value for key, value in args.items())), None)

    def cart_for(self, store_id: str | None) -> dict[str, Any] | None:
        return self.carts.get(store_id) if store_id else None

    def open_carts(self) -> list[dict[str, Any]]:
        """Carts with lines, most recently changed first."""
        return [self.carts[s] for s in reversed(self.cart_stores)
                if s in self.carts and self.carts[s].get("items")]

    def frame_store(self, call: Call | None = None) -> str | None:
        """The store a call (or else the conversation) is about."""
        if call is not None:
            cart_id = call.args.get("cartId")
            for store, cart in self.carts.items():
                if cart.get("cartId") == cart_id:
                    return store
            for key, known in (("itemId", self.items), ("orderId", self.orders)):
                found = known.get(str(call.args.get(key, "")))
                if found and found.get("storeId"):
                    return str(found["storeId"])
            if call.args.get("storeId"):
                return str(call.args["storeId"])
        focus = self.items.get(self.focus or "") or {}
        return self.store or focus.get("storeId")

    def store_name(self, store_id: str | None) -> str:
        own = self.own_store_names.get((self.language, store_id or ""))
        if own:
            return own
        info = self.store_info.get(store_id or "")
        if info:
            return str(info.get("name"))
        listed = next((s for s in self.stores or [] if s.get("storeId") == store_id), None)
        if listed:
            return str(listed.get("name"))
        return self.store_names.get(store_id or "") or say(self.language, "the_store")

    # -- folding --------------------------------------------------------------------------

    def _found(self, args: dict[str, Any], found: list[dict[str, Any]]) -> None:
        """A search's results: the in-stock items that fit the words, and the sold-out ones
        that fit them better than anything in stock (then the in-stock items the search found
        are the alternatives shown)."""
        query = str(args.get("query", ""))
        currency = words.price_currency(self.frame.first) if self.frame else None
        if currency and args.get("maxPrice", args.get("minPrice")) is not None:
            # "under €15" across stores: a limit in euros says nothing of dollar prices.
            found = [item for item in found
                     if (item.get("price") or {}).get("currency") == currency]
        if self.frame and args.get("maxPrice", args.get("minPrice")) is not None:
            # "under 29 euros": the search's bounds include 29, a shop's "under" does not
            left_out = words.excluded_prices(self.frame.first)
            found = [item for item in found if not left_out or price_amount(item) not in left_out]
        # "a gift for a tea lover" describes whom for: every tea found fits, named so or not
        described = self.frame is not None and words.for_whom(self.frame.first)
        several = self._lists_several()
        before = list(self.results) if several and self.searched_now else []
        earlier = (list(self.results), list(self.sold_out))
        self.searched_now += 1
        self.results, self.sold_out = in_stock_or_sold_out(found, query, described,
                                                           self.language)
        if self.searched_now == 1:
            self.turn_query = query
        elif not several and self._narrower(query, earlier):
            # "home" alone after "brewers home": what the fuller search found stays
            self.results, self.sold_out = earlier
        if several:  # "do you have the glaze mug and the espresso cups?": the best of each
            self.results = [*before, *(item for item in self.results[:1]
                                       if all(item["itemId"] != kept["itemId"]
                                              for kept in before))]
        if not several and not self.sold_out and args.get("maxPrice", args.get(
                "minPrice")) is not None:
            # "teas for at most 980 yen": every one of the kind within the limit, the
            # genmaicha filed among the teas too though its name says no "tea"
            # (after those the words fit, in their order: "the last one" keeps its place)
            self.results = [*self.results, *(item for item in of_the_kind(found, query)
                                             if item not in self.results)]
        if args.get("sort") in ("price_asc", "price_desc") and not self.sold_out:
            # "the cheapest" of the kind comes first
            self.results = sorted(of_the_kind(found, query), key=price_of,
                                  reverse=args["sort"] == "price_desc")
        for item in (*self.sold_out, *self.results):
            self.items.setdefault(item["itemId"], item)
        shown = self.sold_out or self.results
        if shown:
            first = str(shown[0]["itemId"])
            self.aliases[first] = self.aliases.get(first, frozenset()) | said_words(query)
            self.focus = first

    def _narrower(self, query: str,
                  earlier: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> bool:
        """Whether this turn's latest search is a narrower one (some of the words of the
        turn's first search: not another item of the same message) and found items that say
        fewer of the first search's words than what the turn had found."""
        said, narrow = words.content_words(self.turn_query), words.content_words(query)
        if not narrow < said or self.frame is None or len(words.item_mentions(
                self.frame.first, lambda head, piece: False)) > 1:
            return False  # (a message of several items searches each of them in turn)
        before = coverage.covered([*earlier[0], *earlier[1]], said)
        return before > coverage.covered([*self.results, *self.sold_out], said)

    def _lists_several(self) -> bool:
        """Whether this turn's search is one of several, one per item a question names:
        their results are listed together."""
        return self.frame is not None and self.frame.intent == "search" and \
            read_act(self.frame.first).kind == "question" and \
            bool(words.things_asked_about(self.frame.first))

    def _priced_found(self, found: list[dict[str, Any]]) -> None:
        """A catalog read for a price limit that names no kind ("anything under 1000 yen",
        « des trucs entre 20 et 30 $ »): its items within the limit join the results, the
        cheapest first ("the first one" points at them)."""
        bounds = words.price_bounds(self.frame.first if self.frame else "")
        currency = words.price_currency(self.frame.first if self.frame else "")
        low, high = (Decimal(bounds[key]) if key in bounds else None
                     for key in ("minPrice", "maxPrice"))
        left_out = words.excluded_prices(self.frame.first if self.frame else "")
        kept = [item for item in found if (price := price_amount(item)) is not None and (
            currency is None or (item.get("price") or {}).get("currency") == currency) and (
            low is None or price >= low) and (high is None or price <= high) and
            price not in left_out]
        before = self.results if self.priced_now else []
        self.priced_now += 1
        known = {str(item["itemId"]) for item in before}
        self.results = sorted([*before, *(item for item in kept
                                                if str(item.get("itemId")) not in known)],
                              key=price_of)
        for item in self.results:
            self.items.setdefault(str(item["itemId"]), item)

    def _kin_found(self, found: list[dict[str, Any]]) -> None:
        """A catalog read for "something cheaper?": the things listed become the results
        ("the first one" points at them); the item asked about stays in view."""
        asked = follow_ups.read(self.frame.first) if self.frame else None
        focus = self.items.get(self.focus or "")
        if asked is None or not asked.price or focus is None:
            return
        self.results = follow_ups.same_kind(focus, found, asked.price)[:follow_ups.SHOWN]
        for item in self.results:
            self.items.setdefault(str(item["itemId"]), item)

    def absorb(self, name: str, args: dict[str, Any], result: Any, is_error: bool) -> None:
        if name == "apply_promotion":  # on the cart now, or refused (and explained)
            known = self.known_codes()  # (a code mistyped is applied as the store writes it)
            self.codes = tuple(code for code in self.codes
                               if mistyped(code, known) != args.get("code"))
            self.code_hint = ""
        elif name == "place_order":
            self.codes, self.code_hint = (), ""
        if is_error:
            code = result.get("code") if isinstance(result, dict) else None
            if code in _GONE and "cartId" in args:
                self._forget_cart(str(args["cartId"]))
            return
        if not isinstance(result, dict):
            return
        if name == "search_products":
            self._found(args, list(result.get("results", [])))
        elif name == "get_catalog" and self.frame is not None and self.frame.intent == "context":
            self._kin_found(list(result.get("items", [])))
        elif name == "get_catalog" and self.frame is not None and self.frame.intent == "search" \
                and not self.searched_now and words.price_bounds(self.frame.first):
            self._priced_found([{**item, "storeId": item.get("storeId") or result.get(
                "storeId")} for item in result.get("items", [])])
        elif name == "get_item":
            item_id = str(result.get("id"))
            self.items[item_id] = {"itemId": item_id, **result}
            if result.get("storeName") and args.get("locale"):
                self.own_store_names[(str(args["locale"]), str(result.get("storeId")))] = \
                    str(result["storeName"])
            self.details.add(item_id)
            self.focus = item_id
        elif name in _CART_TOOLS:
            self._cart(name, args, result)
        elif name == "place_order":
            self.ordered = True
            self.last_adds = ()
            self._order(result)
            self.carts.pop(str(result.get("storeId")), None)
        elif name in _ORDER_TOOLS:
            self._order(result)
        elif name == "list_orders":
            for order in result.get("orders", []):
                self.orders.setdefault(order["orderId"], order)
            if self.last_order is None and result.get("orders"):
                self.last_order = result["orders"][0]["orderId"]
        elif name == "list_stores":
            self.stores = list(result.get("stores", []))
        elif name == "get_store":
            self.store_info[str(result["storeId"])] = result
            if self.frame is not None and self.frame.intent == "switch":
                self.store = str(result["storeId"])

    def as_read(self, container: dict[str, Any]) -> dict[str, Any]:
        """A cart, order or return whose lines bear the names the shopper's reads gave their
        items (in French or Japanese where the store translates them; carts and orders are as
        written)."""
        if self.language == "en" or not container.get("items"):
            return container
        renamed = [{**line, "name": self.items[str(line.get("itemId"))]["name"]}
                   if self.items.get(str(line.get("itemId")), {}).get("name") else line
                   for line in container["items"]]
        return {**container, "items": renamed}

    def _cart(self, name: str, args: dict[str, Any], cart: dict[str, Any]) -> None:
        cart = self.as_read(cart)
        store = str(cart.get("storeId"))
        self.carts[store] = cart
        if cart.get("storeName"):
            self.store_names[store] = str(cart["storeName"])
        for line in cart.get("items", []):
            self.line_names[str(line["cartItemId"])] = str(line["name"])
        if store in self.cart_stores:
            self.cart_stores.remove(store)
        self.cart_stores.append(store)
        if name == "add_to_cart":
            line = next((line for line in cart.get("items", [])
                         if line["itemId"] == args.get("itemId")
                         and line.get("variantId") == args.get("variantId")
                         and line.get("timeSlotId") == args.get("timeSlotId")), None)
            self.last_line = line["cartItemId"] if line else self.last_line
            self.focus = str(args.get("itemId"))
        elif name == "update_cart_item":
            self.last_line = str(args.get("cartItemId"))
        elif name == "remove_cart_item" and self.last_line == args.get("cartItemId"):
            self.last_line = None

    def _forget_cart(self, cart_id: str) -> None:
        for store, cart in list(self.carts.items()):
            if cart.get("cartId") == cart_id:
                del self.carts[store]

    def _order(self, order: dict[str, Any]) -> None:
        order = self.as_read(order)
        self.orders[order["orderId"]] = order
        self.last_order = order["orderId"]

    def hear(self, raw: str) -> None:
        """A message from the person: it answers the open question or starts a request.
        Its delivery details are read first and kept apart: the address (or its correction)
        becomes the conversation's, and the words around it are the request. Every stage
        reads it as tidied (`typed`): casual words, stress, typos of intent words."""
        # "3, sorry I mean 2": read as said right the first time
        # an id's tail of one of this conversation's orders is that order, before `typed`
        # could read its letters as a stressed word ("aaaaaa", "fffabc")
        raw = which_order.spelt_out(raw, self.orders)
        raw = mind.corrected(typed(raw, catalogue_words(self.items.values())))
        self.focus_heard = self.focus  # the item in view when the shopper spoke
        offered = self.frame is SUGGESTED  # "Want me to add it?" on the table
        # "two bag of matcha", dictated "need for pizzas": counts (the language is judged on the
        # words as said: « trois sachets de » stays French once read as « 3 »)
        spoken, raw = raw, with_counts_plain(raw)
        if self.size_said is not None and points_at_a_size(raw):
            raw = with_size_named(raw, self.size_said)  # "the blue in that same size"
        said = reading(raw)
        if said.measures:
            self.size_said = said.folded[slice(*said.measures[-1].span)]
        undoable, self.line_added = self.line_added, False
        counted_line, self.line_counted = self.line_counted, False
        self.searched_now = self.priced_now = 0
        after, self.ordered = self.outcome, False
        known = self.known_codes()
        answered = code_answer(raw, known) if self.code_wanted else None
        self.code_wanted = False
        if answered is not None:  # "it's WELCOME10" after "what's the code?": the same request
            self.codes = self.said_codes = (answered,)
            self.heard += 1
            return
        if waves_a_code_away(raw):  # "never mind the code": none kept for the purchase
            self.codes = ()
        coded = read_code(raw, known) if not waves_a_code_away(raw) else read_code("", known)
        if coded.again:  # "have another go with that code": the codes said before, if any
            coded = replace(coded, codes=self.said_codes, vague=not self.said_codes)
        self.said_codes = coded.codes or self.said_codes
        if coded.declined and coded.rest:
            # "whatever, just order it without the code": the request, and no code kept
            self.codes, raw = (), coded.rest
        if coded.codes and offers.order_turned_down(self.offer) and self.open_carts() and \
                yes_with_edit.says_yes(raw) and yes_with_edit.only_a_yes(coded.rest):
            # "yes, and use code DOLCE4" just after turning the order down: the order again,
            # the code applied first (its approval asked again, on the new total)
            self.codes, raw = coded.codes, "check out"
        elif coded.codes and not coded.rest:
            # "try FOLIO3 again", "add the DOLCE4 code", « réessaie READMORE15 »,
            # 「もう一度OCHA10を」: only codes, applied to the cart in the order said
            self._counted(spoken)
            if self.frame is SUGGESTED and not self.open_carts():
                # « appliquez le code FOLIO3 » after "Want me to add it?": the thing offered
                # is wanted, its code kept for its order
                self.codes, self.offer = coded.codes, None
                return
            self.frame = Frame("promotion", (raw,))
            if not self.open_carts():  # kept for the purchase to come ("with FOLIO3", "buy it")
                self.codes = coded.codes
            elif _INSTEAD.search(words.fold(raw)):
                self.codes = ()  # « mets FIVEOFF à la place »: the code kept before is dropped
            return
        priced_thing = False  # "a limited glaze mug with code WELCOME10": a thing, bought
        if coded.codes or coded.vague:
            kind = understand(read_delivery(coded.rest).rest or coded.rest)[0]
            priced_thing = bool(coded.codes) and kind in ("other", "search") and \
                words.names_a_thing(words.fold(coded.rest)) and \
                read_act(coded.rest).kind != "question"
            if coded.rest and (kind in _CARRIES_A_CODE or priced_thing or
                               read_delivery(coded.rest).address is not None):
                self.codes = coded.codes or self.codes
                self.code_wanted = not coded.codes
                self.code_hint = "" if coded.codes else coded.mention or raw
                raw = coded.rest
        delivery = read_delivery(raw)
        corrected = None
        if self.address is not None and (delivery.address is None or missing(
                delivery.address, delivery.country_code) == "place"):
            corrected = amended(str(self.address["address"]), raw)
        # "the same address as last time": the address the conversation already holds
        reused = delivery.same_as_before and self.address is not None
        # the address, or where the order is collected ("at the Portland studio"), is no request
        request = delivery.rest if delivery.address or delivery.pickup or \
            delivery.same_as_before else raw
        # a question dropped for an instruction (or the reverse) is settled before the
        # question inside a request is set apart
        parts = compound.split(settle(request))
        request, self.asked = parts.request, parts.question
        kind, text = understand(request)
        praised = (undoable or counted_line) and kind in ("search", "other", "details") and \
            assent.acclaims(request)
        if praised:
            kind = "yes"  # "sweet", "nice one", « top » just after an add: praise, no search
        if priced_thing and kind in ("other", "search"):
            kind = "add"  # a code said with a thing names no search: the thing is wanted
        if kind == "cart" and names_destination(request) and read_act(request).kind != "question":
            # "practical rust in my basket", 「茶筅をひとつカートにお願いします」: the cart is
            # where an add puts things, not a request to look at it ("what did I put in my
            # basket?" asks what is there)
            meant = understand(without_destination(request))[0]
            # a thing named and where it goes ("une pizza, la moins chère, dans mon panier")
            # is an add even without a verb
            kind = meant if meant in SHOPPING else "add" if meant == "search" and read_act(
                request).kind != "question" and not _LOOKING.search(words.fold(request)) else kind
        if kind not in ("quantity", "remove") and self.open_carts() and \
                quantities.without_total(request) != request:
            # "ugh, actually 4 in total" just after a line was handled: its new count
            recount = understand(quantities.without_total(request))
            if recount[0] == "quantity" or (words.quantity(recount[1]) is not None and not any(
                    name_score(item, words.content_words(recount[1]))
                    for item in self.items.values())):
                kind, text = "quantity", quantities.without_total(request)
        if delivery.address is not None or corrected is not None or reused:
            if not reused:
                given = corrected or delivery.address or ""
                code = country_of(given) if corrected else delivery.country_code
                self.address = {"address": given, **({"countryCode": code} if code else {})}
            if kind == "yes" and self.frame is SUGGESTED and corrected is None:
                kind = "buy"  # "ok get her that one and ship it to …": the item offered, bought
            if kind not in _KEPT_WITH_AN_ADDRESS or corrected is not None:
                kind = "checkout"  # "wrong zip, it should be 94110" is about the address
            if corrected is None:
                kind = self._with_its_delivery(kind, text)
        elif (self.code_wanted or delivery.pickup and (self.codes or _PICKUP_TIME.search(
                words.fold(text)) or collects_in_person(raw))) and kind == "add" and \
                not _CART_WORD.search(words.fold(text)):
            # "two diavolas for pickup, code PIZZAFRIDAY", "a margherita for pickup at 7", « je
            # prends le livre, j'ai un code promo » (asked for before the order): the whole
            # purchase ("the seconds box for pickup" alone only names the item; "grab me X and
            # use READMORE15" fills the cart, the code kept until the checkout is said)
            kind = "buy"
        elif delivery.pickup and kind in _ABOUT_PICKUP and (self.open_carts() or (
                read_act(text).kind != "question" and  # "I'll swing by" after the order:
                not words.names_a_thing(without_pickup(text)))) and (  # no search
                kind not in ("add", "search", "details")
                or not words.content_words(without_pickup(text))):
            kind = "pickup"  # "I'll collect it", not "the seconds box for pickup"
            if read_act(text).kind == "question" and ASKS_WHEN_OPEN.search(words.fold(text)):
                kind = "policy"  # "what time can I come collect it?": the store's hours
        elif delivery.pickup and kind in _ABOUT_PICKUP and read_act(text).kind == "question" \
                and not words.content_words(without_pickup(text)):
            kind = "policy"  # "can I pick it up in store?" before any cart: the store's terms
        if delivery.pickup and drops_delivery(raw) and kind in ("remove", "cancel", "no",
                                                                "other"):
            kind = "pickup"  # "scratch the delivery, I'll pick them up": collected, none removed
        if asks_where_to_collect(raw) and self.collected_here() is not None:
            # "where do I go to get it?", 「どこで受け取れますか」 with a pickup cart or order: its
            # place (never a product search, a store list or the order again)
            kind = "pickup_place"
        if kind in ("buy", "yes", "other", "add", "checkout") and (concludes_it(request) or (
                kind == "buy" and closing(request) == "order" and not _JAPANESE_OBJECT.search(
                    request) and not words.content_words(without_closing(request))) or (
                resolves_on_it(request) and self._in_view_and_in_cart())):
            # ("lovely, I'll take it" with the thing already in the cart: its order; to "Want
            # me to add it?" it takes the offer, as a yes)
            # "ok buy it", "order it", 「購入します」: the cart's order when what was last in
            # view is in it (or nothing is in view), else that thing bought
            carts = self.open_carts()
            in_cart = any(line.get("itemId") == self.focus for cart in carts
                          for line in cart.get("items", []))
            kind = "checkout" if carts and (in_cart or self.focus is None) else "buy"
            if kind == "buy" and self._ordered_just_now(request):
                kind = "ordered_already"  # "ok order it" once it is: the order, not another
        elif kind == "checkout" and self._takes_what_is_in_view(
                request, addressed=delivery.address is not None):
            # "Kindly deliver it to …, I am ready to pay" after "Want me to add it?": the
            # thing offered or pointed at is bought (the approval still asks)
            kind, text = "buy", "buy it"
            if self.frame is SUGGESTED and self.offered_when:
                text = f"buy it, {self.offered_when}"  # at the time the request named
        if kind == "checkout" and not self.open_carts() and self.frame is not SUGGESTED and \
                words.names_a_thing(read_delivery(read_checkout(request).rest).rest):
            # "lasagna for pickup, check out" with nothing in the cart: that thing, bought
            # (its order asked for approval)
            kind = "buy"
        if kind == "no" and undoable and self.open_carts() and mind.takes_back(request):
            # "やっぱりやめます" right after an add takes that line back (the line last added);
            # with nothing just added it is a no to what is on the table
            kind = "remove"
        if (kind == "other" or kind == "add" and _SUFFICES.search(text)) and counted_line and \
                self.frame is None and self.open_carts() and _count_alone(text):
            # "5", "five please", "just 2 then", « cinq », 「3つ」 right after a line was added
            # or recounted (nothing asked since): that line's new count
            kind = "quantity"
        follow_up = follow_ups.read(text) if kind in _MAY_FOLLOW_UP else None
        if follow_up is not None and follow_up.option is not None and \
                kind in _MAY_CHANGE_A_LINE and self._changes_the_line(text):
            follow_up = None  # « en bleu » with the mug in the cart: its line changes
        if follow_up is not None and follow_ups.fits(follow_up, self.items, self.open_carts(),
                                                     self.focus, self.last_line):
            kind = "context"  # about what is in view, never a search for "else" or "week"
        elif offers.order_turned_down(self.offer) and kind in _MAY_NAME_A_TIME and \
                offers.other_slot(self.open_carts(), self.items, text, self.now,
                                  self.time_zone) is not None:
            kind = "reslot"  # "the 3pm then" after turning down the 10am booking
        elif kind in _MAY_CHANGE_A_LINE and self._changes_the_line(text):
            kind = "quantity"  # "the other colour", "swap to large": the line in the cart
        elif kind in (*_MAY_CHANGE_A_LINE, "remove", "no", "replace") and (
                self.edits_extras(raw) or (text != raw and self.edits_extras(text))):
            # "no olives after all", "add a gift box too": the line's extras, read with their
            # negations ("actually, no garlic bread": without the change-of-mind opening)
            kind, text = "quantity", (raw if self.edits_extras(raw) else text)
        elif (kind == "add" and mind.recounts(request) or kind == "cancel") and \
                self._names_only_a_line(text):
            # "I only need one plate", "cancel the mug": a line in the cart, not a new one
            # nor an order
            kind = "quantity" if kind == "add" else "remove"
        elif kind in ("quantity", "switch") and self._names_another_product(text):
            kind = "replace"  # "make that the classic mug instead": the last line, replaced
        elif self.open_carts() and aftermath.repeats(kind, text) and (
                self._names_only_a_line(text) or not self._names_another_item(text)):
            kind = "quantity"  # "add a second one", "encore une autre": the line, one more
        edited = None
        if offers.order_turned_down(self.offer) and yes_with_edit.says_yes(raw) and \
                self.open_carts() and not read_checkout(text).concludes:
            edited = yes_with_edit.edit_then_order(kind, text)
            beside = yes_with_edit.beside_the_yes(text) if edited is None and \
                kind in ("yes", "other") else ""
            if beside:  # "ok but one more mug", "sure, without the planter": what follows
                edit = yes_with_edit.leaving_out(beside) or beside
                edited = yes_with_edit.edit_then_order(understand(edit)[0], edit)
        if edited is not None:
            # "yes but make it 2", "ok but add a tiramisu too", « oui mais trois » just after
            # turning the order down: the change, then the order again (its approval asked
            # again, on the edited cart)
            kind, text = edited
        act = read_act(raw).kind
        instead = aftermath.substitute(after, kind, text, act) or aftermath.recount(
            after, kind, text, act)
        self._counted(spoken)
        again = offers.revised(self.offer, kind, text, act)
        if again is not None:
            # "make it $3 instead" just after turning the $5 tip down: that tip, with $3
            self.frame, self.offer = again, None
            return
        if kind == "other" and act != "question" and len(self.results) > 1 and \
                _takes_shown(text):
            kind = "add"  # "all of them, 12 inch", "the first two": those shown, added
        pending = self.frame
        bound = conditions.price_condition(text) if pending is SUGGESTED and kind in (
            "yes", "search", "other", "add", "details") else None
        on_offer = self.items.get(self.focus or "")
        priced = price_amount(on_offer) if bound is not None and on_offer is not None else None
        if bound is not None and on_offer is not None and priced is not None:
            # "ok if it's under 40 bucks", "only if it's less than $50": the yes stands when
            # the price keeps within the limit, else it is a no (its reply says the price)
            if not conditions.met(bound, priced, str((on_offer.get("price") or {}).get(
                    "currency", ""))):
                self.frame = Frame("no", (text,))
                return
            kind, text = "yes", "yes"
        chosen = picked.shown_item_named(self.results, self.focus, text) if \
            pending is SUGGESTED and kind == "yes" else None
        if chosen is not None:
            # "yes to the planter, not the plate" after the plate was offered among both
            # shown: the planter, taken by the yes itself
            self.focus = chosen
            self.frame = replace(SUGGESTED, texts=(*SUGGESTED.texts, text), item_id=chosen)
            self.offer = None
            return
        if pending is SUGGESTED and kind in (*SHOPPING, "yes", "other") and \
                self._picks_a_shown_time(text):
            kind = "book"  # "the 1pm one works for me" once the times were shown: that booking
        elif pending is SUGGESTED and kind in ("yes", "other") and \
                yes_with_edit.says_yes(text) and self.focus in self.items and (
                other := yes_with_edit.another_thing(text, words.content_words(" ".join(
                    item_names(self.items[self.focus]))))) is not None:
            # "yes and also 2 dinner plates": the thing offered, and the other thing named
            # (named by its head: "Arancini (3)", "Dinner Plate, 27 cm" hold no count)
            head = re.sub(r"\s*\([^)]*\)", "", str(self.items[self.focus]["name"]))
            kind, text = "add", f"{head.split(',')[0]} and {other}"
            pending = None
        elif pending is SUGGESTED and (counted := yes_with_edit.count_for_the_offer(
                kind, text)) and not self._in_view_and_in_cart():
            # "sure, make it 4" to "Want me to add it?": that many of it ("…then go ahead":
            # bought, its order asked for approval); its count words read as digits ("yep, a
            # couple": two), never as a thing named
            kind, text = counted, yes_with_edit.count_said_plainly(text)
        elif pending is SUGGESTED and kind in ("add", "search", "details", "other") and \
                self._names_only_extras_of_focus(text):
            kind = "yes"  # 「はい、風呂敷で包んでください」, "sure, gift wrapped": it, with those
        elif pending is SUGGESTED and kind not in ("yes", "other"):
            pending = None  # a request of its own, not an answer to "Want me to add it?"
        pending, self.offer = offers.taken_up(pending, self.offer, kind, read_act(raw).kind)
        suggested = pending is SUGGESTED  # before the options said with it come along
        if pending is SUGGESTED and self.offered_with and kind == "yes":
            # "yes" to "Want me to add it?": the options said when it was offered come along
            pending = replace(SUGGESTED, texts=(*SUGGESTED.texts, self.offered_with),
                              item_id=self.focus)
        if kind == "checkout" and self._answers_then_pays(pending, text):
            kind = "buy"  # "feb 13 morning and I'll pay now" answering "which time?"
        taken = self._taken_in_context(pending, kind, text) if pending is not None and \
            pending.intent == "context" and kind in _ANSWERS_IN_CONTEXT else None
        if taken is not None:
            # "ok book that" after "and the day after?", "the 16 oz then" after "what about
            # in blue?": the thing in view, with what the follow-up and its answer said
            self.frame, self.offer = taken, None
            return
        if instead is not None:
            # "the planter then" after the bowl was sold out, "ok, 3 then" after only 3 were
            # left: that request, with the planter or the count
            self.frame, self.offer = instead, None
            self.shown = list(self.results)
            return
        if kind in ("yes", "other") and pending is None and undoable and self.open_carts() and \
                assent.goes_ahead(raw):
            kind = "checkout"  # "ok now do it" just after an add: the cart's order (approved)
        if kind == "yes" and pending is None and (praised or aftermath.acknowledges(raw)):
            # "ok, thanks" with nothing on the table (an order just placed): answered, no more
            self.frame = Frame(aftermath.ACKNOWLEDGE, (text,))
            return
        if kind == "no" and pending is not None and pending is not SUGGESTED and \
                pending.intent in SHOPPING and not pending.added and refuses_an_option(
                    self.items.get(pending.item_id or self.focus or ""), raw):
            # "not the blue one" while "which one?" waits: that question answered, the option
            # refused left out of the choice (the item itself is not declined)
            self.frame = pending.answered(raw)
            return
        if kind == "no":
            # A refusal declines the offer or question on the table, and nothing else.
            self.frame = Frame("no", (text,))
            return
        if pending is not None and kind == "yes":
            # Assent answers the open question and adds no words of its own ("yep, go for it"
            # names no product): the frame records a plain "yes"; assent that names an option
            # ("ok the cobalt blue 12 oz then") is that answer.
            named = bool(re.search(r"\d", text) or english_option_words(text)
                         or words.content_words(text))
            self.frame = pending.answered(text if named else "yes")
            if suggested and self.offered_when and not named:
                self.frame = self.frame.answered(self.offered_when)  # the time it was asked for
        elif pending is not None and (
                kind == pending.intent or (kind == "other" and _answers(text))
                # "I'd rather have the blue one" answering "which one?" before anything is in
                # the cart: a choice, not a change to a cart line
                or (kind == "quantity" and pending.intent in SHOPPING and not pending.added
                    and _answers(text))
                or (kind in SHOPPING and pending.intent in (*SHOPPING, "checkout"))
                # an order id answering "which order do you mean?" of a cancel or a return
                or (kind == "status" and pending.intent in _ABOUT_ONE_ORDER
                    and words.order_id(text) is not None and len(text.split()) <= 3)):
            self.frame = pending.answered(text)
            if kind in SHOPPING and pending.intent == "add":
                self.frame = replace(self.frame, intent=kind)  # "buy it" after "add it?"
        elif offered and self.offered_with and kind == "buy" and read_checkout(raw).acts and \
                not self._names_another_item(text):
            # "ok then ship it to …" after the offer: the options said when it was offered
            self.frame = Frame(kind, (text, self.offered_with), item_id=self.focus)
        else:
            self.frame = Frame(kind, (self._narrowed(kind, text),))
            self.shown = list(self.results)  # what a new request's "both" points at
            if kind == "search":
                self.searched = self.frame.first

    def _narrowed(self, kind: str, text: str) -> str:
        """A search said as a price limit alone ("under $20", « pas plus de 20 $ »): the
        latest search's words with that limit; any other request as said."""
        if kind != "search" or not self.searched or not words.price_bounds(text) or \
                words.names_a_thing(words.strip_prices(text)):
            return text
        return f"{self.searched.rstrip(' ?!.？！。')}, {text}"

    def _taken_in_context(self, pending: Frame, kind: str, text: str) -> Frame | None:
        """The request an answer to a follow-up's question makes: the item in view added
        with the options the follow-up and the answer name; the time chosen among those the
        follow-up listed, booked (or the booking in the cart moved to it)."""
        asked = follow_ups.read(pending.first)
        if asked is None or self.focus is None:
            return None
        if not asked.shift:
            if asked.price:
                return None  # several things listed: the answer names one, as any request
            wanted = kind if kind in ("buy", "add") else "add"
            return Frame(wanted, (pending.first, text), item_id=self.focus)
        found = follow_ups.service_in_view(self.items, self.open_carts(), self.focus,
                                           self.last_line)
        if found is None:
            return None
        item, booked = found
        listed = follow_ups.times_asked(asked, item, booked, self.now)[:choices.SLOTS_OFFERED]
        position = words.ordinal(text)
        timed = [choice for choice in choices.pick_slots(item, (text,), self.now,
                                                         self.time_zone)[0]
                 if choice in listed] if choices.when_named((text,)).named() else []
        if position is not None and -len(listed) <= position < len(listed):
            chosen = listed[position]
        elif len(timed) == 1:
            chosen = timed[0]
        elif len(listed) == 1 and (kind in ("yes", "book") or words.points_at_shown(text)):
            chosen = listed[0]
        else:
            return None
        moment = datetime.fromisoformat(chosen.words)
        said = f"on {moment.day} {moment:%B %Y} at {moment:%H:%M}"  # the time, as dates read
        if booked is not None:
            return Frame("reslot", (said,))
        return Frame("book", (said,), item_id=str(item["itemId"]))

    def _counted(self, raw: str) -> None:
        """A request heard: its language becomes the conversation's (a short one after the
        first message keeps the one before), and it is counted."""
        self.language = language_of(raw, self.language, settled=self.heard > 0)
        self.heard += 1

    def _in_view_and_in_cart(self) -> bool:
        """Whether the thing last in view is a line of an open cart."""
        return self.focus is not None and any(
            line.get("itemId") == self.focus for cart in self.open_carts()
            for line in cart.get("items", []))

    def _takes_what_is_in_view(self, request: str, addressed: bool = False) -> bool:
        """Whether a checkout said with nothing else named is for the item offered ("Want
        me to add it?") rather than the cart: the cart is empty, or the message points at it
        ("Kindly deliver it to …, I am ready to pay", 「それにします、お支払いします」)."""
        said = read_checkout(request)
        # (an address given, "can you send it to …", sends the thing offered as surely as
        # "I'll pay" does)
        if self.frame is not SUGGESTED or self.focus is None or not (
                said.concludes or "send" in said.acts or addressed) or not (
                says_nothing_else(said.rest) or understand(said.rest)[0] == "yes"):
            return False
        carts = self.open_carts()
        if any(line.get("itemId") == self.focus for cart in carts
               for line in cart.get("items", [])):
            return False
        return not carts or _POINTING.search(words.fold(request)) is not None

    def _with_its_delivery(self, kind: str, text: str) -> str:
        """A request said with where it goes is a purchase: "get me the glaze mug, deliver to
        …" orders it (approval still asked), "茶筅を注文したいです。住所は…" too; the address
        alone, or "に送ってください", checks out what the cart holds."""
        rest = read_checkout(text).rest  # "I am ready to pay" names nothing to buy
        named = not says_nothing_else(rest) and bool(
            words.content_words(rest) or _JAPANESE_OBJECT.search(rest))
        if kind == "add" and not _CART_WORD.search(words.fold(text)):
            return "buy" if named or not self.open_carts() else "checkout"
        if kind in ("checkout", "other") and named and not self.open_carts():
            return "buy"
        return kind

    @property
    def code(self) -> str | None:
        """The next code to apply."""
        return self.codes[0] if self.codes else None

    def _ordered_just_now(self, request: str) -> bool:
        """Whether "order it" points at the thing the last order already holds (the thing in
        view, with no cart open since), and no more of it is asked for."""
        order = self.orders.get(self.last_order or "")
        if order is None or order.get("status") == CANCELLED or self.open_carts():
            return False
        if _MORE_OF_IT.search(words.fold(request)) or words.names_a_thing(request):
            return False
        return any(line.get("itemId") == self.focus for line in order.get("items", []))

    def collected_here(self, in_view: bool = True) -> dict[str, Any] | None:
        """What the shopper collects in person, for "where do I pick it up?": the open cart
        with lines collected at the store, else the latest order with such lines (not
        cancelled), else (`in_view`) the item in view when it is only collected."""
        for cart in self.open_carts():
            if any(line.get("fulfillmentType") == "pickup" for line in cart.get("items", [])):
                return cart
        order = self.orders.get(self.last_order or "")
        if order is not None and order.get("status") != CANCELLED and any(
                line.get("fulfillmentType") == "pickup" for line in order.get("items", [])):
            return order
        focus = self.items.get(self.focus or "") if in_view else None
        if focus is not None and focus.get("fulfillmentType") == "pickup":
            return {"storeId": focus.get("storeId"), "items": []}
        return None

    def known_codes(self) -> frozenset[str]:
        """Every store's codes the conversation has read ("use fiveoff" names one)."""
        return frozenset(str(entry.get("code", "")).upper() for info in self.store_info.values()
                         for entry in info.get("promotions", []) if entry.get("code"))

    def names_extras(self, text: str) -> bool:
        """Whether `text` names extras of a cart line's item and nothing else, whether or not
        the line holds them already (an edit made earlier in the same turn)."""
        if read_act(text).kind == "question":
            return False
        return any(
            (item := self.items.get(str(line["itemId"]))) is not None
            and line_options.named(item, text)
            and line_options.names_nothing_else(item, text, option_change.CHANGE_WORDS)
            for cart in self.carts.values() for line in cart.get("items", []))

    def edits_extras(self, text: str) -> bool:
        """Whether `text` adds or takes away an extra of a cart line's item and names nothing
        else: "add mushrooms to the pizza", "remove the gift box", "hold the egg" (not "remove
        the mug", a line, nor "what toppings are there?", a question)."""
        if read_act(text).kind == "question":
            return False
        lines = sorted((line for cart in self.carts.values() for line in cart.get("items", [])),
                       key=lambda line: line["cartItemId"] != self.last_line)
        for line in lines:
            item = self.items.get(str(line["itemId"]))
            if item is not None and line_options.edit(item, line, text) is not None and \
                    line_options.names_nothing_else(item, text, option_change.CHANGE_WORDS) \
                    and not line_options.asks_for_another(item, text):
                return True
        return False

    def _names_only_extras_of_focus(self, text: str) -> bool:
        """Whether `text` names extras of the item offered (its add-ons, its toppings) and no
        other thing: the answer to "Want me to add it?" that takes it with them."""
        item = self.items.get(self.focus or "")
        if item is None or read_act(text).kind == "question":
            return False
        if not item.get("metadata"):  # only found, not yet read: its gift wrap said alone
            return yes_with_edit.says_yes(text) and gifting.only_wrapping(
                yes_with_edit.beside_the_yes(text) or text)
        return bool(line_options.named(item, text)) and line_options.names_nothing_else(
            item, text, option_change.CHANGE_WORDS) and not line_options.asks_for_another(
            item, text)

    def _answers_then_pays(self, pending: Frame | None, text: str) -> bool:
        """Whether a checkout also answers the question on the table of a thing not in the cart
        yet ("the evening one, take my money", « le 13 février au matin, et je paie »,
        「3月13日の午前で。支払いまで進めて」): the answer is taken, then the order placed."""
        if pending is None or pending is SUGGESTED or pending.added or \
                pending.intent not in SHOPPING:
            return False
        said = read_checkout(text)
        rest = said.rest.strip(" ,、。")
        return said.concludes and bool(rest) and (_answers(rest) or self._picks_a_shown_time(
            rest))

    def _picks_a_shown_time(self, text: str) -> bool:
        """Whether `text` names a time and nothing else ("the 1pm one works for me", "celui
        de 13h me va") while an item with times is in view: one of the times shown, or, when
        none fits, a question back, never a search of its words."""
        if not choices.when_named((text,)).named() or \
                words.content_words(text) - _FITS_WORDS:
            return False
        return any(choices.slot_choices(item) for key, item in self.items.items()
                   if key in self.details)

    def _names_only_a_line(self, text: str) -> bool:
        """Whether `text` names an item in an open cart and none of the orders placed
        ("cancel the mug" with the mug in the cart and no order holding one)."""
        wanted = said_words(text)
        in_cart = any(name_score(line, wanted) + alias_score(
            self.aliases.get(str(line["itemId"]), frozenset()), wanted)
            for cart in self.open_carts() for line in cart.get("items", []))
        ordered = any(name_score(line, wanted) for order in self.orders.values()
                      for line in order.get("items", []) if isinstance(line, dict))
        return bool(wanted) and in_cart and not ordered

    def _changes_the_line(self, text: str) -> bool:
        """Whether `text` moves the last cart line to another of its item's options and names
        nothing else: "make it the blue one", "swap to large", "actually the other colour",
        "can we go bigger?" (not "is the blue one dearer?", a question)."""
        line = next((line for cart in self.carts.values() for line in cart.get("items", [])
                     if line["cartItemId"] == self.last_line), None)
        item = self.items.get(str(line["itemId"])) if line else None
        if line is None or item is None or read_act(text).kind == "question":
            return False
        said = option_change.said(item, text)
        extra = words.content_words(words.without_measures(text)) - said - \
            words.content_words(str(item.get("name", ""))) - option_change.CHANGE_WORDS
        if extra:
            return False
        return option_change.variant_change(item, line.get("variantId"), text) is not None \
            or option_change.option_change(item, dict(line.get("customizations") or {}),
                                           text) is not None

    def _names_another_item(self, text: str) -> bool:
        """Whether `text` names an item other than the cart's lines ("another mug" with only
        plates in the cart); "another one", "une autre" name none."""
        wanted = aftermath.named_words(text)
        if not wanted:
            return False
        return not any(name_score(line, wanted) + alias_score(
            self.aliases.get(str(line["itemId"]), frozenset()), wanted)
            for cart in self.open_carts() for line in cart.get("items", []))

    def _names_another_product(self, text: str) -> bool:
        """Whether a change of the last cart line names another product the conversation has
        met ("actually make that the classic mug instead", "I'd rather have the dripper" once
        the dripper was shown), rather than a count or an option ("make it two", "the blue
        one")."""
        line = next((line for cart in self.carts.values() for line in cart.get("items", [])
                     if line["cartItemId"] == self.last_line), None)
        item = self.items.get(str(line["itemId"])) if line else None
        if line is None or item is None or read_act(text).kind == "question":
            return False
        if words.quantity(text) is not None or _WITH.search(words.fold(text)):
            return False  # "make it two, with a gift box": a count and an extra, same item
        said = words.content_words(words.without_measures(text)) - option_change.CHANGE_WORDS
        extra = set(said - words.content_words(str(item.get("name", ""))))
        if not extra or any(choices.matches(label, extra) for label in choices.option_labels(item)):
            return False
        # Only a product the conversation has met: an unknown word may be a verb ("bump it to
        # 16 inch"), a typo or a French option word ("plutôt la mouchetée").
        return any(extra <= words.content_words(str(other.get("name", "")))
                   for key, other in self.items.items() if key != line["itemId"])

    def replied(self, content: str) -> None:
        """The agent's reply ended a turn: its request stays open only if it asked."""
        self.outcome = aftermath.outcome(content, self.frame, self.ordered)
        if self.frame is not None and phrasing.asks(content):
            return
        asked = self.frame
        self.frame = SUGGESTED if phrasing.suggests_add(content) else None
        if self.frame is SUGGESTED:
            self.offer = SUGGESTED
            self.offered_when = _time_words(asked.texts) if asked is not None else None
            self.offered_with = asked.text if asked is not None else ""
        offered = offers.similar_offered(content, self.items) or offers.pause_offered(content)
        if offered is not None:
            self.offer = offered  # "Shall I look for something similar?", "Say “pause…”"


def _time_words(texts: tuple[str, ...]) -> str | None:
    """The words naming a time in the latest of `texts` that names one ("jan 12 in the
    morning" of "private yoga on jan 12 in the morning please"), or None."""
    for text in reversed(texts):
        when = reading(text).when
        if when is not None and when.span[1] <= len(text):
            return text[when.span[0]:when.span[1]].strip() or None
    return None


# Changes to the cart a shopper may make while saying yes to the order they just turned down.
# Requests about one of the shopper's orders, which may ask which one is meant.
_ABOUT_ONE_ORDER = frozenset({"cancel", "return", "rate", "tip", "reorder", "sub_pause",
                              "sub_resume", "sub_cancel"})
# "with a gift box", "avec la boîte", "箱付き": an extra for the line, not another product.
_WITH = re.compile(r"\b(?:with|plus|avec)\b|付き|付けて")


# Words saying a choice suits, beside the time chosen ("works for me", "me va", "suits me").
_FITS_WORDS = frozenset({"work", "suit", "fine", "good", "great", "perfect", "va", "convient",
                         "ok", "okay", "take", "do"})


# Words that only say a count will do ("2 is enough", "3 is plenty", « 2 suffiront »).
_SUFFICES = re.compile(r"\b(?:is|are|will do|would do|should do)?\s*(?:enough|plenty|fine)\b|"
                       r"\bsuffi(?:t|ra|ront|sent|sant)\b|で(?:いい|大丈夫|十分)", re.IGNORECASE)


def _count_alone(text: str) -> bool:
    """Whether a message says only a count ("5", "five please", "let's do 2", « cinq »,
    「3つ」): no thing, time, price, ordinal or question beside it."""
    text = _SUFFICES.sub(" ", text)
    said = quantities.how_many(text)
    return said is not None and said > 0 and quantities.relative(text) is None and not (
        words.content_words(text) or words.names_a_thing(text) or (
            words.ordinal(text) is not None and not BARE_NUMBER.fullmatch(text))
        or choices.when_named((text,)).named() or words.price_bounds(text)
        or read_act(text).kind == "question")


def _takes_shown(text: str) -> bool:
    """Whether `text` takes the items shown as a set ("all of them, 12 inch", "the first
    two") and names nothing but their options."""
    folded = words.fold(text)
    rest = words.content_words(words.without_measures(without_shown_set(folded)))
    return takes_shown(folded, words.names_only_options(rest)) is not None


def _answers(text: str) -> bool:
    """Whether a message without an intent of its own can answer a question ("the blue one",
    "2", "Monday at 7", an address), unlike "hello"."""
    return bool(words.content_words(text)) or _answers_by_form(text)


def _answers_by_form(text: str) -> bool:
    """An answer by its form, whatever it names: a place in a list, a count, a number, a time,
    an option word or a size in any language ("お点前用の大きいほう")."""
    return bool(words.ordinal(text) is not None or words.quantity(text) is not None
                or re.search(r"\d", text) or choices.when_named((text,)).named()
                or english_option_words(text) or option_change.direction(text) != 0)


# A capitalised word inside a sentence, or a run of capitalised words anywhere ("Hearth & Kiln
# a des promotions ?" opens with a store's name, which says nothing of the shopper's language).
_PROPER_NAME = re.compile(r"(?<=\w\s)[A-Z][A-Za-z0-9&'-]*|"
                          r"\b[A-Z][A-Za-z0-9'-]+(?:\s+(?:&\s+)?[A-Z][A-Za-z0-9'-]+)+")
# Words only each language uses: a conversation switches language on a message that has some.
_LATIN = {
    "fr": re.compile(r"\b(?:je|j|vous|votre|vos|nous|est|sont|le|la|les|des|du|une|un|et|pour|"
                     r"avec|dans|mon|ma|mes|oui|non|merci|bonjour|voudrais|veux|cherche|"
                     r"ajoute[rz]?|panier|commande|ou|quand|comment|combien|pas|c'est|"
                     r"s'il|plait|d'accord|aussi|moins|plus)\b"),
    "en": re.compile(r"\b(?:i|i'm|you|your|my|me|the|a|an|is|are|and|to|of|for|with|what|"
                     r"where|when|how|please|thanks|yes|no|want|need|add|buy|find|show|cart|"
                     r"order|check|it|this|that|can|could|would)\b"),
}


@lru_cache(maxsize=4096)
def language_of(raw: str, previous: str, settled: bool = True) -> str:
    """The language of a message, judged without its proper names ("check out my Trattoria
    Fiamma cart" is English): the conversation keeps its language when a message cannot tell
    (once an earlier message `settled` it)."""
    # a message typed in capitals throughout is shouted, not a run of names
    common = _PROPER_NAME.sub(" ", raw if any(char.islower() for char in raw) else raw.lower())
    found = reply_language(common, previous if settled else None)
    if settled and found in _LATIN and previous in _LATIN and found != previous and not \
            _LATIN[found].search(words.fold(common)):
        return previous  # a short or mixed message keeps the conversation's language
    return found


@dataclass
class Replay:
    """A fold under way: the state so far, and the tool calls met so far by id (a tool result
    names only its call)."""

    state: State
    calls: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)


def begin(context: dict[str, Any]) -> Replay:
    """The fold before any message: only the client context's delivery address is known."""
    state = State()
    state.now, state.time_zone = _clock_of(context)
    given = context.get("deliveryAddress")
    if isinstance(given, str) and given.strip():
        state.address = {"address": given.strip()}
    elif isinstance(given, dict) and given.get("address"):
        state.address = {key: given[key] for key in ("address", "countryCode") if key in given}
    return Replay(state)


def _clock_of(context: dict[str, Any]) -> tuple[datetime | None, str]:
    """The client's `now` (None when absent or unreadable) and `timeZone` (default: UTC)."""
    zone = context.get("timeZone")
    zone = zone if isinstance(zone, str) and zone.strip() else "UTC"
    said = context.get("now")
    if not isinstance(said, str):
        return None, zone
    try:
        moment = datetime.fromisoformat(said.replace("Z", "+00:00"))
    except ValueError:
        return None, zone
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)), zone


def latest_user(messages: list[Message]) -> int:
    """Where the turn being served begins: its user message (-1 when there is none)."""
    return next((i for i in range(len(messages) - 1, -1, -1) if messages[i].role == "user"),
                -1)  # from the end: a turn's own messages, not the whole conversation


def _called(replay: Replay, message: Message) -> None:
    """An assistant message's tool calls: known by id for their results; adding an item, or
    reading the one item, settles which item the request is about."""
    state = replay.state
    for call in message.tool_calls:
        replay.calls[call.id] = (short(call.name), call.args)
        if state.frame is not None and (short(call.name) == "add_to_cart" or (
                short(call.name) == "get_item" and len(message.tool_calls) == 1)):
            state.frame = state.frame.settled(str(call.args.get("itemId")))


def fold_past(replay: Replay, message: Message) -> None:
    """One message of an earlier turn (before the latest user message): a past turn's
    messages fold the same way whichever later turn is being served, which is what lets the
    past be kept between turns (folds.py)."""
    state, calls = replay.state, replay.calls
    if message.role == "user":
        state.hear(message.content)
    elif message.role == "assistant":
        _called(replay, message)
        if not message.tool_calls:
            state.replied(message.content)
    else:
        name, args = calls.get(message.tool_call_id, (short(message.name), {}))
        state.absorb(name, args, message.result, message.is_error)
        # turned down: a later "ok, go ahead" asks again
        state.offer = offers.after_rejection(name, message.result, state.frame, state.offer)
        if name in ("add_to_cart", "update_cart_item") and not message.is_error:
            state.line_counted = True
        if name == "add_to_cart" and not message.is_error:
            # the lines the latest request added: "same again" adds them once more
            state.last_adds = (*state.last_adds, args) if state.line_added else (args,)
            state.line_added = True
            if state.frame is not None:
                state.frame = replace(state.frame, added=True)


def fold_turn(replay: Replay, messages: list[Message]) -> State:
    """The turn being served: its user message (first, when there is one) and the steps
    taken since, whose tool calls are this turn's `calls`."""
    state, calls = replay.state, replay.calls
    for message in messages:
        if message.role == "user":
            state.hear(message.content)
            state.order_in_view = state.last_order
        elif message.role == "assistant":
            _called(replay, message)
        else:
            name, args = calls.get(message.tool_call_id, (short(message.name), {}))
            state.before_calls.append(Snapshot(dict(state.orders), dict(state.carts),
                                               state.last_order))
            state.absorb(name, args, message.result, message.is_error)
            state.calls.append(Call(name, args, message.result, message.is_error))
    return state


def fold(messages: list[Message], context: dict[str, Any]) -> State:
    """The replay: the one definition of the state a conversation has reached (folds.py
    keeps its past between turns, and must give the same state)."""
    replay = begin(context)
    turn = max(latest_user(messages), 0)
    for message in messages[:turn]:
        fold_past(replay, message)
    return fold_turn(replay, messages[turn:])
