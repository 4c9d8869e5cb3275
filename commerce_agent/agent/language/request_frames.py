"""French request frames: the words that ask for a thing, never the thing's name.

A French request wraps what is wanted in a frame of a verb and its pronouns, and none of
those words names a product. The frame is one of three shapes, whatever the verb:

- an imperative with its pronouns joined by hyphens, and for « faire » / « laisser » the
  infinitive after them: « Envoyez-moi », « Mettez-m'en », « Rajoute-moi », « Donnez-nous »,
  « Faites-moi parvenir », and the inverted question « Pourriez-vous me mettre »,
  « Peux-tu m'ajouter », « Auriez-vous »;
- a subject, its object pronouns and a verb of going, wanting, being able, needing, being or
  getting, then maybe « bien », pronouns and an infinitive: « Je vais prendre », « Je vais vous
  prendre », « Il me faudrait », « Ce serait pour », « Ce sera », « J'aurais besoin de »,
  « Je prendrais bien », « Tu peux me mettre », « Vous pouvez m'envoyer »;
- the same frames' ending « pour » / « de » that leads to the thing.

Only the frame goes: the count and the thing stay (« Mettez-m'en trois » → « trois »).
"""

from __future__ import annotations

import re
from functools import lru_cache

from commerce_agent.agent.language.folding import fold

# Object pronouns, as words and as hyphenated endings ("-moi", "-m'en", "-le-moi").
_PRONOUNS = r"(?:(?:me|te|nous|vous|lui|leur|en|y|le|la|les)\b|m'|t'|l')"
_JOINED = (r"(?:-(?:moi|toi|nous|vous|lui|leur|le|la|les|en|y|tu|il|elle|on|t-il|t-on|t-elle)"
           r"|-m'en|-t'en|-m'y)")
# Verbs that frame a request, by their forms (any person and tense, folded): going, wanting,
# being able, needing, being, having, and the verbs of getting, sending and keeping.
_VERBS = (
    r"(?:vais|vas|va|allons|allez|vont|ir(?:ai|as|a|ons|ez|ont|ais|ait|ions|iez)|"
    r"veux|veut|voul\w*|voudr\w*|peux|peut|pouv\w*|pourr\w*|puis|faut|faudr\w*|fallait|"
    r"ser(?:ai|ait|a|as|ions|iez|ez)|est|sont|"
    r"ai|as|a|avons|avez|ont|aur\w*|"
    r"prend\w*|prenn\w*|pren\w*|met\w*|envoi\w*|envoy\w*|enverr\w*|donn\w*|ajout\w*|"
    r"rajout\w*|apport\w*|command\w*|reserv\w*|gard\w*|demand\w*|desir\w*|souhait\w*|"
    r"aim\w*|achet\w*|expedi\w*|livr\w*|sers|serv\w*|fais|fait|faites|laiss\w*|"
    r"fil\w*|pass\w*)"
)
# The infinitives a frame may end on ("je vais prendre", "faites-moi parvenir").
_INFINITIVE = (r"(?:prendre|avoir|mettre|envoyer|donner|ajouter|rajouter|apporter|commander|"
               r"reserver|garder|demander|acheter|expedier|livrer|parvenir|venir|porter|"
               r"servir|passer|offrir|recevoir|trouver)")
_SUBJECT = r"(?:je|j'|tu|vous|on|nous|il|ce|c'|ca|cela)"
_LEAD = r"(?:\s+(?:bien|plutot|aussi|volontiers)\b)?"
# After the verb: pronouns only before an infinitive ("je vais vous prendre": "la" after a
# verb is the thing's article), then what leads to the thing ("besoin de", "pour").
_TAIL = (rf"(?:(?:\s+{_PRONOUNS})*\s*{_INFINITIVE}\b)?(?:\s+besoin\b)?"
         r"(?:\s+(?:pour\b|de\b|d'))?")

_IMPERATIVE = re.compile(
    rf"(?<![\w'-])[a-z]+(?:{_JOINED})+(?![\w'-]){_LEAD}{_TAIL}")
_STATED = re.compile(
    rf"(?<![\w'-]){_SUBJECT}\s*(?:(?:ne|n')\s*)?(?:{_PRONOUNS}\s*)*{_VERBS}(?:{_JOINED})*\b"
    rf"{_LEAD}{_TAIL}")
# "il a des mugs ?", "c'est une théière", "vous avez": a bare "a" or "est" asks nothing.
_BARE = re.compile(rf"{_SUBJECT}\s*(?:a|as|ai|est|sont|avez|avons|ont)")
_SPACES = re.compile(r"\s{2,}")


def without_request_frame(text: str) -> str:
    """`text` without its French request frames (read without accents or case, cut from the
    text as written); `text` itself when it has none."""
    return _without_request_frame(text)


def asks_for(text: str) -> bool:
    """Whether `text` holds a French frame that asks to get something (« Faites-moi
    parvenir », « Ce serait pour », « Je vous prendrai », « J'aurais besoin de »), not one
    that asks to be told or shown (« Pourriez-vous me dire », « Je voudrais savoir si »)."""
    plain = _plain(text)
    return any(_GETTING.search(plain[start:end]) and not _TOLD.match(plain[end:])
               for start, end in _spans(plain))


# The verbs (and « besoin », « ce serait pour ») of a frame that asks to get a thing.
_GETTING = re.compile(r"\b(?:prend|prenn|pren|met|envoi|envoy|enverr|donn|ajout|rajout|apport|"
                      r"command|gard|serv|sers|parvenir|livr|expedi|faut|faudr|besoin|fil|achet|"
                      r"reserv|demand|voudr|veu[xt]|voul|aim|souhait|desir)\w*|"
                      r"\bser(?:ait|a) pour\b|^\s*ce sera\b")
# What follows a frame that asks to know or see, not to get: an infinitive of its own
# (« savoir », « voir »), or a question word (« demander si »).
_TOLD = re.compile(r"\s*(?:[a-z]+(?:er|ir|re|oir)|si|comment|pourquoi|quand|combien|ou|quel\w*|"
                   r"ce que|ce qui)\b")


def _plain(text: str) -> str:
    # one plain letter per letter written, so that what is found plain is cut as written
    return "".join((fold(ch) or ch)[:1] for ch in text)


def _frames(plain: str) -> list[str]:
    return [plain[start:end] for start, end in _spans(plain)]


def _spans(plain: str) -> list[tuple[int, int]]:
    cuts = [found.span() for found in _IMPERATIVE.finditer(plain)]
    cuts += [found.span() for found in _STATED.finditer(plain)
             if not _BARE.fullmatch(found.group().strip())
             and not any(start <= found.start() < end for start, end in cuts)]
    return sorted(cuts)


@lru_cache(maxsize=4096)
def _without_request_frame(text: str) -> str:
    cuts = _spans(_plain(text))
    if not cuts:
        return text
    kept, at = [], 0
    for start, end in cuts:
        kept.append(text[at:start])
        at = max(at, end)
    kept.append(text[at:])
    return _SPACES.sub(" ", " ".join(kept)).strip(" ,")
