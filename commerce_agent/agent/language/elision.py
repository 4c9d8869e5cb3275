"""French typed without its apostrophes and hyphens: « jai », « cest », « daccord »,
« quest-ce », « jen prends deux », « ya des assiettes ? », « jla prends », « mets ca dans le
panier », « abonne moi » read as « j'ai », « c'est », « d'accord », « qu'est-ce », « j'en
prends deux », « il y a des assiettes ? », « je la prends », « mets ça dans le panier »,
« abonne-moi ».

A phone's keyboard drops the apostrophe, and the spoken « je » before a consonant is often
typed « j »: the stages read French with its elisions written out. Each rule knows a short
closed class (the words an elided pronoun or article goes with), never a phrasing, and none
rewrites a word that is also a word as typed (« quelle », « tes », "ten", "men" stay).
Only the words that follow tell the French apart from English ("ya" alone is "yes").
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.detect import in_japanese_script

# « j' » before a vowel: the verbs and pronouns a shopper says after it.
_J_VOWEL = (r"ai|aurais|aurai|aimerais|aimerai|aime|aimais|avais|en|y|arrive|attends|attend|"
            r"etais|étais|irai|hesite|hésite|habite|adore|achete|achète|annule|appelle|ajoute|"
            r"essaie|essaye|espere|espère|oublie|insiste|arrete|arrête|offre|envoie|utilise|"
            r"ouvre|hallucine")
# « je » typed « j » before a consonant (« jveux », « jla prends »).
_J_CONSONANT = (r"veux|voudrais|vais|peux|pourrais|prends|prendrai|prendrais|cherche|suis|"
                r"commande|passe|pense|crois|sais|reviens|viens|fais|dois|rajoute|mets|garde|"
                r"me|te|la|le|les|lui|leur|ne")
# (typed with a space for the apostrophe too: « j ai », « n auriez », « c est »). Lower case
# but for a sentence's first letter: an address's "NY" or "N Elm St" is no « n'y ».
_ELIDED = re.compile(
    rf"(?<![\w'-])(?:[jJ] ?(?=(?:{_J_VOWEL})(?![\w']))|"
    r"[cC] ?(?=(?:est|etait|était)(?![\w']))|"
    r"[dD] ?(?=(?:accord|abord|autres?|habitude)(?![\w']))|"
    r"(?:qu|Qu) ?(?=(?:il|ils|on|un|une|est-ce|est ce|estce)(?![\w']))|"
    r"n(?=(?:est|ai|en)\s)|"
    r"n (?=(?:est|ai|a|as|avez|avons|ont|auriez|aurais|aurait|aura|y a|en|etait|était|importe)"
    r"(?![\w']))|"
    r"s(?=il (?:vous|te|vou|te) pla)|"
    # « une dizaine d assiettes », « l assiette », « aujourd hui »: a lone « d » or « l »
    # before a vowel, after a French word or opening the message
    r"(?:(?<=[a-zà-ÿ] )(?<!apt )(?<!unit )(?<!suite )|^)[dl] (?=[aeiouyhàâéèêîôû][a-zà-ÿ])|"
    r"aujourd ?(?=hui(?![\w']))|"
    r"t ?(?=as\s+(?:des|du|de|d'|un|une|pas|plus|encore|quoi|combien|vu)\b))")
_JE = re.compile(rf"(?<![\w'-])j(?=(?:{_J_CONSONANT})(?![\w']))", re.IGNORECASE)
# « m'en » after the verb it goes with (« mets men deux », « donnez-men trois »).
_MEN = re.compile(r"(?<![\w'])(mets|mettez|donne|donnez|ajoute|ajoutez|rajoute|rajoutez|"
                  r"envoie|envoyez|sers|servez|prends|prenez|garde|gardez)[- ]men(?![\w'])",
                  re.IGNORECASE)
# « ya » (« il y a ») before what there is or is not; "ya" alone is an English "yes".
_YA = re.compile(r"(?<![\w'-])(?:il )?ya(?=\s+(?:des|du|de|d'|un|une|quoi|pas|plus|encore|"
                 r"combien|quelque|qqch|rien|aussi|toujours|moyen)\b)", re.IGNORECASE)
_YATIL = re.compile(r"(?<![\w'-])y(?:-a-t-il|-at-il| a t il| at il)(?![\w'])", re.IGNORECASE)
# « ça » typed « ca »: only beside the French words it goes with (an address's "CA" is
# California, and has no verb of French around it).
_CA = re.compile(r"(?<![\w'-])ca(?=\s+(?:fait|fera|ferait|va|ira|irait|coute|coûte|marche|"
                 r"suffit|sera|serait|vaut|me|m'|te|t'|dans|au|aussi|en tout|c'est|cest)\b)")
_CA_AFTER = re.compile(r"(?<![\w'-])(mets|mettez|prends|prenez|ajoute|ajoutez|garde|gardez|"
                       r"enleve|enlève|annule|annulez|commande|commandez|veux|voudrais|"
                       r"prendrai|prendrais) ca(?![\w'])", re.IGNORECASE)

# An imperative and its pronoun typed apart (« abonne moi », « mets le en pause », « prends
# la stp »): one word, as French hyphenates it. « le », « la », « les » only before what no
# noun is (« mets le mug » keeps its article).
_IMPERATIVE = (r"abonne|abonnez|desabonne|désabonne|ajoute|ajoutez|rajoute|rajoutez|mets|"
               r"mettez|remets|remettez|donne|donnez|envoie|envoyez|montre|montrez|trouve|"
               r"trouvez|reserve|réserve|reservez|réservez|inscris|inscrivez|prends|prenez|"
               r"garde|gardez|enleve|enlève|enlevez|retire|retirez|annule|annulez|rembourse|"
               r"remboursez|livre|livrez|dis|dites|sers|servez|passe|passez|fais|faites|"
               r"laisse|laissez|commande|commandez|achete|achète|achetez|rends|rendez|change|"
               r"changez|echange|échange|echangez|échangez|suspends|suspendez|reprends|"
               r"reprenez|resilie|résilie|resiliez|résiliez|ramene|ramène|appelle|appelez")
_PRONOUN_APART = re.compile(
    rf"(?<![\w'-])({_IMPERATIVE})\s+(moi|nous|lui|leur|"
    r"(?:le|la|les)(?=\s*(?:$|[,.;!?]|(?:en|à|a|au|aux|dans|sur|pour|de|du|stp|svp|s'il|"
    r"maintenant|aussi|quand|moi|tout|vite|deja|déjà|plutot|plutôt)\b)))(?![\w'-])",
    re.IGNORECASE)


# A word after a determiner or a possessive is a noun, never an imperative: « ma commande là »
# typed « ma commande la » asks after an order, « commande la » alone orders it.
_DETERMINER_BEFORE = re.compile(r"(?:^|[\s'])(?:ma|ta|sa|mon|ton|son|la|le|les|l|une|un|"
                                r"votre|notre|vos|nos|mes|tes|ses|cette|ce|cet|ces|du|de|des|"
                                r"d|au|aux|leur)\s+$", re.IGNORECASE)


def _imperative_joined(found: re.Match[str]) -> str:
    if _DETERMINER_BEFORE.search(found.string[:found.start()]):
        return found.group()
    return f"{found.group(1)}-{found.group(2)}"


# The imperative of an -er verb takes an « s » before « en » and « y » (« enlèves-en une »,
# « rajoutes-en deux »): the verb is the one the stages read (« enlève-en »).
_S_BEFORE_EN = re.compile(r"(?<![\w'-])([^\W\d_]{3,}e)s-(en|y)(?![\w'-])", re.IGNORECASE)


def restored(text: str) -> str:
    """`text` with the French elisions a keyboard dropped written out."""
    if in_japanese_script(text):
        return text  # nothing of French to restore
    text = _S_BEFORE_EN.sub(r"\1-\2", text)
    text = _YATIL.sub("y a-t-il", _YA.sub("il y a", text))
    text = _ELIDED.sub(lambda found: found.group().rstrip() + "'", text)
    text = _JE.sub(lambda found: found.group() + "e ", text)
    text = _MEN.sub(lambda found: found.group(1) + "-m'en", text)
    text = _PRONOUN_APART.sub(_imperative_joined, text)
    text = _CA_AFTER.sub(lambda found: found.group(1) + " ça", text)
    return _CA.sub(lambda found: "ça" if found.group().islower() else "Ça", text)
