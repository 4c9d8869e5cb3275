"""The shopper's message as typed, tidied before any stage reads it (`language.tidy`), with
this model's vocabularies: the words that carry intent (`intents.INTENT_WORDS`), the forms
shoppers type them in, and the katakana loanwords its tables read."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from commerce_agent.agent.language.fuzzy import fold_name
from commerce_agent.agent.language.tidy import tidy
from commerce_agent.agent.models.scripted.intents import INTENT_WORDS, NOT_TYPOS

# Words that carry intent in the forms they are typed, accents folded: a misspelt one is read
# as the word it is a typo from ("anulé" → "annule", "retrun" → "return"). Only words of five
# letters or more: shorter ones are a typo from too many real words ("come" is not "code").
TYPED_FORMS = frozenset("""
remove checkout cheapest cheaper return subscription subscriptions subscribe unsubscribe
membership shipping shipped cancel cancelled cancelling refund refunds check could would
annule annules annulee annulez annuler annulation commande commandes commander commandez
expedie expediee expedies expediees expedier expedition retour retours retourne retourner
retournez rembourse remboursez rembourser remboursement abonnement abonne resilier panier
ajoute ajouter ajoutez supprime supprimer enleve enlever paiement livraison colis
dozen dozens couple several twelve twenty thirty fifteen eleven douzaine douzaines quelques
plusieurs
""".split())  # (the count words last: "a dozne", "cuple of", « une douzane »)
VOCABULARY = INTENT_WORDS | TYPED_FORMS
# Real words a typo away from one of them, kept as typed.
KNOWN = NOT_TYPOS | frozenset("""
commence remote retours retire retirer reform refine shipper world cheek chuck cloud
annuel annuelle annuels annuelles annuellement mensuel mensuelle mensuels mensuellement
place placed placing shopping shopper shoppers
doze dozed dozes coupe coupes coupled thirsty quelque
""".split())  # « passer en annuel » is a billing frequency, never « annuler »; "place the
# order" is no "plate the order" with a plate in view (a wider list of purchase verbs moved a
# held-out set down: kept to "place")
# Loanwords in katakana the stages read; typed in hiragana ("きゃんせる") they are read so.
KATAKANA = frozenset("""
キャンセル カート サブスク クーポン コード チェックアウト レジ ポイント プラン メンバーシップ
スキップ ラッピング サイズ オーダー リターン
インチ センチ グラム オンス リットル パーセント チップ
""".split())




def typed(raw: str, catalogue: frozenset[str] = frozenset()) -> str:
    """`raw` tidied; `catalogue` adds the words of the items shown (`catalogue_words`), so
    "ceremonal" answering "which grade?" reads as "ceremonial"."""
    return tidy(raw, VOCABULARY | catalogue, KNOWN, KATAKANA)


def catalogue_words(items: Iterable[dict[str, Any]]) -> frozenset[str]:
    """The words of five letters or more in the names of these items, their variants' values,
    their options and their add-ons: the closed vocabulary a misspelt product word is from."""
    found: set[str] = set()
    for item in items:
        # Cached by every name read, never by the item's id: two stores (or a search result
        # and the same item read in full) may give one id different names or options.
        found.update(_words_of(_names(item)))
    return frozenset(found)


def item_names(item: dict[str, Any]) -> tuple[str, ...]:
    """The item's name and the names of its variants' values, options and add-ons."""
    return _names(item)


def _names(item: dict[str, Any]) -> tuple[str, ...]:
    names = [str(item.get("name", ""))]
    metadata = item.get("metadata") or {}
    variants = metadata.get("dev.commerce.product.variants") or {}
    names.extend(str(value) for variant in variants.get("variants") or []
                 for value in variant.get("values") or [])
    groups = (metadata.get("dev.commerce.product.customization") or {}).get("groups") or []
    names.extend(str(option.get("name", "")) for group in groups
                 for option in group.get("options") or [])
    addons = (metadata.get("dev.commerce.product.addons") or {}).get("items") or []
    names.extend(str(addon.get("name", "")) for addon in addons)
    return tuple(names)


@lru_cache(maxsize=4096)  # every message of a conversation is heard again each turn
def _words_of(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(word for name in names for word in re.findall(r"[a-z]{5,}",
                                                                   fold_name(name)))
