"""A yes that changes something: the answer to what is on the table, with an edit said beside it.

Right after the shopper turned an order down, or when the agent offered a thing ("Want me to
add it?"), people answer yes and change one thing in the same breath: "yeah ok, but 3 of them",
"ok but add a tiramisu too", "yes, and use code DOLCE4", « oui mais trois », 「はい、でも3つに
してください」, "sure, make it 4". The yes answers the offer; the rest is the edit. This stage
reads which edit the rest makes, by kind of request rather than by phrasing:

- a **count** and nothing else ("but 3 of them", « mais trois », 「3つに」): the line's new
  count;
- a **cart edit** (a count, a removal, a swap) or an **addition** ("add a tiramisu too"):
  that request;
- a **code** ("and use DOLCE4"): kept for the order.

What the edit then leads to is the dialogue state's: a turned-down order is asked again on
the edited cart (its approval asked again: the shopper sees the new lines before anything is
paid); a thing offered is added with the count said.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.checkout_acts import read_checkout
from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.option_words import ENGLISH_OPTION_WORDS
from commerce_agent.agent.language.reading import read_message
from commerce_agent.agent.models.scripted import assent, words

# Cart edits that a checkout may follow in one message (the policy serves "…, then check out").
CART_EDITS = ("quantity", "remove", "replace")
# Counts with their Japanese counters, and the words that say only "make it" around a count.
_JA_COUNT = re.compile(r"[0-9０-９]+\s*(?:つ|個|点|袋|枚|本|冊|缶|箱|人前|皿|杯|セット)?")
_JA_MAKE_IT = re.compile(r"でも|けど|だけど|じゃなくて|に(?:して|変えて|変更して)|にします|で|を|"
                         r"ください|下さい|お願い(?:します)?|[、。,.!！\s]")


# Where a clause ends: "sure, make it 4 then go ahead" goes ahead after the count.
_CLAUSE = re.compile(r"[,;.!、。]|\s+(?:and then|then|and|et|puis|pis)\s+", re.IGNORECASE)


def says_yes(raw: str) -> bool:
    """Whether the message opens on, or holds, a yes and no no ("yeah ok, but …", « oui
    mais … », 「はい、でも…」)."""
    reading = assent.classify(raw)
    return reading.assent > 0 and reading.refusal == 0


def only_a_yes(rest: str) -> bool:
    """Whether what a message says besides its code is a yes and nothing else ("yes, and
    use …", « oui, avec le code … », 「はい、…を使って」)."""
    if in_japanese_script(rest):
        return assent.classify(rest).act in ("confirm", "other")
    return not words.content_words(rest)


def count_alone(text: str) -> int | None:
    """The count a yes carries when the rest names nothing else ("yeah ok, but 3 of them",
    « oui mais trois », 「はい、でも3つにしてください」), else None."""
    count = words.quantity(text)
    if count is None or count <= 0:
        return None
    rest = assent.classify(text).rest  # the words beside the yes ("ouais", 「はい」 go)
    if in_japanese_script(text):
        left = _JA_MAKE_IT.sub("", _JA_COUNT.sub("", "".join(rest)))
        return count if not words.japanese_query(left).strip() else None
    # the count's own words ("a couple", "half a dozen", « une douzaine ») are the count, read
    # as its digits, never something else named
    rest = assent.classify(read_message(text).folded).rest
    return count if not words.content_words(" ".join(rest)) else None


def count_said_plainly(text: str) -> str:
    """The message with its counts in digits ("yep, a couple" is "yep, 2")."""
    return text if in_japanese_script(text) else read_message(text).folded


def edit_then_order(kind: str, text: str) -> tuple[str, str] | None:
    """(the request, its words) that a yes with an edit makes once the order it answers was
    turned down: the edit, then the order again; None when the yes carries no edit."""
    count = count_alone(text) if kind in ("yes", "other", "add", "quantity") and \
        quantities.change(text) is None else None
    if count is not None:  # 「はい、2個でお願いします」: the count the line should hold
        return "quantity", f"make it {count}, then check out"
    if kind in CART_EDITS:  # (a Japanese edit in its own words: 「ギフトボックスで」)
        edit = beside_the_yes(text) if in_japanese_script(text) else ""
        return kind, f"{edit or text}, then check out"
    if kind == "add":
        return "buy", text  # "ok but add a tiramisu too": that added, then the order
    return None


# Where the yes ends and the edit begins: "ok but one more mug", "sure, without the planter".
_AFTER_YES = re.compile(r"\s*(?:[,;:!.、。]|\bbut\b|\bmais\b|でも|けど)\s*|\s+", re.IGNORECASE)
# A line left out, said as what the order goes without ("without the planter though", « sans
# le mug », 「マグなしで」): that line removed.
_LEAVING_OUT = re.compile(r"^(?:without|minus|except(?: for)?|sans|sauf)\s+(.+?)"
                          r"(?:\s+(?:though|then|please|svp|alors))?[\s.!]*$|^(.+?)(?:は)?なしで",
                          re.IGNORECASE)


def beside_the_yes(text: str) -> str:
    """What a message says after the yes it opens with ("ok but one more mug" says "one more
    mug"), or "" when it opens on no yes."""
    for cut in _AFTER_YES.finditer(text):
        head = text[:cut.start()]
        if head.strip() and assent.classify(head).act == "confirm":
            return text[cut.end():].strip()
    return ""


# What opens another thing said after a yes ("and also", « et aussi »): no words of it.
_ALSO = re.compile(r"^(?:(?:and|also|plus|as well as|with|et|aussi|avec|puis)\b[\s,]*)+",
                   re.IGNORECASE)


def another_thing(text: str, offered: frozenset[str]) -> str | None:
    """What a yes to "Want me to add it?" asks for besides the thing offered ("yes and also 2
    dinner plates", "sure, and a teapot too", « oui, et aussi deux assiettes »): the words of
    another thing, when they name more than the offered thing's own words (`offered`), its
    options and sizes; else None."""
    if in_japanese_script(text):
        return None
    beside = beside_the_yes(text)
    if not beside or _OF_IT.search(words.fold(beside)):
        return None  # ("two of them with garlic bread": more of the thing offered)
    # ("the cheaper one", "the 16 oz one": which of it, never another thing)
    plain = words.without_price_order(words.without_measures(beside))
    rest = " ".join(assent.classify(plain).rest)
    named = {word for word in words.content_words(rest) - offered - _ALSO_WORDS
             if word not in ENGLISH_OPTION_WORDS and words.stem(word) not in _OPTION_STEMS}
    return _ALSO.sub("", beside).strip() if named else None


_ALSO_WORDS = frozenset({"also", "too", "aussi", "et", "plus", "one"})
# A count of the thing offered itself: "two of them", "a couple of those", « deux comme ça ».
_OF_IT = re.compile(r"^(?:\w+\s+){1,2}of (?:them|those|these|it)\b|^(?:\w+ )?(?:en|d'entre eux)\b")
_OPTION_STEMS = frozenset(words.stem(word) for word in ENGLISH_OPTION_WORDS)


def leaving_out(text: str) -> str | None:
    """The removal a "without X" makes ("remove X"), or None when it leaves nothing out."""
    found = _LEAVING_OUT.match(text.strip())
    if found is None:
        return None
    return f"remove {found.group(1) or found.group(2)}"


# A verb setting a count, opening the message: "make it four", « mettez-en quatre ».
_SETS_A_COUNT = re.compile(r"^\s*(?:make (?:it|that)|(?:mets|mettez|fais|faites)[- ]en)\b",
                           re.IGNORECASE)


def count_for_the_offer(kind: str, text: str) -> str | None:
    """The request a message answering "Want me to add it?" makes when it is a yes with the
    count wanted: "yes" for the thing offered, that many ("sure, make it 4", "yes, 3
    please", "yeah add 2", « ouais mets-en 2 », or the count set alone: "make it four"); "buy"
    when it goes on to the order ("sure, two, and go ahead, pickup", "ok 3 then check out");
    None when it is no such yes."""
    if kind not in ("quantity", "yes", "pickup", "add") or count_alone(text) is None:
        return None
    if not says_yes(text) and (kind != "quantity" or quantities.change(text) is not None
                               or not _SETS_A_COUNT.search(text)):
        return None  # (a count set by its verb, "make it four", « mettez-en quatre », is a yes)
    clauses = [part.strip() for part in _CLAUSE.split(text) if part and part.strip()]
    counted = next((index for index, part in enumerate(clauses)
                    if words.quantity(part) is not None), len(clauses))
    onward = any(assent.goes_ahead(part) for part in clauses[counted + 1:])
    return "buy" if onward or read_checkout(text).concludes else "yes"
