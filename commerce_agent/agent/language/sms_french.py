"""French typed as text messages: « cb ca coute », « qd est-ce que ça arrive », « g un code »,
« vs avez des bols ? », « c bon jcommande », « tt de suite » read as « combien ça coûte »,
« quand est-ce que… », « j'ai un code », « vous avez des bols ? », « c'est bon je
commande », « tout de suite ».

Two closed classes, whole words only:

- shorthands no English or French word is spelt as (« qd », « pk », « bcp », « jsp »,
  « mtn »): always written out;
- shorthands that are also letters or abbreviations elsewhere (« c », « g », « vs », « tt »,
  « pr », « ds », « cb », also a French bank card): written out only beside French words,
  and only where the word they stand for goes — « c » and « g » before what follows « c'est »
  and « j'ai », « cb » never after « par », « en » or an article (« payer par cb » is a card).

Nothing is added that the shopper did not type in some form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

# Shorthands with one reading, in any message.
ALWAYS: dict[str, str] = {
    "qd": "quand", "qnd": "quand", "pk": "pourquoi", "pq": "pourquoi", "pkoi": "pourquoi",
    "koi": "quoi", "kel": "quel", "kelle": "quelle", "bcp": "beaucoup", "jsp": "je sais pas",
    "cmb": "combien", "cbien": "combien", "cmt": "comment", "auj": "aujourd'hui",
    "ajd": "aujourd'hui", "dmn": "demain", "mtn": "maintenant", "mnt": "maintenant",
    "tjs": "toujours", "tjrs": "toujours", "qqn": "quelqu'un", "qqun": "quelqu'un",
    "qqc": "quelque chose", "pcq": "parce que", "pck": "parce que", "psk": "parce que",
    "ptet": "peut-être", "ptetre": "peut-être", "dsl": "désolé", "vrmt": "vraiment",
    "bsr": "bonsoir", "chuis": "je suis", "cmd": "commande", "cde": "commande",
}
# Shorthands read only beside French words: (shorthand, what it stands for, what must follow
# it, what must not precede it).
_NEVER = r"(?!x)x"  # (a shorthand any word may precede)
_ARTICLE = r"(?:le|la|les|l'|un|une|des|du|de|d'|mon|ma|mes|ton|ta|tes|votre|vos|ce|cette|ces)"
_IN_CONTEXT: tuple[tuple[str, str, str, str], ...] = (
    # « cb ça coûte », « c cb », « cb de temps », « ça fait cb » (« payer par cb » is a card)
    ("cb", "combien", r"(?:\s+(?:ça|ca|coute|coûte|coutent|coûtent|de|d'|il|elle|ils|elles|"
                      r"en|pour|le|la|les|l'|fait|vous|tu|on|c'est|cest)\b|\s*[?!.]*\s*$)",
     r"(?:^|\s)(?:par|en|la|une|ma|ta|sa|votre|avec|carte)\s+$"),
    # « c bon », « c quoi », « c combien », « c parti », « c pour », « c tout »
    ("c", "c'est", r"\s+(?:bon|quoi|combien|cb|tout|tt|parti|ok|pour|fait|où|ou|quand|qui|"
                   r"gentil|noté|note|parfait|possible|dispo|cher|trop|pas|nickel|top|super|"
                   r"good|la|le|un|une|mon|ma|déjà|deja|bien|nul|beau|juste|clair|si|en|ici|"
                   r"ferme|fermé|ouvert|gratuit|normal|urgent|moi|toi|vrai)\b", _NEVER),
    # « g un code », « g pas reçu », « g besoin de… », « g commandé »
    ("g", "j'ai", r"\s+(?:un|une|le|la|les|des|du|pas|plus|besoin|deja|déjà|trouvé|trouve|"
                  r"commandé|commande|reçu|recu|oublié|oublie|changé|change|vu|eu|acheté|"
                  r"achete|fait|jamais|encore|toujours|envie)\b", _NEVER),
    ("vs", "vous", r"\s+(?:avez|pouvez|etes|êtes|livrez|faites|auriez|vendez|acceptez|"
                   r"proposez|voulez|pourriez|allez|me|m'|en|y|le|la|les)\b", _NEVER),
    ("ns", "nous", r"\s+(?:avons|sommes|allons|voulons|pouvons|serons|aurons)\b", _NEVER),
    ("tt", "tout", r"(?:\s+(?:de suite|le|la|les|ça|ca|ce|est|bon|seul|compris|"
                   r"mon|ma|mes)\b|\s*[?!.,]*\s*$)", _NEVER),
    ("pr", "pour", rf"\s+(?:{_ARTICLE}|moi|toi|lui|elle|nous|vous|eux|demain|ce soir|"
                   r"aujourd'hui|combien|quand|emporter|offrir)(?![\w'])", _NEVER),
    ("ds", "dans", rf"\s+(?:{_ARTICLE}|combien|quelques|deux|trois)(?![\w'])", _NEVER),
    ("ac", "avec", rf"\s+(?:{_ARTICLE}|moi|toi)(?![\w'])", _NEVER),
    ("avc", "avec", rf"\s+(?:{_ARTICLE}|moi|toi)(?![\w'])", _NEVER),
)
# Words that tell a message is French, for the shorthands that need it.
_FRENCH = frozenset("""je j' tu vous il elle on nous le la les l' un une des de du d' est c'est
pas ne n' pour mon ma mes ton ta votre vos avec et ça ca moi toi svp stp merci oui non
combien quand quoi ou où qui que commande panier livraison prix cher chère coute coûte
avez pouvez veux voudrais prends mets ajoute bonjour salut allo ya cest jai jveux bon ben
alors tout tiens code bols assiettes tasse tasses mug mugs dispo ok""".split())
_WORD = re.compile(r"[^\W\d_]+'?", re.UNICODE)
_ALWAYS = re.compile(r"(?<![\w'-])(?:" + "|".join(sorted(ALWAYS, key=len, reverse=True)) +
                     r")(?![\w'-])", re.IGNORECASE)
_CONTEXT = tuple((re.compile(rf"(?<![\w'-]){short}(?={follows})", re.IGNORECASE), full,
                  re.compile(rf"{not_after}", re.IGNORECASE))
                 for short, full, follows, not_after in _IN_CONTEXT)


def _french(text: str) -> bool:
    words = [word.lower() for word in _WORD.findall(text)]
    return sum(word in _FRENCH or word.rstrip("'") in _FRENCH for word in words) >= 1


@lru_cache(maxsize=4096)
def spelled_out(text: str) -> str:
    """`text` with the French text-message shorthands written out."""
    if not re.search(r"[A-Za-z]", text):
        return text
    text = _ALWAYS.sub(lambda found: _cased(found.group(), ALWAYS[found.group().lower()]),
                       text)
    if not _french(text):
        return text
    for pattern, full, not_after in _CONTEXT:
        text = pattern.sub(_written(full, not_after), text)
    return text


def _written(full: str, not_after: re.Pattern[str]) -> Callable[[re.Match[str]], str]:
    """The shorthand written out, unless what precedes it makes it something else."""
    def replaced(found: re.Match[str]) -> str:
        if not_after.search(found.string[:found.start()]):
            return found.group()
        return _cased(found.group(), full)
    return replaced


def _cased(typed: str, full: str) -> str:
    return full[0].upper() + full[1:] if typed[:1].isupper() else full
