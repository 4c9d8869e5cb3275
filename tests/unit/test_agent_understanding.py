"""The scripted model's stages one by one: speech act, intent, quantities and sizes, prices,
addresses, codes, the order meant, and phrasing in three languages."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.models.scripted import messages, words
from commerce_agent.agent.models.scripted.aftercare import order_meant
from commerce_agent.agent.models.scripted.intents import Frame, understand
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.agent.models.scripted.state import State


@pytest.mark.parametrize("text", [
    "yes", "yep", "sure", "sure thing", "sounds good", "go ahead", "ok do it", "okay, go for it",
    "yes please", "absolutely", "why not", "perfect, thanks", "oui", "d'accord", "allez-y",
    "はい", "お願いします", "うん"])
def test_everyday_confirmations(text: str) -> None:
    assert read_act(text).kind == "confirmation"


@pytest.mark.parametrize("text", [
    "no", "nope", "no thanks", "no thanks, not today", "not now", "maybe later", "I'm good",
    "non merci", "pas maintenant", "いいえ", "いいえ、結構です", "いらない"])
def test_refusals(text: str) -> None:
    assert read_act(text).kind == "refusal"


def test_a_correction_is_not_a_refusal() -> None:
    assert read_act("no, the blue one").kind != "refusal"


@pytest.mark.parametrize(("text", "intent"), [
    ("how do I cancel my subscription?", "policy"),
    ("is it possible to pause it for a month?", "policy"),
    ("what's your return policy?", "policy"),
    ("can I cancel my order?", "policy"),
    ("comment est-ce que je peux résilier mon abonnement ?", "policy"),
    ("can you cancel my order?", "cancel"),
    ("cancel my order", "cancel"),
    ("annulez ma commande", "cancel"),
    ("pause my subscription", "sub_pause"),
    ("please don't cancel my order, I only want to know when it ships", "status"),
    ("has it shipped yet?", "status"),
    ("where's my teapot?", "status"),
    ("ord_01a2143490741469291df1b1e2b9", "status"),
    ("où en est ma commande ?", "status"),
    ("注文はどうなっていますか？", "status"),
    ("I don't want the planter anymore", "remove"),
    ("don't add it", "no"),
    ("can I get a dozen san pellegrino?", "add"),
    ("do you sell hanging planters?", "search"),
    ("八女玉露を見せてください", "search"),
    ("2つカートに入れてください", "add"),
    ("注文を確定して", "checkout"),
    ("add a washi notebook", "add"),
    ("I'll grab the celadon teapot", "add"), ("a dozen arancini please", "add"),
    ("bump it up to 4", "quantity"), ("hmm, switch it to the 16 oz", "quantity"),
    ("never mind the planter", "remove"), ("proceed to payment", "checkout"),
    ("I want my money back for the teapot", "return"),
    ("is the teapot dishwasher safe?", "details"), ("bonjour, que pouvez-vous faire ?", "other"),
    ("what about my mug order, any news?", "status"), ("switch to Lumen Studio", "switch"),
    # "set" the noun is no change of count; the verb opening its clause is
    ("add an espresso cup set to my cart", "add"), ("set the mugs to 3", "quantity"),
    ("please set it to two", "quantity"),
    # spoken French drops the "ne": a thing no longer wanted, never one more
    ("je n'ai plus besoin du mug", "remove"), ("plus besoin du mug", "remove"),
    ("je veux plus le mug", "remove"), ("le mug, j'en ai plus besoin", "remove"),
    ("je veux plus de mugs", "add"), ("ajoutez un mug de plus", "add"),
])
def test_questions_are_answered_and_negations_cut(text: str, intent: str) -> None:
    assert understand(text)[0] == intent


def test_a_negated_clause_is_cut_from_the_request() -> None:
    act = read_act("please don't cancel my order, I only want to know when it ships")
    assert "cancel" not in act.text and act.negated


@pytest.mark.parametrize(("text", "count"), [
    ("add half a dozen dinner plates", 6), ("a dozen san pellegrino", 12),
    ("two dozen mugs", 24), ("a couple of those", 2), ("a few mugs", 3),
    ("une douzaine de san pellegrino", 12), ("ajoutez-en deux", 2),
    ("和紙ノートを三冊ください", 3), ("２つカートに入れて", 2), ("add one more", 1)])
def test_quantity_words(text: str, count: int) -> None:
    assert words.quantity(text) == count


@pytest.mark.parametrize("text", [
    "add the 300 ml kyusu", "the 27cm dinner plate", "a 16 inch pizza", "a 12 oz mug",
    "300mlの急須", "matcha under 2000 yen"])
def test_sizes_and_prices_are_not_counts(text: str) -> None:
    assert words.quantity(text) is None


@given(st.integers(min_value=1, max_value=999),
       st.sampled_from(["ml", "g", "cm", "mm", "oz", "inch", "kg", "l"]))
def test_any_measure_is_not_a_count(number: int, unit: str) -> None:
    assert words.quantity(f"add the {number} {unit} teapot") is None
    assert words.quantity(f"add the {number}{unit} teapot") is None


@given(st.integers(min_value=1, max_value=999))
def test_a_plain_number_is_a_count(number: int) -> None:
    assert words.quantity(f"add {number} mugs") == number


def test_the_frame_keeps_a_size_in_the_name_a_size() -> None:
    frame = Frame("add", ("add the 300 ml kyusu to my cart",))
    assert frame.quantity("Tokoname Kyusu Teapot, 300 ml") is None


@pytest.mark.parametrize(("text", "sort"), [
    ("find me the cheapest pizza", "price_asc"), ("the least expensive ebook", "price_asc"),
    ("le mug le moins cher", "price_asc"), ("一番安いお茶", "price_asc"),
    ("the most expensive teapot", "price_desc")])
def test_cheapest_sorts_by_price(text: str, sort: str) -> None:
    assert words.price_order(text) == {"sort": sort}


@pytest.mark.parametrize(("text", "address", "country"), [
    ("please send it to 742 Evergreen Terrace, Springfield, IL 62704, thanks",
     "742 Evergreen Terrace, Springfield, IL 62704", "US"),
    ("my address is 12 Oak Street, Portland, OR 97202", "12 Oak Street, Portland, OR 97202",
     "US"),
    ("deliver to 1 Main St, Springfield, US", "1 Main St, Springfield, US", "US"),
    ("livrez-le au 1200 rue Sainte-Catherine, Montréal, QC H3B 1K9, CA",
     "1200 rue Sainte-Catherine, Montréal, QC H3B 1K9, CA", "CA")])
def test_addresses_inside_sentences(text: str, address: str, country: str) -> None:
    assert words.address(text) == {"address": address, "countryCode": country}


def _order(order_id: str, created: str, name: str, store: str = "store_ceramics"
           ) -> dict[str, Any]:
    return {"orderId": order_id, "createdAt": created, "storeId": store,
            "items": [{"name": name, "itemId": "i", "quantity": 1}]}


@pytest.mark.parametrize(("said", "meant"), [
    ("rate my last order 5 stars", "ord_new"), ("return the mug", "ord_mug"),
    ("where is ord_old?", "ord_old"), ("cancel my trattoria order", "ord_pizza")])
def test_the_order_meant(said: str, meant: str) -> None:
    state = State()
    state.stores = [{"storeId": "store_trattoria", "name": "Trattoria Fiamma"},
                    {"storeId": "store_ceramics", "name": "Hearth & Kiln Ceramics"}]
    # Listed newest first, as list_orders returns them.
    for order in (_order("ord_new", "2026-11-03", "Dinner Plate"),
                  _order("ord_pizza", "2026-11-02", "Pizza Margherita", "store_trattoria"),
                  _order("ord_mug", "2026-11-01", "Glaze Mug"),
                  _order("ord_old", "2026-10-01", "Teapot")):
        state.orders[order["orderId"]] = order
    state.frame = Frame(understand(said)[0], (said,))
    assert order_meant(Planner(state, {})) == meant


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_every_sentence_in_every_language(language: str) -> None:
    params = {"count": 2, "listing": "1) A", "name": "Mug", "price": "$1", "query": "x",
              "quantity": 2, "options": "", "store": "S", "lines": "1 × Mug", "total": "$1",
              "id": "ord_1", "status": "confirmed", "days": 30, "cycles": 3, "group": "size",
              "areas": "US", "minimum": "$15", "names": "A, B", "code": "X", "saved": "$1",
              "items": "1 × Mug", "refund": "$1", "stars": 5, "hours": "Mo-Fr",
              "address": "1 Main St", "gone": "Blue", "min": 1, "max": 3,
              "need": "optional", "day": "1 May", "frequency": "monthly", "trial": 7,
              "slot": "Mon 10:00", "carts": "1 item", "number": "1Z", "wanted": "White",
              "methods": "Cash", "country": "Canada", "weight": "420 g", "size": "9 cm",
              "option": "Counter Pickup", "currency": "USD", "minutes": 60,
              "statuses": "pending, confirmed", "message": "It failed.", "left": 2,
              "orders": "1) ord_1 (1 × Mug, S)", "carrier": "USPS", "place": "Main room",
              "volume": "700 ml", "title": "Welcome", "description": "10% off",
              "what": "the planter", "most": 999, "amount": "2 kg", "terms": "10% off",
              "percent": 10, "method": "Express", "discount": "$1"}
    for key in messages.ENGLISH:
        text = messages.say(language, key, **params)
        assert text and "{" not in text, (language, key)
        if language == "ja":
            assert any("\u3040" <= ch <= "\u9fff" for ch in text), key


def test_the_agents_own_questions_are_known_in_every_language() -> None:
    from commerce_agent.agent.models.scripted.phrasing import asks, suggests_add
    for language in ("en", "fr", "ja"):
        assert asks(f"Mug. {messages.say(language, 'which')}")
        assert suggests_add(f"Mug. {messages.say(language, 'suggest_add')}")


_ASSENT = ["yes", "yeah", "yep", "sure", "ok", "okay", "alright", "perfect", "great", "oui",
           "d'accord", "absolutely", "sounds good", "go ahead", "do it", "go for it", "why not"]
_POLITE = ["please", "thanks", "thank you", "then", "that works", "merci", "s'il vous plait"]


@given(st.lists(st.sampled_from(_ASSENT), min_size=1, max_size=2),
       st.lists(st.sampled_from(_POLITE), max_size=2), st.sampled_from(["", "!", ".", " :)"]))
def test_any_assent_with_politeness_confirms(assent: list[str], polite: list[str],
                                             end: str) -> None:
    text = ", ".join(assent + polite) + end
    assert read_act(text).kind == "confirmation", text


@given(st.sampled_from(["no", "nope", "nah", "no thanks", "not now", "non merci"]),
       st.sampled_from(["", ", not today", ", I'm good", ", not for me", ", maybe later",
                        " thanks"]))
def test_any_polite_no_refuses(head: str, tail: str) -> None:
    assert read_act(head + tail).kind == "refusal"


@given(st.sampled_from(["no", "nope", "non"]),
       st.sampled_from(["the blue one", "two of them", "cancel it", "I want 3", "le bleu"]))
def test_a_no_that_asks_for_something_is_no_refusal(head: str, tail: str) -> None:
    assert read_act(f"{head}, {tail}").kind != "refusal"


@given(st.sampled_from(["cancel my order", "return the mug", "pause my subscription",
                        "cancel my subscription"]),
       st.sampled_from(["how do I", "can I", "is it possible to", "how can I", "could I"]))
def test_asking_whether_is_never_doing(action: str, opening: str) -> None:
    assert understand(f"{opening} {action}?")[0] == "policy"


@given(st.sampled_from(["cancel my order", "return the mug", "pause my subscription"]),
       st.sampled_from(["", "please ", "can you ", "could you please "]))
def test_asking_to_act_acts(action: str, opening: str) -> None:
    assert understand(f"{opening}{action}")[0] not in ("policy", "no", "other")


@pytest.mark.parametrize(("text", "position"), [
    ("the second one", 1), ("the last one", -1), ("number 2", 1), ("2", 1),
    ("le premier", 0), ("la deuxième", 1), ("2番目", 1), ("最初の", 0), ("the blue one", None)])
def test_ordinals_in_three_languages(text: str, position: int | None) -> None:
    assert words.ordinal(text) == position


@pytest.mark.parametrize("text", [
    "what are your opening hours?", "where are you located?", "do you deliver to Canada?",
    "how much is shipping?", "do you charge for delivery?"])
def test_store_questions_are_answered(text: str) -> None:
    assert understand(text)[0] == "policy"


@pytest.mark.parametrize(("text", "parts"), [
    ("add a glaze mug and two dinner plates to my cart", 2),
    ("two tiramisu, a lasagna and three arancini", 3),
    ("add a classic mug with a gift box and a cork coaster", 1),
    ("order a diavola, 16 inch", 1), ("I want a mug in blue and white", 1),
    ("ajoute un mug et deux assiettes", 2), ("玄米茶と急須をカートに入れて", 2)])
def test_several_items_in_one_message(text: str, parts: int) -> None:
    assert len(words.item_phrases(text)) == parts


def test_options_said_once_for_both_items() -> None:
    assert words.item_phrases("can I get a margherita and a diavola, both 12 inch") == (
        "can i get a margherita, 12 inch", "a diavola, 12 inch")


@pytest.mark.parametrize(("said", "change"), [
    ("one more please", 1), ("another one", 1), ("add two more", 2), ("can I have another?", 1),
    ("drop one", -1), ("one less", -1), ("two fewer plates", -2), ("reduce it by 2", -2),
    ("un de plus", 1), ("encore une", 1), ("deux de moins", -2), ("enlevez-en un", -1),
    ("もう一つください", 1), ("1つ減らして", -1),
    ("remove the plate", None), ("add a mug", None), ("the other one", None), ("two plates", None)])
def test_a_count_relative_to_the_cart(said: str, change: int | None) -> None:
    assert quantities.change(said) == change


@pytest.mark.parametrize(("said", "meant"), [
    ("plese cancle my ordr", "please cancel my order"), ("wher is my oder?", "where is my order?"),
    ("chekout please", "checkout please"), ("retrun it", "return it"),
    ("cancel my subscripton", "cancel my subscription"),
    # real words a typo away from an intent word stay, and so do codes and product words
    ("were they sent?", "were they sent?"), ("the older one", "the older one"),
    ("is there a charge?", "is there a charge?"), ("apply welcom10", "apply welcom10"),
    ("the hanging planter", "the hanging planter")])
def test_misspelt_intent_words_are_read_corrected(said: str, meant: str) -> None:
    from commerce_agent.agent.language.fuzzy import correct_words
    from commerce_agent.agent.models.scripted.intents import INTENT_WORDS, NOT_TYPOS
    assert correct_words(said, INTENT_WORDS, NOT_TYPOS) == meant


@pytest.mark.parametrize(("said", "meant"), [
    ("plese cancle my ordr", "cancel"), ("wher is my oder?", "status"),
    ("chekout please", "checkout"),
    ("one more please", "quantity"), ("drop one", "quantity"), ("another one", "quantity")])
def test_typos_and_relative_counts_reach_their_intent(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


# -- negation and "just asking": never a changing intent, wherever the negation sits ------

_CHANGING = {"cancel", "return", "sub_pause", "sub_resume", "sub_cancel", "checkout", "buy",
             "add", "remove", "empty", "quantity", "tip", "rate", "book", "subscribe",
             "promotion"}
_NEGATED = [
    "please don't cancel my order, I only want to know when it ships",
    "I'm not asking you to cancel it, just where it is",
    "where is my order? don't cancel it",
    "I don't want to return the mug, only how long I would have",
    "no need to pause my subscription, how does pausing work?",
    "just asking: can I cancel my order?",
    "I'm only looking at the mugs, don't add anything",
    "out of curiosity, what would a return cost me?",
    "without cancelling anything, when does my order arrive?",
    "I was wondering whether I could cancel my membership",
    "n'annulez surtout pas ma commande, je veux juste savoir où elle en est",
    "je ne veux pas retourner la tasse, juste savoir le délai",
    "je me demande juste si je peux annuler",
    "ne mets rien dans le panier, je regarde seulement",
    "キャンセルはしないでください。いつ届きますか？",
    "返品はしないで、期限だけ教えて",
    "カートには入れないでください、見ているだけです",
    "キャンセルじゃなくて、配送状況を知りたい",
]


@pytest.mark.parametrize("said", _NEGATED)
def test_negated_or_just_asking_never_changes_anything(said: str) -> None:
    assert understand(said)[0] not in _CHANGING, understand(said)


@pytest.mark.parametrize(("said", "meant"), [
    ("add the Aurelia Sans font licence, 1 seat", "add"),  # "sans" is a name here
    ("add a pizza margherita without basil", "add")])  # "without" is an option
def test_without_and_sans_are_not_negations(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@pytest.mark.parametrize(("said", "topic"), [
    ("I don't want to return the mug, I'm only asking how long I would have", "return"),
    ("just asking: can I cancel my order?", "cancel"),
    ("je me demande juste si je peux annuler", "cancel")])
def test_a_negated_or_asked_after_sale_topic_is_answered(said: str, topic: str) -> None:
    from commerce_agent.agent.models.scripted.intents import intent
    kind, text = understand(said)
    assert kind == "policy" and intent(text) == topic


@pytest.mark.parametrize(("said", "meant"), [
    ("how much is shipping?", "policy"), ("combien coûte la livraison ?", "policy"),
    ("送料はいくらですか？", "policy"), ("is there free shipping?", "policy"),
    ("is there a fee if I cancel the membership?", "policy"),
    ("can I pause my plan while I travel?", "policy")])
def test_fee_and_policy_questions_are_answered(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


# -- option words in other languages; the cheapest of what was shown -----------------------

@pytest.mark.parametrize(("said", "english"), [
    ("en bleu s'il vous plaît", {"blue"}), ("la grande", {"large"}),
    ("une tasse mouchetée", {"speckled"}), ("青いのにして", {"blue"}),
    ("料理用の100g", {"culinary"}), ("大きいサイズ", {"large"}), ("the blue one", set())])
def test_option_words_are_read_in_english(said: str, english: set[str]) -> None:
    from commerce_agent.agent.language.option_words import english_option_words
    assert english_option_words(said) == english


def _shown(item_id: str, name: str, price: str, variants: tuple[str, ...] = ()
           ) -> dict[str, Any]:
    found: dict[str, Any] = {"itemId": item_id, "name": name,
                             "price": {"amount": price, "currency": "USD"}}
    if variants:
        found["metadata"] = {"dev.commerce.product.variants": {"variants": [
            {"id": f"{item_id}_{n}", "values": [amount], "price": {"amount": amount,
                                                                   "currency": "USD"}}
            for n, amount in enumerate(variants)]}}
    return found


@pytest.mark.parametrize(("said", "picked"), [
    ("add the cheapest one", "item_b"), ("the least expensive please", "item_b"),
    ("le moins cher", "item_b"), ("一番安いのをください", "item_b"),
    ("the most expensive one", "item_a"), ("the cheapest mug", "item_c")])
def test_the_cheapest_of_what_was_shown_counts_variants(said: str, picked: str) -> None:
    state = State()
    state.results = [_shown("item_a", "Tea Bowl", "30.00", ("30.00", "45.00")),
                     _shown("item_b", "Tea Whisk", "20.00", ("20.00", "9.00")),
                     _shown("item_c", "Tea Mug", "12.00")]
    state.frame = Frame("add", (said,))
    item = Planner(state, {}).resolve_item()
    assert item is not None and item["itemId"] == picked
    state.frame = Frame("add", ("the cheapest plate",))  # no plate shown: a new search
    assert Planner(state, {}).by_price("the cheapest plate") == []


@pytest.mark.parametrize("said", [
    "I'd love that", "that'd be great", "go on then", "sounds perfect", "avec plaisir",
    "je veux bien", "oui, c'est parfait", "じゃあそれで", "それでお願いします", "いいですね"])
def test_more_everyday_confirmations(said: str) -> None:
    assert understand(said)[0] == "yes"


def test_time_slots_read_in_the_shoppers_language() -> None:
    from commerce_agent.agent.models.scripted import choices
    slot = choices.Choice("slot_1", f"{choices.when('2027-03-13T10:00:00+09:00')} (4500 JPY)",
                          "2027-03-13T10:00:00+09:00")
    assert choices.localized([slot], "ja")[0].label == "2027年3月13日(土) 10:00 (4500 JPY)"
    assert choices.localized([slot], "fr")[0].label.startswith("sam. 13 mars 2027, 10:00")
    assert choices.localized([slot], "en")[0].label == slot.label


_PIZZA = {"itemId": "item_pizza", "name": "Pizza Margherita", "metadata": {
    "dev.commerce.product.customization": {"groups": [{
        "id": "group_size", "name": "Size", "required": True, "selectionType": "single",
        "options": [{"id": "opt_12in", "name": "12-inch"},
                    {"id": "opt_16in", "name": "16-inch"}]}]}}}


@pytest.mark.parametrize(("said", "wanted"), [
    ("actually bump it to 16 inch", {"group_size": "opt_16in"}),
    ("make it the 16-inch one", {"group_size": "opt_16in"}),
    ("make it 16", None),  # a number alone is a count
    ("make it two", None), ("the 12 inch is fine", None)])
def test_an_option_change_on_a_cart_line(said: str, wanted: dict[str, str] | None) -> None:
    from commerce_agent.agent.models.scripted.cart_edits import other_options
    state = State()
    state.items["item_pizza"] = _PIZZA
    line = {"itemId": "item_pizza", "quantity": 1, "customizations": {"group_size": "opt_12in"}}
    state.frame = Frame("quantity", (said,))
    found = other_options(Planner(state, {}), line)
    assert found == (None if wanted is None else {"customizations": wanted})


@pytest.mark.parametrize(("said", "month", "day", "clock", "weekday"), [
    ("le 13 mars à 14h", 3, 13, (14, 0), None), ("samedi à 10h30", None, None, (10, 30), 5),
    ("3月13日の14時でお願いします", 3, 13, (14, 0), None),
    ("土曜日の午後2時半", None, None, (14, 30), 5), ("Saturday at 2pm", None, None, (14, 0), 5)])
def test_days_and_hours_in_every_language(said: str, month: int | None, day: int | None,
                                          clock: tuple[int, int], weekday: int | None) -> None:
    from commerce_agent.agent.models.scripted.choices import when_named
    found = when_named((said,))
    assert (found.month, found.day, found.clock, found.weekday) == (month, day, clock, weekday)


@pytest.mark.parametrize(("text", "intent"), [
    ("une pizza margherita, pas la grande, la petite", "add"),
    ("マルゲリータ、大きいのじゃなくて小さいのをください", "add"),
    ("抹茶の30グラムを二つ。100グラムはいらない", "add"),
    ("マグじゃなくて皿にして", "replace"),
    ("マグはいらない", "remove"),
    ("2 16-inch margheritas please", "add"),
])
def test_a_size_or_option_turned_down_leaves_the_other_ordered(text: str, intent: str) -> None:
    assert understand(text)[0] == intent


@pytest.mark.parametrize(("text", "count"), [
    ("two 300 ml kyusu", 2), ("the 300 ml one", None),
    ("add the aurelia licence with 5 seats", None), ("2 margheritas please", 2),
    ("２７センチのお皿を４枚", 4), ("une douzaine et demie d'assiettes", 18),
])
def test_sizes_are_never_read_as_counts(text: str, count: int | None) -> None:
    assert words.quantity(text) == count
