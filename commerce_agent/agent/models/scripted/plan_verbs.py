"""The words of a plan's life, by language: starting one, pausing, resuming, ending, skipping,
another billing frequency.

One small lexicon per act and language, matched against folded text (no accents, lower case).
A verb in `ALONE` names the act on its own (only a plan pauses, so "freeze it" pauses it); a
verb in `WITH_PLAN` names it only with a plan named in the same message ("stop my plan", but
"stop" alone stops nothing). `SHAPED` holds the few sentences whose shape, not a verb, says
the act ("turn it back on", "stop charging me"). `intents` compiles these into its table.
"""

from __future__ import annotations

import re

# ("plan" whole: "leave out the planter" is about a planter)
PLAN = (r"(?:subscription|membership|plans?\b|abonnement|adhesion|forfait|サブスク|"
        r"定期|購読|会員|メンバーシップ|プラン(?!ター))")

# How often a plan bills, in the words a shopper says it ("weekly", "every two weeks",
# « toutes les deux semaines », 「隔週」), matched on folded text.
FREQUENCY = (r"(?:daily|weekly|bi-?weekly|fortnightly|monthly|bi-?monthly|quarterly|yearly|"
             r"annual(?:ly)?|(?:every|each) (?:other |two |2 |three |3 |six |6 )?(?:days?|weeks?|"
             r"months?|quarters?|years?)|(?:once|twice) a (?:day|week|month|year)|"
             r"per (?:day|week|month|year)|quotidien\w*|hebdo\w*|bimensuel\w*|mensuel\w*|"
             r"trimestriel\w*|semestriel\w*|annuel\w*|toutes les (?:deux |2 )?semaines|"
             r"tous les (?:jours|mois|ans|deux mois)|chaque (?:jour|semaine|mois|annee)|"
             r"par (?:jour|semaine|mois|an|annee))\b")
FREQUENCY_JA = (r"(?:毎日|毎週|隔週|毎月|隔月|年払い|月払い|年額|年間|四半期|週(?:1|一|１)回|"
                r"(?:2|２|二)週間(?:ごと|に一度|おき))")

ALONE: dict[str, dict[str, tuple[str, ...]]] = {
    "start": {
        "en": ("subscribe", "sign (?:me |us )?up", "join", "start (?:me|us) (?:on|with)",
               "enrol(?:l)?(?: me| us)?(?: (?:in|on|for|to))?", "enrol(?:l)?ing",
               "register (?:me |us )?(?:for|to|with)", "become an? (?:member|subscriber)",
               "take out an? (?:subscription|membership)"),
        "fr": ("abonner", "m'abonner", "abonne[sz]?-(?:moi|nous)",
               "(?:m'|nous |s')abonn(?:e|es|ez|ons|erai|erais|erions)",
               "inscri(?:s|vez)-(?:moi|nous)", "m'inscri(?:re|s|rais)", "adhere[rz]?",
               "souscri(?:re|s|vez)", "devenir membre", "rejoindre"),
        "ja": ("登録", "申し込", "申込", "入会", "加入", "会員にな(?:り|る|れ)",
               # 「購読したい」「定期購読します」: reading a plan taken out, said by its verb
               "購読(?:したい|します|しま|して|する|を(?:お願い|始め|申し|開始))"),
    },
    "pause": {
        "en": ("paus(?:e|es|ed|ing)", "suspend(?:s|ed|ing|ion)?", "freez(?:e|es|ing)", "froze",
               "tak(?:e|ing) a break from"),
        "fr": ("suspend(?:re|ez|s)", "gele[rz]?", "gel(?:e|es)", "mett(?:re|ez|s) en pause"),
        "ja": ("一時停止", "休止", "休会"),
    },
    "resume": {
        "en": ("resume", "unpause", "reactivat\\w*", "unfreez(?:e|es|ing)", "unfroze"),
        "fr": ("reactiv\\w*", "degele[rz]?", "degel(?:e|es)"),
        "ja": ("再開", "復帰"),
    },
    "cancel": {
        "en": ("unsubscribe",),
        # (« résilier » ends a contract: only a plan is one here)
        "fr": ("desabonner", "desabonne[sz]?-(?:moi|nous)", "(?:me|m'|nous) desabonn\\w*",
               "resili\\w*"),
        "ja": ("解約", "退会"),
    },
}

WITH_PLAN: dict[str, dict[str, tuple[str, ...]]] = {
    "start": {
        "en": ("set up", "take out"),
        "fr": ("commencer", "commencez", "demarrer", "demarrez", "prendre", "prenez"),
        # a plan entered, as Japanese says joining one: 「メンバーシップに入りたい」 (never
        # お気に入り, a favourite)
        "ja": ("(?<!気)に入り(?:たい|ます)", "(?<!気)に入る", "(?<!気)に入れますか",
               "を始めたい", "を始めます", "を始めて", "を開始"),
    },
    "pause": {
        "en": ("hold", "on hold", "on ice"),
        "fr": (),
        "ja": ("お休み", "休み", "休ませ", "一時的に止め"),
    },
    "resume": {
        "en": ("resume", "restart", "unpause", "reactivate", "continue", "reinstate",
               "renew", "bring back", "revive"),
        "fr": ("repren\\w*", "reprend\\w*", "reactiv\\w*", "relanc\\w*", "retabli\\w*"),
        "ja": ("また始め", "再び始め", "もう一度始め", "戻して", "戻したい"),
    },
    "cancel": {
        "en": ("cancel\\w*", "stop", "end", "terminate", "quit", "leave", "discontinue",
               "(?:done|finished|through) with", "get rid of", "give up"),
        "fr": ("resili\\w*", "annul\\w*", "arret\\w*", "mettre fin", "mets fin", "mettez fin"),
        # after the plan, as Japanese orders it: 「プランを停止してください」
        "ja": ("キャンセル", "やめ", "止め", "辞め", "停止"),
    },
}

# Billing no longer wanted ("I don't want to be billed anymore", « ne me facturez plus »):
# only a plan bills again, so this ends the plan, negated as it is said.
BILLING_ENDED = (r"\b(?:be|being|get|getting) (?:billed|charged)\b.{0,20}\b(?:anymore|"
                 r"any more|any longer|no more)\b",
                 r"\bne (?:me |nous )?(?:factur|prelev|debit)\w* plus\b")

SHAPED: dict[str, tuple[str, ...]] = {
    # a plan asked for by its name alone, as at a counter ("folio unlimited subscription
    # please"): never one held ("my plan"), nor its details or the list of plans
    "start": (r"^(?!.*\b(?:my|our|mon|ma|notre|details?|info\w*|terms?|polic\w*|prices?|"
              r"costs?|options?|plans|subscriptions|memberships|abonnements|list\w*|"
              r"conditions?|status)\b)(?:(?:a|an|the|one|un|une|le|la|l')\s*)?[\w' -]{0,40}?"
              rf"{PLAN}[\w' -]{{0,20}}?,?\s*(?:please|pls|plz|svp|s'il (?:vous|te) plait)"
              r"\s*[.!]*$",),
    "pause": (r"\bput\b.{0,30}\bon (?:hold|ice)\b", rf"{PLAN}.*\bon (?:hold|ice)\b",
              # « mets mon abonnement en veille / en pause / en attente »
              rf"\b(?:mets|mettez|mettre)\b.{{0,30}}{PLAN}.{{0,10}}\ben (?:pause|veille|"
              r"attente|sommeil)\b",
              r"(?:まで|しばらく|一時的に|一ヶ月|1ヶ月|ひと月).{0,6}(?:止めて|止めたい|止めます)"),
    "resume": (rf"{PLAN}.{{0,30}}\b(?:back on|again)\b",
               # "sign me back up", "take my plan off hold", « remets mon abonnement en route »
               r"\bsign (?:me|us) back (?:up|on)\b", r"\b(?:put|get) (?:me|us) back on\b",
               rf"\btake\b.{{0,30}}{PLAN}.{{0,10}}\boff (?:hold|pause|ice)\b",
               rf"\b(?:remets|remettez|remettre)\b.{{0,30}}{PLAN}.{{0,10}}\ben (?:route|marche|"
               r"service)\b",
               rf"\b(?:back on|again)\b.{{0,30}}{PLAN}",
               # "start it up again", "turn it back on": the subscription in view
               r"\b(?:start|restart|turn|switch) (?:it|that|this)(?: up)? (?:again|back on)\b"),
    "cancel": (
        # the charges or deliveries of a plan, stopped: "stop charging me for Folio"
        # (in any form: "stop send me tea")
        r"\bstop (?:to )?(?:charg|bill|send|ship|deliver|pay)\w*",
        r"\barrete[rz]? de (?:me |nous )?(?:prelever|facturer|envoyer|livrer|payer)\b",
        *BILLING_ENDED,
        # the shopper taken off it: "take me off the folio plan", "get me off the membership"
        rf"\b(?:take|get|put) (?:me|us) off\b.{{0,30}}{PLAN}",
        # stopping at will, asked about: "can I stop whenever I want?"
        r"\b(?:stop|quit|end|arret\w*)\b.{0,25}(?:\bwhenever\b|\bany ?time\b|"
        r"\bquand (?:je|on) (?:le )?veu[xt]\b|\ba tout moment\b|\bn'importe quand\b)"),
    # Another billing frequency asked for: no tool changes one, so it is answered, never done.
    # Said of a plan or its billing, or of "it" with a verb of setting ("make it weekly",
    # « passez-le en hebdomadaire », 「毎週に変更して」): only a plan has a frequency.
    "frequency": (
        rf"(?=.*(?:{PLAN}|\bbill\w*|\bfactur\w*))\b(?:switch\w*|chang\w*|move|go|pay\w*|"
        rf"bill\w*|passe[rz]?|change[rz]?|paye[rz]?)\b.{{0,40}}\b{FREQUENCY}",
        r"\b(?:make|set|switch|change|turn|have|bill|charge|passe[rz]?|mets|mettez|mettre|"
        r"rend[sz]?)(?: |-)(?:it|that|this|le|la|l')\s*(?:(?:to|into|on|as|en)\s+)?"
        rf"(?:(?:be|a|an)\s+)?{FREQUENCY}",
        rf"\b(?:switch|change|go|move)\s+(?:(?:me|us)\s+)?(?:over\s+)?to\s+{FREQUENCY}",
        rf"\b{FREQUENCY}\s+(?:instead|plutot|a la place)\b",
        # "I want it every week", « je voudrais le payer chaque semaine »
        r"\b(?:want|like|prefer|need|rather have|voudrais|veux|prefere\w*|aimerais)\s+"
        r"(?:it|that|this|le|la|l')\s*(?:(?:be\s+)?(?:billed|charged|renewed|delivered|sent|shipped|"
        rf"payer|regler|factur\w*|livr\w*|envoy\w*)\s+)?{FREQUENCY}",
        rf"{PLAN}.*{FREQUENCY_JA}.{{0,6}}(?:変更|切り替|切替|にしたい|にして|にでき)",
        rf"{FREQUENCY_JA}(?:に|へ)(?:変更|切り替|切替|して|したい|できます|でき)"),
    "skip": (r"\bskip(?:ping)?\b.{0,30}\b(?:months?|cycles?|deliver\w*|payments?|billing|"
             r"charges?|renewals?|shipments?|weeks?)\b",
             r"\bsauter\b.{0,20}\b(?:mois|livraison|paiement|prelevement)\b",
             "スキップ", "1回休", "一回休"),
}


def _latin(verbs: tuple[str, ...]) -> str:
    return rf"\b(?:{'|'.join(verbs)})\b" if verbs else ""


def pattern(act: str, extra: tuple[str, ...] = ()) -> str:
    """Every way this lexicon says `act`, as one pattern (the intent table's entry)."""
    alone = ALONE.get(act, {})
    with_plan = WITH_PLAN.get(act, {})
    parts = [_latin(alone.get("en", ()) + alone.get("fr", ())), *alone.get("ja", ()),
             *SHAPED.get(act, ()), *extra]
    latin = _latin(with_plan.get("en", ()) + with_plan.get("fr", ()))
    if latin:
        parts.append(rf"{latin}.*{PLAN}")
        # the object first, as telegraphic English says it: "membership stop", "plan pause pls"
        parts.append(rf"{PLAN}\s+(?:(?:please|pls|plz|now)\s+)?{latin}")
    if with_plan.get("ja"):
        parts.append(rf"{PLAN}.*(?:{'|'.join(with_plan['ja'])})")
    return "|".join(part for part in parts if part)


def says(act: str, folded: str) -> bool:
    """Whether the folded text says `act` in any of the lexicon's words (for tests and the
    planner's checks; the intent table uses `pattern`)."""
    return re.search(pattern(act), folded) is not None


# Where a plan asked for goes to the cart rather than to its checkout: "add the Folio plan to
# my cart", « ajoute l'abonnement au panier », 「プランをカートに入れて」.
TO_THE_CART = re.compile(r"\b(?:cart|basket|panier|add|adding|ajoute[rsz]?)\b|カート|入れ")
# A plan spoken of as the shopper's own ("my plan", « mon abonnement »): one held, never a
# new one to start, whatever else the message is read as.
HELD = re.compile(rf"\b(?:my|our|mon|ma|notre)\s+(?:[\w-]+\s+){{0,2}}{PLAN}")
