"""How a return is to be settled and how the goods go back, as the shopper says it: store
credit, an exchange or a refund ("for store credit", « contre un avoir », 「交換してほしい」),
and bringing them to the shop, having them collected, or posting them ("I'll drop them off at
the studio", « je les rapporte en boutique », 「店頭に持って行きます」, "can you collect them").

Each reader gives the tool's own value (`start_return`'s `preferredResolution` and
`returnMethod`), or None when the message says nothing of it: the store's default then holds
(a refund, by post), and the approval prompt names what was chosen either way.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.folding import fold

_STORE_CREDIT = re.compile(r"\bstore credit\b|\bcredit (?:note|instead)\b|\bas (?:a )?credit\b|"
                           r"\bfor credit\b|\bvoucher\b|\bgift card instead\b|\bavoir\b|"
                           r"\bbon d'achat\b|\bcredit (?:en|dans la) (?:boutique|magasin)\b|"
                           r"ストアクレジット|店舗クレジット|クレジットで|ポイントで")
_EXCHANGE = re.compile(r"\bexchang\w*|\bswap (?:it|them|this|that)\b|\breplacements?\b|"
                       r"\bechang\w*|交換")
_REFUND = re.compile(r"\brefund\w*|\bmoney back\b|\brembours\w*|返金")
_IN_STORE = re.compile(
    r"\bdrop (?:it|them|this|that|these|those|the \w+) (?:off|back)\b|\bdrop(?:ping)? off\b|"
    r"\bbring (?:it|them|this|that|these|those|the \w+) (?:back )?(?:in|to (?:the|your) "
    r"(?:shop|store|studio|restaurant|counter))\b|\bin (?:store|person)\b|"
    r"\b(?:at|to) (?:the|your) (?:shop|store|studio|counter)\b|"
    r"\b(?:en|a la|au) (?:boutique|magasin|atelier|comptoir)\b|\bsur place\b|\bdeposer\b|"
    r"店頭|店舗に|お店に|持って(?:行|い)|持参")
_PICKUP = re.compile(r"\b(?:collect|pick up|pick) (?:it|them|these|those)(?: up)? from (?:me|"
                     r"my|our)\b|\bcome (?:and |to )?(?:get|collect|pick up)\b|"
                     r"\b(?:can|could) you (?:collect|pick up|come)\b|\bcourier pick-?up\b|"
                     r"\benlevement\b|\bvenir (?:les |le |la )?chercher\b|集荷|取りに来")
_BY_POST = re.compile(r"\bby (?:post|mail)\b|\b(?:post|mail|ship) (?:it|them) back\b|"
                      r"\bpar (?:la )?poste\b|\bpar colis\b|郵送|宅配便で")


def resolution(text: str) -> str | None:
    """"store_credit", "exchange" or "refund", as said; None when the message says none."""
    folded = fold(text)
    for value, pattern in (("store_credit", _STORE_CREDIT), ("exchange", _EXCHANGE),
                           ("refund", _REFUND)):
        if pattern.search(folded):
            return value
    return None


def method(text: str) -> str | None:
    """"in_store", "pickup" or "ship", as said; None when the message says none."""
    folded = fold(text)
    for value, pattern in (("pickup", _PICKUP), ("in_store", _IN_STORE), ("ship", _BY_POST)):
        if pattern.search(folded):
            return value
    return None
