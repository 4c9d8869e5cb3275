"""Gift wrapping and gift cards said in a shopper's own words, read as the words add-ons are
named by: "gift wrap it", "wrapped as a present", "gift boxed", « en paquet cadeau », « pour
offrir », 「ラッピングして」「風呂敷で包んで」 all say "gift wrap"; "add a card saying happy
birthday", « avec un petit mot », 「メッセージカードを付けて」 ask for a card (whose message is
the shopper's, never a product word).

The catalogs name their add-ons in English ("Gift Box", "Furoshiki gift wrap") and describe
them ("…with tissue and a handwritten card"): `plain` rewrites the phrasing to those words, and
`describes_a_card` finds the add-on whose own description says it holds a card.
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language.folding import fold

# Wrapping a thing as a gift, in English, French and Japanese (accents folded).
_GIFT = re.compile(
    r"\bgift[- ]?(?:wrap\w*|box(?:ed|es)?|bag(?:ged)?)\b|\bgiftwrap\w*|"
    r"\bwrap(?:ped|ping)?\s+(?:it|them|this|that|the \w+)?\s*(?:up\s+)?(?:as|like)\s+a\s+"
    r"(?:gift|present)\b|\b(?:as|for)\s+a\s+(?:gift|present)\b|\bpresent[- ]wrap\w*|"
    r"\bwrap(?:ped|ping)?\s+(?:it|them|this|that)(?:\s+up)?\b|\bwrapped\b|"
    r"\b(?:emballage|paquet|papier|boite|coffret)[- ]cadeaux?\b|\bemball\w*\b|"
    r"\bpour (?:l')?offrir\b|\bc'est (?:pour )?un cadeau\b|"
    r"ラッピング|ギフト(?:包装|用|ラッピング)|プレゼント(?:用|包装)|贈(?:り物|答)用|"
    r"包装|(?:で|に)?包んで|包み")
# A card or a note to go with it, and its message ("saying happy birthday", « avec écrit
# joyeux anniversaire », 「『おめでとう』と書いて」): the message is no product word.
_CARD = re.compile(r"\b(?:greeting |gift |birthday |message |note )?card\b|\bnote\b|"
                   r"\bcarte\b|\bpetit mot\b|\bun mot\b|メッセージ(?:カード)?|カード")
_MESSAGE = re.compile(
    r"\b(?:saying|that says|which says|that reads|reading|with the (?:message|words?)|"
    r"to say|qui dit|disant|avec (?:ecrit|le message|les mots)|ou il est ecrit)\s+"
    r"[\"“'«]?[^\"”'»,.;!?]*[\"”'»]?|"
    r"[「『\"“][^」』\"”]*[」』\"”]\s*(?:と|って)?(?:書いて|書いた)?")
# A gift card sold as a product of its own ("a £50 gift card", « une carte cadeau »): never
# the card of an add-on.
_GIFT_CARD = re.compile(r"\bgift ?cards?\b|\bcartes? cadeaux?\b|ギフトカード")


def plain(text: str) -> str:
    """`text` (folded or not) with gift phrasing said as "gift wrap" and a card's message left
    out; a gift card sold as a product stays as said."""
    folded = fold(text)
    if _GIFT_CARD.search(folded):
        return folded
    if _CARD.search(folded):
        folded = _MESSAGE.sub(" ", folded)
    return _GIFT.sub(" gift wrap ", folded)


def asks_for_a_card(text: str) -> bool:
    folded = fold(text)
    return bool(_CARD.search(folded)) and not _GIFT_CARD.search(folded)


# What says an add-on holds a card, in its own description.
_HOLDS_A_CARD = re.compile(r"\bcards?\b|\bcarte\b|カード", re.IGNORECASE)


def describes_a_card(addon: dict[str, Any]) -> bool:
    """Whether the add-on's name or description says it comes with a card."""
    return bool(_HOLDS_A_CARD.search(f"{addon.get('name', '')} {addon.get('description', '')}"))


# What is said around a request for wrapping and names nothing: politeness, particles, "it".
_AROUND = re.compile(r"\b(?:please|pls|plz|thanks|thank you|merci|svp|stp|s'il (?:te|vous) "
                     r"plait|it|them|too|also|as well|aussi|oui|yes|ok|okay|sure|avec|with|"
                     r"in|a|the|un|une|le|la|en|du)\b|ください|下さい|お願い(?:します|いたします)?|"
                     r"して|にして|で|に|を|も|furoshiki|風呂敷|ふろしき|[\s,.!、。！]")


def only_wrapping(text: str) -> bool:
    """Whether `text` asks for gift wrapping and says nothing else ("gift wrapped please",
    「風呂敷で包んでください」, « en paquet cadeau svp »)."""
    said = plain(text)
    return "gift wrap" in said and not _AROUND.sub("", said.replace("gift wrap", " "))


# Asking for it, as a question or a request ("can you…", "do you do…", « vous pouvez… »,
# 「できますか」): no product word either.
_ASKING = re.compile(r"\b(?:can|could|would|will|you|do|does|is|it|possible|offer|have|any|"
                     r"vous|pouvez|peux|tu|faites|est-ce|que|possible|l'|les?)\b|"
                     r"でき(?:ます|る)(?:か)?|ありますか|[?？]")
# How a reply names gift wrapping, in the shopper's language.
WRAPPING = {"en": "gift wrapping", "fr": "emballage cadeau", "ja": "ギフト包装"}


def about_wrapping(text: str) -> bool:
    """Whether `text` asks for (or about) gift wrapping of the thing in view and names nothing
    else ("can you gift wrap it?", "do you do gift wrapping?", 「ラッピングできますか？」)."""
    said = plain(text)
    if "gift wrap" not in said:
        return False
    left = _ASKING.sub(" ", said.replace("gift wrap", " "))
    return not _AROUND.sub("", left)
