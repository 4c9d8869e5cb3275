"""What no store sells: the thing a short request names, that nothing in any catalog says.

The search reports the words of a query that no catalog says by stem, prefix or typo
(`unmatched`); what it found, it found by the other words. "red wine" found the kyusu by the
"red" of its red clay, but nothing is a wine: when the head noun of a short English request
(its last word) is one of those words and no found name says any word of the request, nothing
was found, and nothing else is offered or added in its place. A search that found nothing is
left to the agent's own readings (typos, names written by sound); a long request tells a story
whose last word need not be the thing; Japanese phrases have no spaces to place a head by.
French is left out: with its head read as the first word, it judged things the stores sell
unsold (the planter asked for by its French name), the worse of the two mistakes.

Declined: a qualifier no store says ("a *pepperoni* pizza") holding back the pizzas. The
search index holds no option or add-on names (« poulet », "focaccia", "big"), so such a word
is unmatched in ordinary requests for a configured item.
"""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.models.scripted import naming, words
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.planner import Planner

# Past this many words a request describes or tells a story; its last word need not be the thing.
_SHORT = 3
# Words that point at a thing already in view ("any idea when it'll arrive"): nothing new named.
_POINTING = frozenset({"it", "itll", "its", "thatll", "thats", "theyll", "theyre", "them"})


def unmatched(calls: list[Any], query: str) -> frozenset[str]:
    """The words of `query` no catalog says, as this turn's search for it reported them."""
    for call in calls:
        if call.name == "search_products" and call.args.get("query") == query and \
                isinstance(call.result, dict):
            return frozenset(words.stem(words.fold(str(word)))
                             for word in call.result.get("unmatched", ()))
    return frozenset()


def phrase_words(query: str) -> list[str]:
    """The query's words in their order, folded and singular, each once, no numbers (the
    query holds only product words already: a "book" it keeps is a thing)."""
    return list(dict.fromkeys(word for word in words.words(query)
                              if not any(ch.isdigit() for ch in word)))


def missing(query: str, missing_words: frozenset[str], found: list[dict[str, Any]],
            lang: str) -> bool:
    """Whether the thing a short request names is sold nowhere: its head noun is one of the
    words no catalog says, and no found name says any word of the request."""
    if not missing_words or not found or lang != "en" or words.re_japanese(query):
        return False
    said = phrase_words(query)
    if not said or len(said) > _SHORT or _POINTING & set(said):
        return False
    return said[-1] in missing_words and not any(
        naming.carried(item, frozenset(said)) for item in found)


def not_sold_text(p: Planner, query: str) -> str | None:
    """The reply when this turn's search for the request says no store sells the thing ("red
    wine": nothing, and nothing else in its place); None otherwise."""
    searched = p.searched(query)
    missing_words = unmatched(p.state.calls, searched)
    if not missing_words:
        return None
    call = p.state.done("search_products", query=searched)
    found = [item for item in (call.result.get("results", []) if call is not None and
                               isinstance(call.result, dict) else []) if isinstance(item, dict)]
    return say(p.lang, "not_found", query=query) if missing(
        searched, missing_words, found, p.lang) else None
