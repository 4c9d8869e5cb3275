"""An item's options and the person's pick among them: variants, customizations, add-ons and
time slots, matched by their words ("the blue 16 oz", "12-inch", "Monday at 6:30pm")."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from babel.dates import format_datetime

from commerce_agent.agent.language import gifting, quantities
from commerce_agent.agent.language.dates import TimesNamed, times_named
from commerce_agent.agent.language.option_words import NOT_DECLINED, english_option_words
from commerce_agent.agent.language.reading import read
from commerce_agent.agent.models.scripted import words
from commerce_agent.commerce.capability_ids import PRODUCT_ADDONS as ADDONS
from commerce_agent.commerce.capability_ids import PRODUCT_CUSTOMIZATION as CUSTOMIZATION
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.orders.model import SCHEDULING
from commerce_agent.operations.base import money_text

SLOTS_OFFERED = 4


@dataclass(frozen=True)
class Choice:
    id: str
    label: str
    words: str  # the text its words are matched against
    available: bool = True
    nearest: bool = False  # a time slot nearest the time named, none being at that time


def meta(item: dict[str, Any], key: str) -> dict[str, Any]:
    found = (item.get("metadata") or {}).get(key)
    return found if isinstance(found, dict) else {}


def matches(label: str, said: set[str]) -> bool:
    """A value matches when every number in it was said (12 oz ≠ 16 oz) and, for a value
    without numbers, when one of its own words was."""
    mine = [word for word in words.words(label) if word not in ("and", "the", "with")]
    numbers = [word for word in mine if word.isdigit()]
    if numbers:
        return all(number in said for number in numbers)
    named = [word for word in mine if word not in words.STOP]
    return any(word in said for word in named)


# What the shopper declines is not chosen: "no gift box", "without the gift wrap", "sans
# emballage", "ギフト包装なし".
_DECLINED = re.compile(r"\b(?:no|without|minus|skip|hold|not|sans|pas de|pas d'|pas la|pas le|"
                       # ("no but add 2 plates", « non mais … »: a no to the offer, then a
                       # request; nothing of it is declined)
                       rf"pas les|aucun|aucune){NOT_DECLINED}"
                       r"(?!\s+(?:but|and|then|thanks|thank|mais|et|merci)\b)\s+(?:the |a |an |"
                       r"any |le |la |les |l'|d'|de )?[\w' -]+?(?=[,.;!?]|$|\s(?:and|but|et|mais|"
                       r"please|thanks|s'il)\b)|[^\s、。,]+(?:なし|無し|抜き|不要|いらない|(?:じゃ|では)(?:ない|なく))")


_ONE_OF = re.compile(r"\b(?:one|single)\s+(?!more|of|other|too|please|last|for|and|or|in|on|"
                    r"with|to|that|this|then|now|instead|is|will)[a-z]{3,}")


def _unnamed(text: str, name: str) -> str:
    """`text` folded, without the pairs of words it shares with the item's name: "Aurelia
    Sans" names a font, it declines nothing."""
    folded = words.fold(text)
    named = re.findall(r"[a-z0-9]+", words.fold(name))  # as written: "sans", not its stem
    for first, second in zip(named, named[1:], strict=False):
        folded = re.sub(rf"\b{re.escape(first)}\s+{re.escape(second)}\b", " ", folded)
    return folded


def declined_words(texts: tuple[str, ...], name: str = "") -> set[str]:
    """The words of what the person declines ("not the 12 oz" → {"12", "oz"})."""
    found: set[str] = set()
    for text in texts:
        for match in _DECLINED.finditer(_unnamed(text, name)):
            found |= set(words.words(match.group())) | set(re.findall(r"\d+", match.group()))
            # « pas le bleu », 「青じゃない」: the catalog's English words for the option too
            found |= set(english_option_words(match.group()))
    return found - {"no", "without", "minus", "skip", "hold", "not", "sans", "pas", "de", "the"}


def without_name(text: str, name: str) -> str:
    """`text` folded, without the words of the item's name ("a large Large Serving Bowl" says
    "large" once, as a size)."""
    named = set(words.words(name))
    return " ".join(word for word in re.findall(r"[\w'-]+", words.fold(text))
                    if word not in named)


def without_declined(text: str) -> str:
    """`text` folded, without what it declines ("the kyusu, no gift wrap" → "the kyusu, ")."""
    return _DECLINED.sub(" ", words.fold(text))


def said_words(texts: tuple[str, ...], name: str = "") -> set[str]:
    # Numbers stand alone too: "30g" and "お点前用の30g" say 30.
    # French and Japanese option words as the catalog's English values say them ("bleu").
    # Number words stand for their digits ("five seats" says 5, "twenty seats" 20), as the
    # quantities stage reads them; "one" aside ("the blue one").
    carded = {"@card" for text in texts if gifting.asks_for_a_card(text)}
    texts = tuple(_DECLINED.sub(" ", _unnamed(gifting.plain(text), name)) for text in texts)
    said = carded | {word for text in texts for word in words.words(text)}
    return said | {
        number for text in texts for number in re.findall(r"\d+", words.fold(text))} | {
        form for text in texts for word in english_option_words(text)
        for form in (word, words.stem(word))} | {
        number for text in texts for number in quantities.numbers_said(text)
        if number != "1"} | {
        # "one seat", "a single user" say 1; "the blue one", "one more" do not
        "1" for text in texts if _ONE_OF.search(text)}


# -- variants ----------------------------------------------------------------------------

def variant_choices(item: dict[str, Any]) -> list[Choice]:
    currency = (item.get("price") or {}).get("currency", "")
    found = []
    for variant in meta(item, VARIANTS).get("variants", []):
        values = ", ".join(str(value) for value in variant.get("values", []))
        price = money_text(variant.get("price") or item.get("price") or {"amount": "",
                                                                             "currency": currency})
        found.append(Choice(str(variant["id"]), f"{values} ({price})", values,
                            variant.get("stock") != 0 and variant.get("available", True)
                            is not False))
    return found


def prices(item: dict[str, Any]) -> list[Decimal]:
    """Every price the item is sold at: its own and each variant's."""
    found = []
    for price in [item.get("price"), *(variant.get("price") for variant in
                                       meta(item, VARIANTS).get("variants", []))]:
        try:
            found.append(Decimal(str((price or {})["amount"])))
        except (KeyError, TypeError, ArithmeticError):
            continue
    return found or [Decimal(0)]


def pick_variant(item: dict[str, Any], said: set[str],
                 declined: frozenset[str] = frozenset()) -> list[Choice]:
    """The variants the words allow: one per option the person named, any for the rest, and
    none whose value they declined ("blue, not the 12 oz")."""
    variants = meta(item, VARIANTS).get("variants", [])
    choices = variant_choices(item)
    if not variants:
        return []
    if declined:
        kept = [choice for choice, variant in zip(choices, variants, strict=True)
                if not any(matches(str(value), set(declined)) and not matches(str(value), said)
                           for value in variant.get("values", []))]
        allowed = pick_variant(item, said)
        return [choice for choice in allowed if choice in kept] or allowed
    dimensions = max(len(variant.get("values", [])) for variant in variants)
    keep = list(range(len(variants)))
    for index in range(dimensions):
        named = {position for position, variant in enumerate(variants)
                 if index < len(variant.get("values", []))
                 and matches(str(variant["values"][index]), said)}
        if named:
            keep = [position for position in keep if position in named]
    return [choices[position] for position in keep]


# -- customizations and add-ons ----------------------------------------------------------

def groups(item: dict[str, Any]) -> list[dict[str, Any]]:
    return list(meta(item, CUSTOMIZATION).get("groups", []))


def option_choices(group: dict[str, Any]) -> list[Choice]:
    found = []
    for option in group.get("options", []):
        modifier = option.get("priceModifier") or {}
        extra = f" (+{money_text(modifier)})" if modifier and str(
            modifier.get("amount", "0")).strip("0.") else ""
        found.append(Choice(str(option["id"]), f"{option['name']}{extra}", str(option["name"])))
    return found


def default_option(group: dict[str, Any]) -> str | None:
    return next((str(option["id"]) for option in group.get("options", [])
                 if option.get("default") is True or option.get("isDefault") is True), None)


def pick_options(group: dict[str, Any], said: set[str]) -> list[str]:
    picked = [choice.id for choice in option_choices(group) if matches(choice.words, said)]
    return picked[:1] if group.get("selectionType") == "single" else picked


# Words too common in extras' names to tell one from another on their own ("on the side" is
# how a chili oil comes too, not the burrata's name).
GENERIC_EXTRA_WORDS = frozenset({"extra", "side", "pack", "year", "on", "the", "add", "hot"})


def pick_addons(item: dict[str, Any], said: set[str]) -> list[str]:
    picked = []
    for addon in meta(item, ADDONS).get("items", []):
        named = [w for w in words.content_words(str(addon.get("name", "")))
                 if not w.isdigit() and w not in GENERIC_EXTRA_WORDS]
        hits = sum(word in said for word in named)
        if named and hits and hits * 2 >= len(named) or "@card" in said and \
                gifting.describes_a_card(addon):  # "with a card saying…": the box with one
            picked.append(str(addon["id"]))
    return picked


def option_labels(item: dict[str, Any]) -> list[str]:
    """Every word-bearing option of the item: variant values, customization options, add-ons."""
    labels = sorted({str(value) for variant in meta(item, VARIANTS).get("variants", [])
                     for value in variant.get("values", [])})
    labels += [str(o["name"]) for group in groups(item) for o in group.get("options", [])]
    labels += [str(addon.get("name", "")) for addon in meta(item, ADDONS).get("items", [])]
    return labels


def addon_names(item: dict[str, Any]) -> list[str]:
    return [f"{addon['name']} (+{money_text(addon.get('price'))})"
            for addon in meta(item, ADDONS).get("items", [])]


# -- time slots --------------------------------------------------------------------------

def slot_time(slot: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(slot["startTime"]))


def when(text: str) -> str:
    moment = datetime.fromisoformat(text)
    return f"{moment:%a} {moment.day} {moment:%b %Y}, {moment:%H:%M}"


# How a time slot's day and hour read in each language ("sam. 13 mars 2027, 10:00",
# "3月13日(土) 10:00"); English keeps `when`.
_SLOT_PATTERNS = {"fr": "EEE d MMM y, HH:mm", "ja": "y年M月d日(EEE) H:mm"}


def localized(choices: list[Choice], language: str) -> list[Choice]:
    """Time-slot choices with their labels in `language`; other choices as they are."""
    pattern = _SLOT_PATTERNS.get(language)
    if pattern is None:
        return choices
    found = []
    for choice in choices:
        try:
            moment = datetime.fromisoformat(choice.words)
        except ValueError:
            found.append(choice)
            continue
        written = format_datetime(moment, pattern, locale=language)
        found.append(replace(choice, label=written + choice.label[len(when(choice.words)):]))
    return found


_FRENCH_MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
                  "septembre", "octobre", "novembre", "décembre")


def day(text: str, language: str = "en") -> str:
    """A date as the shopper's language writes it ("10 December 2026", "10 décembre 2026",
    "2026年12月10日")."""
    moment = datetime.fromisoformat(text)
    if language == "fr":
        return f"{moment.day} {_FRENCH_MONTHS[moment.month - 1]} {moment.year}"
    if language == "ja":
        return f"{moment.year}年{moment.month}月{moment.day}日"
    return f"{moment.day} {moment:%B %Y}"


def slot_choices(item: dict[str, Any]) -> list[Choice]:
    slots = sorted(meta(item, SCHEDULING).get("timeSlots", []), key=lambda s: str(s["startTime"]))
    found = []
    for slot in slots:
        price = f" ({money_text(slot['price'])})" if slot.get("price") else ""
        found.append(Choice(str(slot["id"]), f"{when(str(slot['startTime']))}{price}",
                            str(slot["startTime"]), slot.get("available", True) is not False))
    return found


def when_named(texts: tuple[str, ...], now: datetime | None = None, tz: str = "UTC"
               ) -> TimesNamed:
    """The times the words allow a slot (`language/dates.py`), days counted from today
    ("tomorrow", "next Saturday") and limits ("after 6") as read in the latest message that
    names a time, against `now` (the shopper's clock; default: the current time)."""
    when = next((reading.when for reading in (read(text, now=now or datetime.now(UTC), tz=tz)
                                              for text in reversed(texts)) if reading.when),
                None)
    return times_named(" ".join(texts), when)


def open_slots(item: dict[str, Any], now: datetime | None = None) -> list[Choice]:
    """The item's free times, soonest first; those already begun are gone once the
    shopper's clock (`now`) is known."""
    return [choice for choice in slot_choices(item) if choice.available and (
        now is None or datetime.fromisoformat(choice.words) > now)]


def pick_slots(item: dict[str, Any], texts: tuple[str, ...], now: datetime | None = None,
               tz: str = "UTC") -> tuple[list[Choice], bool]:
    """The open slots the words allow, and whether the person named a time at all."""
    # The latest message that names a time wins ("Jan 14?" … "then Tuesday at 10").
    named = next((found for found in (when_named((text,), now, tz) for text in reversed(texts))
                  if found.named()), TimesNamed())
    free = open_slots(item, now)
    if not named.named():
        return free, False
    fitting = [choice for choice in free if named.fits(datetime.fromisoformat(choice.words))]
    if not fitting and named.clock is not None:
        fitting = _nearest_to_clock(item, named, free)
    return (fitting[:1] if named.earliest else fitting), True


# How far a free time may lie from the time named for it to be offered in its place, when no
# slot at all starts then ("2:15", "7 in the evening"); further when the time was "around".
_NEAR = timedelta(minutes=60)
_NEAR_APPROXIMATE = timedelta(minutes=90)


def _nearest_to_clock(item: dict[str, Any], named: TimesNamed, free: list[Choice]) -> list[Choice]:
    """The one free slot nearest the time named on the day named, marked `nearest`, when no
    slot of the item (free or taken) starts at that time: a taken time is refused, not moved."""
    moments = {choice.id: datetime.fromisoformat(choice.words) for choice in slot_choices(item)}
    if any(named.fits(moment) for moment in moments.values()):
        return []
    clock = named.clock
    assert clock is not None
    whole_day = replace(named, clock=None, either_half=False, hours=None)
    halves = {clock, ((clock[0] + 12) % 24, clock[1])} if named.either_half else {clock}
    limit = _NEAR_APPROXIMATE if named.approximate else _NEAR

    def distance(choice: Choice) -> timedelta:
        moment = moments[choice.id]
        return min(abs(moment.replace(tzinfo=None) - moment.replace(
            tzinfo=None, hour=hour, minute=minute, second=0)) for hour, minute in halves)

    near = sorted((choice for choice in free if whole_day.fits(moments[choice.id])
                   and distance(choice) <= limit), key=distance)
    if not near or (len(near) > 1 and distance(near[0]) == distance(near[1])):
        return []
    return [replace(near[0], nearest=True)]


def nearest(slots: list[Choice], texts: tuple[str, ...], now: datetime | None = None,
            tz: str = "UTC") -> list[Choice]:
    """The open slots nearest the time named (a taken or missing one), nearest first."""
    named = next((found for found in (when_named((text,), now, tz) for text in reversed(texts))
                  if found.named()), TimesNamed())
    meant = _moment_meant(named, slots)
    if meant is None:
        return slots
    return sorted(slots, key=lambda choice: abs(
        (datetime.fromisoformat(choice.words).replace(tzinfo=None) - meant).total_seconds()))


def _moment_meant(named: TimesNamed, slots: list[Choice]) -> datetime | None:
    """The moment the words name, as far as they name one (a day, and the time if said)."""
    if not slots:
        return None
    year = datetime.fromisoformat(slots[0].words).year
    day = named.on
    if day is None and named.month is not None and named.day is not None:
        try:
            day = date(year, named.month, named.day)
        except ValueError:
            return None
    if day is None:
        return None
    hour, minute = named.clock or named.after or named.before or (12, 0)
    return datetime(day.year, day.month, day.day, hour, minute)
