"""Which of the shopper's own charges a question asks for, in English, French or Japanese:
"how much did you charge me for delivery?", "what did I pay altogether?", "remind me what I'm
paying each month for that?", « ça fait combien au total avec la livraison ? »,
「送料はいくらでしたか」.

A charge question asks for an amount (how much, what … cost, combien, いくら) of one of the
figures a cart or an order carries: its shipping, its discount, its total, or what a plan
costs each period. It is about an order already placed when it says so: the past tense of
paying or charging ("did you charge", "was I charged", « j'ai payé », 払った) or the order
named ("on my order", « ma commande », 注文). Otherwise it is about what is being bought now
(the cart), and only a figure the cart holds (shipping, total) is asked of it.

Pure functions of the text; the planner's `charges` stage reads the order or cart.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from commerce_agent.agent.language.folding import fold_accents

Figure = Literal["shipping", "discount", "recurring", "total"]

# An amount asked for.
_AMOUNT = re.compile(
    r"\bhow much\b|\bwhat (?:did|does|do|will|was|is|'s|were)\b.{0,40}\b(?:cost|costs|charge\w*|"
    r"pay\w*|paid|total|come to|came to)\b|\bwhat(?:'s| is| was)? (?:the|my) (?:grand )?(?:total|"
    r"shipping|delivery|postage|charge|fee|price|discount)\b|\b(?:remind|tell) me what\b|"
    r"\bcombien\b|\bquel (?:est|etait|a ete) (?:le|mon) (?:total|montant|prix|cout)\b|"
    r"\ble (?:total|montant)\b|"
    r"いくら|金額|合計|料金|値段|何円")
_SHIPPING = re.compile(r"\b(?:ship\w*|deliver\w*|postage|post|courier|livraison|livrer|"
                       r"frais de port|port|envoi|expedition)\b|送料|配送料|配送|配達")
_DISCOUNT = re.compile(r"\b(?:discount\w*|sav(?:e|ed|ing|ings)|coupon|code|off|remise|"
                       r"reduction|rabais|economis\w*)\b|割引|値引|クーポン")
_RECURRING = re.compile(r"\b(?:each|every|per|a) (?:month|week|year)\b|\bmonthly\b|"
                        r"\bweekly\b|\bpar (?:mois|semaine|an)\b|\bchaque mois\b|\bmensuel\w*\b|"
                        r"毎月|月額|月々|ひと月|1か月|一か月")
_TOTAL = re.compile(r"\b(?:total|altogether|all in|in all|all together|overall|in the end|"
                    r"grand total|come to|came to|comes to|au total|en tout|tout compris|"
                    r"montant)\b|合計|全部で|全部|トータル")
# Paying or being charged, said in the past: the order is placed.
_PAST = re.compile(
    r"\b(?:did|have|had) (?:you|they|u|i|we) (?:\w+ )?(?:charge\w*|bill\w*|pay|paid|spend|"
    r"spent|take|save)\b|\b(?:was|were) (?:i|we) (?:\w+ )?(?:charged|billed)\b|"
    r"\b(?:i|we) (?:paid|spent|was charged|got charged)\b|\bdid (?:it|that|the order|my order) "
    r"(?:cost|come to)\b|\bwhat (?:was|were) (?:the|my)\b|\bcame to\b|"
    r"\b(?:j'ai|on a|nous avons) (?:\w+ )?(?:paye|payer|regle|depense)\b|"
    r"\b(?:vous m'avez|on m'a|m'a ete|m'avez) (?:\w+ )?(?:facture|debite|preleve|compte)\w*\b|"
    r"払った|払いました|請求され|支払った|支払いました|でしたか|だった")
# The order named as what was bought.
_ORDER = re.compile(r"\b(?:my|the|that|last|this) (?:\w+ )?order\b|\bon (?:it|that)\b(?=.*\b"
                    r"(?:charge|paid|pay)\w*)|\b(?:ma|la|cette) (?:derniere )?commande\b|"
                    r"(?<!最低)注文(?!金額)")
# A minimum asked about is the store's terms, never a charge ("minimum order amount").
_MINIMUM = re.compile(r"\bminim\w*\b|最低")
# A plan being paid for now, named: what it costs each period is the plan's.
_PAYING_NOW = re.compile(r"\b(?:i'?m|i am|am i|we'?re|we are|are we) (?:\w+ )?paying\b|"
                         r"\bje (?:paie|paye)\b|払って(?:いる|いま|る)")


@dataclass(frozen=True)
class ChargeAsked:
    figure: Figure
    placed: bool  # of an order already placed (else of the cart being bought now)


def _fold(text: str) -> str:
    """Latin words without accents, beside the text as written (kana keep their voicing
    marks: でした is not てした)."""
    return re.sub(r"[’`]", "'", f"{fold_accents(text)} {unicodedata.normalize('NFKC', text)}")


def charge_asked(text: str) -> ChargeAsked | None:
    """The charge a question asks for, or None when it asks for no amount of the shopper's
    own cart or order."""
    folded = _fold(text)
    if not _AMOUNT.search(folded) or _MINIMUM.search(folded):
        return None
    placed = bool(_PAST.search(folded) or _ORDER.search(folded))
    if _RECURRING.search(folded) and (placed or _PAYING_NOW.search(folded)):
        return ChargeAsked("recurring", True)
    if _TOTAL.search(folded):
        figure: Figure = "total"  # a total "with shipping" holds the shipping
    elif _SHIPPING.search(folded):
        figure = "shipping"
    elif _DISCOUNT.search(folded) and placed:
        figure = "discount"
    elif placed:
        figure = "total"
    else:
        return None
    if not placed and figure != "total":
        return None  # "how much is shipping?": the store's rates, not the cart's
    return ChargeAsked(figure, placed)
