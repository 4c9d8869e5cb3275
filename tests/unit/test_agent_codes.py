"""The code stage: a promotion code said inside a purchase is read apart from the request, a
vague mention names no code, and a message that is only a code answers the question."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language.codes import (
    CodeReading,
    code_answer,
    codes_said,
    promotion_code,
    read_code,
    shaped_like_a_code,
    waves_a_code_away,
    without_code_waved_away,
)
from commerce_agent.agent.language.delivery import read_delivery
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.state import State

KNOWN = frozenset({"FIVEOFF", "WELCOME10", "PIZZAFRIDAY"})


@pytest.mark.parametrize(("said", "code", "rest"), [
    ("order a blue mug, ship to 55 Water Street, Brooklyn, NY 11201, use code WELCOME10",
     "WELCOME10", "order a blue mug, ship to 55 Water Street, Brooklyn, NY 11201"),
    ("use code FIVEOFF and buy two dinner plates", "FIVEOFF", "buy two dinner plates"),
    ("get me the glaze mug with code welcome10, deliver to 742 Evergreen Terrace",
     "WELCOME10", "get me the glaze mug, deliver to 742 Evergreen Terrace"),
    ("two diavolas for pickup, my coupon code is pizzafriday", "PIZZAFRIDAY",
     "two diavolas for pickup"),
    ("commandez deux assiettes, j'ai le code BIENVENUE", "BIENVENUE", "commandez deux assiettes"),
    ("achète le livre avec le code promo readmore15", "READMORE15", "achète le livre"),
    ("玉露を2つ買います。クーポンコードはSAKURA、送り先は大阪", "SAKURA",
     "玉露を2つ買います。, 送り先は大阪"),
])
def test_a_code_is_read_apart_from_the_request(said: str, code: str, rest: str) -> None:
    reading = read_code(said, KNOWN)
    assert (reading.code, reading.vague, reading.rest) == (code, False, rest)


@pytest.mark.parametrize("said", [
    "buy the teapot, I have a coupon", "order two mugs - oh and I have a discount code",
    "je prends le livre, j'ai un code promo", "茶筅を注文したいです。クーポンがあります",
    "buy the mug, my code is somewhere", "purchase the audiobook, I think I have a voucher",
])
def test_a_vague_mention_names_no_code(said: str) -> None:
    reading = read_code(said, KNOWN)
    assert reading.code is None and reading.vague
    assert "coupon" not in reading.rest and "クーポン" not in reading.rest


def test_a_store_named_with_code_is_no_mention() -> None:
    assert read_code("now order the sourdough ebook from Folio & Code") == read_code(
        "now order the sourdough ebook from Folio & Code", frozenset())
    assert not read_code("now order the sourdough ebook from Folio & Code").vague


@pytest.mark.parametrize(("said", "code"), [
    ("it's WELCOME10", "WELCOME10"), ("c'est FOLIO3", "FOLIO3"), ("MIDORI500です", "MIDORI500"),
    ("fiveoff", "FIVEOFF"), ("the blue one", None), ("yes", None), ("somewhere", None),
])
def test_a_message_that_is_only_a_code(said: str, code: str | None) -> None:
    assert code_answer(said, KNOWN) == code


def test_lowercase_words_are_codes_only_when_the_store_has_them() -> None:
    assert shaped_like_a_code("fiveoff", KNOWN)
    assert not shaped_like_a_code("please", KNOWN)
    assert shaped_like_a_code("dolce4") and shaped_like_a_code("SAKURA")


def test_the_state_keeps_the_code_and_reads_the_purchase() -> None:
    state = State()
    state.hear("buy two dinner plates, ship to 12 Oak St, Portland, OR 97202, use code FIVEOFF")
    assert state.code == "FIVEOFF" and not state.code_wanted
    assert state.frame is not None and state.frame.intent == "buy"
    assert state.address == {"address": "12 Oak St, Portland, OR 97202", "countryCode": "US"}


def test_the_state_asks_for_a_vague_code_and_takes_the_answer() -> None:
    state = State()
    state.hear("buy the celadon teapot and ship it to 12 Oak St, Portland, OR 97202, I have a "
               "coupon")
    assert state.code is None and state.code_wanted
    request = state.frame
    state.hear("it's WELCOME10")
    assert state.code == "WELCOME10" and state.frame is request


def test_a_coupon_question_is_left_to_the_discounts_answer() -> None:
    state = State()
    state.hear("is there a coupon for first orders?")
    assert state.code is None and not state.code_wanted
    assert state.frame is not None and state.frame.intent == "discounts"


def test_the_address_verb_in_japanese_is_no_request() -> None:
    reading = read_delivery("〒150-0041 東京都渋谷区神南1-2-3に送ってください")
    assert reading.address == "〒150-0041 東京都渋谷区神南1-2-3" and reading.rest == ""


@pytest.mark.parametrize(("said", "intent"), [
    ("get me a large margherita for pickup at 7", "buy"),
    ("I'd like the studio seconds box for pickup", "add"),
    ("get me the glaze mug, deliver to 742 Evergreen Terrace, Springfield, IL 62704", "buy"),
    ("add the glaze mug to my cart, I'm at 742 Evergreen Terrace, Springfield, IL 62704", "add"),
    ("茶筅を注文したいです。住所は東京都台東区谷中3-1-1 〒110-0001。", "buy"),
])
def test_a_request_said_with_where_it_goes_is_the_purchase(said: str, intent: str) -> None:
    state = State()
    state.hear(said)
    assert state.frame is not None and state.frame.intent == intent


@pytest.mark.parametrize(("said", "code"), [
    ("two family feasts for pickup please, use code pizzafriday", "PIZZAFRIDAY"),
    ("ship them to 12 Oak St, Portland, OR 97202, code fiveoff", "FIVEOFF"),
    ("my promo code is WELCOME 10", "WELCOME10"),
    ("j'ai un code promo : dolce4", "DOLCE4"),
    ("クーポンocha10を使いたい", "OCHA10"),
    ("now apply FIVEOFF and check out", "FIVEOFF"),
])
def test_a_code_said_firmly_is_read_in_any_case(said: str, code: str) -> None:
    """Before the store's page is read its codes are unknown: a word after a verb that applies
    a code, after "is" or ":", or last in the message, is the code (the store refuses a wrong
    one and the refusal is explained)."""
    assert read_code(said).code == code


@pytest.mark.parametrize("said", [
    "I have a coupon somewhere, check out", "is the code valid?", "does my code still work",
    "use the blue one", "apply it to the cart",
])
def test_words_that_are_no_code_stay_words(said: str) -> None:
    assert read_code(said).code is None


def test_a_plain_word_answers_the_code_question() -> None:
    assert code_answer("it's fiveoff") == "FIVEOFF"
    assert code_answer("nope") is None and code_answer("the blue one") is None


@pytest.mark.parametrize(("said", "rest"), [
    ("never mind, no code. check out to 12 Oak St", "never mind, check out to 12 Oak St"),
    ("no promo code, just order it", "just order it"), ("クーポンなし", ""),
    ("without a coupon please", "please"),
])
def test_going_without_a_code_is_no_mention(said: str, rest: str) -> None:
    assert read_code(said) == CodeReading((), False, rest, declined=True)


@pytest.mark.parametrize(("said", "codes"), [
    ("try FOLIO3 again", ("FOLIO3",)), ("add the DOLCE4 code", ("DOLCE4",)),
    ("put FIVEOFF on it", ("FIVEOFF",)), ("with folio3", ("FOLIO3",)),
    ("give WELCOME10 another go", ("WELCOME10",)), ("retry readmore15", ("READMORE15",)),
    ("réessaie READMORE15", ("READMORE15",)), ("mets le code fiveoff", ("FIVEOFF",)),
    ("avec NAMASTE10", ("NAMASTE10",)), ("もう一度OCHA10を", ("OCHA10",)),
    ("OCHA10を使いたい", ("OCHA10",)), ("MIDORI500で", ("MIDORI500",)),
    ("NAMASTE10を適用", ("NAMASTE10",)), ("namaste10 pls", ("NAMASTE10",)),
    ("use codes READMORE15 and FOLIO3", ("READMORE15", "FOLIO3")),
    ("utilise les codes READMORE15 et FOLIO3", ("READMORE15", "FOLIO3")),
    ("DOLCE4 and PIZZAFRIDAY please", ("DOLCE4", "PIZZAFRIDAY")),
    ("appliquez le code folio3 s'il vous plaît", ("FOLIO3",)),
    ("mets FOLIO3 s'il te plait", ("FOLIO3",)),
])
def test_codes_said_in_any_frame_leave_nothing_else(said: str, codes: tuple[str, ...]) -> None:
    assert read_code(said, KNOWN) == CodeReading(codes, False, "")


@pytest.mark.parametrize("said", ["add a 12oz mug", "add the v60", "b57b94", "add the A5 notebook",
                                  "ord_01a21a33289bf4903ea6c711313c", "ADD THE CELADON TEAPOT",
                                  "bon, alors 3", "ok then 2",
                                  "try the blue one again"])
def test_sizes_models_and_order_ids_are_no_codes(said: str) -> None:
    assert read_code(said, KNOWN).codes == ()


def test_a_code_beside_a_purchase_leaves_the_purchase() -> None:
    reading = read_code("I'll take the python ebook with FOLIO3, checkout", KNOWN)
    assert reading.codes == ("FOLIO3",) and reading.rest == "I'll take the python ebook, checkout"


def test_a_message_of_codes_is_a_promotion_kept_for_a_cart_to_come() -> None:
    state = State()
    state.hear("try folio3 again")
    assert state.frame is not None and state.frame.intent == "promotion"
    assert state.codes == ("FOLIO3",)


@pytest.mark.parametrize("said", ["try the code once more", "have another go with that code",
                                  "réessaie le code", "もう一度クーポンを使って"])
def test_the_code_asked_for_again_by_no_name(said: str) -> None:
    reading = read_code(said, KNOWN)
    assert reading.again and reading.codes == () and reading.rest == ""


def test_the_code_asked_for_again_is_the_one_said_before() -> None:
    state = State()
    state.hear("use WELCOME10")
    state.hear("add a dinner plate and try the code once more")
    assert state.codes == ("WELCOME10",)


def test_a_code_read_loosely_once_a_message_applies_one() -> None:
    known = frozenset({"FIVEOFF", "WELCOME10"})
    assert promotion_code("use fiveoff please", known) == "FIVEOFF"
    assert promotion_code("is there a coupon for first orders?", known) is None
    assert promotion_code("apply code SPRING24") == "SPRING24"
    assert promotion_code("apply code welcome10") == "WELCOME10"
    assert promotion_code("use FIVEOFF please") == "FIVEOFF"


@pytest.mark.parametrize(("said", "code"), [
    ("use fiveoff", "FIVEOFF"), ("Five Off code please", "FIVEOFF"),
    ("use the dolce four code", "DOLCE4"), ("code welcome 10", "WELCOME10"),
    ("apply Welcome10", "WELCOME10"), ("a coupon for first orders", None)])
def test_a_stores_code_in_pieces_or_words(said: str, code: str | None) -> None:
    known = frozenset({"FIVEOFF", "WELCOME10", "DOLCE4", "PIZZAFRIDAY"})
    assert promotion_code(said, known) == code


@pytest.mark.parametrize(("said", "codes"), [
    # read_code's: every code in the order said, a verb's frame, a store's own code
    ("use READMORE15 and FOLIO3", ("READMORE15", "FOLIO3")),
    ("try FIVEOFF again", ("FIVEOFF",)),
    ("apply code welcome10", ("WELCOME10",)),
    # promotion_code's, where read_code finds none: a code in pieces or in number words
    ("Five Off code please", ("FIVEOFF",)),
    ("use the dolce four code", ("DOLCE4",)),
    # neither
    ("a coupon for first orders", ()),
    ("no code, just check out", ())])
def test_the_codes_a_request_to_apply_codes_names(said: str, codes: tuple[str, ...]) -> None:
    known = frozenset({"FIVEOFF", "WELCOME10", "DOLCE4", "READMORE15", "FOLIO3"})
    assert codes_said(said, known) == codes


@pytest.mark.parametrize(("said", "kind"), [
    ("never mind the code, just check out", "checkout"),
    ("forget about the coupon, just check out", "checkout"),
    ("skip the discount, place the order", "checkout"),
    ("laisse tomber le code promo et valide la commande", "checkout"),
    ("oublie le code, je paie", "checkout"),
    ("クーポンはいいので、注文を確定して", "checkout"),
    ("コードは使わないで、注文を確定してください", "checkout"),
    ("never mind the code", "no"),
    ("forget the mug and check out", "remove"),  # a line, not a code
])
def test_a_code_waved_away_leaves_the_rest_asked(said: str, kind: str) -> None:
    assert understand(said)[0] == kind


def test_a_code_waved_away_is_none_to_apply() -> None:
    assert waves_a_code_away("forget the code and check out")
    assert without_code_waved_away("forget the code and check out") == "check out"
    assert without_code_waved_away("never mind the code") is None
    assert not waves_a_code_away("use FOLIO3 and check out")


@pytest.mark.parametrize(("said", "code"), [
    ("put the code 'fiveoff' on my cart", "FIVEOFF"),
    ('i\'ve got a code "folio3"', "FOLIO3"),
    ("j'ai un code promo « FIVEOFF »", "FIVEOFF"),
    ("割引コード「midori500」をお願いします", "MIDORI500"),
    ("クーポン『OCHA 10』を使ってください", "OCHA10"),
    ("apply 'portrait15'", "PORTRAIT15"),
])
def test_a_quoted_code_in_any_script_is_the_code(said: str, code: str) -> None:
    reading = read_code(said)
    assert (reading.codes, reading.rest) == ((code,), "")


def test_quotes_around_other_words_change_nothing() -> None:
    said = "I'd like the 'blue one' please, it's for my mum"
    assert read_code(said) == CodeReading((), False, said)


@pytest.mark.parametrize(("said", "code"), [
    ("MIDORI500というクーポンを持っています", "MIDORI500"),
    ("FIVEOFFのクーポンを使いたい", "FIVEOFF"),
])
def test_a_japanese_code_named_before_its_code_word(said: str, code: str) -> None:
    assert read_code(said).codes == (code,)


@pytest.mark.parametrize(("said", "known", "code"), [
    ("the code is Five Off", frozenset(), "FIVEOFF"),
    ("discount code is five-off", frozenset(), "FIVEOFF"),
    ("apply ocha 10", frozenset({"OCHA10"}), "OCHA10"),
    ("two plates and use five-off", KNOWN, "FIVEOFF"),
    ("the code is fiveoff thanks", frozenset(), "FIVEOFF"),
])
def test_a_code_said_in_pieces_is_one_code(said: str, known: frozenset[str], code: str) -> None:
    assert read_code(said, known).codes == (code,)


@pytest.mark.parametrize(("said", "rest", "mention"), [
    ("two lasagna for pickup, use the dessert code", "two lasagna for pickup",
     "use the dessert code"),
    ("add a mug and apply my 10% coupon", "add a mug", "and apply my 10% coupon"),
    ("use the dessert code", "", "use the dessert code"),
    ("add 2 plates, I have a code", "add 2 plates", ""),
])
def test_a_code_named_by_its_offer_leaves_the_request(said: str, rest: str,
                                                      mention: str) -> None:
    found = read_code(said)
    assert (found.codes, found.vague, found.rest, found.mention) == ((), True, rest, mention)


@pytest.mark.parametrize(("said", "code"), [
    ("じゃあMIDORI500にして", "MIDORI500"),
    ("OCHA10に変えて", "OCHA10"),
    ("tiens j'ai le code fiveoff", "FIVEOFF"),
    ("bon ben mets FIVEOFF à la place", "FIVEOFF"),
])
def test_a_code_made_the_one_used_is_all_the_message_says(said: str, code: str) -> None:
    found = read_code(said, frozenset({"MIDORI500", "OCHA10", "FIVEOFF"}))
    assert found.codes == (code,)
    assert found.rest == ""


def test_a_count_made_the_line_s_is_no_code() -> None:
    assert read_code("3つにして").codes == ()


@pytest.mark.parametrize(("said", "code"), [
    ("oh and i have welcome10!", "WELCOME10"),
    ("ok what about NAMASTE10 then", "NAMASTE10"),
    ("hmm how about folio3?", "FOLIO3"),
    ("i've got dolce4", "DOLCE4"),
    ("here's midori500", "MIDORI500"),
    ("j'ai welcome10", "WELCOME10"),
    ("bon ben FOLIO3 alors", "FOLIO3"),
])
def test_a_code_held_out_or_proposed_is_applied_alone(said: str, code: str) -> None:
    """A code said as held ("I have …") or proposed ("what about … then") with no code word
    is the whole request when it is written as codes are."""
    assert read_code(said) == CodeReading((code,), False, "")


@pytest.mark.parametrize("said", ["i have 2 mugs", "what about the 16oz?", "how about EPUB?",
                                  "i've got a5 paper", "what about the blue one"])
def test_a_held_or_proposed_word_not_written_as_a_code_is_none(said: str) -> None:
    assert read_code(said).codes == ()


def test_a_held_word_is_a_code_when_the_store_has_it() -> None:
    assert read_code("how about fiveoff?", KNOWN).codes == ("FIVEOFF",)
    assert read_code("how about fiveoff?").codes == ()
