"""How a reply answers the offer on the table: confirm, decline, question, instruction or other.

A shopper answers "Want me to add it?" (or an order they turned down a moment ago) in their own
words: "sure, go ahead", "ok fine", "👍", "d'accord, allez-y", "それでお願いします"; "nah", "not
now", "I changed my mind", "non merci", "結構です"; "hmm, how much is shipping?". Rather than a
list of whole phrasings, each message is scored against small per-language lexicons:

- **assent** terms ("yes", "go ahead", "sounds good", "vas-y", "お願いします", 👍) and **refusal**
  terms ("nah", "not now", "changed my mind", "non merci", "やめておきます", 👎) each add to
  their side;
- **negation scope**: an assent term within a few words after a negator ("not ok", "pas
  d'accord", "don't do it") counts for refusal, and a negator with nothing else ("not for me")
  is a refusal;
- **hedges** ("hmm", "maybe", "peut-être", "うーん") weigh nothing either way, and a question
  (a question mark, an interrogative opening, a Japanese final か) is a question unless assent
  phrases make up all of it ("why not?");
- whatever is left once the lexicons, politeness and words that restate the offer ("add it",
  "put it in my cart") are taken out is what else the message says: any such word or number
  makes it an instruction ("no, the blue one", "yes, two please"), never a bare yes or no.

The scores decide only between yes, no and neither; what a yes or a no then does (the offer it
answers, and nothing else) is the dialogue state's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.models.scripted.words import (
    content_words,
    fold,
    japanese_query,
    quantity,
)

SpeechAct = Literal["confirm", "decline", "question", "instruction", "other"]


@dataclass(frozen=True)
class Reading:
    act: SpeechAct
    assent: float = 0.0
    refusal: float = 0.0
    # Words the lexicons do not cover: what else the message asks for.
    rest: tuple[str, ...] = ()
    # It hesitates ("hmm", "maybe", "I'm not sure", "うーん").
    hedged: bool = False


def _terms(text: str) -> tuple[str, ...]:
    """Lexicon phrases, longest first, so "no thanks" is read before "no"."""
    return tuple(sorted({line.strip() for line in text.strip().splitlines() if line.strip()},
                        key=len, reverse=True))


# Phrases of assent in English and French (folded: no accents, straight apostrophes).
_ASSENT = _terms("""
yes
yeah
yea
yep
yup
ya
yas
sure
sure thing
ok
okay
k
kk
alright
all right
aight
fine
fine by me
perfect
great
good
cool
lovely
excellent
brilliant
wonderful
awesome
absolutely
definitely
certainly
totally
of course
exactly
correct
agreed
deal
go ahead
go on
go for it
do it
do that
proceed
please proceed
please do
sounds good
sounds great
sounds perfect
sounds fine
sounds like a plan
why not
let's do it
lets do it
let's go
lets go
let's do that
works for me
that works
that's fine
thats fine
fair enough
i'm in
im in
count me in
with pleasure
i'd love that
i'd love to
i would love that
no problem
affirmative
oui
ouais
ouaip
d'accord
daccord
d'acc
dac
parfait
entendu
bien sur
evidemment
volontiers
allez-y
allez
allez y
vas-y
vas y
allons-y
c'est parti
pourquoi pas
avec plaisir
je veux bien
ca marche
c'est bon
tres bien
ca me va
carrement
absolument
tout a fait
pas de probleme
pas de souci
sans probleme
faites-le
fais-le
go
c'est correct
c'est beau
c'est good
ca me convient
ca roule
ca joue
nickel
impeccable
super
genial
certainement
bien entendu
envoye
let's go
ok go
confirm
confirmed
i confirm
confirm it
confirm that
approve
approved
i approve
accept
accepted
je confirme
confirme
je valide
c bon
y
yy
yes sir
yessir
aye
indeed
mhm
mhmm
mm-hmm
uh huh
uh-huh
right
that's right
thats right
you bet
bet
for sure
100%
oki doki
okey dokey
okie dokie
go right ahead
make it so
do so
that's the one
thats the one
oui oui
c'est ca
exactement
ok d'accord
allez hop
""")
_REFUSAL = _terms("""
no
nope
nah
nay
no thanks
no thank you
not now
not today
not right now
not at the moment
not for now
no way
i don't think so
i dont think so
let's not
lets not
not this time
not really
not for me
not interested
maybe later
later
another time
some other time
next time
never mind
nevermind
forget it
forget about it
scratch that
i'll pass
ill pass
pass
skip
skip it
i'm good
im good
i'm fine
im fine
i'm ok
changed my mind
change my mind
change of mind
i change my mind
i've changed my mind
i'll think about it
let me think about it
let me think
rather not
i'd rather not
don't bother
dont bother
no need
leave it
no for now
non
non merci
pas maintenant
pas pour le moment
pas pour l'instant
pas pour l'heure
je ne prefere pas
je prefere pas
non plus
pas aujourd'hui
pas cette fois
plus tard
une autre fois
la prochaine fois
une prochaine fois
laisse tomber
laissez tomber
tant pis
oublie
oubliez
oubliez ca
ca ira
sans facon
pas la peine
pas besoin
j'ai change d'avis
change d'avis
je change d'avis
je vais reflechir
ca ne m'interesse pas
non attends
non attendez
finalement non
en fait non
non finalement
pas tout de suite
oublie ca
laisse faire
i'll give it a miss
give it a miss
i'll leave it
ill leave it
i'll leave it for now
maybe next time
maybe another time
not needed
i'm alright
im alright
i'm all good
im all good
i'll pass on that
pass on that
i'll pass on it
je passe mon tour
je vais m'en passer
je m'en passe
non ca va
ca va aller
c'est pas la peine
pas necessaire
pas interesse
pas interessee
nan
nan merci
nop
na
naa
no thnx
no thanx
i think i'll pass
i think ill pass
think i'll pass
ca va merci
c'est gentil mais non
gentil mais non
non c'est gentil
absolutely not
definitely not
certainly not
of course not
surely not
not at all
no way
hell no
no chance
no siree
hold off
hold off for now
hold off on it
hold off on that
let's hold off
lets hold off
i'll hold off
ill hold off
i'm gonna hold off
im gonna hold off
gonna hold off
hold that thought
not yet
not just yet
i'll wait
ill wait
i'd rather wait
id rather wait
let's wait
lets wait
wait on that
wait on it
better wait
some other day
another day
maybe some other day
nothing for now
not for today
i'll come back later
ill come back later
i'll come back for it
come back later
i'll decide later
decide later
i'll get it later
ill get it later
i'll sleep on it
ill sleep on it
let me sleep on it
sleep on it
i'll think it over
let me think it over
i need to think about it
need to think about it
i need to think
i'll think about that
let me check first
not so fast
hang on, no
absolument pas
certainement pas
surement pas
bien sur que non
surtout pas
pas du tout
pas encore
non pas encore
je vais attendre
j'attends
on attend
attends
attendons
attends un peu
attendez un peu
je vais y reflechir
je vais reflechir
je reflechis
laisse
laisse ca
je repasserai
je reviendrai
on verra
je verrai
une autre fois peut-etre
pas aujourd'hui merci
""")
# Saying one is fine as one is: a no to an offer ("all good thanks", "we're good", "I'm
# sorted"), unless the message also says yes or asks for the thing ("yes all good, add it").
_CONTENT = _terms("""
all good
it's all good
its all good
we're good
were good
we're all good
i'm sorted
im sorted
""")
_ASKS_FOR_IT = re.compile(r"\b(?:add|put|buy|take|get|order|ajoute\w*|mets|mettez|prends)\b")
# Words that restate the offer or are politeness: they neither add to a yes or a no nor ask for
# anything new ("ok, go ahead and add it to my cart please").
_ALONG = frozenset("""
please pls plz thanks thank you u thx thnx thanx tks ty cheers then and so that this it its
it's that's thats
one the a an for me to my cart basket add put buy take in into just would be would've that'd
thatd id i'd i ill i'll we us let lets let's on with well now actually really very much
sounds sound like looks look seems go ahead oh ah oh well yes indeed plan
merci s'il sil vous te plait svp alors le la les l ajoute ajoutez ajouter ajoutez-le
ajoutez-la ajoute-le ajoute-la mets mettez mettez-le mettez-la au panier moi pour avec
c'est cest bon ca cela celui-la je j tres bien worry about i'm im am mets-la mets-le
mets-les dans mon c gentil
""".split())
# Words a no may trail that a yes may not ("that's all", "rien d'autre").
_REFUSAL_TAIL = frozenset("all set else everything anything rien d'autre tout autre".split())
# "I don't want it anymore", "je n'en veux plus": about something had (a cart line), not the
# offer.
_NO_LONGER = frozenset("anymore longer plus".split())
# Hedging: weighs nothing either way; alone it is neither yes nor no.
_HEDGE = frozenset("""
hmm hm hmmm um umm uh er erm well wait maybe perhaps guess suppose probably actually so
ah oh aw
euh bah bof ben peut-etre finalement fait bon attends attendez
""".split())
# Hedging phrases that would otherwise read as a negated yes ("not sure" is no "no").
_HEDGES = _terms("""
not sure
i'm not sure
im not sure
not so sure
i don't know
i dont know
dunno
let me see
je ne sais pas
je sais pas
pas sur
pas sure
je ne suis pas sur
je ne suis pas sure
en fait
peut etre
""")
# Owning up to a slip ("sorry, misclicked", "oops, wrong button", « oups, je me suis trompé »):
# it takes back the answer just given and weighs nothing itself, so the yes or no beside it
# is the answer ("sorry, misclicked. sure, go ahead").
_SLIPS = _terms("""
sorry
so sorry
soz
oops
oopsie
whoops
woops
my bad
my mistake
my fault
misclick
misclicked
mis-clicked
mis clicked
mistapped
mis-tapped
fat fingered
fat-fingered
wrong button
clicked the wrong button
pressed the wrong button
hit the wrong button
tapped the wrong button
clicked the wrong one
pressed the wrong one
hit the wrong one
tapped the wrong one
i clicked wrong
i pressed wrong
didn't mean to
didnt mean to
did not mean to
didn't mean that
didnt mean that
i meant yes
i meant to approve
i meant to say yes
meant to approve
meant to click yes
pardon
desole
desolee
oups
je me suis trompe
je me suis trompee
mauvais bouton
j'ai clique trop vite
""")
# What may open a change of mind without being one ("actually, never mind").
_LATIN_TERMS = tuple(sorted(
    [*((term, "@yes") for term in _ASSENT), *((term, "@no") for term in _REFUSAL),
     *((term, "@hedge") for term in _HEDGES), *((term, "@slip") for term in _SLIPS),
     *((term, "@content") for term in _CONTENT)],
    key=lambda entry: -len(entry[0])))
# One-word answers a hurried spelling may stretch ("yesss", "nooo").
_ONE_WORD = {word: "yes" for word in ("yes", "yeah", "yep", "yup", "ok", "okay", "sure",
                                      "oui", "ouais")} | {"no": "no", "nope": "no", "nah": "no",
                                                          "non": "no"}
# Verbs that make a "no, …" a new request ("no, cancel it", "non, ajoute deux").
ACTION = re.compile(r"\b(?:add|buy|cancel|remove|return|check|show|find|make|change|switch|"
                    r"pause|resume|rate|tip|apply|use|want|need|like|take|get|prefer|instead|"
                    r"rather|order|pay|book|ajoute|annule|retire|montre|cherche|veux|voudrais|"
                    r"prends|command|pass|achet|reserv|pay)")
_NEGATORS = frozenset("not don't dont do-not never no-need ne pas jamais".split())
_NEGATION_SCOPE = 3  # words after a negator that it reaches ("not really that good")
_INTERROGATIVE = re.compile(
    r"^(?:how|what|what's|whats|which|when|where|where's|why|who|is|are|does|did|do|can|"
    r"could|would|will|shall|should|has|have|any|comment|combien|quand|ou|quel|quelle|quels|"
    r"quelles|pourquoi|est-ce|est ce|y a-t-il|puis-je|peut-on)\b")
# Spellings of a one-word yes ("okey", "yess", "yeahh"): a letter said twice is read once.
_SPELLINGS = {"okey": "@yes", "oki": "@yes", "okie": "@yes", "okey-dokey": "@yes",
              "okie-dokie": "@yes", "yah": "@yes", "yas": "@yes", "ye": "@yes", "nan": "@no"}
# Wanting and needing said not to ("I don't want it", "je n'en veux pas"): a no, when nothing
# else is named.
_WANTING = frozenset("want need like think prefer veux voudrais prefere besoin aime".split())
_EMOJI_ASSENT = re.compile(r"[\U0001F44D\U0001F44C\u2705\u2714\U0001F646\U0001F197\u2611]")
_EMOJI_REFUSAL = re.compile(r"[\U0001F44E\u274C\u2716\U0001F645\U0001F6AB]")
_EMOJI_ANY = re.compile(r"[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]")

# Japanese: terms matched anywhere (no spaces between words).
_JA_ASSENT = _terms("""
はい
うん
ええ
そうです
そうして
そうしよう
オッケー
おっけー
ok
了解
りょうかい
承知しました
お願いします
お願い
おねがいします
おねがい
それで
いいよ
いいです
いいね
いいですね
ぜひ
是非
よろしく
頼む
頼みます
たのむ
それにする
それにします
これにする
これにします
それにしよう
それに決め
それください
それを下さい
それをください
これください
構いません
かまいません
もちろん
大丈夫、お願い
はーい
はいはい
うんうん
おけ
オーケー
頼んだ
それで
そう、それ
""")
_JA_REFUSAL = _terms("""
いいえ
いや
いえ
結構です
けっこうです
結構
けっこう
いらない
要らない
いりません
要りません
ううん
いいや
大丈夫だよ
大丈夫っす
やめておきます
やめときます
やめておく
やめとく
やめます
遠慮します
遠慮しておきます
今はいい
今はいいです
今回はいい
今回は見送
見送ります
また今度
またにします
大丈夫です
気が変わ
やっぱりいい
なしで
やめて
やめよう
やめとこう
やめておこう
あとで
後で
後にします
あとにします
今度にします
今度で
考えます
考えておきます
考えとく
検討します
保留
まだいい
まだいいです
まだ大丈夫
また今度にします
また今度で
""")
_JA_SLIPS = _terms("""
すみません
すいません
ごめんなさい
ごめん
間違えました
間違えた
まちがえました
押し間違え
""")
_JA_HEDGE = _terms("""
ちょっと
うーん
うーむ
えっと
ええと
まあ
たぶん
多分
やっぱり
やっぱ
じゃあ
では
じゃ
それでは
""")
_JA_ALONG = re.compile(r"(?:カートに|カート|です|ます|します|ください|下さい|追加して|"
                       r"に|を|で|は|が|も|ね|よ|な|追加|入れて|買います|ありがとう(?:ございます)?|どうも|[、。,.!！?？\s~〜ー])")
_JA_QUESTION = re.compile(r"(?:か|かな|の|かしら)[?？]?\s*$|[?？]\s*$")
# A question that is a polite request ("それでお願いできますか"): asks for the offer.
_JA_REQUEST = re.compile(r"お願い|ください|下さい|もらえ|いただけ|くれ")


def _latin(folded: str) -> Reading:
    text = f" {_EMOJI_ANY.sub(' ', folded)} "
    assent = float(len(_EMOJI_ASSENT.findall(folded)))
    refusal = float(len(_EMOJI_REFUSAL.findall(folded)))
    # Mark each lexicon phrase by its side, longest first, so its words are not read again.
    marked = re.sub(r"[,;.!?:()\"]+|\s[-–—]+\s|[–—]+", " , ", text)
    marked = re.sub(r"\s+", " ", marked)
    for term, side in _LATIN_TERMS:
        if f" {term} " in marked:
            marked = re.sub(rf"(?<= ){re.escape(term)}(?= )", side, marked)
    # a yes word negated right after, at its clause's end ("sure not", « ok pas »): a no
    marked = re.sub(r"@yes (?:not|pas)(?= ,| $)", "@no", marked)
    rest: list[str] = []
    hedged = False
    scope = 0
    content = 0.0
    for word in marked.split():
        word = _spelled(word)
        if word == "@content":
            content += 1
            continue
        if word == ",":
            scope = 0  # a negator reaches no further than its clause
            continue
        if word in _NEGATORS or word.startswith("n'"):
            scope = _NEGATION_SCOPE
            refusal += 0.5  # "not for me", "don't": a no on its own
            continue
        if word == "@yes":
            if scope:
                refusal += 1  # "not ok", "pas d'accord", "don't do it"
            else:
                assent += 1
        elif word == "@no":
            refusal += 1
        elif scope and word in _WANTING:
            refusal += 0.5  # "I don't want it", "je ne veux pas"
        elif word in _HEDGE or word == "@hedge" or re.sub(r"(\w)\1+", r"\1", word) in _HEDGE:
            # ("ahh", "ohhh", "hmmmm": an interjection stretched is the same interjection)
            hedged = True
        elif word != "@slip" and word not in _ALONG:
            rest.append(word)
        scope = max(scope - 1, 0)
    if content and not assent and not _ASKS_FOR_IT.search(folded) and \
            not re.search(r"\bnow\b", folded):  # ("all good now": ready again, after a hold)
        refusal += content  # "all good thanks": fine as things are
    elif content:
        assent += content  # "yes all good, add it"
    return _decide(assent, refusal, tuple(rest), hedged)


def _spelled(word: str) -> str:
    """A yes or no as typed in a hurry: "yess", "okk", "nooo", "okey"."""
    if word in _SPELLINGS:
        return _SPELLINGS[word]
    single = re.sub(r"(\w)\1+", r"\1", word)
    if single != word and single in _ONE_WORD:
        return f"@{_ONE_WORD[single]}"
    return word


def _decide(assent: float, refusal: float, rest: tuple[str, ...], hedged: bool) -> Reading:
    if rest:
        said = " ".join(rest)
        # A no may trail words that ask for nothing ("nah, that's all for now"); a yes may
        # not ("yes, cancel it" is a request of its own, not the offer's yes).
        if refusal > assent and not content_words(" ".join(
                word for word in rest if word not in _REFUSAL_TAIL)) and \
                quantity(said) is None and not ACTION.search(said) and \
                not _NO_LONGER.intersection(rest):
            return Reading("decline", assent, refusal, rest, hedged)
        return Reading("instruction", assent, refusal, rest, hedged)
    if assent > refusal:
        return Reading("confirm", assent, refusal, hedged=hedged)
    if refusal and refusal >= assent:
        # "no, that's fine", "いや、いいです": as many yeses as noes is a no, which does nothing
        return Reading("decline", assent, refusal, hedged=hedged)
    return Reading("other", assent, refusal, hedged=hedged)


_FINE_ALONE = re.compile(r"[\s、。!！]*大丈夫[\s、。!！]*")
# 「大丈夫です、お願いします」「問題ないです、それでお願いします」: "it's fine" said before a
# request to go on is no "no thanks", it clears the way for the request.
_JA_FINE_THEN_ASKED = re.compile(r"(?:大丈夫|問題(?:ない|ありません)|いい|構わない)"
                                 r"(?:です)?[、,。\s]*(?=お願い|進めて|注文して|確定して|それで)")


def _japanese(text: str) -> Reading:
    text = fold(text)  # "OK" and full-width forms as the lexicon writes them
    assent = float(len(_EMOJI_ASSENT.findall(text)))
    refusal = float(len(_EMOJI_REFUSAL.findall(text)))
    rest = _JA_FINE_THEN_ASKED.sub(" ", _EMOJI_ANY.sub(" ", text))
    hedged = False
    # Refusal first: "いいです" inside "今はいいです" is a no.
    for terms, side in ((_JA_SLIPS, "slip"), (_JA_REFUSAL, "no"), (_JA_ASSENT, "yes"),
                        (_JA_HEDGE, "")):
        for term in terms:
            found = rest.count(term)
            if found:
                rest = rest.replace(term, " ")
                if side == "yes":
                    assent += found
                elif side == "no":
                    refusal += found
                elif side == "slip":
                    pass  # 「すみません、間違えました」: owns up to a slip, no answer itself
                else:
                    hedged = True
    rest = _JA_ALONG.sub(" ", rest).strip()
    if _FINE_ALONE.fullmatch(rest):
        refusal, rest = refusal + 1, ""  # 「大丈夫」 alone to an offer: fine without it
    said = japanese_query(rest).strip() if rest else ""
    if said or quantity(rest) is not None or re.search(r"[a-z0-9]", fold(rest)):
        return Reading("instruction", assent, refusal, tuple((said or rest).split()), hedged)
    return _decide(assent, refusal, (), hedged)


# Assent that tells the agent to act, not only that the shopper heard ("go ahead", "do it",
# « vas-y », 「進めて」): after "say “check out” when you're ready", the checkout.
_GO_AHEAD = re.compile(r"\b(?:go ahead|go for it|do it|proceed|let'?s do (?:it|this)|let'?s go|"
                       r"make it so|send it|confirm(?:ed)?|approved?|vas-y|allez-y|on y va|"
                       r"c'est parti|fonce|"
                       r"foncez|je (?:confirme|valide))\b|"
                       # 「これでお願いします」「それでいいです」: what is there, as it is
                       r"進めて|やって|(?:これ|それ)で(?:お願い|いい|大丈夫|決定|確定|注文)",
                       re.IGNORECASE)


# A whole message saying the shopper is ready for the order ("ok i'm done shopping", "ship
# it", "let's do this", "good to go", « on y va », « je suis prêt »): told to act, as above.
_READY_TO_ORDER = re.compile(
    r"^(?:(?:ok(?:ay)?|k|alright|all right|yes|yeah|yep|yup|ya|sure|cool|great|perfect|good|"
    r"right|so|and|now|just|please|pls|then|all good|(?:that )?sounds? (?:good|right|great|fine)|"
    r"looks? (?:good|right|great|fine)|that'?s right|oui|bon|parfait|super|alors|ok go)"
    r"[\s,.!-]+)*"
    r"(?:(?:i'?m|im|i am|we'?re|we are)\s+)?"
    r"(?:ready(?: to go| now)?|all set|good to go|done(?: shopping| here)?|"
    r"finished(?: shopping)?|let'?s (?:do (?:it|this)|go|get (?:it|this)(?: done)?)|"
    r"(?:ship|send) (?:it|them|that)(?: (?:over|out|off|through|along))?(?: to me)?|"
    r"get (?:it|them) ordered|(?:just )?order(?: (?:it|them))?(?: already)?|go|"
    r"on y va|allons-y|c'est parti|je suis pret(?:e)?|envoie(?:z)?(?:-le|-les)?)"
    r"(?:[\s,.!]+(?:please|pls|now|then|thanks|thank you|already|merci|svp|stp))*[\s.!]*$")


def goes_ahead(raw: str) -> bool:
    """A bare yes that tells the agent to act ("ok now do it", "sure, go ahead"), or a
    message saying the shopper is ready for the order ("ship it", "ok i'm done shopping")."""
    folded = fold(raw).strip()
    return (classify(raw).act == "confirm" and _GO_AHEAD.search(folded) is not None) or \
        _READY_TO_ORDER.match(folded) is not None


# Praise said as a whole message ("sweet", "nice one", "rad", « top », « trop bien »,
# 「最高」): after something was just done it applauds it; it names no product, though some of
# these words could ("something sweet" is still a search), so only a message of nothing else.
_ACCLAIM = re.compile(
    r"^(?:(?:oh|ah|wow|ooh|so|very|really|super|how|that'?s|thats|ok|okay|cool|thanks|thank you|"
    r"ty|thx|cheers|merci|c'est|trop)\s*[,!.]*\s*)*"
    r"(?:sweet|nice(?: one)?|neat|rad|dope|ace|sick|noice|splendid|superb|fab|fabulous|"
    r"fantastic|terrific|amazing|marvell?ous|brilliant|awesome|wicked|lit|yay|woo+hoo+|woo+|"
    r"top|genial|geniale|impec|impeccable|chouette|trop bien|magnifique|formidable|"
    r"最高|完璧|やった|素晴らしい|すばらしい|いいね|ナイス)"
    r"(?:\s*[,!.]*\s*(?:thanks|thank you|ty|thx|cheers|merci|!|\.|,|🙂|😊|🎉|👍))*[\s!.。！]*$")


def acclaims(raw: str) -> bool:
    """Whether the whole message is praise ("sweet!", "oh nice, thanks", « top merci »)."""
    return _ACCLAIM.match(fold(raw).strip()) is not None


@lru_cache(maxsize=4096)
def classify(raw: str) -> Reading:
    """The speech act of a reply to an offer, with its scores."""
    text = raw.strip()
    if not text:
        return Reading("other")
    if in_japanese_script(text):
        reading = _japanese(text)
        if _JA_QUESTION.search(text) and not _JA_REQUEST.search(text):
            return Reading("question", reading.assent, reading.refusal, reading.rest,
                           reading.hedged)
        return reading
    folded = fold(text).strip()
    reading = _latin(folded)
    # (a refusal followed by a question, "not yet, what does it cost", asks it)
    asks = folded.endswith("?") or _INTERROGATIVE.search(folded) is not None or any(
        _INTERROGATIVE.search(clause.strip()) for clause in re.split(r"[,.;!]", folded)[1:])
    if asks and not (reading.act == "confirm" and not reading.rest):
        return Reading("question", reading.assent, reading.refusal, reading.rest,
                       reading.hedged)
    return reading
