"""What every part of the policy shares: the state, the tool names, and finding what the
person refers to: an item ("it", "the second one", "the teapot"), a cart line, a store."""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language import fuzzy, quantities, readings
from commerce_agent.agent.language.category_words import (
    KINDS_IN_ENGLISH,
    by_use,
    in_english_categories,
)
from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.option_words import english_option_words
from commerce_agent.agent.language.reading import without_when
from commerce_agent.agent.language.request_frames import without_request_frame
from commerce_agent.agent.language.spoken_counts import MEASURE_NOUNS
from commerce_agent.agent.models.base import CallTool
from commerce_agent.agent.models.scripted import (
    choices,
    evidence,
    naming,
    option_change,
    topics,
    words,
)
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.naming import name_score
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.agent.models.scripted.state import (
    State,
    alias_score,
    of_the_kind,
    said_words,
)

Decision = CallTool | list[CallTool] | str
# Reads whose items come back in the shopper's language where their store translates them.
_LOCALIZED = frozenset({"search_products", "get_item", "get_catalog", "list_stores", "get_store"})
_POINTER = re.compile(r"(?:それ|これ|あれ|その|この|あの|そちら|こちら|同じ|もう|"
                      r"\d+|[一二三四五])\S{0,3}")
# A store named as where to look: "… from the pizza place", "from Midori-dō.", « chez Lumen »,
# and said first: "at Midori-dō, a teapot", « chez Midori-dō, ajoute une théière ». (A question
# ending on a store, "the cheapest thing at Trattoria Fiamma?", searches with its name.)
_STORE_PHRASE = re.compile(r"(?:^|\s)(?:at|from|in|chez)\s+(?:the\s+)?"
                           r"([a-z][\w&' -]{1,60}?)\s*[.!]*$")
_STORE_FIRST = re.compile(r"^\s*(?:at|from|chez)\s+(?:the\s+)?([a-z][\w&' -]{1,60}?)\s*,")


# A choice among the items shown, by what they are: "the one with…", « celui sur… »,
# 「…の方」「…のやつ」.
_AMONG_SHOWN = re.compile(r"\b(?:the|that) (?:[\w-]+ )?one\b|\b(?:celui|celle)s?\b|"
                          r"の(?:方|ほう|やつ)")
# Words that place a thing among others rather than describe it ("the other one", "the
# small one", "the cheaper one"): the stages of sizes, prices and swaps read them.
_RELATIVE = frozenset({"other", "same", "big", "bigger", "biggest", "small", "smaller",
                       "smallest", "large", "larger", "little", "cheaper", "pricier", "dearer",
                       "autre", "meme", "grand", "petit", "grande", "petite"})
# How many product words make a request a description rather than a name.
_DESCRIBING = 3

_PLACE = re.compile(r"\b(?:place|shop|store|restaurant|studio|spot|joint|bookshop|bookstore|"
                    r"boutique|magasin|librairie)\b")


def _without_counts(kept: list[str], text: str) -> list[str]:
    """The query's words without the counts `text` says: "a tea with toasted rice, 3 packs"
    wants three of a tea, and a search for "3" finds the "(3)" of the arancini instead."""
    counts = [str(said.value) for said in quantities.quantities(text) if said.relation == "set"]
    left = []
    for word in kept:
        if word in ("x", "×"):  # the tally mark of "1 x hojicha", "genmaicha ×3"
            continue
        if word in counts:
            counts.remove(word)
        else:
            left.append(word)
    return left


def _store_phrase(folded: str) -> re.Match[str] | None:
    return _STORE_PHRASE.search(folded) or _STORE_FIRST.search(folded)


def _written_in(name: str, text: str) -> int:
    """1 when `text` holds the first word of a name written without spaces between its words
    (「緑堂 茶と紙」 named as 緑堂), which content words do not split out."""
    head = name.split()[0] if name.split() else ""
    return int(bool(words.re_japanese(head)) and len(head) > 1 and head in text)


class Planner:
    def __init__(self, state: State, tools: dict[str, str]) -> None:
        self.state = state
        self.tools = tools
        self.frame = state.frame or Frame("other", ("",))
        # What the reply established, for structured output.
        self.extra: dict[str, Any] = {}
        self.lang = state.language

    def call(self, name: str, **args: Any) -> CallTool:
        if name in _LOCALIZED and self.lang != "en":
            args["locale"] = self.lang  # names and descriptions in the shopper's language
        return CallTool(self.tools.get(name, name), args)

    def has(self, name: str) -> bool:
        return name in self.tools

    # -- items ----------------------------------------------------------------------------

    def item(self, item_id: str | None) -> dict[str, Any] | None:
        return self.state.items.get(item_id or "")

    def query(self, text: str | None = None) -> str:
        """The product words of a request: no filler, prices or store phrase."""
        source = text if text is not None else self.frame.first
        source = without_when(source)  # "on 13 March at 2pm", "3月13日14時の": no product words
        if self.lang == "fr":  # « Envoyez-moi », « Il me faudrait », « Ce serait pour »
            source = without_request_frame(source)
        source = words.without_false_friends(source)  # "du thé": tea, not "the"
        if read_act(source).kind == "question" or self.frame.intent == "details":
            # "il pèse combien ?", "大きさを教えて": a topic's words name no product
            source = topics.without_topic(source, ("allergens",) if self.frame.intent ==
                                          "search" else ())
        if by_use(words.fold(source)) != words.fold(source):  # "something to read": books
            source = by_use(words.fold(source))
        if self.lang in ("fr", "ja"):  # "de la vaisselle", "茶道具": the catalogs' Tableware
            source = in_english_categories(source)
        if in_japanese_script(source):
            return words.japanese_query(words.strip_prices(source))[:200]
        plain = words.without_price_order(words.strip_prices(choices.without_declined(source)))
        plain = words.without_sizes(plain)  # "the 30 cl kyusu": the name says "300 ml"
        if self.store_phrase(plain):
            plain = _STORE_FIRST.sub(" ", _STORE_PHRASE.sub(" ", words.fold(plain)))
        plain = re.sub(r"-(?:en|le|la|les|moi|y|nous|vous|lui)\b", " ", plain)  # "ajoutez-en"
        plain = words.without_elision(plain)  # "l'assiette", "d'encre": the noun
        said = re.findall(r"[\w'-]+", plain)
        kept = [word for before, word in zip(["", *said], said, strict=False)
                if not words.is_stop(word.replace("'", ""), before)
                and not words.french_verb(word)]
        if words.for_whom(plain):  # "a gift for a tea lover": tea
            kept = words.without_the_recipient(kept)
        return " ".join(_without_counts(kept, plain))[:200]

    def resolve_item(self) -> dict[str, Any] | None:
        """The item the frame is about: settled, named, pointed at by position, or in focus."""
        state, frame = self.state, self.frame
        if frame.item_id:
            return self.item(frame.item_id)
        for text in reversed(frame.texts):
            ranked = self.by_price(text)
            if ranked:  # "the cheapest one": of what was shown, by price
                return ranked[0]
        for text in reversed(frame.texts):
            position = words.ordinal(text)
            if position is not None and state.results:
                if -len(state.results) <= position < len(state.results):
                    return state.results[position]
        if len(state.results) == 2 and words.the_other_one(frame.last):
            # "not that one, the other one": of two shown, the one not in focus
            others = [item for item in state.results if item["itemId"] != state.focus]
            return others[0] if len(others) == 1 else state.results[1]
        wanted = frozenset().union(*(words.content_words(self.query(t)) for t in frame.texts))
        focus = self.item(state.focus)
        if not wanted and self._names_something_else(focus):
            return None  # "和紙ノートをカートに入れて" with the genmaicha in view: search for it
        if not wanted:
            return focus
        known = [*state.results, *(i for k, i in state.items.items()
                                   if all(r["itemId"] != k for r in state.results))]
        named = self._without_options_of(focus, wanted)
        if not named and focus is not None:
            return focus  # "ajoutez-le, qualité cérémonie": only options of the item in view
        scored = [(name_score(item, named), item) for item in known]
        best = max((score for score, _ in scored), default=0)
        if best < len(named) and state.done("search_products") is not None:
            if self.read_in_languages(self.query()) is not None:
                return None  # a name says only some words: the other languages may say all
            said_most = self.by_evidence(self.found_this_turn(), self.query())
            if said_most is not None:  # its other languages say more words than any name
                return state.items.setdefault(str(said_most["itemId"]), said_most)
        if best > 0 and best * 2 >= len(named):  # a weaker match is a new request: search
            top = [item for score, item in scored if score == best]
            top = self.by_measure(top) or top
            headed = [item for item in top if naming.head_named(item, wanted, self.lang)]
            if not headed and any(naming.is_option_word(word, self.lang) for word in wanted) \
                    and self.search_step(self.query()) is not None:
                return None  # only its modifiers are said ("matcha cérémonie"): search on
            top = headed or top
            if best < len(wanted) and state.done("search_products") is None and not any(
                    self._names_an_option(item, wanted - words.content_words(str(item["name"])))
                    for item in top):
                # "a classic mug" with the glaze mug in view: a search tells; "the one about
                # sourdough bread" points among those shown: the one they describe best
                return self.described_among_shown(wanted)
            if focus is not None and any(i["itemId"] == focus["itemId"] for i in top):
                return focus
            return top[0]
        if focus is not None and self._names_an_option(focus, wanted):
            return focus
        pointed = self.described_among_shown(wanted)
        if pointed is not None:  # "the one with the side handle": of those shown
            return pointed
        if focus is not None and not words.content_words(self.query(frame.first)):
            # "add it" / "yes", then "the blue one in 12 oz": the item shown, with options.
            return focus
        return None

    def described_among_shown(self, wanted: frozenset[str]) -> dict[str, Any] | None:
        """The one item shown that the words describe best ("the one with the side handle",
        « celui sur le pain au levain », 「赤い土の方」), its name and description read, when
        the request points among those shown and says no option value; None otherwise."""
        shown = self.state.results
        wanted = wanted - _RELATIVE
        if len(shown) < 2 or not wanted or not _AMONG_SHOWN.search(words.fold(
                self.frame.last)) or any(self._names_an_option(item, wanted) for item in shown):
            return None
        def says(item: dict[str, Any]) -> int:  # as written or as a word's start, no typo
            known = words.content_words(
                f"{item.get('name', '')} {item.get('description', '')}".replace("-", " "))
            return sum(1 for word in wanted if word in known or len(word) >= 4 and any(
                other.startswith(word) for other in known))

        scored = sorted(((says(item), -position) for position, item in enumerate(shown)),
                        reverse=True)
        (top, position), (second, _) = scored[0], scored[1]
        return shown[-position] if top > second else None

    def focus_options_step(self) -> CallTool | None:
        """The details of the item in view, read before a search when the request says an
        option value no shown name carries ("the ceremonial 30 g one" with the matcha in
        view): the item's own variants may be what it means, not another item's name."""
        state = self.state
        focus = self.item(state.focus)
        if focus is None or focus["itemId"] in state.details or state.done(
                "get_item", itemId=focus["itemId"]) is not None:
            return None
        wanted = naming.wanted(self.query())
        options = frozenset(word for word in wanted if naming.is_option_word(word, self.lang))
        if not options or not naming.carried(focus, wanted - options) >= wanted - options:
            return None  # no option said, or another thing named too (« et des mugs ? … bleu »)
        known = [*state.results, *state.items.values()]
        if naming.any_named(known, options):
            return None
        return self.call("get_item", itemId=focus["itemId"])

    def _without_options_of(self, focus: dict[str, Any] | None,
                            wanted: frozenset[str]) -> frozenset[str]:
        """The wanted words less those that name an option of the item in view, in any
        language ("cérémonie" is its Ceremonial grade, not the tea ceremony workshop)."""
        if focus is None:
            return wanted
        return frozenset(word for word in wanted
                         if not english_option_words(word)
                         and not self._names_an_option(focus, frozenset({word})))

    def _names_something_else(self, focus: dict[str, Any] | None) -> bool:
        """A Japanese request names a product (not "それ", not one of the focus's options)
        the item in view may not be: the catalog's names are English, so only a search can
        tell (it finds the item in view again when that is the one)."""
        frame = self.frame
        if focus is None or frame.item_id or len(frame.texts) > 1:
            return False
        phrases = [part for part in self.query(frame.first).split()  # no topic words
                   if not _POINTER.fullmatch(part)]
        if not phrases or not words.re_japanese(frame.first):
            return False
        if all(english_option_words(phrase) for phrase in phrases):
            return False  # "青の12ozを1つ": an option of the item in view, in Japanese
        said = choices.said_words(frame.texts)
        return not self._names_an_option(focus, frozenset(said))

    def _names_an_option(self, item: dict[str, Any], wanted: frozenset[str]) -> bool:
        return any(choices.matches(label, set(wanted)) for label in choices.option_labels(
            item)) or option_change.names_a_size(item, " ".join(sorted(wanted)))

    def by_price(self, text: str) -> list[dict[str, Any]]:
        """The results shown, cheapest (or dearest) first when `text` asks for that and names
        nothing the results are not ("the cheapest one", "the least expensive mug"); a
        variant's price counts as its item's."""
        order = words.price_order(text).get("sort")
        results = self.state.results
        if not order or not results:
            return []
        # "the cheapest mug": of the mugs shown (none shown: a new search); "the cheapest
        # one": of those in one currency
        wanted = words.content_words(self.query(text))
        if wanted and not any(name_score(item, wanted) > 0 for item in results):
            return []
        results = of_the_kind(results, self.query(text))
        dearest = order == "price_desc"
        pick = max if dearest else min
        return sorted(results, key=lambda item: pick(choices.prices(item)), reverse=dearest)

    def sold_out_asked(self) -> dict[str, Any] | None:
        """The sold-out item this turn's search found for the request, when nothing in
        stock fits its words as well."""
        if self.state.sold_out and self.state.done("search_products") is not None:
            return self.state.sold_out[0]
        return None

    def alternatives(self, item: dict[str, Any]) -> list[dict[str, Any]]:
        """What this turn's search found in stock besides `item`, to offer in its place."""
        if self.state.done("search_products") is None:
            return []
        return [other for other in self.state.results if other["itemId"] != item["itemId"]]

    def searched(self, query: str) -> str:
        """The words a search for `query` is made with: in French without its colour and size
        adjectives ("un grand mug bleu": the search is for the mug)."""
        return " ".join(words.without_looks(query.split())) if self.lang == "fr" else query

    def search_step(self, query: str) -> list[CallTool] | CallTool | None:
        """The next search call for `query` (in the store named or chosen, then everywhere
        when that store has nothing by that name), or None once the results are in."""
        state = self.state
        query = self.searched(query)
        if self.has_store_phrase(self.frame.first) and self.needs_stores():
            return self.call("list_stores")
        named = self.mentioned_store()
        first = state.done("search_products")
        bounds: dict[str, str] = {**words.price_bounds(self.frame.first),
                                  **words.price_order(self.frame.first)}
        currency = words.price_currency(self.frame.first)
        if currency and ("maxPrice" in bounds or "minPrice" in bounds):
            # "under 1000 yen" bounds yen prices: the search keeps the best matches among them
            bounds["currency"] = currency
        if first is None:
            store = named or state.store
            return self.call("search_products", query=query, limit=8, availableOnly=False,
                             **bounds, **({"storeId": store} if store else {}))
        wanted = naming.wanted(query)
        found = naming.any_named((*state.results, *state.sold_out), wanted) or \
            self.described(state.results, query) is not None
        searches = [call for call in state.calls if call.name == "search_products"]
        if first.args.get("storeId") and not named and not found and len(searches) == 1:
            return self.call("search_products", query=query, limit=8, availableOnly=False,
                             **bounds)
        # Found, but only by modifiers and option values ("matcha cérémonie" found only the
        # tea-ceremony workshop): the thing itself is searched for, without the option words.
        headed = any(naming.head_named(item, wanted, self.lang)
                     for item in (*state.results, *state.sold_out))
        plain = " ".join(word for word in query.split()
                         if not naming.is_option_word(words.fold(word), self.lang))
        scope = {"storeId": first.args["storeId"]} if first.args.get("storeId") else {}
        if found and not headed and plain and plain != query and all(
                call.args.get("query") != plain for call in searches):
            return self.call("search_products", query=plain, limit=8, availableOnly=False,
                             **bounds, **scope)
        head = self._head_word(query)
        if not found and head and any(call.args.get("query") == head for call in searches):
            # "is the lasagna gluten free?": a question names the thing first, then asks
            head = self._head_word(query, first=True)
        if not found and head and all(call.args.get("query") != head for call in searches):
            # "coffee cup" found only a dripper described with both words: the thing named is
            # the head noun ("cup"), searched on its own once
            scope = {"storeId": first.args["storeId"]} if first.args.get("storeId") else {}
            return self.call("search_products", query=head, limit=8, availableOnly=False,
                             **bounds, **scope)
        if not state.results and words.re_japanese(query):
            # "茶道ワークショップ": the compound's parts, searched apart once; "きゅうす", "ノト":
            # the same word in the other kana, or with its long vowels as the catalog writes
            # them, searched once each; a kanji compound by its head (常滑急須: 急須)
            scope = {"storeId": first.args["storeId"]} if first.args.get("storeId") else {}
            for spelling in (naming.compound_parts(query), *words.kana_spellings(query),
                             *(tail for phrase in query.split()
                               for tail in naming.head_parts(phrase)),
                             *(head for phrase in query.split()
                               for head in naming.kanji_heads(phrase))):
                if spelling == query:
                    continue
                if all(call.args.get("query") != spelling for call in searches):
                    return self.call("search_products", query=spelling, limit=8,
                                     availableOnly=False, **bounds, **scope)
        if not state.sold_out and not state.results:
            return self._read_in_catalog(query, first.args.get("storeId"), bounds, typos=True)
        if not state.sold_out and not found:
            # found only things the words do not name ("わし のと" found a pizza by a stray
            # kana): the catalog is read by sound, of the store shopped at, else of every store
            return self._read_in_catalog(query, first.args.get("storeId") or state.store or "",
                                         bounds)
        return self.read_in_languages(query)

    def read_in_languages(self, query: str) -> list[CallTool] | None:
        """The found items' catalogs in the store's other languages, read in one round, when
        the best of them does not say every word of the request in the shopper's language
        (a "hojicha" named so only in French): their evidence is then every language's."""
        found = self.found_this_turn()
        plain = self.plain_words(query)
        if not found or not plain or not self.has("get_catalog") or all(
                naming.carried(item, plain) == plain for item in found[:1]):
            return None
        if 2 * evidence.of_texts(evidence.texts_of(found[0], ())).score(plain)[0] >= len(plain):
            # its own language already says half the words or more ("a ceramic mug" of a
            # glaze mug): two more catalogs read on every such search would buy little
            return None
        if not any(evidence.of_texts(evidence.texts_of(item, ())).score(plain)[0]
                   for item in found):
            return None  # nothing found says any word here: the search matched elsewhere
        read = {(call.args.get("catalogId"), call.args.get("locale", "en"))
                for call in self.state.calls if call.name == "get_catalog"}
        wanted = dict.fromkeys((str(item["catalogId"]), language) for item in found
                               if item.get("catalogId") for language in evidence.LANGUAGES
                               if language != self.lang)
        return [CallTool(self.tools["get_catalog"], {"catalogId": catalog, "locale": language})
                for catalog, language in wanted if (catalog, language) not in read] or None

    def found_this_turn(self) -> list[dict[str, Any]]:
        """Every item this turn's searches returned, as returned (before the state kept only
        those whose names in the shopper's language fit the words), first found first."""
        found: dict[str, dict[str, Any]] = {}
        for call in self.state.calls:
            if call.name == "search_products" and isinstance(call.result, dict):
                for item in call.result.get("results", []):
                    if isinstance(item, dict) and item.get("itemId"):
                        found.setdefault(str(item["itemId"]), item)
        return list(found.values())

    def plain_words(self, query: str) -> frozenset[str]:
        """The words of a request that must name the thing: no option value, no pack."""
        return frozenset(word for word in naming.wanted(query)
                         if not naming.is_option_word(word, self.lang)
                         and word not in MEASURE_NOUNS)

    def evidence_of(self, item: dict[str, Any]) -> evidence.Evidence | None:
        """The item's evidence in every language, once its catalogs were read in them this
        turn; None before."""
        catalogs = [call.result for call in self.state.calls if call.name == "get_catalog"
                    and call.args.get("catalogId") == item.get("catalogId")
                    and isinstance(call.result, dict)]
        if not catalogs:
            return None
        return evidence.of_texts(evidence.texts_of(item, catalogs))

    def by_evidence(self, items: list[dict[str, Any]], query: str) -> dict[str, Any] | None:
        """The one item that says more of the request's words than any other, in any of its
        languages, more than half of them and one at least in a name (names count apart: the
        more a name says, the better; a word only a description says, 配送 of "not shipped",
        chooses nothing); None on a tie, on a weaker match, or before the catalogs were
        read."""
        plain = self.plain_words(query)
        scored = [(known.score(plain), item) for item in items
                  if (known := self.evidence_of(item)) is not None]
        if not scored or not plain:
            return None
        top = max(score for score, _ in scored)
        best = [item for score, item in scored if score == top]
        return best[0] if len(best) == 1 and 2 * top[0] > len(plain) and top[1] else None

    def described(self, items: list[dict[str, Any]], query: str) -> dict[str, Any] | None:
        """The one item whose data (name, description, categories) says more of a described
        request's words than any other, two at least: "a tea with toasted rice" is the
        genmaicha, whose description says so though its name does not. Two words name a thing
        ("coffee cup": a cup, not the dripper described with both); three or more describe."""
        plain = self.plain_words(query)
        if len(plain) < _DESCRIBING or not items:
            return None
        scored = sorted(((sum(naming.describes(item, word) for word in plain), -position)
                         for position, item in enumerate(items)), reverse=True)
        top, position = scored[0]
        if top < 2 or (len(scored) > 1 and scored[1][0] == top):
            return None
        return items[-position]

    def _read_in_catalog(self, query: str, store: str | None, bounds: dict[str, str],
                         typos: bool = False) -> list[CallTool] | CallTool | None:
        """A name written by its sound that no search found (げんまいちゃ for 玄米茶, ゔぃんやさ,
        diavola), or, with `typos` when nothing at all was found, mistyped beyond the search's
        own correction ("gyokru"): the catalogs of the store in view (of every store when none
        is) are read in one round, and the item their names say so is searched for by its own
        name, once."""
        # Latin words from a Japanese shopper are romaji; from others, only a word of five
        # letters or more that found nothing at all may be a name mistyped
        phrases = [phrase for phrase in query.split() if readings.is_kana(phrase) or (
            self.lang == "ja" and phrase.isascii() and phrase.isalpha()
            and phrase not in KINDS_IN_ENGLISH) or (  # 本 read as "books" is no romaji
            typos and self.lang != "ja" and phrase.isalpha())]
        # a kanji spelling no search knows (焙じ茶 for ほうじ茶): read by its sound too
        phrases += [sound for phrase in query.split()
                    if (sound := readings.sounded(phrase)) and sound not in phrases]
        store = self.current_store() if store is None else store or None
        if not phrases or not self.has("get_catalog"):
            return None
        if self.needs_stores():
            return self.call("list_stores")
        wanted = [catalog_id for entry in self.state.stores or []
                  if store is None or entry.get("storeId") == store
                  for catalog_id in entry.get("catalogIds", [])]
        read = {call.args.get("catalogId"): call.result for call in self.state.calls
                if call.name == "get_catalog"}
        unread = [catalog_id for catalog_id in wanted if catalog_id not in read]
        if unread:
            return [self.call("get_catalog", catalogId=catalog_id) for catalog_id in unread]
        items = [{**item, "storeId": result.get("storeId")}
                 for result in (read[catalog_id] for catalog_id in wanted)
                 if isinstance(result, dict) for item in result.get("items", [])]
        named = readings.names_in(items, phrases) if self.lang == "ja" or any(
            readings.is_kana(phrase) for phrase in phrases) else []
        if not named and typos:
            counts = fuzzy.names_like((str(item.get("name", "")) for item in items), phrases)
            top = max(counts, default=0)
            if top and top == len(phrases):  # every word a name's, not one of a description
                named = [item for item, count in zip(items, counts, strict=True)
                         if top and count == top]
        searches = [call.args.get("query") for call in self.state.calls
                    if call.name == "search_products"]
        if not named or str(named[0].get("name")) in searches:
            return None
        return self.call("search_products", query=str(named[0]["name"]), limit=8,
                         availableOnly=False, storeId=str(named[0]["storeId"]), **bounds)

    def _head_word(self, query: str, first: bool = False) -> str | None:
        """The word of an English query of several that names the thing (the last, or with
        `first` the first); None for one word, or in French and Japanese, whose words the
        English names cannot show."""
        said = [word for word in query.split() if words.content_words(word)
                and words.stem(words.fold(word)) not in MEASURE_NOUNS]  # "a bag of"
        return said[0 if first else -1] if len(said) > 1 and self.lang == "en" else None

    def top_matches(self) -> list[dict[str, Any]]:
        """The best search results when several tie for the request's words."""
        results = self.state.results
        wanted = naming.wanted(self.query())
        if not results:
            return []
        best = name_score(results[0], wanted)
        said_most = self.by_evidence(results, self.query())
        if said_most is not None:  # "matcha whisk": the « fouet à matcha », not the workshop
            return [said_most]
        described = self.described(results, self.query())
        if described is not None and not naming.any_named(results, wanted):
            # "a tea with toasted rice": no name says a word of it, a description all of them
            return [described]
        tied = naming.best(results, wanted, self.mentioned_store() or self.current_store(),
                           naming.japanese_head(self.query()), self.lang)
        sized = self.by_measure(tied)
        if len(sized) == 1:  # "the 70cl teapot": the teapot whose name says 700 ml
            return sized
        if best == 0 or len(wanted) == 1:
            return results[:1]
        return tied[:1] if len(tied) == 1 else tied

    def by_measure(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The items whose names carry the size the request names, in any unit."""
        return [item for item in items if any(option_change.same_measure(
            text, str(item.get("name", ""))) for text in self.frame.texts)]

    # -- stores ---------------------------------------------------------------------------

    def has_store_phrase(self, text: str) -> bool:
        return _store_phrase(words.fold(text)) is not None

    def store_phrase(self, text: str) -> bool:
        match = _store_phrase(words.fold(text))
        return bool(match and self._store_in_phrase(match.group(1)))

    def _store_in_phrase(self, text: str) -> str | None:
        """The store a phrase of place names: by its name, else by what only its description
        says ("the pizza place": the one store whose description says pizza)."""
        named = self._store_named(text)
        if named is not None and self._beyond_the_name(text, named):
            return None  # "enrol me in (the) folio unlimited (plan)": an item bearing its name
        if named is not None or not _PLACE.search(text):
            return named  # "in blue", "from scratch": no place, whatever a description says
        wanted = words.content_words(_PLACE.sub(" ", text))
        fits = [str(store["storeId"]) for store in self.state.stores or []
                if wanted & words.content_words(str(store.get("description", "")))]
        return fits[0] if len(fits) == 1 else None

    def _beyond_the_name(self, text: str, store_id: str) -> frozenset[str]:
        """The words of a phrase that the store's own name does not hold, nor a word of place
        (its city, said in its description: "at trattoria fiamma chicago")."""
        store = next((s for s in self.state.stores or [] if s.get("storeId") == store_id), {})
        name = words.content_words(" ".join(str(store.get(key, "")) for key in (
            "name", "storeId", "ownName", "description")).replace("store_", " "))
        return words.content_words(_PLACE.sub(" ", text)) - name

    def _store_named(self, text: str, described: bool = False) -> str | None:
        """The store whose name (or, with `described`, description) the words fit best."""
        wanted = words.content_words(text)
        if not wanted and not words.re_japanese(text):
            return None
        best, found = 0, None
        for store in self.state.stores or []:
            name = words.content_words(str(store.get("name", ""))) | words.content_words(
                str(store.get("storeId", "")).removeprefix("store_")) | words.content_words(
                str(store.get("ownName", "")))  # the name as written, in any language
            about = words.content_words(str(store.get("description", "")))
            score = 3 * len(wanted & name) + (len(wanted & about) if described else 0) + \
                3 * _written_in(str(store.get("name", "")), text)
            if score > best:
                best, found = score, str(store["storeId"])
        return found

    def store_named(self, text: str) -> str | None:
        """The store whose name the words say ("the trattoria's hours"), once stores are known."""
        return self._store_named(words.fold(text))

    def store_of_item_named(self, text: str, store: str) -> CallTool | str | None:
        """The store of the item whose name holds the store words said, when the words name
        more of that item than of the store ("does the studio seconds box ship to Ireland?":
        Hearth & Kiln's box, not Lumen Studio); a search first to know the items; None when
        the words name the store itself."""
        said = naming.wanted(self.query(text))
        listed = next((s for s in self.state.stores or [] if s.get("storeId") == store), {})
        own = said & (words.content_words(str(listed.get("name", ""))) |
                      words.content_words(store.removeprefix("store_")))
        if not own or not said - own or not self.has("search_products"):
            return None
        if self.state.done("search_products") is None:
            return self.call("search_products", query=self.query(text), limit=8,
                             availableOnly=False)
        top = naming.best(self.state.results, said)
        carried = naming.carried(top[0], said) if len(top) == 1 else frozenset()
        # the item's own name holds the store words, or names the thing more fully than the
        # store's name does ("pick up a classic mug at your Portland studio": the mug's store)
        if own < carried or len(carried - own) > len(own):
            return str(top[0].get("storeId"))
        return None

    def store_described(self, text: str) -> str | None:
        """The store whose name or description the words fit ("the ceramics shop")."""
        return self._store_named(words.fold(text), described=True)

    def mentioned_store(self) -> str | None:
        """The store the frame's words name, once the stores are known."""
        for text in reversed(self.frame.texts):
            folded = words.fold(text)
            match = _store_phrase(folded)
            found = self._store_in_phrase(match.group(1)) if match else None
            if found is None and self.frame.intent in ("switch", "discounts", "other",
                                                       "checkout", "empty", "promotion"):
                found = self._store_named(folded, described=self.frame.intent != "checkout")
            if found:
                return found
        return None

    def needs_stores(self) -> bool:
        return self.state.stores is None and self.has("list_stores")

    def current_store(self) -> str | None:
        state = self.state
        if state.store:
            return state.store
        focus = self.item(state.focus)
        if focus and focus.get("storeId"):
            return str(focus["storeId"])
        return state.cart_stores[-1] if state.cart_stores else None

    # -- cart lines -----------------------------------------------------------------------

    def _names_an_item_elsewhere(self, wanted: frozenset[str],
                                 candidates: list[tuple[dict[str, Any], dict[str, Any]]]) -> bool:
        """Whether the words name an item seen in this conversation that no cart line holds:
        an edit of "the bowl" is then about no line, never the one last added."""
        in_cart = {str(line["itemId"]) for _, line in candidates}
        # (a line of it taken away earlier may be the one this edit already removed)
        had = set(self.state.line_names.values())
        return any(name_score(item, wanted) or alias_score(
            self.state.aliases.get(item_id, frozenset()), wanted)
            for item_id, item in self.state.items.items()
            if item_id not in in_cart and str(item.get("name", "")) not in had)

    def resolve_line(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """(cart, line) the frame names, or the line last added or changed."""
        state = self.state
        wanted = frozenset().union(*(said_words(self.query(t)) for t in self.frame.texts))
        if not wanted and self.frame.intent == "remove":
            # "skip the bowl", "no more mugs": what the removal declines is the line meant
            wanted = said_words(" ".join(choices.declined_words(self.frame.texts)))
        candidates = [(cart, line) for cart in state.open_carts() for line in cart["items"]]
        if not candidates:
            return None
        if wanted:
            def score(line: dict[str, Any]) -> int:
                item = self.item(line["itemId"]) or {}
                label = next((c.words for c in choices.variant_choices(item)
                              if c.id == line.get("variantId")), "")
                return (name_score(line, wanted) + len(wanted & words.content_words(label))
                        + alias_score(state.aliases.get(str(line["itemId"]), frozenset()),
                                      wanted))
            scored = [(score(line), cart, line) for cart, line in candidates]
            best = max(entry[0] for entry in scored)
            top = [(cart, line) for value, cart, line in scored if value == best]
            if best > 0 and len(top) == 1:
                return top[0]
            if best > 0:
                candidates = top
            elif self.frame.intent == "remove" and self._names_an_item_elsewhere(
                    wanted, candidates):
                return None  # "skip the bowl" with only plates in the cart: no line is meant
        for cart, line in candidates:
            if line["cartItemId"] == state.last_line:
                return cart, line
        return candidates[0] if len(candidates) == 1 else None
