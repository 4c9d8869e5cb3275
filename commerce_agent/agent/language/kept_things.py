"""What a message says is to stay, beside what it lets go: "I don't want the mug anymore,
just the plates", "leave the plates, remove the mugs", « je veux plus le mug, juste les
assiettes », 「マグはいらない、お皿は残して」.

A clause that names what stays (by "just", "only", "keep", "leave", « juste », « garde »,
「だけ」, 「残して」) is no part of what goes: cut out, the rest of the message names the line
to remove. A message that is nothing but such a clause is the keep-only stage's.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.folding import fold_accents

# Clause breaks: punctuation, "but", and a "just"/"only" opening a clause of its own.
_BREAKS = re.compile(r"\s*[,;.!?、。！？]\s*|\s+(?:but|mais)\s+|"
                     r"\s+(?=(?:just|only|juste|seulement|uniquement)\s+(?:the|my|les?|la|l'|mes|"
                     r"mon|ma)\b)")
# A clause naming what stays: "just the plates", "only my mug", "keep the plates", "leave the
# plates" (never "leave out the plates", "leave it off"), « juste les assiettes », « garde le
# mug », « laisse les assiettes » (never « laisse tomber »).
_KEPT = re.compile(
    r"^(?:(?:and|et|so|then|alors|donc)\s+)?(?:"
    r"(?:just|only)\s+(?:keep\s+)?(?:the|my|those|these)\b|"
    r"(?:keep|leave)\s+(?!out\b|off\b|it\s+(?:out|off)\b|them\s+(?:out|off)\b)"
    r"(?:the|my|those|these)\b|"
    r"(?:juste|seulement|uniquement)\s+(?:les?|la|l'|mes|mon|ma)|"
    r"(?:garde[rz]?|laisse[rz]?)\s+(?!tomber\b)(?:les?|la|l'|mes|mon|ma)\b)")
_KEPT_JA = re.compile(r"(?:だけ(?:で(?:いい|良い|大丈夫)?|に(?:して)?)?|は残して|を残して)"
                      r"(?:です|ください)?$")


def clauses(text: str) -> list[str]:
    return [part for part in _BREAKS.split(text) if part and part.strip()]


def kept_clause(clause: str) -> bool:
    """Whether a clause only names what is to stay."""
    folded = fold_accents(clause.strip().lower())
    return _KEPT.match(folded) is not None or _KEPT_JA.search(clause.strip()) is not None


def without_kept(text: str) -> str | None:
    """The message without the clauses that name what stays, when it has some and something
    else is left; else None."""
    parts = clauses(text)
    left = [part for part in parts if not kept_clause(part)]
    if len(left) == len(parts) or not left:
        return None
    joint = "、" if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) else ", "
    return joint.join(part.strip() for part in left)
