"""A change of mind: "actually make it two", "scratch that, the large one", "forget the
plates", "finalement, trois", "やっぱり茶筅はやめます", "やっぱりやめます".

A shopper taking back what they just said opens with a marker ("actually", "on second
thought", "no wait", "en fait", "finalement", "やっぱり") or uses a verb that lets a thing go
("forget", "scratch", "oublie", "laisse tomber", "…はやめ"). The stage reads only the shape
of the message, before the keyword table: the marker is set aside and what follows is read
on its own; a thing let go is a removal; a marker with nothing after it but a refusal takes
back the line just added (`undo`), and with a bare count it is that line's new quantity. It
never decides which line: the cart edits do, as for any removal or count.

A correction inside the message ("3, sorry I mean 2", « en 12, euh non, en 16 »,
「3つ、あ、やっぱり4つ」) is resolved before anything reads it (`corrected`): the value after
the marker replaces the value of the same kind said just before it (a count, a measure or
size, a time), and the message reads as if said right the first time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.detect import detect_language, in_japanese_script
from commerce_agent.agent.language.measures import find_measures
from commerce_agent.agent.language.numbers import fold_numbers
from commerce_agent.agent.language.spans import Span
from commerce_agent.agent.language.swaps import find_swap
from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.assent import classify

# Openings that take back what was said; a leading "no," / "non," / "いや" goes with them.
_MARKER = re.compile(
    r"^\s*(?:(?:no|nope|non|nah|wait|hmm+|hm+|oh|um+|uh+|ah|ugh|argh|er+m?|meh|oops|"
    r"whoops|sorry|ok(?:ay)?|well|so|bon|ben|euh|bah|oups|zut|"
    r"いや|いえ|あ|えっと|うーん)[\s,.!、。…-]+)*"
    r"(?:(?:actually|scratch that|on (?:second|further) thoughts?|second thoughts?|"
    r"change of plans?|"
    r"come to think of it|(?:i(?:'ve| have)? )?changed? my mind|no wait|wait|"
    r"thinking about it|en fait|finalement|tout compte fait|reflexion faite|"
    r"(?:j'ai )?change d'avis|"
    r"a la reflexion|(?:non )?attends?|attendez|"
    # a thing taken in place of the last, said first: "rather the dripper", « plutôt le bol »
    r"(?P<instead>plutot(?! que)|rather(?! than)|instead(?! of)|or rather|ou plutot))"
    r"(?![\w'])|"
    r"やっぱり|やっぱ|やはり|考え直して|気が変わって|気が変わりました)"
    # a refusal said after it goes with it: "wait no, just the one", « attends non, deux »
    r"(?:[\s,.!、。…-]+(?:no|nope|nah|non|いや|いえ)(?=[,.!、。…]))*"
    r"[\s,.!、。…-]*", re.IGNORECASE)
# The same marker said last ("pas de salade finalement", "no salad after all") or, in
# Japanese, after the topic ("棒茶はやっぱりいらない"): read as if it opened the message.
_MARKER_LAST = re.compile(
    r"[\s,.!…-]+(?:after all|actually|on second thoughts?|finalement|en fait|tout compte fait|"
    r"reflexion faite|a la reflexion|en fin de compte|au final)[\s.!…]*$|"
    r"(?<=[はも、])\s*(?:やっぱり|やっぱ|やはり)[\s、]*")
_REFUSED_OPENERS = re.compile(r"^\s*(?:(?:oh|no|nope|nah|non|いや|いえ)\s*[,.!、。…]+\s*)*")
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
    r"(?:(?:forget|scratch|ditch|nix|leave (?:out|off)|oublie[rz]?|laisse[rz]? tomber|"
    # "lose the planter", "toss the mugs" (a thing named with its article)
    r"(?:lose|toss|chuck)(?=\s+(?:the|that|those|these|this|my)\s(?![^.,;!?]*\b(?:orders?|"
    r"subscription|membership|plan|booking)\b))|"
    # "don't bother with the gift box" ("I don't need delivery, I'll pick it up" is no
    # let-go: the request stages read it)
    r"(?:(?:i|we) )?(?:don'?t|do not) bother with)\s*"
    r"(?:about\s+)?|"
    # "I'll skip the teapot" (not "skip next month": a subscription's cycle)
    r"(?:(?:i'?ll|i will|let'?s|we'?ll)\s+)?skip\s+(?=(?:the|that|those|this|my)\s+"
    r"(?!next|months?|deliver|cycle|payment|week)))"
    r"(?P<thing>(?!it\b|that\b|this\b|everything\b|ca\b|cela\b|tout\b)\S.*)$")
# After a marker, "no teapot" / "pas de théière" / "plus de bols": that thing let go (an extra
# of a cart line is told apart later, as for "no olives").
_NO_MORE = re.compile(r"^(?:"
                      # « finalement pas les assiettes », "actually not the plates"
                      r"(?:pas|plus|not|none of)\s+(?:(?:les|le|la|the|any)\s+|l')|"
                      r"no\b|pas de|pas d'|plus de|plus d'|sans)\s*(?:more\s+)?"
                      r"(?!thanks?\b|problem|worries|rush|need|way\b|idea|merci|souci|probleme)"
                      r"(?P<thing>[a-z].*)$")
# Without a marker, "no more" says the thing had is let go: "no more plates", « plus de bols
# finalement » (a bare "no plates" may decline an offer of plates).
_NO_LONGER = re.compile(r"^\s*(?:no more|plus de|plus d')\s*"
                        r"(?!thanks?\b|questions?|merci|probleme|soucis?|choix|info)"
                        r"(?P<thing>[a-z][^,;.!?]*?)[\s.!]*$")
# The stems of the verbs of getting a thing: 買(う), 頼(む), 注文し(ない), 購入し, 入れ.
_GETTING = r"(?:買|頼|注文し|購入し|入れ)"
# …negated or given up: 買わない, 頼みません, 注文しない, 買うのやめる (never 入れないで, "don't
# add it": a refusal of what is asked now, which the request stages read).
_GIVING_UP = (rf"{_GETTING}(?:(?:わ|ま)?ない(?!で(?!す)|の?[?？]|か)|(?:い|み)?ません|"
              r"[うむる]の?を?(?:やめ|止め))")
_GIVEN_UP_JA = re.compile(rf"[はを](?:もう|やっぱり?)?{_GIVING_UP}")
# "茶筅はやめます", "茶筅はなしで", "茶筅はいいです": a thing named, then let go.
# (The thing starts where a phrase does: inside 今回は its 回 is no thing.)
_LET_GO_JA = re.compile(r"(?:^|(?<=[、。\s!！?？]))"
                        r"(?P<thing>(?!(?:今|今日|今回|今度|注文|ご注文|オーダー|サブスク|定期|"
                        r"予約)[はを])[^、。はを\s]+)(?:は|を)(?:もう|やっぱり?)?(?:やめ|止め|"
                        r"なしで|無しで|いいです|いらない|要らない|いりません|要りません|"
                        # a verb of getting it, negated or given up: 買わない, 頼みません,
                        # 注文しない, 買うのやめる
                        rf"{_GIVING_UP})")
# Everything let go at once, said after a marker: "forget it", "never mind", "やめます".
_TAKE_BACK = re.compile(
    r"^(?:forget (?:it|that|this|about it)|never ?mind|scratch (?:it|that)|no thanks|"
    r"not anymore|cancel (?:it|that)|laisse[rz]? tomber|oublie[rz]?(?: ca| cela| le| la)?|"
    r"non merci|rien|やめます|やめる|やめておきます|やめときます|やめて|やめとく|いらない|"
    r"いりません|要りません|いいです|結構です|なしで|やめた|やーめた|やめました|"
    r"いらないです|要らないです|いらなくなりました|"
    # buying itself given up: 「買うのやめる」「買わないことにします」
    r"(?:買う|頼む|注文する|購入する)の(?:を|は)?(?:やめ|止め)[\u3041-\u3096]*|"
    r"(?:買わ|頼ま|注文し|購入し)ない(?:ことにし(?:ます|た|ました))?(?:です)?)?[\s.!、。…]*$")

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
                      r"なしにして|今のなし|今の取り消し|"
                      r"(?:買う|頼む|注文する|購入する)の(?:を|は)?(?:やめ|止め)[\u3041-\u3096]*)"
                      r"[。！!…\s]*$")

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
    said = raw if len(raw) == len(folded) else folded
    last = None if marker else _MARKER_LAST.search(said)
    # (« sans anchois finalement » refuses an option of the line: read by the option stages)
    if last is not None and last.start() > 0 and not said.lower().startswith("sans "):
        opener = len(said) - len(_REFUSED_OPENERS.sub("", said, count=1))  # "non, …": no first
        moved = "やっぱり" if "や" in last.group() else "actually, "
        return read(said[:opener] + moved + said[opener:last.start()] + said[last.end():])
    rest = folded[marker.end():] if marker else folded
    if marker is not None and marker.group("instead") and (
            "?" in rest or classify(rest).act in ("question", "decline") or
            not words.names_a_thing(rest) or not _DEFINITE.match(rest)):
        # "instead, what does shipping cost?", « plutôt pas »: no thing taken; "rather a 12
        # with mushrooms" may be one more as well as one in place: the request stages read it
        return None
    if marker is None and _LET_GO_JA.search(raw) and (
            re.search(r"[はを](?:やめ|止め)", raw) or _GIVEN_UP_JA.search(raw)):
        return Reading("remove", raw)  # "茶筅はやめます", "玉露は買いません": named, then stopped
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
    no_longer = None if marker else _NO_LONGER.match(folded)
    if no_longer is not None and words.content_words(no_longer.group("thing")):
        return Reading("remove", no_longer.group("thing"))  # "no more plates", « plus de bols »
    if marker is None and not _LET_GO.match(folded):
        return None  # "今はいいです" alone answers an offer: a softer let-go needs "やっぱり"
    # the shopper's own characters after the marker (folding keeps lengths, else its fold)
    rest_raw = (raw[len(raw) - len(rest):] if len(raw) == len(folded) else rest) if marker \
        else raw
    if _LET_GO.match(rest) or _LET_GO_JA.search(rest_raw):
        return Reading("remove", rest_raw)
    if marker is None:
        return None
    if find_swap(rest) is not None or ((_TAKEN_INSTEAD.search(rest) or marker.group(
            "instead")) and words.content_words(_INSTEAD.sub(" ", rest))):
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


# A thing taken in place of the last is one already in view: said with the definite article
# or a pointer ("rather the teapot", « plutôt le dripper », "instead that one").
_DEFINITE = re.compile(r"\s*(?:the|that|this|those|these|le|la|les|l'|celui|celle|ceux|celles|"
                       r"ce|cette|ces)\b")


# A number named with the definite article is a size or a model: "the 12", "la 16".
_NAMED_SIZE = re.compile(r"^\s*(?:the|le|la|les|l')\s*\d+(?:[.,]\d+)?\s*$")


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
    if _NAMED_SIZE.match(old) or _NAMED_SIZE.match(new):
        return None  # "not the 12, the 16": sizes named by their number, not counts
    if words.quantity(old) is None or words.quantity(new) is None or \
            words.quantity(old) == words.quantity(new):
        return None
    said = words.content_words(words.without_measures(new)) - {"want", "need", "veux"}
    if said - words.content_words(words.without_measures(old)):
        return None  # "not three plates, two mugs" names another thing
    if in_japanese_script(new) and not bare_count(new):
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
                  r"seul|seule|seuls|seules|single|"
                  r"veux|voudrais|n'en|ne|qu|que|besoin|need|want)\b", " ",
                  re.sub(r"\bqu'", "", words.without_measures(text)))
    left = re.sub(rf"[0-9]+|{quantities.COUNTER}|で|に|を|します|して|ください|お願い|"
                  r"いいです|にします|だけ|[\s,.!?、。…]", "", left)
    return not words.content_words(left) and not in_japanese_script(left)


# A correction marker inside a message, after what it corrects: said after a comma (or a
# Japanese comma) any marker will do; without one only a marker of several words ("3 sorry I
# mean 2"). Hesitations before it ("ah", "euh", "あ") go with it.
_HESITATION = r"(?:(?:um+|uh+|erm?|oh|oops|ah|euh|heu|bah|あ|ああ|えっと|えーと)[\s,、。…!]+)*"
_LONG_MARKER = (r"sorry,?\s+i\s+meant?|i\s+meant?|no\s+wait|no,?\s+sorry|wait,?\s+no|"
                r"make\s+(?:it|that)|or\s+rather|euh\s+non|enfin\s+non|ou\s+plut[oô]t|"
                r"je\s+veux\s+dire|non\s+pardon|pardon,?\s+non|やっぱり|やっぱ|じゃなくて|"
                r"ではなくて|ではなく|訂正")
# (a pause to think is a marker too: « deux, non attends, trois », "2, hang on, 3",
# 「2つ、待って、3つ」)
_PAUSE = r"attends?|attendez|hold\s+on|hang\s+on|ちょっと待って|待って"
# (and a guess made exact: "a few, say 4", « quelques-uns, disons 4 », "a couple, let's say 3")
_SHORT_MARKER = (rf"sorry|wait|actually|rather|no|nope|pardon|enfin|non|plut[oô]t|いや|いえ|"
                 rf"{_PAUSE}|(?:let'?s\s+)?say|disons|mettons")
_CORRECTION = re.compile(
    rf"(?:\s*[,;、。….!]+\s*{_HESITATION}(?:{_LONG_MARKER}|{_SHORT_MARKER})"
    rf"|\s+{_HESITATION}(?:{_LONG_MARKER}))"
    rf"(?:[\s,、。…!]+(?:make\s+(?:it|that)|i\s+meant?|sorry|non|no|pardon|je\s+veux\s+dire|"
    rf"{_PAUSE}|not\s+that(?:\s+one)?|pas\s+(?:celui|celle|ca|ça)(?:-l[aà])?))*"
    # (a Japanese marker runs into the next word: 「いや玄米茶」)
    r"(?:(?<=[\u3040-\u30ff\u4e00-\u9fff])|(?![^\W\d_]|'))[\s,、。…:!-]*", re.IGNORECASE)
# The value meant, first after the marker: a number with its unit or counter, or a time.
_NEW_VALUE = re.compile(
    r"^(?P<size>(?:in|en|the|a|an|un|une|le|la|size|taille)\s+)*"
    r"(?P<value>(?P<time>\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}\s*h(?:\s*\d{2})?|"
    r"\d{1,2}時(?:\d{1,2}分)?)"
    r"|\d+(?:[.,]\d+)?(?:\s*-?\s*[a-zà-ÿ]+\b|\s*(?:インチ|センチ|ミリ|グラム|キロ|つ|個|本|枚|"
    r"杯|袋|缶|箱|点|冊))?)", re.IGNORECASE)
# What may follow the value meant in English or French without making it another request.
_AFTER_VALUE = re.compile(r"^[\s,.!…]*(?:(?:instead|plut[oô]t|then|alors|please|pls|one|ones|"
                          r"s'il (?:te|vous) pla[iî]t|in (?:my|the) (?:cart|basket))"
                          r"[\s,.!…]*)*$", re.IGNORECASE)
# An apology left after the correction: "…, sorry I mean 2, my mistake".
_APOLOGY = re.compile(r"^[\s,.;!…]*(?:my (?:mistake|bad)|sorry|oops|pardon|d[ée]sol[ée]e?|"
                      r"ごめん(?:なさい)?|すみません)[\s.!…。]*$", re.IGNORECASE)
_TIME = re.compile(r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}\s*h(?:\s*\d{2})?|"
                   r"\d{1,2}時(?:\d{1,2}分)?", re.IGNORECASE)


def corrected(raw: str) -> str:
    """`raw` with each correction inside it resolved ("add 3 plates, no wait, make that 2" is
    "add 2 plates"); `raw` itself when it corrects nothing. Numbers in words are written as
    digits in a message that is rewritten."""
    plain = unicodedata.normalize("NFKC", raw)
    if _CORRECTION.search(plain) is None:
        return raw  # most messages: no marker, nothing to fold
    text = fold_numbers(plain, detect_language(plain))
    changed = False
    for _ in range(3):  # "3, no 4, sorry I mean 5"
        rewritten = _resolve_one(text)
        if rewritten is None:
            break
        text, changed = rewritten, True
    return text if changed else raw


def _resolve_one(text: str) -> str | None:
    for marker in _CORRECTION.finditer(text):
        head, after = text[:marker.start()], text[marker.end():]
        new = _NEW_VALUE.match(after)
        if new is None and head.strip():
            looked = _look_corrected(head, after) or _thing_corrected(
                head, marker.group(), after)
            if looked is not None:
                return looked
        if new is None or not head.strip():
            continue
        if _REFUSED_LAST.search(head):
            continue  # "no not the 16, make it a 12": the value refused is not the one meant
        value = new.group("value")
        rest = after[new.end():]
        if not in_japanese_script(rest.lstrip()[:1]):
            clause = re.match(r"[^,.;!?]*", rest)
            following = rest[clause.end():] if clause else ""
            if clause is None or not _AFTER_VALUE.match(clause.group()):
                continue  # "2 mugs, actually 3 plates": another request, not a correction
            rest = "" if _APOLOGY.match(following) else following
        elif _APOLOGY.match(rest):
            rest = ""
        old = _old_value(head, value, sized=bool(new.group("size")) and
                         new.group("size").strip().lower() in ("in", "en", "size", "taille"),
                         timed=bool(new.group("time")))
        if old is None:
            continue
        start, end, replacement = old
        return head[:start] + replacement + head[end:] + rest
    return None


# A clause that ends by refusing a value ("no not the 16", « pas la 16 »): a value said after
# it is the one wanted instead, never a correction of the refused one.
_REFUSED_LAST = re.compile(r"(?:^|[\s,])(?:not|pas)\s+(?:(?:the|a|an|le|la|un|une)\s+)?"
                           r"[\w-]+\s*$", re.IGNORECASE)


# A marker that refuses what was just said ("no", "sorry I meant", « non », 「いや」), not one
# that only goes on ("actually", "wait"): after it, a thing named replaces the thing before.
_REFUSING = re.compile(r"\b(?:no|nope|non|sorry|meant|rather|plut[oô]t|pardon)\b|"
                       r"いや|いえ|じゃなくて|ではなく|訂正", re.IGNORECASE)
# The object of the clause before the marker, from its determiner or count: "add [the
# sourdough ebook]", « ajoute [le livre sur le levain] », "put [2 plates]".
_OBJECT = re.compile(r"(?:^|\s)(?P<det>the|a|an|some|le|la|les|un|une|des|du|l'|\d+)"
                     r"(?:\s+|(?<=')|$)(?P<rest>[^,;.!?]*)$", re.IGNORECASE)
_NEGATED_CLAUSE = re.compile(r"(?:^|\s)(?:not|no|pas|non|never|jamais)\b", re.IGNORECASE)
_DETERMINED = re.compile(r"(?:the|a|an|le|la|les|un|une|l'|that|this|celui|celle)\b",
                         re.IGNORECASE)
_THING_CLAUSE = re.compile(r"^(?P<thing>[^,;.!?]+?)(?P<following>[,;.!?].*)?$", re.DOTALL)


def _thing_corrected(head: str, marker: str, after: str) -> str | None:
    """A correction whose new value is another thing ("add the sourdough ebook, actually no,
    the rust bundle", « ajoute le mug, non pardon, la théière »): the thing named after a
    refusing marker takes the place of the object said before it, with its verb and count;
    in Japanese, where the verb comes last (「ほうじ茶、いや玄米茶を入れて」), the noun said
    before the marker goes. None when either side names no thing."""
    if not _REFUSING.search(marker):
        return None
    if not (re.search(r"[,、。…:!-]\s*$|meant|rather|plut[oô]t|veux dire", marker, re.IGNORECASE)
            or _DETERMINED.match(after) or in_japanese_script(after[:1])):
        return None  # "a margherita, no olives": an option declined, not a correction
    if in_japanese_script(after[:1]):
        clause = re.split(r"[、。,]", head)[-1]
        if not clause.strip() or not in_japanese_script(clause) or re.search(
                r"[てでにをがはも]$|ます$|ください$", clause.strip()):
            return None  # a clause with a particle or verb is a request of its own
        return head[:len(head) - len(clause)].rstrip("、。, ") + after
    clause = _THING_CLAUSE.match(after)
    if clause is None or not words.names_a_thing(clause.group("thing")) or re.search(
            r"\d", clause.group("thing")):
        return None  # (a count after it is the count path's: "twenty seats, no, just one")
    if _NEGATED_CLAUSE.search(re.split(r"[,;]", head)[-1]):
        return None  # "non, pas la tasse, plutôt le dripper": a swap, read as one
    following = clause.group("following") or ""
    if following and not _AFTER_VALUE.match(following) and not _APOLOGY.match(following):
        return None  # "…, no, the teapot, and 2 plates": more than one thing
    obj = _OBJECT.search(head)
    if obj is None or not words.names_a_thing(obj.group("rest")):
        return None
    thing = clause.group("thing").strip()
    det = obj.group("det")
    if det.isdigit() and not re.match(r"\d|(?:the|a|an|le|la|les|un|une|des|l')\b", thing,
                                       re.IGNORECASE):
        thing = f"{det} {thing}"  # "add 2 plates, sorry I meant mugs": two mugs
    return head[:obj.start("det")] + thing


_LOOK_CLAUSE = re.compile(r"^(?:(?:the|a|an|in|en|le|la|un|une)\s+)?"
                          r"(?P<value>[^\W\d_]+(?:[ -][^\W\d_]+)?)"
                          r"(?P<rest>[^,.;!?]*)(?P<following>.*)$", re.IGNORECASE | re.DOTALL)
_WORD_RUN = re.compile(r"[^\W\d_]+")


def _look_corrected(head: str, after: str) -> str | None:
    """A correction whose new value is a colour or finish ("a speckled oat mug, no wait,
    cobalt blue"): it replaces the last run of look words said before it. One or two words, one
    of them a look, and nothing after them but politeness."""
    clause = _LOOK_CLAUSE.match(after)
    if clause is None or not _AFTER_VALUE.match(clause.group("rest")):
        return None
    value = clause.group("value")
    if not any(words.is_look_word(words.fold(word)) for word in value.split()):
        return None
    runs: list[tuple[int, int]] = []
    for found in _WORD_RUN.finditer(head):
        if words.is_look_word(words.fold(found.group())):
            if runs and not head[runs[-1][1]:found.start()].strip():
                runs[-1] = (runs[-1][0], found.end())
            else:
                runs.append(found.span())
    if not runs:
        return None
    start, end = runs[-1]
    following = clause.group("following")
    rest = "" if _APOLOGY.match(following) else following
    return head[:start] + value + head[end:] + rest


# A count said vaguely, which a number said after a marker makes exact.
_VAGUE_COUNT = re.compile(r"\b(?:a\s+)?(?:few|several|handful(?:\s+of)?|bunch(?:\s+of)?|"
                          r"couple(?:\s+of)?)\b|\b(?:quelques|plusieurs)\b|いくつか|幾つか",
                          re.IGNORECASE)


def _old_value(head: str, value: str, *, sized: bool,
               timed: bool) -> tuple[int, int, str] | None:
    """Where in `head` the value the correction replaces is, and what it becomes: a time by
    a time, a measure by a measure, a bare number the last count (or, said as a size, "en 16",
    or when no count was said, the last measure's number)."""
    if timed:
        times = list(_TIME.finditer(head))
        return (times[-1].start(), times[-1].end(), value) if times else None
    lowered = head.lower()
    measures = find_measures(lowered, [])
    said = find_measures(value.lower(), [])
    if said:
        same = [m for m in measures if m.dimension == said[0].dimension]
        return (same[-1].span[0], same[-1].span[1], value) if same else None
    digits = re.match(r"\d+(?:[.,]\d+)?", value)
    if digits is None:
        return None
    number = digits.group()
    counted = value[len(number):].strip(" -").lower()
    if counted and counted.isascii() and not re.search(rf"\b{re.escape(counted[:3])}",
                                                       lowered):
        return None  # "2 mugs, actually 3 plates" names another thing
    in_measure: list[Span] = [m.span for m in measures]
    runs = [run for run in re.finditer(r"\d+(?:[.,]\d+)?", head)
            if not _TIME.fullmatch(run.group()) and not re.match(r"\s*(?:am|pm)\b|時",
                                                                  head[run.end():], re.I)]
    counts = [run for run in runs if not any(low <= run.start() < high
                                             for low, high in in_measure)]
    sizes = [run for run in runs if run not in counts]
    chosen = (sizes or counts) if sized else (counts or sizes)
    vague = _VAGUE_COUNT.search(head)
    if not chosen and vague is not None and not sized:
        return vague.start(), vague.end(), number  # "a few genmaicha, say 4": four of them
    if not chosen:
        return None
    run = chosen[-1]
    counter = value[len(number):]
    # "3つ、やっぱり4つ": the counter said again goes with the old one's place
    if counter and head[run.end():].startswith(counter):
        counter = ""
    return run.start(), run.end(), number + (counter if counter and not
                                             re.match(r"\s*[^\W\d_]", counter) else "")
