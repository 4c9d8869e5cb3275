"""Request forms: a verb of getting said as a request, in en, fr and ja, and what it asks for.

"commande-moi le livre", "ajoutez-m'en deux", "vous pouvez me prendre…", "八女玉露を注文して",
"急須をください", "grab me two plates" are instructions whatever else their words say: the
speech stage never reads them as questions, and the intent stage never reads a verb of
ordering in the imperative as a question about an existing order (« commande-moi le livre
signé » names "commande" and "livre", which the status table reads as "my order delivered").

The forms are a table per language, verb stems × the endings that make them requests (French
pronoun clitics and politeness frames, Japanese request endings, English imperative heads),
so every combination is covered, not a list of phrasings. Texts are folded (accents gone).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

Asked = Literal["add", "buy", "book", "subscribe"]

# French verbs of getting: the imperative (tu, vous) and the infinitive after a modal.
_FR_VERBS: dict[Asked, tuple[tuple[str, str, str], ...]] = {
    # (imperative tu, imperative vous, infinitive)
    "buy": (("commande", "commandez", "commander"), ("achete", "achetez", "acheter")),
    "add": (("ajoute", "ajoutez", "ajouter"), ("rajoute", "rajoutez", "rajouter"),
            ("mets", "mettez", "mettre"), ("remets", "remettez", "remettre"),
            ("prends", "prenez", "prendre"), ("donne", "donnez", "donner"),
            ("file", "filez", "filer"), ("garde", "gardez", "garder"),
            ("sers", "servez", "servir")),
    "book": (("reserve", "reservez", "reserver"),),
}
# A bare imperative opening a clause, its object an article or a count ("commande le livre",
# « commande un family feast à emporter »): never "la commande", which is the noun.
_FR_BARE_OBJECT = (r"(?:(?:le|la|les|un|une|des|du|deux|trois|quatre|cinq|six|dix|douze|"
                   r"\d{1,2})(?![\w-])|l')")
_FR_CLAUSE_START = r"(?:^|[,;.!:]\s*|\b(?:et|alors|bon|puis|donc|ok|oui|stp|svp)\s+)"
# Pronouns after an imperative: "-moi", "-m'en", "-le-moi", "-en". Never "-vous", "-il",
# "-t-il": those are a question's inversion ("ajoutez-vous…?").
FR_CLITICS = ("-moi", "-m'en", "-m'", "-nous", "-en", "-le", "-la", "-les", "-lui", "-le-moi",
              "-la-moi", "-les-moi", "-les-nous", "-en-moi")
# A request said around an infinitive: "vous pouvez m'ajouter…", "tu pourrais me prendre…".
FR_MODALS = ("tu peux", "vous pouvez", "peux-tu", "pouvez-vous", "pourriez-vous",
             "pourrais-tu", "tu pourrais", "vous pourriez", "tu veux bien", "vous voulez bien",
             "merci de", "je vais", "j'aimerais", "je voudrais", "je veux", "il faudrait",
             "il faut")
FR_OBJECTS = ("", "me ", "m'", "m'en ", "me l'", "me le ", "me la ", "me les ", "nous ",
              "le ", "la ", "les ", "l'", "en ")
# A thing asked for by its noun, as one orders at a counter: an article or a count, the thing,
# then "s'il vous plaît" ("une margherita petite taille, svp", "deux cafés s'il te plaît").
_FR_NOUN_REQUEST = re.compile(
    r"^(?:(?:bonjour|bonsoir|salut|alors|euh|bon|et|ok|donc)[ ,!]+)*"
    r"(?:un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|\d{1,2})\s+[a-z].*?"
    r"[ ,]+(?:s'il (?:vous|te) plait|svp|stp)\s*[.!]*$")

# Japanese: a thing, its particle (and a count), then a verb with a request ending.
_JA_STEMS: dict[Asked, tuple[str, ...]] = {
    "buy": ("注文", "購入"),
    "add": ("カートに追加", "カートへ追加", "追加"),
    "book": ("予約",),
}
JA_SURU_ENDINGS = ("して", "してください", "して下さい", "してほしい", "してほしいです",
                   "してもらえますか", "していただけますか", "してくれますか", "したい",
                   "したいです", "します", "をお願いします", "お願いします")
# Verbs of their own: "買う", "入れる" (into the cart).
_JA_VERBS: dict[Asked, tuple[str, ...]] = {
    "buy": ("買って", "買ってください", "買いたい", "買いたいです", "買います"),
    "add": ("カートに入れて", "カートに入れてください", "カートに入れたい", "カートに入れます",
            "入れて", "入れてください", "カートに", "カートへ", "カートにお願いします"),
}
# A thing asked for by its noun: "急須をください", "玄米茶が欲しいです", "…をお願いします".
JA_NOUN_ENDINGS = ("ください", "下さい", "お願いします", "お願い", "ちょうだい", "欲しい",
                   "欲しいです", "ほしい", "ほしいです")
# What is ordered is named before its particle; the cart's contents or "everything" are a
# checkout, not a thing.
# A count with its counter may stand for the particle casual speech drops (ノート1冊注文して).
_JA_THING = (r"(?<!カート)(?<!中身)(?<!全部)(?<!注文)(?:[をが]"
             r"(?:\s*[\d０-９一二三四五六七八九十]+\s*[つ個本枚冊杯袋箱点]?)?|"
             r"(?<=[^\d０-９一二三四五六七八九十\s])\s*[\d０-９一二三四五六七八九十]+\s*[つ個本枚冊杯袋箱点])\s*"
             # how it comes, said with で before the verb: "急須を風呂敷包みでカートに"
             r"(?:[^\s、。をがはにで]{1,12}(?:付き|つき)?で\s*)?")

# English imperative heads, at the start of a clause.
_EN_HEADS: dict[Asked, tuple[str, ...]] = {
    "buy": ("order me", "buy me", "purchase me"),
    # a place taken on a class or session: read before "get me" (getting a thing)
    "book": ("get me on", "get us on", "get me into", "get us into", "count me in for",
             "count us in for", "count me in on", "save me a place on", "save me a spot on",
             "save us places on", "put my name down for", "book me", "book us"),
    "add": ("grab me", "get me", "throw in", "toss in", "chuck in", "add me", "give me",
            "gimme", "hook me up with", "put me down for", "lemme get", "lemme have",
            "let me get", "let me have", "i'll take", "i'll have", "i'll get", "ill take",
            "snag me", "pencil me in for"),
}
_EN_OPENING = (r"(?:^|[,;.!?]\s*|\b(?:and|then|also|so|ok|okay|please|just|yeah|yes|alright)\s+)"
               r"(?:(?:can|could|would|will) you (?:please |just )?)?")
# "I'll just take it", "I'll simply have the tiramisu": an adverb inside the head changes nothing.
_EN_ADVERB = re.compile(r"\b(i'?ll|ill) (?:just|simply|happily|gladly|probably) ")

# A wish or a polite frame around a verb of getting, signing up or booking: "I was hoping to
# get…", "I'd love to sign up for…", "could you sort me out with…", "I'm after…". What the
# frame wraps is the request; the table is frames × verbs, never whole phrasings.
_EN_WISHES = (r"(?:i was |i am |i'?m |we were |we'?re )?hoping to|(?:i|we)(?:'?d| would) "
              r"(?:love|like|really like|quite like) to|(?:i|we) (?:want|need|wanna) to|"
              r"(?:i'?m|i am|we'?re) (?:keen|looking|wanting|trying|planning|after a way) to|"
              r"keen to|(?:can|could|would|will) you|i wanna")
_EN_WISHED: dict[Asked, tuple[str, ...]] = {
    "add": ("get", "grab", "pick up", "buy", "add", "order"),
    "subscribe": ("sign up for", "sign up to", "sign me up for", "subscribe to", "join",
                  "become a member of", "start"),
    "book": ("book", "reserve", "book in for", "book me in for"),
}
# Frames that are requests by themselves, the thing said after them.
_EN_WANTING = r"(?:sort|set|fix) (?:me|us) (?:out |up )?with|(?:i'?m|i am|we'?re) after"
# What a verb of getting may take that is no product: an order's status, a refund, the cart.
_NOT_A_THING = (r"(?!\s+(?:me\s+|us\s+)?(?:my|the|a|an|your)?\s*(?:order|status|refund|money|"
                r"receipt|cart|basket|invoice|tracking|delivery|update|discount|code)\b)")


def _alternatives(forms: Iterable[str]) -> str:
    """One alternation, longest form first so "-le-moi" is read before "-le"."""
    return "|".join(sorted((re.escape(form) for form in forms), key=len, reverse=True))


# Statements that take ("je prendrai", "il me faudrait"), and first-person verbs of taking,
# wanting, keeping or choosing with the thing as an object pronoun ("je le prends", "je la
# veux", "je les garde", "je l'achète", "j'en voudrais deux"): with the pronoun, "veux" is
# never "je veux savoir".
_FR_TAKING = ("prends", "prendrai", "prendrais", "veux", "voudrais", "voudrai", "garde",
              "garderai", "choisis", "choisirai", "achete", "acheterai", "commande",
              "commanderai", "retiens", "ajoute")
_FR_OBJECT_PRONOUNS = ("le ", "la ", "les ", "l'", "en ")
_FR_STATEMENTS = re.compile(
    r"\b(?:je (?:prendrai|prendrais|vais prendre|prends)|il me (?:faut|faudrait|faudra)|"
    rf"je (?:{_alternatives(_FR_OBJECT_PRONOUNS)})(?:vais )?(?:{_alternatives(_FR_TAKING)})|"
    rf"j'en (?:{_alternatives(_FR_TAKING)})|"
    rf"je vais (?:{_alternatives(_FR_OBJECT_PRONOUNS)})(?:prendre|acheter|commander|garder))\b"
    r"(?!\s+(?:pas|plus|point|jamais|aucun\w*)\b)")  # never negated: "j'en veux pas"


def _fr_pattern(verbs: tuple[tuple[str, str, str], ...]) -> re.Pattern[str]:
    imperatives = _alternatives(form for verb in verbs for form in verb[:2])
    infinitives = _alternatives(verb[2] for verb in verbs)
    clitics = _alternatives(FR_CLITICS)
    modals = _alternatives(FR_MODALS)
    objects = _alternatives(FR_OBJECTS)
    return re.compile(rf"\b(?:{imperatives})(?:{clitics})(?![\w-])|"
                      rf"\b(?:{modals})\s+(?:{objects})(?:{infinitives})\b|"
                      rf"{_FR_CLAUSE_START}(?:{imperatives})\s*{_FR_BARE_OBJECT}")


_FR = {asked: _fr_pattern(verbs) for asked, verbs in _FR_VERBS.items()}
_JA = {asked: re.compile(
    rf"{_JA_THING}(?:{_alternatives(_JA_STEMS.get(asked, ()))})"
    rf"(?:{_alternatives(JA_SURU_ENDINGS)})"
    + (rf"|{_JA_THING}(?:{_alternatives(_JA_VERBS[asked])})" if asked in _JA_VERBS else ""))
    for asked in _JA_STEMS}
_JA_NOUN = re.compile(rf"{_JA_THING}(?:{_alternatives(JA_NOUN_ENDINGS)})")
# A verb of putting with the cart as where the thing goes ("pop one in my basket", "stick it
# in the cart", "mettez-le dans mon panier"): a request to add, never a request to see the cart.
_INTO_THE_CART = re.compile(
    r"\b(?:put|pop|stick|chuck|throw|toss|drop|bung|slip|place|add|load|get|mets|mettez|"
    r"ajoute|ajoutez)\b(?:-\w+)?\s+(?:[\w'-]+\s+){0,4}?(?:in|into|to|on|onto|dans|a|au)\s+"
    r"(?:my|the|our|mon|le|notre)\s+(?:shopping\s+)?(?:cart|basket|bag|trolley|panier)\b")
_EN = {asked: re.compile(rf"{_EN_OPENING}(?:{_alternatives(heads)})\b{_NOT_A_THING}")
       for asked, heads in _EN_HEADS.items()}


_WISHED = {asked: re.compile(rf"(?:^|[,;.!?]\s*|\b(?:so|and|but|really|just)\s+)"
                             rf"(?:{_EN_WISHES}) (?:just |please |really )?"
                             rf"(?:{_alternatives(verbs)})\b{_NOT_A_THING}")
           for asked, verbs in _EN_WISHED.items()}
_WANTING = re.compile(rf"(?:^|[,;.!?]\s*|\b(?:so|and|but|just|please)\s+)"
                      rf"(?:(?:can|could|would|will) you (?:please |just )?)?(?:{_EN_WANTING})\b"
                      rf"{_NOT_A_THING}")


def asked(folded: str) -> Asked | None:
    """What a message in a request form asks for (add, buy, book, subscribe), else None.
    `folded` is the message folded (lower case, no accents); Japanese is left as written by
    folding."""
    folded = _EN_ADVERB.sub(r"\1 ", folded)
    for table in (_FR, _JA, _EN, _WISHED):
        for name, pattern in table.items():
            if pattern.search(folded):
                return name
    if _JA_NOUN.search(folded) or _FR_STATEMENTS.search(folded) or _FR_NOUN_REQUEST.search(
            folded) or _WANTING.search(folded) or _INTO_THE_CART.search(folded):
        return "add"
    return None
