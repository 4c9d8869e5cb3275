"""What the person wants: one intent per message, read from its words.

The checks run in order, most specific first ("cancel my subscription" before "cancel",
"buy it now" before "add"); a message that names no intent is `other`, which answers a
question the agent asked or gets the help text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from commerce_agent.agent.language import quantities, request_frames
from commerce_agent.agent.language.checkout_acts import (
    Checkout,
    read_checkout,
    says_nothing_else,
)
from commerce_agent.agent.language.closing import closing, pausing, without_closing
from commerce_agent.agent.language.codes import codes_asked_about, without_code_waved_away
from commerce_agent.agent.language.countries import country_named
from commerce_agent.agent.language.delivery import read_delivery, wants_pickup
from commerce_agent.agent.language.doing_asked import doing_asked
from commerce_agent.agent.language.fuzzy import correct_words
from commerce_agent.agent.language.held_purchase import refused_purchase
from commerce_agent.agent.language.kept_things import without_kept
from commerce_agent.agent.language.numbers import NUMBER_WORDS
from commerce_agent.agent.language.packs import amount_asked
from commerce_agent.agent.language.reading import read_message, without_when
from commerce_agent.agent.language.refused_acts import refuses_an_act
from commerce_agent.agent.language.swaps import find_swap, refuses_first
from commerce_agent.agent.language.tips import gives_a_tip, read_tip
from commerce_agent.agent.models.scripted import mind, plan_verbs, topics, which_order, words
from commerce_agent.agent.models.scripted.assent import classify
from commerce_agent.agent.models.scripted.facts import STOCK, asks_enough
from commerce_agent.agent.models.scripted.speech import (
    Act,
    asks_a_way,
    dismissed,
    opens_with_a_verb,
    read_act,
    settle,
    tagged,
    without_discourse,
)

_SUBSCRIPTION = plan_verbs.PLAN
# A plan no longer wanted, said as a negation ("don't want my membership anymore", « je ne
# veux plus de mon abonnement », 「会員はもういらない」): ending it, not a refusal of an offer.
_NEGATED_WANT = r"(?:not|no|don'?t|dont|do not|never) (?:\w+ )?(?:want|need|use)\w*\b"
_NO_LONGER_WANT = (r"(?:\bno (?:longer|more) (?:\w+ )?(?:want|need|use)\w*\b|"
                   r"\bno (?:more )?need\b(?! to\b))")  # "no need membership more"
_ANY_MORE = r"\b(?:anymore|any more|any longer|no more|no longer)\b"


def _no_longer(noun: str) -> str:
    """A thing no longer wanted, in any order and any grammar: "no longer want my plan",
    "no more want the subscription", "the membership, I not want it anymore", "folio plan
    no more need"."""
    return (rf"{_NO_LONGER_WANT}.*{noun}|{noun}.*{_NO_LONGER_WANT}|"
            rf"\b{_NEGATED_WANT}.*{noun}.*{_ANY_MORE}|{noun}.*\b{_NEGATED_WANT}.*{_ANY_MORE}")


NO_LONGER = (rf"{_no_longer(_SUBSCRIPTION)}|"
             rf"\b(?:ne|n')\s*(?:veux|voudrais|souhaite|utilise)\w* plus\b.*{_SUBSCRIPTION}|"
             rf"\b(?:n'ai )?plus besoin\b.*{_SUBSCRIPTION}|"
             rf"{_SUBSCRIPTION}.*(?:もういらない|もう要らない|いらない|要らない|不要)|"
             + "|".join(plan_verbs.BILLING_ENDED))
_ENDS_A_PLAN = re.compile(NO_LONGER)
# An order no longer wanted ("i no want this order anymore"): calling it off, not a refusal,
# unless another act is said with it ("return my order, I don't want it anymore").
_ENDS_AN_ORDER = re.compile(_no_longer(r"\b(?:orders?|purchases?)\b"))
# An order undone, said as making it not have happened, with the order named ("forget that
# order", « laisse tomber cette commande », « oublie ma commande », 「注文をなかったことにして」):
# calling it off, never a cart line dropped nor a dismissal of the offer on the table.
UNDOES_AN_ORDER = (r"\b(?:forget|undo|unplace)\b.{0,12}\b(?:orders?|purchases?)\b(?!.{0,20}\b"
                   r"(?:cart|basket)\b)|"
                   r"\b(?:laisse[rz]? tomber|oublie[rz]?|efface[rz]?|supprime[rz]?)\b"
                   r".{0,12}\bcommandes?\b(?!.{0,20}\bpanier\b)|"
                   r"(?:注文|オーダー|購入).{0,8}(?:なかった|無かった|なし|無し)(?:こと|事)?(?:に|で)"
                   r"(?!は?(?:しない|しません|しなく|せず))")
_UNDOES_AN_ORDER = re.compile(UNDOES_AN_ORDER)
_MAY_END_AN_ORDER = ("remove", "other", "no", "cancel", "add", "search", "status", "details")
_OTHER_ACTS_ON_A_PLAN = ("sub_pause", "sub_resume", "sub_skip", "sub_frequency", "return",
                         "reorder")
# A French shopper taking or wanting something, in any tense they say it ("je prendrai",
# "j'aimerais", "je vais prendre", "j'achète"): accents are folded away before matching.
_FRENCH_TAKE = (r"(?:voudrais|veux|voulais|prend\w*|aimerai\w*|souhaite\w*|commande(?:rai\w*)?|"
                r"achete\w*|ajoute\w*|mets)")
# A sum of money or a share: "15%", "$3", "3 dollars", "2 €", "500円".
_AMOUNT = (r"(?:[$£€¥]\s*\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s*(?:%|percent|pour ?cent|dollars?|"
           r"bucks|euros?|pounds?|yen|usd|eur|gbp|jpy|[$£€¥円]))")
# Who a tip is for.
_SERVERS = (r"(?:driver|courier|rider|kitchen|staff|server|waiter|waitress|chef|cooks?|team|"
            r"delivery (?:guy|person|driver)|livreur|livreuse|cuisine|equipe|serveur|serveuse|"
            r"personnel)s?\b")
# A score out of five, or stars drawn: what a rating says, with or without the word "stars".
_SCORE = r"(?<!\d)[1-5]\s*/\s*5\b|\b[1-5] (?:out of|sur) (?:5|five|cinq)\b|[⭐★🌟]"
# A question about what the shopper already did: what they ordered, whether their payment went
# through, whether they were charged. The order answers it (its lines, total and status), so
# it is never a new checkout ("did my payment go thru?", « qu'est-ce que j'ai commandé ? »,
# 「支払いはできていますか」). Past or perfect only: "can I pay by card?" asks the store's terms.
_WHAT_I_DID = (
    r"\bwhat (?:\w+ ){0,2}(?:did|have|had) (?:i|we) (?:\w+ )?(?:order|buy|purchase|get|pay "
    r"for)\b|\bwhat (?:i|we) (?:\w+ )?(?:ordered|bought|purchased|paid for)\b|"
    r"\b(?:did|has|have|was) (?:my|the) (?:payment|transaction|charge|card)\b|"
    r"\b(?:my|the) (?:payment|transaction)\b.{0,30}\b(?:go|goes|gone|went|come|came) "
    r"(?:through|thru)\b|\b(?:was|were|have|has) (?:i|we|it) (?:been |already |actually )*"
    r"(?:charged|billed|paid)\b|"
    r"\b(?:qu'?est-ce que|ce que|qu') ?(?:j'ai|nous avons|on a) (?:\w+ )?(?:commande|achete)\b|"
    r"\b(?:mon|le) (?:paiement|payment)\b.{0,20}\b(?:passe|accepte|valide|abouti|"
    r"fonctionne|marche)\b|"
    r"\b(?:ai-je|j'ai|on m'a|m'avez-vous|vous m'avez) (?:bien |deja )*(?:ete )?(?:debite|"
    r"preleve|facture)e?s?\b|"
    r"何を(?:注文|購入|買っ|頼ん)|(?:支払い|支払|決済)(?:は|って|が)?.{0,8}(?:できて|できた|"
    r"完了|済|通っ|終わっ)")
_CHECKS: list[tuple[str, str]] = [
    # A plan's life, from the one lexicon (plan_verbs). Skipping a cycle: no tool skips one,
    # so it is answered (pausing is how), never done.
    ("sub_skip", plan_verbs.pattern("skip")),
    ("sub_pause", plan_verbs.pattern("pause")),
    ("sub_resume", plan_verbs.pattern("resume")),
    ("sub_cancel", plan_verbs.pattern("cancel", (NO_LONGER,))),
    # another billing frequency: answered (no tool changes one), after the acts it may name
    ("sub_frequency", plan_verbs.pattern("frequency")),
    # Ordering again what was ordered: "same again", "reorder", "la même chose", "同じものを".
    ("reorder", r"\bsame again\b|\bsame (?:order |thing )?as (?:last time|before)\b|"
                # "the same thing again", 「もう一回同じのを」, 「前回と同じ注文を」
                r"\bsame (?:thing|order|stuff|one|items?) (?:again|once more)\b|"
                r"(?:もう一度|もう一回|もう1回|また|再度).{0,6}同じ|(?:前回|この前|前)と同じ|"
                r"\bre-?order\b|\b(?:order|buy|get) (?:it|that|them|those|this|the same"
                r"(?: thing| order)?|my last order) again\b|"
                r"\b(?:the same|la meme) (?:order|commande) (?:again|encore)\b|"
                # "order the teapot again", "buy my usual pizza again": what was ordered
                r"\b(?:order|buy|get)\b[^.?!]{1,40}\b(?:again|once more)\b|"
                r"\bla meme chose\b|\b(?:re)?commander (?:la meme|a nouveau|encore)\b|"
                # "recommande les assiettes" (re-order), not "vous me recommandez…" (advice)
                r"(?<!\bme )(?<!\bm')(?<!\bnous )(?<!\bvous )(?<!\bte )(?<!\bje )"
                r"\b(?:re-?)?recommande[rz]? (?:les?|la|l'|mes|ma|mon|ces|cette|ce) "
                r"(?!plus\b|meilleure?s?\b)|"
                r"\bpareil(?:le)? que la derniere fois\b|"
                r"\b(?:refai\w*|repass\w*)\b.{0,20}\b(?:commande|la meme)\b|"
                r"同じもの|同じ(?:の|注文).{0,6}(?:もう一度|もう一回|また)|もう一度注文|再注文"),
    # How to reach a store and what money it prices in: its own details, never a product
    # ("émail" is a glaze: "le mug émail" names a product, not an e-mail address).
    ("contact", r"\b(?:contact(?: details| info\w*)?|get in touch|reach (?:you|them|the (?:shop|"
                r"store|studio))|phone|telephone|call (?:you|them|the (?:shop|store|studio))|"
                r"(?:your|an|the|by|via|par|votre|un) e-?mail|e-?mail (?:address|adresse)|"
                r"email you|website|web ?site|customer (?:service|support)|joindre|contacter|"
                r"courriel|site (?:web|internet))\b|電話|連絡先|メールアドレス|問い合わせ"),
    ("currency", r"\bcurrenc(?:y|ies)\b|\bdevises?\b|\bmonnaie\b|\ben quelle monnaie\b|"
                 r"\b(?:accept|take|charge in|pay in|acceptez|prenez)\b.{0,20}\b(?:euros?|dollars?|"
                 r"pounds?|sterling|yen|usd|eur|gbp|jpy)\b|"
                 r"\bprices? (?:are )?in (?:euros?|dollars?|pounds?|yen|usd|eur|gbp|jpy)\b|通貨"),
    ("hours", r"\b(?:when|what time|what days?|which days?)\b.{0,40}\b(?:open|opens|close|"
              r"closes|closed)\b|\bclosing time\b|\b(?:are|is) (?:you|it|they|the \w+) "
              r"(?:open|closed)\b|\b(?:located|location)\b|\bwhere (?:is|are|'s) (?:the |your )?"
              r"(?:shop|store|studio|restaurant|boutique)\b|\bwhere (?:are|is) you based\b|"
              r"\bou se trouve\b|\bquelle est (?:votre|l') adresse\b|\b(?:ouvert|ferme)e?s? "
              r"(?:le|la|les|a|le dimanche|quand)\b|\bfermeture\b|\bquand (?:ouvr|ferm)\w*\b|"
              r"開店|閉店|定休日|何時に(?:開|閉)|営業(?:日|して|中)|開いて|どこにあ|所在地|住所は|"
              r"\b(?:opening hours|open(?:ing)? times|when (?:are|is) (?:you|it|the \w+) open|"
              r"what time do you (?:open|close)|where are you(?: located)?|your address|"
              r"(?:your|the|store|shop|business|pick ?up|collection) hours|"
              r"(?:what time|when) (?:can|could|do|should) (?:i|we) (?:pick|collect|come)|"
              r"pick ?up (?:times?|window)|are you open|"
              r"horaires|heures d'ouverture|ou etes-vous|a quelle heure\b.{0,40}"
              r"(?:retirer|recuperer|ouvr\w*|passer))\b|営業時間|何時から|何時まで|場所はどこ|"
              r"受け取り.{0,8}(?:時間|何時)|(?:曜日?|今日|明日|祝日|週末)(?:は|に|も|って)?"
              r"(?:お店)?(?:は)?やって(?:ます|る|い)"),
    # How a store is paid: asked about, never a checkout ("what payment do you accept?").
    ("payment", r"\bpayment (?:methods?|options?|types?)\b|\bways? to pay\b|"
                r"\b(?:pay|paying) (?:with|by|in|using|via)\b|"
                r"\b(?:accept|take)s?\b.{0,30}\b(?:cards?|cash|paypal|visa|mastercard|amex|"
                r"apple pay|google pay|payments?|crypto|bitcoin|cheques?|checks?)\b|"
                r"\bwhat (?:kind of )?payments?\b|"

                r"\b(?:moyens?|modes?|methodes?) de (?:paiement|payment|reglement)\b|"
                r"\bpayer (?:par|avec|en)\b|\bacceptez\b.{0,30}\b(?:cartes?|especes|paiements?|"
                r"payments?|cheques?)\b|支払い?方法|支払方法|お支払い?方法|決済方法|"
                r"(?:カード|現金|クレジット).{0,8}(?:払え|使え|支払|決済|でき)"),
    ("fees", r"(?<!when )\b(?:do|does|can) (?:you|they|it) (?:deliver|ship)\b(?! (?:yet|"
             r"already))|\bship(?:ping)? to\b.*\?|"
             r"\b(?:shipping|delivery|postage)\b.*\b(?:cost|costs|charge|fee|fees|price|much)\b|"
             r"\b(?:how much|charge|fee|fees)\b.*\b(?:shipping|delivery|postage)\b|"
             r"\bfrais (?:de |d')?(?:port|livraison|envoi|expedition)\b|\bminimum (?:order|"
             r"purchase|"
             r"spend|de commande|d'achat)\b|\b(?:order|commande) minimum\b|"
             r"\b(?:combien|prix|cout\w*|tarifs?)\b.*\b(?:livraison|port|expedition)\b|"
             r"\b(?:livraison|port)\b.*\b(?:combien|coute|gratuite?|prix)\b|"
             r"\bfree (?:shipping|delivery)\b|送料|配送料|最低注文|最低金額|"
             # how an order can reach the shopper: the store's delivery terms answer
             r"\b(?:delivery|shipping|shipment|postage|pick ?up|collection|fulfil?ment)\s+"
             r"(?:options?|methods?|choices?|possibilities)\b|"
             r"\bhow (?:can|do|will|would) (?:i|you|we) (?:get|receive|have) (?:it|them|my)\b|"
             r"\b(?:modes?|options?|methodes?|moyens?) de (?:livraison|retrait|reception)\b|"
             r"配送方法|お届け方法|受け取り方法|受取方法"),
    ("status", _WHAT_I_DID + r"|"
               r"\bwhere(?:'s| is| are)\b.*\bmy\b|\border status\b|\btrack\b|\bstatus\b|"
               # "when's my mug coming?", "any news?", 「荷物はどこですか」: where it is
               r"\bwhen\b.{0,20}\bexpect\b|\beta\b|"
               r"\bwhen(?:'s| is| are)\b.{0,30}\b(?:coming|arriving|getting here|due|"
               r"shipping|being delivered|out)\b|^\s*(?:any )?(?:news|updates?)\s*[?!.]*$|"
               r"(?:荷物|小包|パッケージ|配送|発送)(?:は|って|の).{0,6}(?:どこ|いつ|どう)|"
               # "where is the teapot I ordered?", « quand arrive ce que j'ai commandé ? »
               r"\b(?:where|when)\b.*\b(?:i|we) (?:ordered|bought|purchased|paid for)\b|"
               r"\b(?:ou|quand)\b.*\bque (?:j'ai|nous avons) (?:commande|achete)|"
               r"\btracking(?: number| info\w*| link| code)?\b|\bou en sont\b|"
               r"\bquand\b.{0,30}\brecevoir\b|"
               # "check on my order", "can you look into my parcel": where it is
               r"\b(?:check|look) (?:on|up|into|in on)\b.{0,12}\b(?:my|the|this|that) "
               r"(?:order|package|parcel|delivery)\b|\bverifier (?:ma commande|mon colis)\b|"
               # "is my pizza ready?", "ma commande est-elle prête ?": an order's progress
               r"\b(?:is|are) (?:my|the) (?:\w+ ){0,2}(?:order )?(?:ready|done|here)\b|"
               r"\b(?:commande|colis)\b.{0,20}\bprete?s?\b|"
               r"\bwhen (?:will|would|does|do|is|could|can|might|should)\b.*\b(?:arrive|ship|come|"
               r"deliver|get here|reach)|"
               r"\b(?:has|have|did|was|were|is|are) (?:it|my|the|they|that|those|these|"
               r"anything|everything|something)\b.*"
               r"\b(?:ship|shipped|arrived?|delivered|dispatched|sent|left|go(?:ne)? out|"
               r"went out|posted|mailed)\b|\bwhen (?:it|they) (?:ships?|"
               r"arrives?)\b|\bhas my order\b|^(?:and |what about )?my orders?\??$|"
               r"^\s*ord_[0-9a-z]+\s*\??$|\bou en est\b|\bsuivi\b|\bstatut\b|"
               r"\b(?:any )?(?:news|updates?) (?:on|about|for|with)\b|"
               r"\b(?:c'est|est-(?:il|elle|ce)|sont-(?:ils|elles)) (?:deja )?(?:parti|expedie|"
               r"envoye)e?s?\b|"
               r"\b(?:deja )?(?:partie?s?|envoyee?s?) \?|"
               r"ord_[0-9a-z]{6,}.*(?:\?|？|状況|状態|どう)|"
               r"\bupdate on\b.*\border|\border\b.*\b(?:on (?:its|the) way|go out|gone out|"
               r"left)\b|\bon (?:its|the) way\b|\b(?:expediee?s?|livree?s?|recevoir)\b.*\b"
               # (« la commande du livre »: a book, after its article, was never delivered)
               r"(?:commande|colis)\b|\b(?:commande|colis)\b.*\b(?:expediee?s?|"
               r"(?<!\bdu )(?<!\ble )(?<!\bun )(?<!\bmon )(?<!\bce )(?<!\bde )(?<!\bles )"
               r"(?<!\bdes )(?<!\bmes )(?<!\bces )livree?s?|"
               r"arrive)\b|"
               r"\bou\b.{0,24}\ben est\b|"
               r"\bquand\b.{0,30}\b(?:recoi\w*|recevr\w*)|"
               r"\bquand (?:est-ce que )?(?:ma|mon|mes|la|le|il|elle|ca|cela|ce)\b.*"
               r"\b(?:arrive|livre|expedie)|注文(?:は|の)(?:どう|状況|状態)|届(?:く|き|いて)|発送|配送状況|どこ"),
    # Asking which options there are ("what toppings can I add?", "which sizes?", "quelles
    # tailles ?"): answered from the item's details, never added.
    ("details", r"^(?:(?:so|and|ok|okay|um|hmm|hi),?\s+)?(?:what|which)\s+(?:other\s+|kinds? of\s+|"
                r"sorts? of\s+)?(?:toppings?|extras?|add-?ons?|options?|sizes?|colou?rs?|"
                r"crusts?|seats?|formats?|sides?|sauces?|proteins?|choices|variants?|"
                r"versions?|times?|slots?|dates?|days?|flavou?rs?|grades?|weights?|"
                r"customi[sz]ations?)\b(?!.*\b(?:my|your) (?:order|cart|basket)s?\b)|"
                r"\b(?:does|do|can) (?:it|this|that|they|the \w+) (?:come|have)\b.{0,30}\b"
                r"(?:extras?|options?|add-?ons?|toppings?|sizes?|colou?rs?|choices|variants?)\b|"
                r"\b(?:are|is) there (?:any |other )*(?:extras?|options?|add-?ons?|toppings?|"
                r"sizes?|colou?rs?|choices|variants?)\b|"
                r"^quel(?:le)?s?\s+(?:sont\s+les\s+)?(?:tailles?|options?|garnitures?|"
                r"supplements?|couleurs?|formats?|creneaux|horaires|choix|dates?)\b|"
                r"(?:トッピング|サイズ|オプション|色|時間|日程).{0,6}(?:何が|何があ|どれが|は\?|は？)"),
    ("return", r"\breturn(?:s|ing|ed)?\b|\bretours?\b|\b(?:send|give)\b.*\bback\b|\brefund\w*|"
               # ("bring me back to the mugs" goes back to a list)
               r"\bbring (?!me\b|us\b).{0,20}\bback\b|"
               r"\bmoney back\b|"
               # goods sent back by post ("ship one plate back", "mail them back")
               r"\b(?:ship|post|mail)\b.{0,30}\bback\b|"
               r"\b(?:retourner|renvoyer|rembourse)|返品|返金|返送|送り返|"
               # a thing bought exchanged ("exchange the mug, it's chipped", « échanger le
               # mug »): a return settled by an exchange; one exchanged for another named
               # ("exchange the mug for the teapot") is a swap, read by its own stage
               r"\b(?:exchang|echang)(?:e|es|ed|ing|er|ez|eons|erais|erai)\b"
               r"(?!.*\b(?:for|contre|par|against|with|avec)\b)|"
               # « rendre » and « rapporter » a thing bought: with the thing, never alone
               # (« rendez-vous », « rendre service »)
               r"\b(?:rend(?:re|s|ez|rai|rais)|rapport(?:er|e|es|ez|erai|erais))\s+"
               r"(?:le|la|les|l'|un|une|\d+|deux|trois|quatre|cinq|mon|ma|mes|ce|cet|cette|"
               r"ces|seulement|juste)\b|"
               # the shop asked to take goods back: « reprenez les assiettes », "can you take
               # the plates back" (« reprendre mon abonnement » resumes: read before this)
               r"\brepren(?:ez|dre|ds|d|driez)\s+(?:le|la|les|l'|un|une|\d+|deux|trois|mes|"
               r"ces|ce|cet|cette)\b|"
               r"\b(?:can|could|would|will) you take (?!me\b|us\b).{0,30}\bback\b|"
               r"\btake back (?:the|my|these|those|one|two|three|\d+)\b|"
               # 「返したい」「返します」: a thing given back (not 繰り返し, repeating)
               r"(?<!繰り)(?<!繰)(?<!折り)返し(?:たい|ます|てもいい|てほしい)|"
               # an exchange asked for (「交換したい」「交換してもらえますか」), never a thing
               # swapped for another in the cart (「抹茶を玉露に交換して」)
               r"(?<!に)交換(?:したい|して(?:ほしい|ください|下さい|もらえ|いただ)|します|"
               r"を?お願い|希望)"),
    ("rate", r"\brate\b|\bnote[rz]?\b.*\b(?:etoiles?|sur 5)\b|\brating\b|\bstars?\b|\breview\b|"
             r"\bnoter\b|\betoiles?\b|評価|星|"
             # a score said as one: "5/5", "4 out of 5", "3 sur 5", "⭐⭐⭐⭐", "★★★☆☆"
             rf"{_SCORE}|5点満点"),
    ("tip", r"\btip(?:s|ping)?\b(?! (?:for|on|about) )|\bgratuit(?:y|ies)\b|\bpourboires?\b|"
            rf"\btip (?:for|to) (?:the |my |our )?{_SERVERS}|"
            r"チップ|心付け|"
            # "a 10% tip on the lasagna", "add 15% for the kitchen", "3 € pour le livreur":
            # an amount, for the people who served
            rf"{_AMOUNT}\s*(?:tip|gratuity)\b|"
            rf"{_AMOUNT}\s+(?:for|to|pour|a|au|aux)\s+(?:the\s+|our\s+|my\s+|le\s+|la\s+|"
            rf"l'|les\s+)?{_SERVERS}|"
            rf"\b(?:give|leave)\s+(?:the\s+)?{_SERVERS}\s+{_AMOUNT}|"
            r"(?:配達員|スタッフ|厨房|キッチン|ドライバー)(?:さん)?に.{0,12}\d"),
    ("cancel", r"\bcancel\w*|\bannule[rz]?\b|\bannulation\b|キャンセル|取り消|取りやめ|取り止め|"
               # other verbs that call an order off, said with the order
               r"\bcall(?:ed|ing)? (?:\w+ ){0,4}off\b|"
               # "delete my order": an order placed is called off, not a cart line
               r"\b(?:delete|erase|remove|drop)\s+(?:my|the|this|that)\s+(?:last\s+|recent\s+|"
               r"latest\s+)?(?:orders?|purchases?)\b(?!.{0,20}\b(?:cart|basket)\b)|"
               r"\b(?:scrap|void|rescind|revoke|withdraw|nix|halt|stop|bin|ditch|kill|axe)\b"
               r".{0,25}\b(?:orders?|"
               r"purchases?)\b|注文.{0,4}(?:やめ|止め)(?:たい|て|ます)|" + UNDOES_AN_ORDER),
    ("empty", r"\b(?:empty|clear|reset)\b.*\b(?:cart|basket)\b|\bstart over\b|"
              r"\bremove everything\b|\bvide[rz]?\b.*\bpanier\b|"
              # the particle is often left unsaid: 「カート空にして」「カートは空っぽに」
              r"カート(?:を|は)?\s*(?:空|から)(?:っぽ)?に|"
              # the cart, or everything in it, removed with any verb of removing (カートから全部
              # 消して, カートの中身を削除, 全部外してください, カートをクリア)
              r"カート(?:を|の中身を?)?(?:クリア|リセット)|"
              r"(?:カート(?:から|の中身を?|の中の?|を)?\s*)?(?:全部|すべて|全て|ぜんぶ|中身)(?:を|は)?\s*"
              r"(?:消|削除|外|取り除|抜い|出し)(?!.{0,6}注文)"),
    ("cart", r"\b(?:my|the|cart|order|grand) total\b|\btotal (?:so far|now)\b|\ben tout\b|"
             r"\bau total\b|\bmontant total\b|合計|総額"),
    ("remove", r"\bremove\b|\btake\b.*\b(?:out|off)\b|\bdelete\b|\bdrop the\b|"
               r"\bdon'?t (?:want|need)\b|\b(?:won'?t|wont|will not) (?:want|need)\b|"
               r"\bno longer (?:want|need)\b|\bget rid of\b|"
               r"\bne (?:veux|voudrais) (?:plus|pas)\b|\bn'en veux (?:plus|pas)\b|"
               # spoken French drops the "ne": « je veux plus le mug », « plus besoin du mug »
               r"\b(?:veux|voudrais) plus (?=le|la|les|l'|ce|cet|cette|ces|mon|ma|mes)\b|"
               # (a thing no longer needed, never an infinitive: « plus besoin de payer »)
               r"\bj'en ai plus besoin\b|"
               r"\bplus besoin (?:du|des|de la|de l'|de ce|de cet|de cette|de ces|de mon|de ma|"
               r"de mes|d'un|d'une)\b|"
               r"(?:は|も)(?:いらない|要らない|いりません|要りません|もういい)|"
               # "茶筅いらない": casual Japanese drops the particle; the refusal closes the message
               r"[^\s、。はも](?:いらない|要らない|いりません|要りません)(?:です|かな|かも|よ)?"
               r"[!！。.\s]*$|"
               r"\bnever ?mind (?:the|that|those|this)\b|"
               r"\b(?:retire[rz]?|enleve[rz]?|"
               r"supprime[rz]?)\b|削除|取り除|外して|"
               # the verbs of removing in their everyday forms (消して, 外します, 抜いといて)
               r"(?:消|外|抜)(?:して|します|したい|しといて|いて|いといて|きます|いてください)"),
    # "switch it to the 16 oz" changes a line; "switch to Lumen Studio" changes the store.
    ("switch", r"\bswitch\b(?! (?:it|that|them|this|those|to (?:the|a|an) \d))|\bshop at\b|"
               r"\btake me to\b|\bchange (?:the )?(?:store|shop)\b|"
               r"\bgo (?:over )?to (?!check)|\bvisit\b|\blet'?s try\b"),
    # a plan started is said by its verb, whatever change of mind is beside it ("upgrade to
    # the studio membership instead, subscribe me to that")
    ("subscribe", plan_verbs.pattern("start")),
    ("quantity", r"\bmake (?:it|that|them|those)\b|"
                 r"\bmake (?:the|my) [\w' -]{1,30}? (?:\d+|one|two|three|four|five|six|"
                 r"seven|eight|nine|ten|a dozen)\s*$|\b(?:bump|increase|decrease|reduce|raise|"
                 r"lower)\b|\b(?:switch|change|swap) (?:it|that|them|this|"
                 r"those)\b|\bchange\b.*\bto\b|\bonly want\b|"
                 r"\binstead\b|\bupdate\b.*\bquantity\b|\bswap\b|"
                 # "set" the verb opens its clause; the noun follows a word ("a cup set to
                 # my cart" adds a set)
                 r"(?:^|[,;.!?]\s*|\b(?:please|pls|and|then|just|you|now|so|ok)\s+)set\b.*\bto\b|"
                 r"^(?:actually|sorry)\b.*\b(?:two|three|four|five|six|\d+)\b|\bplutot\b|"
                 r"\bi (?:said|meant)\b|\bj'ai dit\b|\bje voulais dire\b|"
                 r"\b(?:i'?d |i would )?prefer\b|\b(?:i'?d|i would) rather\b|\bpre[f]ere[rz]?\b|"
                 r"\bfinalement\b|\ben fait\b|"
                 # « mettez-en quatre », « fais-en 2 », « passe à 4 »: the line's count
                 r"\b(?:mets|mettez|fais|faites)[- ]en\s+(?:\d+|une?|deux|trois|quatre|cinq|six|"
                 r"sept|huit|neuf|dix|douze|une douzaine)\b|"
                 r"\bpass(?:e|ez) (?:la quantite )?a (?:\d+|deux|trois|quatre|cinq|six|sept|huit|"
                 r"neuf|dix|douze)\b|"
                 r"\bchange[rz]\b|\bremplace[rz]?\b|変更|に変えて|にして|やっぱり"),
    # the verb, not the thing: "any book for my dad?", "a book for him" name a book
    ("book", r"(?<!\ba )(?<!\ban )(?<!\bany )(?<!\bthe )(?<!\bone )(?<!\bthis )(?<!\bthat )"
             r"(?<!\bsome )(?<!\bgood )(?<!\bnice )(?<!\bnew )(?<!\bwhat )(?<!\bwhich )"
             r"\bbook (?:a|an|me|it|the|my|one|two|\d|that|this|for|in|us)\b|^book\b|"
             r"\breserve\b|\bschedule\b|\bappointment\b|\breserve[rz]?\b|予約"),
    ("buy", r"\bbuy\b|\bpurchase\b|\border (?:me )?(?:a|an|one|two|three|some|the|\d+)\b|"
            # "order arancini for pickup", "can you order tiramisu": the verb, said first
            r"^(?:(?:please|pls|ok|okay|so|then|(?:can|could|would) you(?: please)?|"
            r"i(?:'d| would) like to|i want to|i wanna|let'?s|let me|i'?ll)\s+)*"
            r"order (?!(?:status|history|number|id|details?|it|them|that|this|those|now|summary|"
            r"confirmation|tracking|update|total|was|is|has|of|for|from|to|by|ord_)\b)(?=[a-z])|"
            r"\bachete[rz]?\b|\bcommander\b(?!\s*(?:maintenant|tout de suite)?\s*[.!?]*\s*$)|"
            r"買|購入"),
    ("checkout", r"\bcheck ?out\b|\bplace (?:the |my )?order\b|\bpay\b|\bcomplete\b.*\b(?:order|"
                 r"purchase)\b|\bthat'?s all\b|\bc'est tout\b|\bfinish\b|"
                 r"\bpasse[rz]? (?:la |ma )?commande\b|\bwrap (?:it|this|things) up\b|"
                 r"\b(?:pass\w*|aller|allons|va) (?:a|direct(?:ement)? a) la caisse\b|"
                 r"\bproceed to (?:payment|checkout|pay)\b|\bpayment\b|"
                 r"\bpayer\b|\bcommander\s*(?:maintenant|tout de suite)?\s*[.!?]*\s*$|"
                 r"\border (?:it |them )?now\b|\bvalide[rz]?\b|"
                 r"注文を確定|確定|会計|チェックアウト|決済|レジ|"
                 r"支払|精算|"
                 r"注文(?:します|する|したい|お願い)|購入(?:します|する|したい)"),
    ("promotion", r"\b(?:code|coupon|promo|voucher)\b\s*:?\s*[a-z0-9_-]*\d|"
                  r"\b(?:apply|use|redeem|applique[rz]?|utilise[rz]?)\b|クーポン.*(?:使|適用)|"
                  # 「MIDORI500を使って」「FOLIO3をつけて」
                  r"[a-z][a-z0-9_-]*\d\s*(?:を|は|って)?\s*(?:使|適用|つけ|付け|入力)"),
    # "Folio & Code" is a store, no code asked about (as in language/codes.py)
    ("discounts", r"\b(?<!&\s)(?:discounts?|deals?|offers?|promotions?|sales?|coupons?|codes?|"
                  r"reductions?|soldes)\b|割引|クーポン|セール"),
    ("details", r"\btell me (?:more )?about\b|\bmore about\b|\bdetails?\b|\bdescribe\b|"
                r"\bwhat (?:sizes|sizes?|colou?rs?|options|grades?|times|slots|flavou?rs?)\b|"
                r"\bhow much (?:is|are|does)\b|\bwhat is the\b|\bwhat'?s the\b.*\b(?:like|price)"
                r"|\bcome in\b|\bwhat can you tell me about\b|\bparle[zs]?-moi\b|詳しく|詳細|"
                r"について|教えて|どんな(?!お?店)|説明|いくら|値段|価格|"
                r"(?:の|は)(?:素材|材質|容量|原材料|材料|成分|アレルギー|色|カラー|サイズ|大きさ|重さ|寸法)|"
                r"グルテン|ヴィーガン|ビーガン|ベジタリアン|食洗機|電子レンジ"),
    ("add", r"\badd(?:ing)?\b|\bput\b|\bi'?ll (?:take|have|get)\b|\bi'?d like\b(?! to know)|"
            r"\bi (?:want|need)\b(?! to (?:see|look|browse|find|know))|\bgive me\b|"
            r"\bget me\b|\bcan i (?:get|have)\b|\bthrow in\b|\binclude\b|\bi'?ll take\b|"
            r"\bgrab\b|\btoss\b|\bsnag\b|\blet me (?:get|have|take)\b|\bgimme\b|"
            r"\bajoute[rz]?\b|\bmets\b|\bmettez\b|\bmettre\b|"
            rf"(?:\bje |\bj'en |\bj')(?:vais |voudrais |veux |aimerais )?{_FRENCH_TAKE}\b"
            r"(?! (?:savoir|voir|regarder|chercher|connaitre))|\ben (?:prendre|ajouter|mettre)\b|"
            r"追加|入れて|(?<!見せて)(?:ください|下さい)|ほしい|欲しい|(?:を|で)お願い|"
            # the casual close 「…で！」「…で頼む」 chooses, as 「…でお願い」 does
            r"で(?:頼む|たのむ|よろしく)?[!！]+\s*$|で(?:頼む|たのむ|よろしく)[。\s]*$"),
    ("cart", r"\bcart\b|\bbasket\b|\bpanier\b|カート"),
    ("stores", r"\b(?:which|what) (?:stores|shops)\b|\blist\b.*\b(?:stores|shops)\b|"
               r"\ball (?:the )?(?:stores|shops)\b|\bquel(?:le)?s (?:magasins|boutiques)\b|"
               r"どんな(?:お)?店"),
    ("search", r"\bfind\b|\bsearch\b|\blook(?:ing)? for\b|\bshow\b|\bdo you (?:have|sell|do)\b|"
               r"\bany\b|\bgot any\b|\bbrowse\b|\brecommend\b|\bi'?m after\b|\bwhat\b.*\bhave\b|"
               r"\bcheapest\b|\bcheaper\b|\bleast expensive\b|\bcherche\b|\btrouve[rz]?\b|"
               r"\bmontre[rz]?\b|"
               r"\bavez-vous\b|\bvous avez\b|\bmoins cher\b|ありますか|ある\?|探して|見せて|"
               # tu and vous, inversion and intonation, and Québec's "magasiner"
               r"\b(?:t'as|tu as|as-tu|auriez-vous|vous auriez|vendez-vous|vous vendez|"
               r"tu vends|vends-tu)\b|\b(?:y a-t-il|il y a) (?:des|du|de la|de l')|"
               r"\bmagasine[rz]?\b|"
               r"見たい|おすすめ|安い"),
]
_ABOUT_AN_ORDER = re.compile(r"\bmy\b(?:\s+[\w'-]+){0,3}?\s+(?:order|package|parcel|delivery|"
                             r"stuff|purchase|things)s?\b|\bmy (?:order|package|parcel)s?\b|"
                             # "the plate order", "that trattoria order": an order by its item
                             r"\b(?:the|that|this)(?:\s+[\w'-]+){1,3}?\s+(?:order|package|"
                             r"parcel)\b|"
                             # "today's order", "the order before that", "the previous one"
                             r"\b\w+'s (?:order|package|parcel)\b|\b(?:the|that) order\b|"
                             r"\b(?:ma|mes|la|cette) commandes?\b|\bmon colis\b|注文|荷物|小包")
# One thing with its options said ("a lasagna bolognese, no garlic bread", "a 12-inch
# margherita with olives", "une margherita sans olives"): an order, not browsing.
_CONFIGURED = re.compile(r"^(?:a|an|one|un|une|\d+\s*-?\s*(?:inch|in|inches|pouces?|cm|oz))\s+"
                         r"[\w' -]+?(?:(?:,\s*|\s)(?:with|without|no|"
                         r"hold|extra|sans|avec)|,\s*(?:not|pas))\b|^(?:a|an|one|un|une)\s+\d+\s*-?\s*"
                         r"(?:inch|in|inches|pouces?|cm|oz)\b")
# One thing asked for with a please and nothing else ("a pour-over dripper please", "une
# théière s'il vous plaît", "tiramisu pls"): an order, as a count with a thing is.
_ASKED_POLITELY = re.compile(r"^\s*(?:(?:a|an|un|une)\s+)?[^?]+?,?\s*(?:please|pls|plz|"
                             r"s'il (?:vous|te) plait|svp|stp)[\s.!]*$")
# …unless, said without an article, it asks to know or points at what is in view ("the price
# please", "the blue one please", "more info please"): answered or taken in context, not added.
_NOT_A_THING = re.compile(r"\b(?:price|prices|cost|costs|info|information|details?|help|more|"
                          r"else|one|ones|that|this|it|them|those|these|menu|options?|hours|"
                          r"shipping|delivery|returns?|policy|status|order|orders|cart|basket|"
                          r"prix|aide|infos?|celui|celle|ceux|ça|ca|commande|panier|"
                          r"with|without|no|extra|free|avec|sans|size|taille|express|"
                          r"standard|overnight|priority|economy|pickup|collection|"
                          # the whole cart, a reply's language, a pace: no thing named
                          r"all|everything|both|each|tout|english|french|japanese|anglais|"
                          r"francais|japonais|asap|soon|now|later|vite|"
                          # an adverb of manner, not a plan's frequency ("monthly")
                          r"(?!(?:month|week|year|dai|quarter|fortnight|hour)ly\b)\w{3,}ly|"
                          # a restriction or a particle answers or acts ("just folio",
                          # "opt out"); a plan said short is the one held ("folio sub")
                          r"just|only|out|off|away|sub|subs)\b|"
                          # a circumstance, opened by its preposition ("in french please")
                          r"^\s*(?:in|on|at|by|for|en|par|pour)\s")
_WITH_ARTICLE = re.compile(r"^\s*(?:a|an|un|une)\s")
# …nor what the shopper already has ("my subscription please", « mon colis svp »).
_THEIRS = re.compile(r"\b(?:my|our|mon|ma|mes|notre|nos)\b")
# "…にして", "…に替えて": what follows "XじゃなくてY" is a change, not a request for Y.
# "…がいいです", "…の方がいい", "…にしたい": the one preferred, said as a preference.
# "…で!", "…でいい", "…で頼む": the casual close names the one chosen, as "にして" does.
_CHANGED_TO = re.compile(r"に(?:して|替え|変え|換え|交換)|(?:が|の(?:方|ほう)が)(?:いい|良い)|"
                         r"にしたい|でお願い|で(?:いい|頼む|よろしく)?(?:です|よ|ね)?[!！。.\s]*$")
# A negated clause that only declines a thing ("not the 12 oz", "pas la bleue").
# A request to see what there is ("what do you have?", "what are my options?", "any
# suggestions?", « qu'est-ce que vous avez ? »): a need said with it is shown, not added.
_ASKS_WHAT_THERE_IS = re.compile(
    r"\bwhat (?:do|have|would|can|could) (?:you|u|ya) (?:have|got|carry|sell|offer|recommend|"
    r"suggest)\b|\bwhat(?:'?s| is| are) (?:there|available|on offer)\b|"
    r"\bwhat (?:are )?(?:my|the|your) (?:options|choices)\b|"
    r"\bany (?:suggestions?|recommendations?|ideas?)\b|\bshow me (?:what|some|your|the options)\b|"
    r"\bqu'?est[- ]ce que (?:vous avez|tu as|vous proposez)\b|\bvous avez quoi\b|"
    r"\bque (?:proposez|conseillez)-vous\b|"
    # 「何がある？」「どんなのがありますか」「どれがおすすめ？」「何かおすすめある？」
    r"(?:なに|何|どんなの|どんなもの|どれ)(?:か|が)?(?:おすすめ|オススメ|お勧め)?"
    r"(?:が|は)?\s*(?:あ(?:る|ります)|おすすめ|オススメ|お勧め|選べ)|"
    r"(?:おすすめ|オススメ|お勧め)(?:は|って)?\s*(?:ある|あります|何|なに|どれ)")
# A thing wanted by what it does, no product named ("I need something to make coffee",
# « il me faut un truc pour faire du café », 「抹茶を点てる道具がほしい」): what fits is shown to
# choose from, never put in the cart unseen.
_UNNAMED_THING = re.compile(r"\b(?:something|anything|quelque chose|un truc|de quoi)\b|"
                            r"(?:る|の)(?:道具|もの|物)(?:が|を)")
def _wants_an_unnamed_thing(text: str) -> bool:
    """Whether the thing asked for is only described by what it does: the unnamed thing is
    the request's first and only object ("I need something to make coffee"), never one said
    after a product ("the lasagna and something to drink": the lasagna is ordered)."""
    folded = words.fold(text)
    found = _UNNAMED_THING.search(folded)
    if found is None or len(words.item_phrases(text)) > 1:
        return False
    return words.re_japanese(found.group()) or not words.content_words(folded[:found.start()])


_NOT_THE = re.compile(r"^\s*(?:not|no|pas|sans)\s+(?:the|a|an|le|la|les|l')?\s*[\w' -]+$")
# Where or when an order is: its status.
_WHERE = re.compile(r"\b(?:where|when|status|ship\w*|arriv\w*|deliver\w*|ou|quand|statut)\b|"
                    r"どこ|いつ|状況")
# A question that asks the agent to act now rather than whether it could be done.
_ASKS_TO_ACT = re.compile(r"\b(?:can|could|would|will) you\b|\bplease\b|\bpouvez-vous\b|"
                          r"\bpourriez-vous\b|\bpeux-tu\b|ください|てもらえ|ていただけ")
# Collecting an order instead of having it delivered, asked about ("can I pick it up?",
# "retrait en magasin", "店頭で受け取れますか"); "I'll pick it up at 6" asks nothing.
PICKUP = re.compile(r"\bpick(?:ing)?[ -]?(?:it |them |this |that |my order |the order )?up\b|"
                    r"\b(?:collect(?:ion)?|click and collect|in[- ]store|take ?away|takeout|"
                    r"carry ?out)\b|"
                    r"\bretir\w* .{0,25}\b(?:en (?:magasin|boutique)|sur place|au comptoir)\b|"
                    r"\bretrait\b|\ba emporter\b|\bvenir (?:la |le |les )?chercher\b|"
                    r"\bpass\w* (?:la |le |les |l')?(?:chercher|prendre)\b|"
                    r"店頭|受け取|持ち帰|テイクアウト|取りに")
# Where a store is, asked with its name ("where is Trattoria Fiamma?", "the address of …").
LOCATION = re.compile(r"^(?:so |and |ok )?where(?: is|'s| are)\s+(?!my\b|your order|the order|"
                      r"it\b|they\b|them\b)(?:\S+\s*){1,4}\??$|\baddress (?:of|for)\b|"
                      r"\badresse (?:de|du|d')\b|の住所")
# A question that asks what something is, not to get it ("what does the kit include?").
_ASKS_ABOUT = re.compile(r"^(?:what|which|how|does|do|is|are|quel\w*|qu'est-ce|est-ce qu'il)\b"
                         r"(?!.*\bpossible\b)")
# A question about when the store can be come to ("what time can I collect?", "how late can
# I pick it up?", « à quelle heure passer le chercher ? », 「何時に受け取れますか」).
ASKS_WHEN_OPEN = re.compile(r"\b(?:what time|when|how late|how early|until when|till when|"
                            r"a quelle heure|quand|jusqu'a quelle heure|des quelle heure)\b|"
                            r"何時|いつ")


MAY_ASK_PICKUP = ("other", "search", "details", "quantity", "remove", "add", "buy", "fees")
# Ways to pay, named in a question ("do you take PayPal?"), not in "check out with my card".
PAY_NAMES = re.compile(r"(?<![a-z])(?:paypal|paypay|apple pay|google pay|sepa|visa|"
                        r"mastercard|amex|american express|debit cards?|credit cards?|"
                        r"cartes? (?:bancaires?|de credit)|especes|cash|liquide)(?![a-z])")
# A subscription's own terms: its commitment, however it is asked ("minimum commitment",
# "engagement minimum", "最低契約期間").
COMMITMENT = re.compile(r"\bcommitment\b|\bcommit\b|\bengagement\b|\bminimum (?:term|period|"
                        r"duration|months?|cycles?)\b|\blocked in\b|\bduree minimum\b|"
                        r"最低(?:契約)?期間|縛り")
# Delivery as a store's service, in a question ("do you ship abroad?", "発送できますか").
# "des livres", "un livre": books, not "livrer" (to deliver)
_BOOKS = "".join(rf"(?<!\b{article} )" for article in (
    "un", "le", "les", "des", "mes", "ces", "vos", "nos", "ce", "du", "quel", "quels", "votre",
    "notre", "mon", "ton", "son", "leur", "leurs", "tes", "ses", "cet", "aucun", "autre"))
_DELIVERY = re.compile(rf"\b(?:ship\w*|deliver\w*|send|sent|postage|courier|carrier|"
                       rf"{_BOOKS}livr\w*|expedi\w*|envo\w*)\b|発送|配送|配達|送料|送れ|届けられ|お届け")
# Questions about these are answered from the order's and the store's terms, never done.
AFTER_SALE = ("cancel", "return", "sub_pause", "sub_resume", "sub_cancel", "tip")
# A window of time ("the return window"), never a pane of glass ("near the window", "for my
# window sill").
_A_TIME_WINDOW = "".join(rf"(?<!\b{place} )" for place in (
    "near the", "by the", "on the", "in the", "at the", "for the", "from the", "near my",
    "by my", "on my", "in my", "for my", "kitchen", "sunny", "bright")) + \
    r"\bwindows?\b(?!\s*(?:sills?|ledges?|box(?:es)?|seats?|frames?)\b)"
_POLICY_WORDS = re.compile(
    r"\bpolic(?:y|ies)\b|\bfees?\b|\bshipping (?:cost|costs|price|fee)\b|"
    r"\bhow long (?:do|does|will|would|until|have|before|to|after)\b|"
    rf"{_A_TIME_WINDOW}|\bpossible\b|\ballowed\b|\bpolitique\b|\bfrais\b|\bpossible\b|"
    r"\bcommitment\b|\bengagement\b|\bminimum\b|\bdelai\b|\bterms\b|\bconditions\b|"
    r"\bdeadline\b|\bhow many days\b|\bcombien de (?:jours|temps)\b|期限|何日|最低|条件|"
    r"ポリシー|規約|送料|手数料|できますか")
_COMPILED = [(name, re.compile(pattern)) for name, pattern in _CHECKS]
# Whether a thing can be had in an option of its own ("is it possible to get the mug in
# white?", « est-il possible d'avoir le mug en bleu ? »): asked of the item, not the terms.
_POSSIBLE_TO_HAVE = re.compile(
    r"\b(?:possible|able) (?:to |d'|de )(?:get|have|buy|order|purchase|avoir|acheter|"
    r"commander|obtenir|prendre) (?:it|them|one|(?:the|a|an|this|that|your|le|la|les|un|une|"
    r"l')\s?[\w' -]{2,40}?) (?:in|with|en|avec) \w")
# Acts on an order or a subscription already made, which no change of mind about a cart line
# takes over.
_ON_A_PAST_ORDER = ("sub_cancel", "sub_pause", "sub_resume", "reorder")
# The terms themselves named: a message about them asks for them, whatever act it names.
# So is the way to do it ("how do I return it?", "comment faire un retour ?", 「返品の方法」).
_TERMS_NOUN = re.compile(r"\b(?:polic(?:y|ies)|politiques?|terms(?: and conditions)?|"
                         r"conditions (?:de|d')\w+|rules|regles|process|procedure|"
                         r"how (?:to|do (?:i|you|we)|does (?:it|one)|can (?:i|we|one))|"
                         r"comment (?:faire|on|je|puis-je|peut-on)|marche a suivre)\b|"
                         r"ポリシー|規約|規定|ルール|方針|方法|やり方|手順|仕方")
# The words that carry an intent: a misspelt one ("cancle", "ordr", "wher", "chekout") is
# read as the word it is one typo from, before the speech act and the intent are read.
INTENT_WORDS = frozenset("""
cancel cancelled canceled cancellation order orders ordered where return returns returned
returning refund refunded checkout status subscription subscriptions membership memberships
shipping shipped delivery delivered deliver remove removed delete empty basket pause paused
resume resumed unsubscribe discount discounts coupon coupons promotion track tracking
purchase payment please arrive arrived package parcel policy change switch instead cheapest
expensive another quantity schedule appointment reserve subscribe reservation
annuler annulez commande commandes commander livraison retourner rembourser remboursement panier
abonnement
""".split())
# Real words a typo away from an intent word, kept as typed ("were" is not "where").
NOT_TYPOS = frozenset("""
were older chance charge couples police remote states statue trace passe papier cancer
trailing offered planter
""".split())
# Intents a replacement ("swap the mug for the bowl", "le bol au lieu de la tasse") may be read
# as by the keyword table: the replace stage tells a product from an option of the line.
_MAY_REPLACE = ("quantity", "switch", "remove", "add", "other", "search")
# Words that point at another of those shown without naming it ("the other one", « l'autre »).
_OTHER_WORDS = frozenset({"other", "another", "different", "lautre", "autre"})
# Intents that act (on a cart, an order or money): one said not to be done never is.
_ACTIONS = frozenset({"add", "buy", "book", "subscribe", "checkout", "cancel", "return", "tip",
                      "rate", "remove", "empty", "promotion", "reorder", "sub_pause",
                      "sub_resume", "sub_cancel"})
# What the keyword table may take a request form for ("commande-moi le livre": status).
# and "それをカートに" (the verb left unsaid) names the cart, but asks to put a thing in it.
_READ_AS_REQUESTED = ("other", "search", "status", "details", "cart")
# What a dismissal may open without being a refusal ("ugh never mind clear the whole cart").
_DONE_AFTER_A_DISMISSAL = ("empty", "remove", "cancel", "return", "checkout", "sub_pause",
                           "sub_resume", "sub_cancel", "add", "buy", "book", "subscribe",
                           "promotion")
# Intents that keep the dialogue's open question alive when they answer it.
SHOPPING = ("add", "buy", "book", "subscribe")


@dataclass(frozen=True)
class Frame:
    """One request being served: its intent and every message that shaped it (the first
    names the intent, later ones answer the agent's questions)."""

    intent: str
    texts: tuple[str, ...]
    item_id: str | None = None
    # How many texts the frame had when its item was settled: later ones answer about options.
    item_at: int = 0
    added: bool = False  # its item went into the cart in an earlier turn
    # How many, carried from a request this one takes the place of ("two cannoli" sold out,
    # then "a tiramisu instead"): used when none of its own messages says.
    count: int | None = None

    @property
    def first(self) -> str:
        return self.texts[0]

    @property
    def last(self) -> str:
        return self.texts[-1]

    @property
    def text(self) -> str:
        return " ".join(self.texts)

    def quantity(self, name: str = "", options: tuple[str, ...] = ()) -> int | None:
        """How many: from the latest message that says, not counting the words of the item's
        name ("a family feast for four" is one) nor a number its options carry with their
        unit ("five seats", "the 5-seat one", "16 inch")."""
        # its words, and its tokens of digits and letters ("10-class pass" is not ten)
        named = [word for word in re.findall(r"[\w-]+", words.fold(name)) if word.isalpha() or (
            re.search(r"\d", word) and re.search(r"[a-z]", word))]
        option_units = _option_units(options)
        option_numbers = {number for label in options for number in re.findall(r"\d+", label)}
        for position in range(len(self.texts) - 1, -1, -1):
            # "le 13 mars à 14h": the day and time are no count, read before the name's words
            # go (what is left of a French sentence may no longer read as French); a number
            # the name or an option writes beside a word names it ("a 10 class pass",
            # "PixelForge Pro 5"), not how many
            text = quantities.without_named_numbers(
                words.without_choice_group(without_when(self.texts[position])),
                (name, *options))
            if option_units:
                text = option_units.sub(" ", words.fold(text))
            if position and option_numbers:
                # "16", "16 pouces" answering "which size?" names the 16-inch one, not sixteen
                text = re.sub(r"(?<![\d.,])\d+(?![\d.,])", lambda number: " " if number.group()
                              in option_numbers else number.group(), words.fold(text))
            text = words.without_measures(text)  # before the name's words: "300 ml" stays a size
            # "2" answering "which one?" picks the second, it is not a count; "3 genmaicha"
            # is three, though only the number is left once the name's words are gone
            # (a number alone changing a line, "no, 5", « finalement 5 », is its count)
            position_only = words.ordinal(text) is not None and len(words.words(text)) <= 3 \
                and not words.counted_beside_position(text) and not (
                    self.intent == "quantity" and position == 0 and BARE_NUMBER.fullmatch(text))
            for word in named:
                text = re.sub(rf"\b{re.escape(word)}\b", " ", text)
            if words.address(text) or position_only:
                continue
            found = words.quantity(text)
            if found is not None:
                return found
        return self.count

    def answered(self, text: str) -> Frame:
        return replace(self, texts=(*self.texts, text))

    def settled(self, item_id: str) -> Frame:
        if self.item_id == item_id:
            return self
        return replace(self, item_id=item_id, item_at=len(self.texts))

    def option_ordinal(self) -> int | None:
        """The position the last answer names among the options asked about."""
        if self.item_id is None or self.item_at >= len(self.texts):
            return None
        return words.ordinal(self.last)


@lru_cache(maxsize=256)
def _option_units(options: tuple[str, ...]) -> re.Pattern[str] | None:
    """A number said with the unit of an option that has one ("5 seats", "five-seat",
    "16 inch"): the option, not a count."""
    units = {words.stem(unit) for label in options
             for unit in re.findall(r"\d\s*-?\s*([a-z]{2,})", words.fold(label))}
    if not units:
        return None
    number = "|".join(["\\d+", *sorted(NUMBER_WORDS, key=len, reverse=True)])
    unit = "|".join(sorted(map(re.escape, units), key=len, reverse=True))
    return re.compile(rf"\b(?:{number})\s*-?\s*(?:{unit})\w*")


# A number said alone ("5", "5.", " 3 !"): a position among those shown, or a line's count.
BARE_NUMBER = re.compile(r"\W*\d{1,3}\W*")


def greeting(folded: str) -> bool:
    """Small talk and "what can you do?", which the help answers (not a product search). A
    need told around "help" ("I make coffee by hand every morning, what would help?") is no
    request for the help text: it describes what to find."""
    if re.search(r"\b(?:hello|hi|hey|bonjour|salut|bonsoir|allo|coucou|what can you|"
                 r"que (?:pouvez|peux|sais)|vous faire)\b|こんにちは|こんばんは|何ができ|ヘルプ",
                 folded):
        return True
    return bool(re.search(r"\b(?:help|aide)\b", folded)) and len(
        words.content_words(folded) - _HELP_WORDS) < _A_NEED_TOLD


# The words of asking for help, and how many other words tell a need rather than ask it.
_HELP_WORDS = frozenset({"help", "aide", "by", "every", "with", "please", "need"})
_A_NEED_TOLD = 2


def _a_bare_thing(text: str) -> bool:
    """Whether a request said with a please and no article names a thing to add ("tiramisu
    pls"), not an act ("stop folio please"), what is in view or the shopper's own ("the price
    please", "my subscription please"), or a day ("tomorrow please")."""
    folded = words.fold(text)
    return not (_NOT_A_THING.search(folded) or _THEIRS.search(folded)
                or opens_with_a_verb(folded) or without_when(folded) != folded)


@lru_cache(maxsize=4096)
def understand(raw: str) -> tuple[str, str]:
    """(intent, the words that carry it): the speech act first, then the keyword table on
    what is left once negated clauses are cut; misspelt intent words are read corrected.
    A question the table took for a search is then read by its topic (`topics`): the
    store's terms, or an item's own data."""
    kind, text = _understand(raw)
    rest = without_kept(raw) if kind == "remove" else None
    if rest is not None and words.content_words(rest):
        # "I don't want the mug anymore, just the plates", "leave the plates, remove the
        # mugs": what stays is named apart; the line that goes is named by the rest
        again = _understand(rest)
        if again[0] == "remove":
            return again
    if kind not in AFTER_SALE and CHANGES_ADDRESS.search(words.fold(raw)) and read_act(
            raw).kind == "question" and words.address(raw) is None:
        return "policy", text  # "can I still change the delivery address?": asked, never done
    if kind in ("replace", "quantity", "switch") and wants_pickup(raw) and \
            read_act(raw).kind == "question":
        return "policy", text  # "can I pick it up instead of shipping?": asked, never a swap
    if kind in ("checkout", "buy", "add") and read_act(raw).kind == "question" and \
            _asks_the_terms(raw):
        return "policy", text  # "do I pay shipping on the ebook?": asked, never ordered
    if kind not in ("search", "other", "policy", "details", "status") or (
            read_act(raw).kind != "question" and not topics.asks(raw)):
        return kind, text
    found = topics.topic(text)
    if found is None:
        return kind, text
    if kind == "status" and (found.about != "item" or _ABOUT_AN_ORDER.search(words.fold(
            text)) or _names_an_order(text)):
        return kind, text  # where an order is; "茶道体験はどこで…" asks where a class is held
    if found.about == "store" and (kind in ("search", "other") or found.name in (
            "hours", "minimum")) and not _ABOUT_AN_ORDER.search(words.fold(text)):
        return "policy", text  # "I was wondering whether you're open on Sundays?"
    if found.about == "store" and found.name in ("shipping", "returns") and kind == "details" \
            and not _ABOUT_AN_ORDER.search(words.fold(text)):
        return "policy", text  # "how much to post the cork mat to me?": its store's terms
    if kind == "search" and _HAVE.search(words.fold(text)) and not topics.points(text):
        return kind, text  # "do you have any vegan pizzas?": a search by what they are
    if found.about == "item" and kind != "details" and intent(text) not in _TERMS and \
            topics.names_an_item(text, found):
        return "details", text  # "how long does the workshop last?", "il pèse combien ?"
    return kind, text


def _asks_the_terms(raw: str) -> bool:
    """Whether a question whose verb is one of getting or paying asks about the store's terms
    for it ("do I pay shipping on the ebook?", "if I buy two, how long does delivery take?")
    rather than asking the agent to do it ("can you check out and ship it to …?")."""
    found = topics.topic(raw)
    act = read_act(raw)
    return found is not None and found.about == "store" and not act.request and not \
        _ASKS_TO_ACT.search(words.fold(raw)) and words.address(raw) is None


# Changing where an order goes, named ("change the address", « modifier l'adresse »,
# 「住所を変更」).
CHANGES_ADDRESS = re.compile(
    r"\b(?:change|changing|update|updating|modify|edit|correct|fix|chang\w*|modifi\w*|"
    r"corrig\w*)\b.{0,40}\b(?:address|adresse)\b|\b(?:address|adresse)\b.{0,30}\b(?:changed|"
    r"updated|modifiee|changee)\b|(?:住所|配送先|お届け先).{0,10}(?:変更|変え)|"
    r"(?:変更|変え).{0,10}(?:住所|配送先|お届け先)")


# Asking whether the shop has things of a kind: a search, whatever its topic words say.
_HAVE = re.compile(r"\b(?:do you (?:have|sell|carry|stock)|got any|avez-vous|vous avez)\b|"
                   # tu and vous, inversion and intonation: "t'as des…", "y a-t-il des…"
                   r"\b(?:t'as|tu as|as-tu|auriez-vous|vous auriez|y a-t-il|vendez-vous|"
                   r"vous vendez|tu vends|vends-tu)\b|"
                   r"ありますか|売って")
# A thing named as the topic, then which of its kinds is asked (「抹茶は何グラムのがありますか」,
# 「マグはどんな色がありますか」): its own sizes or colours, not a search for more things.
_JA_ITS_KINDS = re.compile(r"は[^。？?]{0,12}(?:何|なん|どんな|どの|どれ|いくつ)")
# What the intent table reads as a question about terms stays one, whatever its topic words.
_TERMS = (*AFTER_SALE, "sub_skip", "sub_frequency", "fees", "hours", "contact", "currency",
          "payment")


# A request not to add a thing, read as that thing declined: "don't add a gift box" →
# "without a gift box", "ne mets pas d'emballage" → "sans emballage".
_NOT_ADDED = re.compile(r"^\s*(?:but\s+|and\s+|mais\s+)?(?:please\s+)?"
                        r"(?:don'?t|do not|no need to)\s+"
                        r"(?:add|include|put(?: in)?|give me|want|need)\s+|"
                        r"^\s*(?:mais\s+)?(?:ne|n')\s*(?:mets|mettez|ajoute|ajoutez|veux|voudrais)"
                        r"\s+pas\s+(?:de\s+|d')?")


def _declined_apart(kept: str, negated: tuple[str, ...]) -> list[str] | None:
    """The negated clauses as declined things when each refuses to add something the kept
    request does not name ("add a dinner plate but don't add a gift box"), else None."""
    if not negated or not words.content_words(kept):
        return None
    declined = []
    for part in negated:
        folded = words.fold(part)
        found = _NOT_ADDED.match(folded)
        thing = folded[found.end():] if found else ""
        if not found or not words.content_words(thing) or words.content_words(thing) <= \
                words.content_words(kept):
            return None
        declined.append(("sans " if found.group().strip().startswith(("ne", "n'", "mais"))
                         else "without ") + thing)
    return declined


def _sets_a_line(text: str) -> bool:
    """The count said is the line's new total, or none of it."""
    return quantities.says_a_total(text) or quantities.how_many(text) == 0


# A thing said without a verb, by its article or a count ("the sourdough book, check out"):
# what an order beside it is for ("I have a coupon somewhere" names nothing to buy).
# ("fetch me the sourdough year" too: a thing asked for with any verb of giving)
_A_THING_SAID = re.compile(r"^(?:and |et )?(?:the|a|an|some|le|la|les|l'|un|une|des)\b|"
                           r"\b(?:me|us|moi|nous)\s+(?:the|a|an|some|le|la|les|l'|un|une|des)\b|"
                           r"[\u3040-\u30ff\u4e00-\u9fff]")


def _with_the_checkout(checkout: Checkout, text: str) -> tuple[str, str] | None:
    """A message that orders or pays now (`checkout_acts`): the checkout of the cart when
    nothing else is said ("yes, make the order", « passe la commande pis livre ça au … »);
    the purchase of what the other clauses ask for when they ask to get a thing ("grab me
    one and check out", « ajoute un tiramisu et on passe à la caisse »); else None, for the
    other request to be read as usual."""
    rest = read_delivery(checkout.rest).rest  # the address is where it goes, no request
    if says_nothing_else(rest) or not (words.content_words(rest) or words.re_japanese(rest)):
        return "checkout", text
    asked = understand(rest)[0]
    if asked == "yes":
        return "checkout", text  # 「それにします、お支払いします」: what is offered, ordered
    if asked in ("add", "buy") or (asked in ("other", "search") and read_act(rest).kind !=
                                   "question" and (words.quantity(rest) is not None or (
                                       words.names_a_thing(rest) and
                                       _A_THING_SAID.search(words.fold(rest)) is not None))):
        return "buy", checkout.request  # "grab me one and check out": the thing, then the order
    return None


# Asking to know, said as a statement: "I just want the price", "tell me what it costs",
# « je veux juste savoir le prix », 「値段だけ知りたい」.
_TO_KNOW = re.compile(r"\b(?:know|see|check|price|cost|savoir|voir|prix|cout)\b|値段|いくら|"
                      r"知りたい|見たい")


def _asks_to_know(act: Act) -> bool:
    return act.kind == "question" or topics.asks(act.text) or bool(
        _TO_KNOW.search(words.fold(act.text)))


def _understand(raw: str) -> tuple[str, str]:
    if pausing(raw):
        return "hedge", raw  # "hold on", « un instant », 「ちょっと待って」: nothing yet
    if which_order.only_an_order(raw):
        return "status", raw  # "b57b94", "…3f9a2c?": an order's id or tail, nothing else
    raw = settle(correct_words(raw, INTENT_WORDS, NOT_TYPOS))  # the last act, as it stands
    if refuses_an_act(raw):
        return "no", raw  # "no tip thanks", "I don't want to check out yet": a no, no removal
    if _NOT_ARRIVED.search(words.fold(raw)) and not _ACTS_ON_AN_ORDER.search(words.fold(raw)):
        return "status", raw  # "my parcel hasn't arrived", "まだ届いていません": not a refusal
    asked = without_code_waved_away(raw)
    if asked is not None and (intent(asked) not in ("other", "promotion", "discounts") or
                              closing(asked) == "order"):
        raw = asked  # "forget the code and check out": the code waved away, the rest asked
    rest = dismissed(raw)
    if rest and intent(rest) in _DONE_AFTER_A_DISMISSAL:
        raw = rest  # "ugh never mind clear the whole cart": the dismissal declines nothing
    undoing = read_act(raw) if _UNDOES_AN_ORDER.search(words.fold(raw)) else None
    if undoing is not None and _UNDOES_AN_ORDER.search(words.fold(undoing.text)):
        # (only as said, not negated: "don't undo my order" undoes nothing)
        return ("policy" if undoing.kind == "question" else "cancel"), raw
    change = mind.read(raw)
    if change is not None and change.intent in ("remove", "quantity", "replace", "keep") and \
            intent(raw) not in _ON_A_PAST_ORDER:
        # ("サブスクを止めたい" stops the subscription, "もう一回同じのを" orders again: no line)
        return change.intent, change.text  # "forget the plates", "actually make it two"
    if change is not None and change.intent == "undo":
        return "no", change.text  # "やっぱりやめた": a refusal (right after an add, a take-back)
    if change is not None and not change.intent and change.text.strip():
        raw = change.text  # "actually, no garlic bread": what the shopper wants now
    act = read_act(raw)
    if act.kind != "question" and _sets_a_line(raw) and intent(raw) not in (
            *_ON_A_PAST_ORDER, *AFTER_SALE, "rate", "tip", "book", "subscribe"):
        # "I want 5 in total", "I need 4 not 2", "none of the salads", « je n'en veux
        # aucun »: what the line should hold, set (a new line when the cart has none of it)
        return "quantity", raw
    beside = intent(raw)  # another act said with it wins: "pause my plan, I don't need it"
    if _ENDS_A_PLAN.search(words.fold(raw)) and beside not in _OTHER_ACTS_ON_A_PLAN:
        # "don't want my membership anymore": a negation that ends the plan (asked about
        # when it is a question), never a no to the offer on the table
        return ("policy" if act.kind == "question" else "sub_cancel"), raw
    if _ENDS_AN_ORDER.search(words.fold(raw)) and beside in _MAY_END_AN_ORDER:
        return ("policy" if act.kind == "question" else "cancel"), raw
    closed = closing(raw)
    checkout = read_checkout(act.text)
    if act.kind == "question" and checkout.asked:
        return "policy", act.text  # "can I pay when I pick it up?": the store's terms
    if checkout.concludes and act.kind in ("instruction", "confirmation") and closed != "later":
        concluded = _with_the_checkout(checkout, act.text)
        if concluded is not None:
            return concluded
    if act.kind == "confirmation" and closed == "order":
        return "checkout", act.text  # 「購入手続きをお願いします」: the order, not a bare yes
    if act.kind == "confirmation":
        return "yes", act.text
    if act.kind == "refusal":
        return "no", act.text
    if act.kind == "hedge":
        return "hedge", act.text
    if act.condition:
        return _supposed(act.condition, act.main)
    kind = intent(act.text)
    if act.kind == "question" and kind in ("yes", "no") and not _ASSENT_THEN_ASKED.match(
            words.fold(act.text)):
        # "ok so is it in stock?", "sure, but how many cups?": the "ok" opens a question, it
        # accepts nothing ("yes, what's the total?" still says yes, then asks)
        kind = intent(without_discourse(act.text))
        kind = "other" if kind in ("yes", "no") else kind
    head, comma, asked = act.text.partition(",")
    if act.kind in ("question", "instruction") and comma and asked.strip() and \
            not act.negated and classify(head).act == "decline" and \
            read_act(asked).kind == "question":
        # "no thanks, is shipping free though", "not yet, what does it cost": the offer
        # declined, the question after it is what is asked
        return understand(asked.strip())
    if act.kind == "question" and kind in ("other", "details", "search", "discounts") and \
            codes_asked_about(act.text) and not _STACKING.search(words.fold(act.text)):
        # "is SUMMER2020 still valid?", "what does FIVEOFF do": the code is described from
        # the store's offers, never applied (codes used together are the code stage's)
        return "discounts", act.text
    if kind == "status" and act.kind != "question":
        # "annule la commande du livre", "send back the mug that arrived": the act named is
        # what is asked, never where the order is
        kind = next((act_kind for act_kind, verb in _ACT_VERBS if verb.search(
            words.fold(act.text))), kind)
    if kind in ("other", "details", "search", "buy") and _names_an_order(act.text):
        # "what about …3f9a2c, has it left?", "where's order 641934 at?": about that order
        # (an order's number after "order" makes it the noun, never the verb with a count)
        kind = "status"
    held = [refused_purchase(part) for part in act.negated]
    if held and None not in held and (kind == "add" or act.request == "add"):
        # "don't buy the gyokuro yet, just put it in my cart": only buying now is refused; the
        # thing the refusal names goes in the cart, nothing is ordered
        joint = "、" if words.re_japanese(act.text) else ", "
        return "add", joint.join((*(thing for thing in held if thing and (words.content_words(
            thing) or words.re_japanese(thing))), act.text))
    named = bool(closed) and bool(words.content_words(without_closing(act.text)))
    if closed == "later" and (kind in ("checkout", "other") or (
            kind in ("add", "buy", "book") and not words.names_a_thing(without_closing(
                act.text)))):  # (in any script: 「…支払いはまだ、お皿を2枚カートに」 adds)
        return "no", act.text  # "not ready to place the order yet", "I'll pay later"
    if (closed in ("order", "done") and kind in ("add", "checkout") and named or (
            kind == "checkout" and words.content_words(without_closing(act.text)))) and intent(
            without_closing(act.text)) in ("add", "buy"):
        # "I'll have a tiramisu, that's everything", "I'll take X, checkout": the additions
        # named first, then the order
        kind = "buy"
    elif closed in ("order", "done") and kind in ("other", "cart", "checkout", "search", "add") \
            and (kind == "checkout" or not named):
        kind = "checkout"  # "that'll be all", "ring it up", « ce sera tout », 「以上です」
    if act.request and (kind in _READ_AS_REQUESTED or (act.request == "buy" and kind in (
            "add", "checkout")) or (act.request in ("book", "subscribe") and kind == "add")):
        # "commande-moi le livre signé": a verb of getting in a request form is what it asks,
        # never an existing order's status; "…を注文します" with a thing named buys that thing
        if kind in ("other", "search") and act.request in ("add", "buy") and \
                words.price_bounds(act.text) and words.quantity(act.text) is None:
            # "a book under 20 euros please", « un livre à moins de vingt euros svp »: a kind
            # within a limit, asked for politely, is shown to choose from, never picked
            return "search", act.text
        kind = act.request
    asked_doing = doing_asked(act.text) if act.kind == "question" and kind in SHOPPING and \
        not act.request else None
    if asked_doing is not None:
        # "should I buy the gyokuro?", "did you add the mug?", 「玉露は買わないの？」: the
        # verb of buying is asked about, never done (the cart, or the thing's details)
        return asked_doing, act.text
    if kind in ("add", "buy") and (words.for_whom(act.text) or _ASKS_WHAT_THERE_IS.search(
            words.fold(act.text)) or _wants_an_unnamed_thing(act.text)) and \
            words.quantity(act.text) is None and not act.negated:
        # "I want to buy a gift for someone who loves pottery": a description of whom it is
        # for names no one item; "I need a teapot, what do you have?" asks to see them: what
        # fits is shown to choose from
        return "search", act.text
    if kind == "remove" and _declines_a_size(act.text):
        return "add", act.text  # "抹茶の30グラムを二つ。100グラムはいらない": the 30 g is ordered
    declined = _declined_apart(act.text, act.negated) if kind in ("add", "buy") else None
    if declined is not None:
        # "add a dinner plate but don't add a gift box": the refusal is of another thing,
        # said as declined beside the request
        return kind, ", ".join((act.text, *declined))
    if kind in (*AFTER_SALE, "rate") and _TERMS_NOUN.search(words.fold(act.text)):
        return "policy", act.text  # "返品ポリシーを教えて", "the cancellation terms": asked about
    if act.negated and kind in _ACTIONS and intent(" ".join(act.negated)) == kind:
        # "don't add it, I just want the price": the action said not to be done never is;
        # what is left asks about it
        kind = "policy" if kind in AFTER_SALE else (
            "details" if words.content_words(act.text) else "other")
    swap = find_swap(words.fold(raw)) if act.negated else None
    if kind in _MAY_REPLACE and swap is not None and refuses_first(words.fold(raw)) and (
            words.content_words(swap.new) - _OTHER_WORDS or words.ordinal(swap.old) is not None):
        # "not the large, the small one", « pas la tasse mais le bol »: said first, the thing
        # refused is the line that goes (with no such line, only the other is wanted); "not
        # the mug, the other one" names nothing new: a choice among those shown by name (« pas
        # le premier, l'autre » refuses one by its place: the other of them is wanted)
        return "replace", raw
    if act.negated and kind in ("add", "buy") and all(
            _NOT_THE.match(words.fold(part)) for part in act.negated):
        # "add a classic mug, not the blue one": the option refused goes with the request,
        # as declined, so the variant is chosen among the others
        return kind, ", ".join((act.text, *act.negated))
    if act.negated and kind in (*AFTER_SALE, "status", "rate", "reorder") and all(
            _NOT_THE.match(words.fold(part)) for part in act.negated):
        # "cancel my order, not the plates one": the order refused goes with the request,
        # so the one meant is chosen among the others
        return kind, ", ".join((act.text, *act.negated))
    if act.negated and kind in ("other", "details") and _asks_to_know(act) and \
            intent(" ".join(act.negated)) in SHOPPING and not words.content_words(
            act.text) and (words.content_words(" ".join(act.negated)) or
                           topics.points(" ".join(act.negated)) or topics.points(act.text)):
        # "don't add the teapot yet, how much is it?", "don't put it in my cart, just tell me
        # the price": asked about the thing not added
        return "details", " ".join((act.text, *act.negated))
    if act.negated and kind in ("other", "search", "details"):
        topic = intent(" ".join(act.negated))
        if topic == "remove" and act.kind != "question" and all(
                words.names_a_measure(part) for part in act.negated) and words.quantity(
                act.text) is not None and words.names_a_thing(words.without_measures(act.text)):
            # "抹茶の30グラムを二つ。100グラムはいらない": a size declined, the rest ordered
            # (joined as the shopper's language writes sentences)
            joint = "。" if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", act.text) else ", "
            return "add", joint.join((act.text, *act.negated))
        if topic == "remove" and act.kind != "question":  # "the mug, I don't need it anymore"
            return "remove", " ".join((act.text, *act.negated))
        if topic in AFTER_SALE and _WHERE.search(words.fold(act.text)) and not \
                _POLICY_WORDS.search(words.fold(act.text)):
            # "I don't want a refund, only where my order is", "don't cancel, just tell me
            # where it is": what is left asks where the order is
            return "status", act.text
        if topic in AFTER_SALE:  # "I don't want to return it, only how long I'd have"
            return "policy", " ".join((*act.negated, act.text))
        if kind == "other" and topic == "other" and act.kind != "question" and all(
                _NOT_THE.match(words.fold(part)) for part in act.negated):
            # "blue, but not the 12 oz": the option declined stays, as declined
            said = ", ".join((act.text, *act.negated))
            counted = words.quantity(act.text) is not None and words.names_a_thing(
                words.without_measures(act.text))  # "three 16 oz blue mugs, not the 12"
            return ("add" if counted or _CONFIGURED.search(words.fold(said)) else kind), said
    if kind in ("other", "search", "details", "fees", "add") and raw.rstrip().endswith(
            ("?", "？")) and _DELIVERY.search(words.fold(act.text)) and country_named(
            act.text) and words.address(act.text) is None:
        return "policy", act.text  # "would you be able to ship the mat to Ireland?"
    if act.just_asking:  # "just asking", "only looking": answered, never done
        if kind in AFTER_SALE or kind in ("cancel", "checkout", "remove", "empty",
                                          "quantity", "promotion", "rate"):
            return ("policy" if kind in AFTER_SALE else "other"), act.text
        if kind in ("add", "buy", "book", "subscribe") and act.kind == "question" and (
                words.content_words(act.text) or words.re_japanese(act.text)):
            return "details", act.text  # 「急須を買おうかなと…何ml入りますか」: about the thing
        if kind in ("add", "buy", "book", "subscribe"):
            return ("search" if words.content_words(act.text) else "other"), act.text
    if act.wholly_negated and kind != "remove":
        return "no", act.text  # "don't add it", "I don't need that"
    if kind in _MAY_REPLACE and find_swap(words.fold(act.text)) is not None:
        return "replace", act.text  # "swap the mug for the bowl": one line for another
    if kind in _MAY_REPLACE and act.negated and _CHANGED_TO.search(act.text) and find_swap(
            words.fold(raw)) is not None:
        return "replace", raw  # "マグじゃなくて皿にして": the refused one is the line that goes
    if kind in ("other", "add", "remove", "search") and \
            quantities.relative(act.text) is not None:
        return "quantity", act.text  # "one more", "drop one": relative to the cart
    if act.kind == "question" and kind in ("other", "details", "search") and LOCATION.search(
            words.fold(act.text)) and not _ABOUT_AN_ORDER.search(words.fold(act.text)):
        return "policy", act.text  # "where is Trattoria Fiamma?", "the address of …"
    if act.kind == "question" and kind == "search" and COMMITMENT.search(words.fold(act.text)):
        return "policy", act.text  # "…に最低契約期間はありますか？": the plan's terms
    if act.kind == "question" and not act.request and (
            kind in ("add", "details") and _MY_CART.search(words.fold(act.text)) or
            kind in SHOPPING and _PAST_ACT.search(words.fold(act.text)) or
            kind in ("other", "details", "search") and _RUNNING_TOTAL.search(
                words.fold(act.text))):
        # "what did I put in my basket?", "how much is my cart?": the cart, never an add
        return "cart", act.text
    if act.kind == "question" and kind in SHOPPING and not act.request and (_ASKS_ABOUT.search(
            words.fold(act.text)) or tagged(act.text) or asks_a_way(act.text)):
        # "what does the gift card include?", "is the python book a pdf or what": the verb
        # or noun of shopping is asked about, never done
        return "details", act.text
    if act.kind == "question" and kind in MAY_ASK_PICKUP and PICKUP.search(
            words.fold(act.text)):
        return "policy", act.text
    if act.kind == "question" and kind in ("other", "search", "details", "checkout") and \
            PAY_NAMES.search(
            words.fold(act.text)):
        return "policy", act.text  # "acceptez-vous PayPal ?"
    if act.kind == "question" and kind in ("other", "search", "details", "status") and \
            _DELIVERY.search(words.fold(act.text)) and words.address(act.text) is None and (
                country_named(act.text) or (kind != "status" and not _ABOUT_AN_ORDER.search(
                    words.fold(act.text)))):
        return "policy", act.text  # "livrez-vous au Japon ?", "what are the delivery options?"
    if kind in ("payment", "sub_skip", "sub_frequency", "hours", "contact", "currency") or (
            kind == "fees" and (
            act.kind == "question" or words.address(act.text) is None)):
        return "policy", act.text
    if act.kind == "question" and kind in ("other", "search") and STOCK.search(
            words.fold(act.text)) and (words.content_words(act.text) or words.re_japanese(
                act.text)):
        return "details", act.text  # "is the speckled mug in stock?": that item's stock
    if act.kind == "question" and kind in ("other", "search") and asks_enough(act.text):
        return "details", act.text  # "do you have 5 tiramisu?": whether that many are there
    if kind in ("other", "search", "details") and (words.order_id(act.text) or which_order.cues(
            act.text).tail):
        return "status", act.text  # "ord_…?", "what about ord_…": where that order is
    if act.kind == "question" and kind in ("other", "details") and _POSSIBLE_TO_HAVE.search(
            words.fold(act.text)):
        return "details", act.text  # "is it possible to get the mug in white?": its options
    if act.kind == "question" and kind in ("other", "details") and _POLICY_WORDS.search(
            words.fold(act.text)):
        return "policy", act.text  # "is there a minimum commitment?": the terms, not a product
    if kind == "other" and _REPORTS_A_STATE.search(words.fold(act.text)):
        return kind, act.text  # "one of the plates arrived chipped": what happened, no order
    if kind in ("other", "search") and act.kind != "question" and (
            read_message(act.text).spend is not None or amount_asked(act.text) is not None) \
            and words.names_a_thing(words.without_measures(words.strip_prices(act.text))):
        # "$20 worth of san pellegrino", "1kg of genmaicha": a sum or an amount of a thing
        return "add", act.text
    if kind == "other" and act.kind != "question" and words.quantity(act.text) is not None \
            and words.names_a_thing(words.without_measures(act.text)) and \
            words.address(act.text) is None:
        return "add", act.text  # "a dozen arancini please", "炭酸水を3本": a count and a thing
    if kind == "other" and act.kind != "question" and len(words.item_phrases(act.text)) > 1 \
            and words.address(act.text) is None:
        return "add", act.text  # "a dripper and the serving bowl please": a list is an order
    if kind == "other" and act.kind != "question" and _CONFIGURED.search(words.fold(act.text)) \
            and words.address(act.text) is None:
        return "add", act.text  # "a lasagna, no garlic bread": one, with its options said
    if kind == "other" and request_frames.asks_for(act.text) and words.names_a_thing(
            words.without_measures(act.text)) and words.address(act.text) is None:
        return "add", act.text  # « Faites-moi parvenir un kit », « Ce serait pour une salade »
    if kind == "other" and act.kind != "question" and _ASKED_POLITELY.search(
            words.fold(act.text)) and words.names_more_than_looks(act.text) and \
            words.address(act.text) is None and not words.price_bounds(act.text) and (
                _WITH_ARTICLE.match(words.fold(act.text)) or _a_bare_thing(act.text)):
        return "add", act.text  # "a pour-over dripper please", "une théière, s'il vous plaît"
    if kind == "other" and (words.price_bounds(act.text) or words.price_order(act.text)) and (
            words.content_words(act.text) or words.re_japanese(act.text)):
        return "search", act.text  # "3000円以下の抹茶", "teapots, least costly first": a search
    if kind == "other" and words.price_order(act.text):
        return "search", act.text  # "le plus cher des deux": of what was shown, by price
    if act.kind == "question" and kind in ("other", "search", "details") and \
            _ABOUT_AN_ORDER.search(words.fold(act.text)):
        return "status", act.text  # "what's happening with my order?", "and the one before?"
    if act.kind == "question" and kind == "other" and words.content_words(act.text) and \
            not words.re_japanese(act.text) and not greeting(words.fold(without_discourse(
                act.text))):
        # "is the teapot dishwasher safe?", « salut, combien coûte l'assiette ? »: a product
        return "details", act.text
    if act.kind == "question" and kind in ("other", "search") and words.re_japanese(act.text) \
            and words.names_a_thing(act.text) and (not _HAVE.search(act.text) or
                                                   _JA_ITS_KINDS.search(act.text)) and not \
            _POLICY_WORDS.search(words.fold(act.text)):
        # 「Rustの本は紙の本もついてきますか」, 「宇治抹茶は何グラムのがありますか」: that item
        return "details", act.text
    if kind in AFTER_SALE and raw.rstrip().endswith(("?", "？")) and not _ASKS_TO_ACT.search(
            words.fold(raw)) and not (kind == "tip" and read_tip(raw)):
        return "policy", act.text  # "can I get a refund?" asks whether, not to
    if act.kind == "question" and (kind in AFTER_SALE or (
            _POLICY_WORDS.search(words.fold(act.text)) and kind not in ("search", "add"))):
        if kind == "status":
            return kind, act.text
        return "policy", act.text
    return kind, act.text


# An order that has not come yet, said as a complaint: its status is the answer.
_NOT_ARRIVED = re.compile(
    r"\bnothing (?:has |have )?(?:arrived|come|came|turned up|shown up|showed up)\b|"
    r"\b(?:(?:has|have|did|is|are)(?:n't| not)|not yet|still not|never)\b.{0,20}\b(?:arriv\w*|"
    r"come|came|turned up|shown up|showed up|shipped|delivered|received|here)\b|"
    r"\bstill (?:waiting|haven't|hasn't|have not|has not|no sign)\b.{0,30}\b(?:order|package|"
    r"parcel|delivery|\w+ (?:i|we) (?:ordered|bought))|\bno sign of (?:my|the)\b|"
    r"\b(?:toujours|pas encore|jamais)\b.{0,20}\b(?:arrive\w*|recu\w*|livre\w*|expedie\w*)|"
    r"\b(?:n'est|ne sont|n'ai|n'avons)\b.{0,20}\bpas\b.{0,12}\b(?:arrive\w*|recu\w*|livre\w*)|"
    r"\bj'attends (?:toujours|encore)\b|"
    r"まだ.{0,12}(?:届いて|届かな|来て|来な|着いて|着かな|発送されて)|届いていません|届きません")
_ACTS_ON_AN_ORDER = re.compile(r"\b(?:cancel\w*|return\w*|refund\w*|annul\w*|rembours\w*|"
                               r"retourn\w*)\b|キャンセル|返品|返金|取り消")
# The verbs of the acts on an order, said as acts (not "my return", "the cancellation").
_ACT_VERBS = [("cancel", re.compile(r"\bcancel\b|\bcall (?:\w+ ){0,4}off\b|\bannule[rz]?\b|"
                                    r"キャンセル(?:して|したい|します|を|お願い)|取り消(?:して|したい|します)")),
              ("return", re.compile(r"(?<!\bmy )(?<!\bthe )(?<!\ba )\breturn\b|"
                                    r"\b(?:send|give)\b.{0,20}\bback\b|"
                                    r"\bbring (?!me\b|us\b).{0,20}\bback\b|"
                                    r"\brefund me\b|\bretourne[rz]?\b|"
                                    r"\brenvoye[rz]?\b|\brembourse[rz]?\b|"
                                    r"返品(?:して|したい|します|を|お願い)|返金(?:して|したい)"))]


# The shopper's own cart named, in any of the shoppers' languages.
_MY_CART = re.compile(r"\b(?:my|the|mon|le) (?:shopping )?(?:cart|basket|panier)\b|カート")
# A past act of shopping asked about ("did I add the mug already?", "have I put the plates
# in?", « est-ce que j'ai ajouté le mug ? »): what the cart holds answers, nothing is done.
_PAST_ACT = re.compile(r"^(?:\W*\w+\W+){0,2}?(?:did|have|had) (?:i|we) (?:\w+ )?"
                       r"(?:add|added|put|get|got|pick|picked|take|taken|took)\b|"
                       r"\b(?:est-ce que|est ce que) (?:j'ai|on a|nous avons) (?:deja )?"
                       r"(?:ajoute|mis|pris)\b|(?:もう|すでに)?(?:入れ|追加し)ました(?:っけ)?か|"
                       r"(?:入れ|追加し)たっけ")
# A yes said outright, then a question with no reservation: the yes stands.
_ASSENT_THEN_ASKED = re.compile(r"^\s*(?:yes|yeah|yep|yup|sure|oui|please do|go ahead)\b"
                                r"(?:\s*please)?[\s,!.:-]+(?![\s,!.:-])(?!(?:but|though|wait|"
                                r"hold on|mais|"
                                r"attends?)\b)")
# Codes asked about together ("READMORE15 and FOLIO3 together?"): whether they stack is
# answered where codes are applied.
_STACKING = re.compile(r"\b(?:together|stack\w*|combin\w*|both|ensemble|cumul\w*)\b|併用|一緒|"
                       # ("did FIVEOFF go through?": whether it is on the cart, the cart says)
                       r"\b(?:applied|worked|went through|gone through|taken off|been applied|"
                       r"appliquee?s?|a marche|a fonctionne)\b|適用され")
# What the shopper owes so far, asked without naming the cart ("what do I owe so far?",
# "what's the damage", « je vous dois combien », 「今いくら？」): the cart's total.
_RUNNING_TOTAL = re.compile(
    r"\b(?:do|would|will|should) (?:i|we) owe\b|\bthe damage\b|"
    r"\b(?:how much|what)\b.{0,30}\b(?:so far|up to now|until now)\b|"
    r"\b(?:je|on) (?:vous|te|t'|leur) (?:dois|doit)\b|\bon en est a combien\b|"
    r"\bca (?:me |nous )?fait combien (?:pour l'instant|jusqu'ici|pour le moment|"
    r"en tout|au total|pour l'heure)\b|"
    r"(?:今|いま|ここまで|全部|ぜんぶ)(?:で|の|は)?(?:合計|いくら)")


def _names_an_order(text: str) -> bool:
    found = which_order.cues(text)
    return bool(found.order_id or found.tail)


def _declines_a_size(text: str) -> bool:
    """Whether the message orders a count of a thing in one part and, in another, only turns
    down a size ("…を二つ。100グラムはいらない"): the refusal is of an option, not of a line."""
    parts = [part for part in re.split(r"[。、,.;!！]", text) if part.strip()]
    refused = [part for part in parts if intent(part) == "remove"]
    kept = [part for part in parts if part not in refused]
    return bool(refused and kept) and all(words.names_a_measure(part) and not
                                          words.content_words(words.without_measures(part))
                                          for part in refused) and any(
        words.quantity(part) is not None and words.names_a_thing(words.without_measures(part))
        for part in kept)


# What a question may ask under a condition; any other intent there is only supposed.
_ANSWERS = ("status", "policy", "details", "search", "cart", "discounts", "stores")
# Supposing an order not made yet ("if I order today", "si je commande", "今注文したら").
_ORDERING = re.compile(r"\b(?:order\w*|buy\w*|bought|purchas\w*|command\w*|achet\w*|achete\w*)\b|"
                       r"注文|買|購入")
# Words that ask nothing of their own after a condition ("what happens then?").
_NOTHING_ASKED = frozenset("happen happens happened happening then next passe passera se t "
                           "arrive-t-il passe-t-il".split())


# "…たらどうなりますか", "…たら何が起きる？": nothing asked beyond what is supposed.
_WHAT_HAPPENS_JA = re.compile(r"^(?:どう(?:なる|なります|なっちゃう|なるの|なるんですか|"
                              r"なりますか)|何が(?:起き|起こ))")


def _supposed(condition: str, main: str) -> tuple[str, str]:
    """A question under a condition: what it asks is answered ("if I order now, when will it
    arrive?": the delivery terms), what it supposes is never done; with nothing asked beyond
    the condition ("what if I cancel?") the terms of what it supposes are the answer."""
    both = f"{main} {condition}".strip()
    asked = understand(main)[0] if (words.content_words(main) - _NOTHING_ASKED or re.search(
        r"[\u3040-\u30ff\u4e00-\u9fff]", main)) and not _WHAT_HAPPENS_JA.match(
        main.strip()) else "other"
    if asked == "status" and (intent(condition) in (*SHOPPING, "checkout") or _ORDERING.search(
            words.fold(condition))):
        return "policy", both  # "if I order now, when will it arrive?": an order not made yet
    if asked in _ANSWERS:
        return asked, both
    return "policy", f"{condition} {main}".strip()


# What a tip given in other words ("leave a fiver", "add two euros for the driver") reads
# as by the keyword table: a sum given to the people who served is a tip (`language/tips`).
_MAY_BE_A_TIP = ("add", "other", "search", "buy", "details", "quantity")


# What happened to things already received ("one of the plates arrived chipped", "2 mugs came
# broken", « une des assiettes est arrivée cassée », 「お皿が1枚割れて届いた」): a report, which
# names things and counts without ordering any.
_REPORTS_A_STATE = re.compile(
    r"\b(?:arrived|came|showed up|got here|turned up|(?:is|are|was|were) (?:\w+ )?"
    r"(?:broken|chipped|cracked|damaged|smashed|shattered|missing|defective|faulty|leaking)|"
    r"broke|cracked|chipped|shattered|leaks|"
    r"(?:est|sont) (?:arrivee?s?|cassee?s?|abimee?s?|ebrechee?s?|fendue?s?)|"
    r"arrivee?s? (?:cassee?s?|abimee?s?|ebrechee?s?|fendue?s?))\b|"
    r"割れ|欠け|ひび|壊れ|届いた|届きました")


@lru_cache(maxsize=4096)
def intent(raw: str) -> str:
    text = words.fold(raw).strip()
    for name, pattern in _COMPILED:
        if pattern.search(text):
            return "tip" if name in _MAY_BE_A_TIP and gives_a_tip(raw) else name
    if gives_a_tip(raw):
        return "tip"
    if words.yes(text):
        return "yes"
    if words.no(text):
        return "no"
    return "other"
