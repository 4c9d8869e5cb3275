"""Slots of an edit to a cart line's extras: "add mushrooms to the pizza", "remove the gift
box", "actually no prosciutto", "hold the egg", "throw in the film presets", "sans emballage",
"玉ねぎ抜き".

The extras are what a line may hold several of: the options of a multiple-choice
customization group (toppings, proteins, formats) and the item's add-ons. Each clause of the
message ("add mushrooms but no olives") either adds what it names or, when it says to remove,
drop or go without, takes it away; a clause that says neither carries on the one before.
Single-choice groups (size, crust, seats) are `cart_edits.other_options`'s: a change of one is
a swap, never an addition.

Pure functions of the item (as `get_item` shows it), the line and the text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from commerce_agent.agent.language import gifting
from commerce_agent.agent.language.fuzzy import correct_words
from commerce_agent.agent.language.option_words import NOT_DECLINED, english_option_words
from commerce_agent.agent.language.swaps import find_swap
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.commerce.capability_ids import PRODUCT_ADDONS, PRODUCT_CATEGORIES

# Saying to take an extra away, in the three languages.
_TAKE_AWAY = re.compile(
    r"\b(?:remove|drop|delete|minus|skip|hold|without|no|not|nix|lose|ditch|cancel|"
    r"take\b.{0,30}\b(?:off|out|away)|get rid of|leave\b.{0,30}\b(?:off|out)|forget|"
    rf"sans{NOT_DECLINED}|pas de|pas d'|enleve[rz]?|retire[rz]?|supprime[rz]?|"
    r"don'?t (?:want|need|add|bother)|no need for|(?:pas|plus) besoin|no more)\b|"
    r"なし|無し|抜き|抜いて|いらない|要らない|不要|外して")
# Saying to add one, which ends a run of removals ("no olives, add nduja").
_PUT_ON = re.compile(r"\b(?:add|with|plus|extra|throw in|include|put|also|and some|"
                     r"ajoute[rz]?|avec|en plus)\b|追加|付けて|つけて|入れて")
_CLAUSE = re.compile(r"[,;.!?、。]|\b(?:but|instead|however|mais|plutot)\b")
# Words an edit uses besides the extra's own: they name no product.
EDIT_WORDS = frozenset("""
remove drop delete minus skip hold without nix lose ditch take off out away leave forget
extra extras add also too plus throw include put please side sides instead actually
sans enlever enlevez retirer retirez supprimer supprimez avec aussi
""".split())
# What a shopper says around an edit that names no product: hesitation, wanting and not,
# "after all", "anymore" ("wait, I don't want the coaster", "no chili oil after all",
# "finalement pas d'huile", "je ne veux plus le coffret").
_SAID_AROUND = frozenset("""
wait oops sorry after all dont don't doesnt not want need anymore longer after thought bother
changed change mind hmm well oh um actually really either thanks please keep just
pas plus ne veux voudrais besoin finalement enfait fait non merci oh bon euh attends
swap switch replace exchange substitute trade change for by of rather
te vous il sil plait svp stp kindly thank thanks
remplace remplacez remplacer echange par contre place lieu
""".split())
# French elided articles and pronouns: "d'huile", "l'ail", "n'en".
_ELISION = re.compile(r"\b(?:[ldjnmst]|qu)'(?=\w)")


def extras(item: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(group id or "", option or add-on id, name) of every extra the item offers."""
    found = [(str(group["id"]), choice.id, choice.words) for group in choices.groups(item)
             if group.get("selectionType") != "single"
             for choice in choices.option_choices(group)]
    found += [("", str(addon["id"]), str(addon.get("name", "")))
              for addon in choices.meta(item, PRODUCT_ADDONS).get("items", [])]
    return found


def _name_words(name: str) -> frozenset[str]:
    return frozenset(words.stem(word) for word in words.content_words(name)
                     if word not in choices.GENERIC_EXTRA_WORDS and len(word) > 2)


@lru_cache(maxsize=1024)
def _corrected(text: str, vocabulary: frozenset[str]) -> str:
    return correct_words(text, vocabulary, frozenset())


def named(item: dict[str, Any], text: str) -> list[tuple[str, bool]]:
    """(extra id, wanted) for each extra of the item the text names, in the text's order of
    clauses: wanted is False when its clause takes it away."""
    every = extras(item)
    vocabulary = frozenset(word for _, _, name in every for word in words.words(name)
                           if len(word) > 3 and word.isalpha())
    own = {words.stem(word) for word in words.content_words(str(item.get("name", "")))}
    names = {extra_id: mine for _, extra_id, name in every
             if (mine := _name_words(name) - own)}
    shared = {word: sum(word in mine for mine in names.values())
              for mine in names.values() for word in mine}
    found: list[tuple[str, bool]] = []
    wanted = True
    carded = _carded(item)
    for clause in _CLAUSE.split(_as_clauses(text)):
        if not clause.strip():
            continue
        if carded and gifting.asks_for_a_card(clause):
            # "add a card saying happy birthday": the add-on whose description holds a card
            found.append((carded, not _TAKE_AWAY.search(clause)))
        clause = gifting.plain(clause)  # "gift wrap it", 「包んで」: as add-ons are named
        if _TAKE_AWAY.search(clause):
            wanted = False
        elif _PUT_ON.search(clause):
            wanted = True
        said = {words.stem(word) for word in words.words(_corrected(clause, vocabulary))}
        said |= {words.stem(word) for word in english_option_words(clause)}
        for extra_id, mine in names.items():
            hits = {word for word in mine if any(_same(word, other) for other in said)}
            # half its words, or one that no other extra of the item has ("egg" is the
            # soft-boiled egg, "wrapping" the furoshiki gift wrap)
            if hits and (len(hits) * 2 >= len(mine) or any(shared[word] == 1 for word in hits)):
                found.append((extra_id, wanted))
    return found


def _carded(item: dict[str, Any]) -> str:
    """The id of the one add-on of the item whose description says it holds a card, or ""."""
    held = [str(addon["id"]) for addon in choices.meta(item, PRODUCT_ADDONS).get("items", [])
            if gifting.describes_a_card(addon)]
    return held[0] if len(held) == 1 else ""


def _as_clauses(text: str) -> str:
    """The text folded, with a swap said as what goes, then what comes ("swap the mushrooms
    for olives", "remplace les champignons par des olives", "きのこじゃなくてオリーブにして":
    "without mushrooms; with olives") and what is taken instead said as an addition ("no
    support, the preset pack instead")."""
    folded = words.fold(text)
    swap = find_swap(folded)
    if swap is not None:
        return f"without {swap.old}; with {swap.new}"
    folded = re.sub(r"([^,;.!?]+?)\s+instead\b(?!\s+of)", r" with \1", folded)
    return re.sub(r"\b(?:plutot|rather)\s+([^,;.!?]+)", r" with \1", folded)


def _same(word: str, said: str) -> bool:
    """A word of an extra's name as said, or said longer ("wrap", "wrapping")."""
    return said == word or (len(word) >= 4 and said.startswith(word))


def edit(item: dict[str, Any], line: dict[str, Any], text: str) -> dict[str, Any] | None:
    """{"customizations", "addOnIds"} of the line once the text's additions and removals are
    made, or None when it names no extra or changes nothing."""
    said = named(item, text)
    if not said:
        return None
    groups = {extra_id: group for group, extra_id, _ in extras(item)}
    customizations = {key: (list(value) if isinstance(value, list) else value)
                      for key, value in (line.get("customizations") or {}).items()}
    addons = [str(addon) for addon in line.get("addOnIds") or []]
    for extra_id, wanted in said:
        group = groups.get(extra_id, "")
        chosen = addons if not group else customizations.setdefault(group, [])
        if wanted and extra_id not in chosen:
            chosen.append(extra_id)
        elif not wanted and extra_id in chosen:
            chosen.remove(extra_id)
    customizations = {key: value for key, value in customizations.items() if value != []}
    if customizations == (line.get("customizations") or {}) and addons == list(
            line.get("addOnIds") or []):
        return None
    return {"customizations": customizations, "addOnIds": addons}


# A French compound said with its hyphen ("sous-verre"): read whole, in English.
_HYPHENATED = re.compile(r"\b[a-z]+(?:-[a-z]+)+\b")


def _in_english(match: re.Match[str]) -> str:
    return " ".join(sorted(english_option_words(match.group()))) or match.group()


def _kinds(item: dict[str, Any]) -> set[str]:
    """The words of the item's categories: "the salad" is the kale caesar, "the pizza" the
    margherita."""
    return {words.stem(word) for kind in choices.meta(item, PRODUCT_CATEGORIES).get("items", [])
            for word in words.content_words(str(kind.get("name", "")))}


def names_nothing_else(item: dict[str, Any], text: str, also: frozenset[str]) -> bool:
    """Whether the text's product words are all the item's extras' or name's (or `also`):
    "remove the gift box" is about the mug's add-on, "remove the mug and the plate" is not.
    The item may be named by its kind ("add chicken to the salad"), and the words said around
    an edit ("wait, I don't want…", "after all") name nothing."""
    mine = {words.stem(word) for _, _, name in extras(item) for word in words.words(name)}
    mine |= {words.stem(word) for word in words.content_words(str(item.get("name", "")))}
    mine |= _kinds(item)
    if _carded(item) and gifting.asks_for_a_card(text):
        text = re.sub(r"\b(?:greeting |gift |birthday |message )?card\b|\bnote\b|\bcarte\b|"
                      r"\bmot\b|メッセージ(?:カード)?|カード", " ", gifting.plain(text))
    folded = _HYPHENATED.sub(_in_english, _ELISION.sub("", words.fold(gifting.plain(text))))
    vocabulary = frozenset(word for _, _, name in extras(item) for word in words.words(name)
                           if len(word) > 3 and word.isalpha())
    rest = {words.stem(word) for word in words.content_words(_corrected(folded, vocabulary))
            if word not in EDIT_WORDS and word not in also and word not in _SAID_AROUND}
    left = rest - {words.stem(word) for word in also}
    # a word of the extra's name, said longer or in French or Japanese ("jambon": prosciutto)
    unknown = [word for word in left if not any(_same(own, said) for own in mine for said in (
        word, *map(words.stem, english_option_words(word))))]
    # one word of the shopper's own beside a word of an extra's name is their name for it
    # ("garlic bread" for the garlic focaccia, "chili sauce" for the chili oil)
    return not unknown or (len(unknown) == 1 and beside_an_extra(unknown[0], folded, item))


def only_its_own(item: dict[str, Any], text: str) -> bool:
    """Whether a piece said after the item's "with" list names only the item's extras or
    option values ("and anchovies" of the caesar, "et le coffret cadeau" of the mug), so it is
    more of the item; "and 2 san pellegrinos" names another item."""
    if named(item, text) and names_nothing_else(item, text, frozenset()):
        return True
    said = {words.stem(word) for word in words.content_words(text)
            - words.content_words(str(item.get("name", "")))}
    labels = {words.stem(word) for label in choices.option_labels(item)
              for word in words.content_words(label)}
    return bool(said) and said <= labels


def beside_an_extra(word: str, folded: str, item: dict[str, Any]) -> bool:
    """Whether `word` (stemmed) stands beside a word of one of the item's extras in the text
    ("garlic bread" beside the garlic focaccia's "garlic")."""
    said = [words.stem(token) for token in words.words(folded)]
    own = {words.stem(token) for _, _, name in extras(item) for token in words.words(name)
           if len(token) > 3}
    return any(token == word and any(said[at] in own for at in (i - 1, i + 1)
                                     if 0 <= at < len(said))
               for i, token in enumerate(said))


def asks_for_another(item: dict[str, Any], text: str) -> bool:
    """Whether the text counts the item itself ("add a margherita with mushrooms", "two more
    caesars with egg"): a new line, not an edit of the one in the cart ("add mushrooms to the
    margherita")."""
    named = "|".join(sorted(map(re.escape, words.content_words(str(item.get("name", "")))),
                            key=len, reverse=True))
    if not named:
        return False
    # ("a" but not the French "à la salade", folded to "a la salade")
    count = r"a(?!\s+(?:la|le|les|l'))|an|another|one|two|three|four|five|six|\d+|un|une|deux|trois"
    return re.search(rf"\b(?:{count})\s+(?:[\w'-]+\s+){{0,2}}(?:{named})", words.fold(text)) \
        is not None
