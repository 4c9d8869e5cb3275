"""A French question asked in the negative, as spoken French asks whether a shop has a thing:
« vous auriez pas des mugs ? », « vous n'avez pas de théière ? », « t'as pas de tasses ? »,
« y a pas de matcha ? », « il n'y a plus de cache-pots ? » ask what « vous avez des
mugs ? » asks. The « pas de » there is no "without" (« une pizza sans olives », « pas
d'olives »): it is read as the plain question, « vous avez des … ? ».

Only the verbs of having and selling, with their subject (« vous », « tu », « il y a »),
and for « il y a » only a message asked with "?": « il n'y a pas de tasses dans ma
commande » says something is missing and stays as typed.
"""

from __future__ import annotations

import re

_HAVING = (r"(?:n'|ne )?(?:avez|auriez|as|aurais|vendez|vendriez|vends|vendrais|proposez|"
           r"proposeriez)")
_SUBJECT_ASKED = re.compile(
    rf"(?<![\w'-])(vous|tu|t')\s*{_HAVING}\s+(?:pas|plus|point)\s+(?:de |d'|des |du )",
    re.IGNORECASE)
_THERE_IS_ASKED = re.compile(
    r"(?<![\w'-])(?:il\s+)?(?:n'|ne\s+)?y\s*a(?:-t-il|urait)?\s+(?:pas|plus)\s+(?:de |d'|des |du )"
    r"(?=[^?]*\?\s*$)", re.IGNORECASE)


def asked_plainly(text: str) -> str:
    """`text` with a question asked in the negative said plainly (« vous n'avez pas de
    théière ? » → « vous avez des théière ? »)."""
    if "pas" not in text.lower() and "plus" not in text.lower() and "point" not in text.lower():
        return text
    text = _SUBJECT_ASKED.sub(lambda found: _subject(found.group(1)) + " des ", text)
    return _THERE_IS_ASKED.sub("il y a des ", text)


def _subject(said: str) -> str:
    folded = said.lower()
    return "vous avez" if folded == "vous" else "tu as"
