"""Answers about an item from its own data: "is it dishwasher safe?", "what's in the lasagna?",
"does the diavola have salami?", "how heavy is it?", "how big is the plate?".

The item's description is split into sentences and the ones sharing a word (singular, accents
folded, a typo forgiven) with the question are the answer; weight and dimensions come from the
item's physical properties when the question asks about weight or size, in any of en/fr/ja.
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language.fuzzy import similarity
from commerce_agent.agent.models.scripted import choices, topics, words
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.priced_counts import count_priced, priced
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.orders.model import SCHEDULING, SUBSCRIPTION
from commerce_agent.operations.base import money_text

PHYSICAL = "dev.commerce.product.physical_properties"
# Asking whether an item is there to buy, or how many are left (a topic of `topics`).
STOCK = topics.STOCK
# Asking what a kit holds: each of its parts.
_INCLUDED = re.compile(r"\b(?:includ\w*|comes? (?:in|with)|contents?|what'?s in|inside|"
                       r"compris|inclu\w*|contient)\b|付属|セット内容|含まれ")
_DURATION = re.compile(r"\bhow long\b|\bduration\b|\bminutes?\b|\bduree\b|\bcombien de "
                       r"temps\b|何分|どのくらい|どれくらい|所要時間")
_HOW_MANY = re.compile(r"\bhow many\b|\bcombien\b|いくつ|何個|何点|残り")
# Asking which versions a thing comes in: its colours, sizes, flavours ("does the mat come in
# other colours?", « il existe en d'autres tailles ? », 「他の色もありますか」).
_OPTIONS_ASKED = re.compile(
    r"\b(?:colou?rs?|sizes?|versions?|flavou?rs?|variants?|options?|couleurs?|tailles?|"
    r"coloris|parfums?)\b|\b(?:comes?|existe\w*) (?:in|en|dans)\b|"
    r"(?:他の|ほかの|別の)?(?:色|サイズ|種類)(?:は|も|が|って)")
_WEIGHT = re.compile(r"\b(?:heavy|heavier|weighs?|weight|poids|lourde?s?|pese)\b|重さ|重い|重量")
_SIZE = re.compile(r"\b(?:big|large|size|sizes|dimensions?|tall|wide|width|height|long|length|"
                   r"capacity|volume|holds?|contenance|"
                   r"deep|depth|measure|measurements?|taille|grande?|hauteur|largeur|longueur)\b|"
                   r"大きさ|サイズ|寸法|高さ|幅|容量")
# What an item's details always show, so never "not stated": price, options, stock, delivery.
_ALWAYS_SHOWN = frozenset("""
price prices cost costs much cheap cheaper expensive option options variant variants colour
colours color colors flavour flavours come comes version versions ship shipping deliver
delivery delivered pickup collect digital download buy order prix couleur couleurs taille
tailles livraison
""".split())
_ALWAYS_SHOWN_JA = re.compile(r"値段|価格|いくら|色|カラー|サイズ|種類|オプション|トッピング|"
                              r"グレード|在庫|配送|送料|届|発送|予約|時間|日程|空き")
# Asking what the thing is or is like ("what's it like?", « c'est quoi le genmaicha ? », « il
# est comment ? », 「玉露はどんなお茶？」「茶筅とは？」): its description is the answer, never
# "its details don't say".
_WHAT_IT_IS = re.compile(
    r"\b(?:what(?:'s| is| are) (?:it|that|this|they)\b|what (?:kind|sort|type) of|"
    r"what(?:'s| is) .{1,40} like\b|tell me (?:more )?about|describe|c'est quoi|"
    r"qu'est-ce que c'est|qu'est ce que c'est|(?:il|elle|c') ?est comment|comment (?:il|elle) est|"
    r"quel genre|quelle sorte|quel type|parle[sz]?-moi)|どんな|どういう|どのような|とは|"
    r"(?:何|なに|なん)(?:です|なの|でしょう|？|\?|$)")
# Words of a question that say nothing about the item ("is it", "does it have", "safe").
_QUESTION_WORDS = frozenset("""
does have contain contains made safe use used inside put go goe any there come with
contient contenir fait faite avec dedans passer est-ce sans
""".split())


def asks_enough(text: str) -> bool:
    """Whether a question asks if the shop has a number of one thing ("do you have 5
    tiramisu?", « vous avez 4 tiramisus ? », 「ティラミスは5個ありますか」): its stock, not a
    search."""
    return _HAVE_ANY.search(words.fold(text)) is not None and (words.quantity(text) or 0) > 1 \
        and (words.names_a_thing(words.without_measures(text)) or topics.points(text))


# Asking whether the shop has some of a thing, in the ways a count may follow.
_HAVE_ANY = re.compile(r"\b(?:do you (?:have|sell|carry|stock)|have you got|you got|are there|"
                       r"avez-vous|vous avez|auriez-vous|vous auriez|y a-t-il|il y a|t'as|"
                       r"tu as)\b|ありますか|ある[?？]|あります")


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"(?<=[.!?。])\s+", text) if part.strip()]


def _asked(question: str, name: str) -> frozenset[str]:
    """The words a question asks about beyond the item's name: Latin words, or the phrases of
    a Japanese question (「食洗機で洗えますか」 asks about 食洗機), which have no spaces."""
    if words.re_japanese(question):
        return frozenset(phrase for phrase in words.japanese_query(question).split()
                         if len(phrase) > 1 and phrase not in name)
    return words.content_words(question) - words.content_words(name) - _QUESTION_WORDS


def _fits(asked: frozenset[str], sentence: str) -> bool:
    if any(words.re_japanese(word) for word in asked):
        return any(word in sentence for word in asked)
    mine = set(words.words(sentence))
    return any(word in mine or any(len(word) > 4 and similarity(word, other) >= 85
                                   for other in mine) for word in asked)


def answer(item: dict[str, Any], question: str, lang: str) -> list[str]:
    """The sentences of the item's data that answer `question` (none when it asks nothing the
    data says)."""
    asked = _asked(question, str(item.get("name", "")))
    # The first sentence is always shown; the parts of a kit ("what's included?") are not.
    parts = [str(part.get("description")) for part in item.get("fulfillmentComponents") or []
             if isinstance(part, dict) and part.get("description")]
    said = [*_sentences(str(item.get("description", "")))[1:], *parts]
    found = [sentence for sentence in said if asked and _fits(asked, sentence)]
    if _INCLUDED.search(words.fold(question)):
        found += [part for part in parts if part not in found]
    physical = choices.meta(item, PHYSICAL)
    folded = words.fold(question)
    weight = physical.get("weight") if isinstance(physical.get("weight"), dict) else None
    if weight and _WEIGHT.search(folded):
        found.append(say(lang, "weighs", weight=f"{weight.get('value')} {weight.get('unit')}"))
    size = physical.get("dimensions") if isinstance(physical.get("dimensions"), dict) else None
    if size and _SIZE.search(folded):
        sides = [str(size[key]) for key in ("length", "width", "height") if size.get(key)]
        found.append(say(lang, "measures", size=" × ".join(sides) + f" {size.get('unit', '')}"))
    variants = choices.meta(item, VARIANTS).get("variants") or []
    enough = asks_enough(question)  # "do you have 5?": whether, and how many
    if item.get("available") is not False and (STOCK.search(folded) or enough) and \
            not variants:
        found.append(say(lang, "in_stock_now"))  # a variant's stock is listed with the variants
        if _HOW_MANY.search(folded) or enough:  # the API says whether, not how many
            found.append(say(lang, "count_unknown"))
    counts = [f"{', '.join(map(str, variant.get('values', [])))}: {variant['stock']}"
              for variant in variants if isinstance(variant, dict)
              and isinstance(variant.get("stock"), int) and variant["stock"] > 0]
    if counts and _HOW_MANY.search(folded):  # a variant's live units are in its data
        found.append(say(lang, "left_counts", listing="; ".join(counts)))
    elif STOCK.search(folded) and variants:  # "is the speckled one still in stock?": its own
        named = _variants_named(variants, question)
        if named:
            found.append(say(lang, "left_counts", listing="; ".join(
                f"{', '.join(map(str, variant.get('values', [])))}: {variant.get('stock', 0)}"
                for variant in named)))
    if not variants and not choices.groups(item) and _OPTIONS_ASKED.search(folded):
        found.append(say(lang, "one_version", name=item.get("name", "")))  # nothing to pick
    count = count_priced(item, question)  # "how much would 3 plates be": that many, priced
    total = priced(item, count) if count is not None else None
    if total is not None:
        found.append(say(lang, "costs_for", quantity=count, name=item.get("name", ""),
                         total=money_text(total)))
    minutes = choices.meta(item, SCHEDULING).get("duration")
    if isinstance(minutes, (int, float)) and _DURATION.search(folded):
        found.append(say(lang, "lasts", minutes=minutes))
    found += _by_topic(item, question, lang)
    if not found and _unstated(item, asked, folded):
        found.append(say(lang, "not_stated"))  # said plainly, never made up
    return found


def _variants_named(variants: list[Any], question: str) -> list[dict[str, Any]]:
    """The variants whose own values the question names ("the speckled oat one"), each with a
    count of units in its data; none when it names no value of one variant only."""
    said = set(words.words(question))
    named = []
    for variant in variants:
        if not isinstance(variant, dict) or not isinstance(variant.get("stock"), int):
            continue
        values = [set(words.words(str(value))) for value in variant.get("values", [])]
        if any(value and value <= said for value in values):
            named.append(variant)
    return named if len(named) < len(variants) else []


# A volume written in an item's name ("Celadon Teapot, 700 ml", « Théière céladon, 70 cl »).
_VOLUME = re.compile(r"(\d+(?:[.,]\d+)?)\s*(ml|cl|dl|l|fl ?oz|oz)(?![a-z])", re.IGNORECASE)


def _by_topic(item: dict[str, Any], question: str, lang: str) -> list[str]:
    """What the item's data says on the question's topic (`topics`), beyond its description:
    where a class is held, how much a vessel holds, a plan's free trial."""
    found = topics.topic(question)
    name = found.name if found is not None else ""
    if name == "place":
        place = choices.meta(item, SCHEDULING).get("location")
        return [say(lang, "held_at", place=place)] if place else []
    if name == "capacity":
        volume = _VOLUME.search(str(item.get("name", ""))) or _VOLUME.search(
            str(item.get("description", "")))
        return [say(lang, "holds", volume=f"{volume.group(1)} {volume.group(2)}")] \
            if volume else []
    if name == "addons":
        names = choices.addon_names(item)
        return [say(lang, "addons", names=", ".join(names))] if names else []
    if name == "trial":
        days = choices.meta(item, SUBSCRIPTION).get("trialDays")
        return [say(lang, "trial_days", days=days) if days else say(lang, "no_trial")] \
            if choices.meta(item, SUBSCRIPTION) else []
    return []


def _unstated(item: dict[str, Any], asked: frozenset[str], folded: str) -> bool:
    """The question asks about something none of the item's data mentions (not its price,
    options, stock or delivery, which its details always show)."""
    if not asked or asked & _ALWAYS_SHOWN or _ALWAYS_SHOWN_JA.search(folded) or any(
            pattern.search(folded) for pattern in (STOCK, _WEIGHT, _SIZE, _WHAT_IT_IS)):
        return False
    known = " ".join([str(item.get("name", "")), str(item.get("description", "")),
                      *(str(part.get("description", "")) for part in
                        item.get("fulfillmentComponents") or [] if isinstance(part, dict)),
                      *choices.option_labels(item), *choices.addon_names(item)])
    return not _fits(asked, known)


def plan_terms(item: dict[str, Any], lang: str) -> list[str]:
    """A subscription item's cancellation terms, as its data states them: cancel any time, or
    only after a minimum number of billing cycles."""
    rules = choices.meta(item, SUBSCRIPTION).get("cancellationPolicy")
    if not isinstance(rules, dict):
        return []
    if rules.get("canCancelAnytime", True):
        return [say(lang, "plan_cancel_anytime")]
    return [say(lang, "plan_commitment", cycles=rules.get("minimumCommitment", 0))]
