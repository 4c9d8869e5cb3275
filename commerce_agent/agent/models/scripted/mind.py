"""A change of mind: "actually make it two", "scratch that, the large one", "forget the
plates", "finalement, trois", "やっぱり茶筅はやめます", "やっぱりやめます".

A shopper taking back what they just said opens with a marker ("actually", "on second
thought", "no wait", "en fait", "finalement", "やっぱり") or uses a verb that lets a thing go
("forget", "scratch", "oublie", "laisse tomber", "…はやめ"). The stage reads only the shape
of the message, before the keyword table: the marker is set aside and what follows is read
on its own; a thing let go is a removal; a marker with nothing after it but a refusal takes
back the line just added (`undo`), and with a bare count it is that line's new quantity. It
never decides which line: the cart edits do, as for any removal or count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.swaps import find_swap
from commerce_agent.agent.models.scripted import words

# Openings that take back what was said; a leading "no," / "non," / "いや" goes with them.
_MARKER = re.compile(
    r"^\s*(?:(?:no|nope|non|nah|wait|hmm+|oh|um+|ah|sorry|ok(?:ay)?|well|bon|ben|euh|"
    r"いや|いえ|あ|えっと|うーん)[\s,.!、。…-]+)*"
    r"(?:(?:actually|scratch that|on (?:second|further) thoughts?|second thoughts?|"
    r"change of plans?|"
    r"come to think of it|(?:i(?:'ve| have)? )?changed? my mind|no wait|wait|"
    r"thinking about it|en fait|finalement|tout compte fait|reflexion faite|"
    r"(?:j'ai )?change d'avis|"
    r"a la reflexion|(?:non )?attends?|attendez)(?![\w'])|"
    r"やっぱり|やっぱ|やはり|考え直して|気が変わって|気が変わりました)"
    r"[\s,.!、。…-]*", re.IGNORECASE)
# A leading no before a bare count: "no, just one", "oh no, only one please", "non, deux".
_REFUSED = re.compile(r"^\s*(?:oh\s+)?(?:no|nope|nah|non|いや|いえ)[\s,.!、。…]+")
# Another thing taken in place of the last: "I'll have the dripper instead", "plutôt le bol".
_INSTEAD = re.compile(r"^(?:(?:i'?ll|i will|i'?d|i would|let me|can i|could i)\s+)?"
                      r"(?:have|take|get|go with|like|prefer)\s+|\s+instead\s*[.!]*$|"
                      r"^je (?:prends|prendrai|prefere) plutot\s+")
# …only said with "instead" / "plutôt" ("take the dripper out" is a removal).
_TAKEN_INSTEAD = re.compile(r"\binstead\b|\bplutot\b")
# Letting a thing go: "forget the plates", "scratch the teapot", "oublie les bols".
_LET_GO = re.compile(
    r"^\s*(?:(?:please|pls|just|ok(?:ay)?|oh|no|nah|nope|hmm+)[\s,.!]+)*"
    r"(?:(?:forget|scratch|ditch|nix|leave (?:out|off)|oublie[rz]?|laisse[rz]? tomber)\s+"
    r"(?:about\s+)?|"
    # "I'll skip the teapot" (not "skip next month": a subscription's cycle)
    r"(?:(?:i'?ll|i will|let'?s|we'?ll)\s+)?skip\s+(?=(?:the|that|those|this|my)\s+"
    r"(?!next|months?|deliver|cycle|payment|week)))"
    r"(?P<thing>(?!it\b|that\b|this\b|everything\b|ca\b|cela\b|tout\b)\S.*)$")
# After a marker, "no teapot" / "pas de théière" / "plus de bols": that thing let go (an extra
# of a cart line is told apart later, as for "no olives").
_NO_MORE = re.compile(r"^(?:no|pas de|pas d'|plus de|plus d'|sans)\s*(?:more\s+)?"
                      r"(?!thanks?\b|problem|worries|rush|need|way\b|idea|merci|souci|probleme)"
                      r"(?P<thing>[a-z].*)$")
# "茶筅はやめます", "茶筅はなしで", "茶筅はいいです": a thing named, then let go.
_LET_GO_JA = re.compile(r"(?P<thing>(?!(?:今|今日|今回|今度|注文|ご注文|オーダー|サブスク|定期|"
                        r"予約)[はを])[^、。はを\s]+)(?:は|を)(?:やめ|止め|なしで|無しで|"
                        r"いいです|いらない|要らない|いりません|要りません)")
# Everything let go at once, said after a marker: "forget it", "never mind", "やめます".
_TAKE_BACK = re.compile(
    r"^(?:forget (?:it|that|this|about it)|never ?mind|scratch (?:it|that)|no thanks|"
    r"not anymore|cancel (?:it|that)|laisse[rz]? tomber|oublie[rz]?(?: ca| cela| le| la)?|"
    r"non merci|rien|やめます|やめる|やめておきます|やめときます|やめて|やめとく|いらない|"
    r"いりません|要りません|いいです|結構です|なしで|やめた|やーめた|やめました|"
    r"いらないです|要らないです|いらなくなりました)?[\s.!、。…]*$")

# Taking back what was just done, with or without a marker: "never mind", "undo that",
# "oops, wrong item", "my mistake", "laisse tomber", "oublie ça", "やめます", "間違えました".
# (No "cancel": "cancel that" after a purchase means the order.)
_UNDO = re.compile(
    r"^\s*(?:(?:oh|oops|whoops|ah|hmm+|sorry|no|nah|ok(?:ay)?|non|bon|oups|zut|pardon)"
    r"[\s,.!]+)*"
    r"(?:never ?mind(?: (?:that|it))?|forget (?:it|that|this|about it)|scratch (?:it|that)|"
    r"undo(?: (?:it|that|this|the last (?:one|thing|item)))?|take (?:it|that) back|"
    r"(?:that(?:'s| is| was) )?(?:the )?wrong (?:item|one|thing|product)|"
    r"my (?:mistake|bad)|i didn'?t mean (?:that|to(?: add (?:it|that))?)|"
    r"(?:oops|whoops|oups)|laisse[rz]? tomber|oublie[rz]?(?: ca| cela| le| la)?|"
    r"je me suis trompee?|(?:c'est )?une erreur|pas celui-la|annule[rz]? (?:ca|cela))"
    r"[\s.!…]*$")
_UNDO_JA = re.compile(r"^(?:あ|ああ|いや|やっぱり)?[、。\s]*(?:やめます|やめる|やめた|やめました|"
                      r"やめとく|やめておきます|間違え(?:ました|た)|間違いです|取り消して|"
                      r"なしにして|今のなし|今の取り消し)[。！!…\s]*$")

# After "I changed my mind" / "second thoughts", what it is about is let go: "I've changed my
# mind about the teapot", "j'ai changé d'avis pour la théière".
_ABOUT = re.compile(r"^(?:about|on|regarding|concerning|pour|sur|concernant)\s+(?P<thing>\S.*)$")
_MIND_CHANGED = re.compile(r"chang\w* (?:my mind|d'avis)|second thought|気が変わ")
# A count refused, then the one wanted: "not three, two", "non, pas trois, deux", "I don't
# want 3 plates, I want 2", "je ne veux pas trois assiettes mais deux".
_REFUSED_COUNT = re.compile(
    r"^(?:(?:no|non|nope|nah|oh|wait|sorry|pardon)[\s,.!]+)*"
    r"(?:not|pas|i (?:don'?t|do not) (?:want|need)|je n(?:e |')(?:veux|voudrais) pas(?: de)?)"
    r"\s+(?P<old>[^,;]+?)\s*(?:[,;]|\bbut\b|\bmais\b)+\s*(?P<new>.+)$")

# Keeping one thing and letting the rest go: "keep only the plate", "just the plate, lose the
# rest", "remove everything but the plate", "ne garde que l'assiette", "お皿だけにして".
_KEEP_ONLY = re.compile(
    r"^(?:(?:actually|ok(?:ay)?|no|hmm+|then|so|en fait|finalement|bon)[\s,.!]+)*(?:"
    r"(?:(?:just|only) )?keep (?:only|just) (?P<a>.+?)|(?:just|only) keep (?P<b>.+?)|"
    r"(?:just|only) (?P<c>(?:the|my) .+?)[,;]? (?:and )?(?:lose|drop|remove|ditch|scrap|"
    r"get rid of|forget|cancel) (?:the rest|everything else|all the rest|the others)|"
    r"(?:remove|drop|lose|ditch|delete|take out) (?:everything|all|the rest) "
    r"(?:but|except(?: for)?|apart from|other than) (?P<d>.+?)|"
    r"(?:ne )?garde[rz]? (?:que|seulement|juste|uniquement) (?P<e>.+?)|"
    r"(?:enleve[rz]?|retire[rz]?|supprime[rz]?) tout sauf (?P<f>.+?))[\s.!]*$")
_KEEP_ONLY_JA = re.compile(r"^(?:やっぱり|やはり)?[、\s]*(?P<thing>[^、。\s]+?)だけ"
                           r"(?:に(?:して|します)|残して|でいい|で(?:お願いします)?$)|"
                           r"(?P<other>[^、。\s]+?)以外(?:は|を)?(?:削除|消して|いらない|要らない|やめ)")


@dataclass(frozen=True, slots=True)
class Reading:
    # "remove", "quantity", "replace", "keep" (that line only), "undo" (a refusal that takes
    # back what was just added)
    # or ""
    # (read the rest as any message)
    intent: str
    text: str  # the words after the marker: what the shopper wants now


def read(raw: str) -> Reading | None:
    """How a change of mind reads, or None when the message takes nothing back."""
    folded = words.fold(raw)
    marker = _MARKER.match(folded)
    rest = folded[marker.end():] if marker else folded
    if marker is None and _LET_GO_JA.search(raw) and re.search(r"[はを](?:やめ|止め)", raw):
        return Reading("remove", raw)  # "茶筅はやめます": a thing named, then stopped
    kept = _KEEP_ONLY.match(folded) or _KEEP_ONLY_JA.search(raw)
    if kept is not None and words.quantity(raw) is None:
        thing = next(value for value in kept.groupdict().values() if value)
        return Reading("keep", thing)  # "keep only the plate": every other line goes
    recount = _recounted(folded, raw)
    if recount is not None:
        return Reading("quantity", recount)  # "not three, two", "3枚じゃなくて2枚"
    refused = _REFUSED.match(folded)
    if marker is None and refused and bare_count(folded[refused.end():]):
        return Reading("quantity", raw[refused.end():] if len(raw) == len(folded)
                       else folded[refused.end():])  # "oh no, only one please", "non, deux"
    if marker is None and (_UNDO.match(folded) or _UNDO_JA.match(raw.strip())):
        return Reading("undo", raw)  # "never mind", "undo that", "やめます": what was just done
    if marker is None and not _LET_GO.match(folded):
        return None  # "今はいいです" alone answers an offer: a softer let-go needs "やっぱり"
    # the shopper's own characters after the marker (folding keeps lengths, else its fold)
    rest_raw = (raw[len(raw) - len(rest):] if len(raw) == len(folded) else rest) if marker \
        else raw
    if _LET_GO.match(rest) or _LET_GO_JA.search(rest_raw):
        return Reading("remove", rest_raw)
    if marker is None:
        return None
    if find_swap(rest) is not None or (_TAKEN_INSTEAD.search(rest) and words.content_words(
            _INSTEAD.sub(" ", rest))):
        # "やっぱりマグじゃなくてティーポットにします", "actually, I'll have the dripper instead"
        return Reading("replace", rest_raw)
    about = _ABOUT.match(rest)
    if about and _MIND_CHANGED.search(folded[:len(folded) - len(rest)]) and words.content_words(
            about.group("thing")):
        return Reading("remove", about.group("thing"))  # "changed my mind about the teapot"
    no_more = _NO_MORE.match(rest)
    if no_more and words.content_words(rest):
        # the thing let go, without the "no" that would decline it from the query (a message
        # of several edits stays whole: each clause is read on its own)
        thing = no_more.group("thing")
        several = re.search(r"[,;]|\b(?:and|then|et|puis)\b", thing)
        return Reading("remove", rest_raw if several else thing)
    if _TAKE_BACK.match(rest):
        return Reading("undo", rest_raw.strip() or raw)
    if bare_count(rest):
        return Reading("quantity", rest_raw)
    return Reading("", rest_raw)


def _recounted(folded: str, raw: str) -> str | None:
    """The count wanted when a count is refused for another ("not three, two", "I don't want
    3 plates, I want 2", "3枚じゃなくて2枚"), said of the same thing, else None."""
    found = _REFUSED_COUNT.match(folded)
    if found is not None:
        old, new = found.group("old"), found.group("new")
    elif (swap := find_swap(folded)) is not None and re.search(r"じゃなく|ではなく", raw):
        old, new = swap.old, swap.new
    else:
        return None
    if words.quantity(old) is None or words.quantity(new) is None or \
            words.quantity(old) == words.quantity(new):
        return None
    said = words.content_words(words.without_measures(new)) - {"want", "need", "veux"}
    if said - words.content_words(words.without_measures(old)):
        return None  # "not three plates, two mugs" names another thing
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", new) and not bare_count(new):
        return None
    return new


def takes_back(raw: str) -> bool:
    """Whether a refusal is a change of mind ("やっぱりやめます", "actually, forget it"): right
    after an add it takes that line back, where a plain "no thanks" only declines an offer."""
    change = read(raw)
    return change is not None and change.intent == "undo"


# A count said as all the shopper wants: "I only need one plate", "just two of the mugs",
# "je n'en veux que deux", "2枚だけでいい".
_ONLY = re.compile(r"\b(?:only|just|seulement|que|qu')\b|だけ")


def recounts(raw: str) -> bool:
    """Whether a message says a count as all that is wanted ("I only need one plate") or as
    what the shopper now wants ("やっぱりお皿は2枚で", "actually, two plates"): of a line
    already in the cart that is its new count, not another line."""
    folded = words.fold(raw)
    if words.quantity(raw) is None or quantities.change(raw) is not None:
        return False
    return _ONLY.search(folded) is not None or _MARKER.match(folded) is not None


def bare_count(text: str) -> bool:
    """A count and nothing else: "just one", "make it two", "trois", "2つにします"."""
    if words.quantity(text) is None:
        return False
    left = re.sub(r"\b(?:just|only|make|it|that|them|those|this|one|ones|please|pls|instead|"
                  r"then|do|let'?s|lets|go|with|for|me|of|i'?ll|take|have|juste|seulement|"
                  r"plutot|alors|en|prends|prendre|mettez|mets|s'il|vous|te|plait|je|j'en|"
                  r"veux|voudrais|n'en|ne|qu|que|besoin|need|want)\b", " ",
                  re.sub(r"\bqu'", "", words.without_measures(text)))
    left = re.sub(r"[0-9]+|つ|個|点|本|枚|杯|袋|缶|箱|で|に|を|します|して|ください|お願い|"
                  r"いいです|にします|だけ|[\s,.!?、。…]", "", left)
    return not words.content_words(left) and not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]",
                                                            left)
