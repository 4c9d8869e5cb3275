"""Several items in one message (words.item_mentions, line_options.only_its_own): the
message is cut into item mentions, and a piece said after an item's "with" list is that
item's (its extras, its option values) or an item of its own, by the item's own data."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language.shown_sets import without_shown_set
from commerce_agent.agent.models.scripted import line_options, words
from commerce_agent.agent.models.scripted.intents import understand
from tests.support.sample_items import sample_item

CAESAR, PIZZA, MUG, KYUSU, FONT = (
    sample_item("item_caesar_salad"), sample_item("item_pizza_margherita"),
    sample_item("item_classic_mug"), sample_item("item_tokoname_kyusu"),
    sample_item("item_aurelia_font_license"))


def _apart(head: str, piece: str) -> bool:
    return False


def _together(head: str, piece: str) -> bool:
    return True


@pytest.mark.parametrize(("said", "heads"), [
    ("add 2 arancini, a kale caesar with chicken and 2 san pellegrinos",
     ("add 2 arancini", "a kale caesar with chicken", "2 san pellegrinos")),
    ("a 16 inch margherita with olives and a 12 inch diavola with extra hot honey",
     ("a 16 inch margherita with olives", "a 12 inch diavola with extra hot honey")),
    ("ajoute un mug bleu 16 oz avec coffret cadeau et deux assiettes plates",
     ("ajoute un mug bleu 16 oz avec coffret cadeau", "deux assiettes plates")),
])
def test_a_with_list_is_cut_where_the_item_says_a_piece_is_not_its_own(
        said: str, heads: tuple[str, ...]) -> None:
    assert tuple(head for head, _ in words.item_mentions(said, _apart)) == heads
    # until the item is read, the pieces stay with it; its head is still what finds it
    together = words.item_mentions(said, _together)
    assert together[0][0] == heads[0]
    assert len(together) == len(heads) - 1 or len(together) == 1


def test_pieces_that_are_the_items_own_stay_with_it() -> None:
    said = "a mug with a gift box and a cork coaster, and two dinner plates"
    found = words.item_mentions(said, lambda head, piece: "coaster" in piece)
    assert found == (("a mug with a gift box", "a mug with a gift box, a cork coaster"),
                     ("two dinner plates", "two dinner plates"))
    # the plain reading (no catalogue) keeps the whole "with" list together, as before
    assert words.item_phrases(said) == (said,)


def test_lists_without_with_and_japanese_lists_are_cut_as_before() -> None:
    assert words.item_mentions("a tiramisu, cannoli and 2 arancini please") == tuple(
        (part, part) for part in words.item_phrases("a tiramisu, cannoli and 2 arancini please"))
    assert [whole for _, whole in words.item_mentions("急須を風呂敷包みで、玄米茶を2袋カートに")] \
        == ["急須を風呂敷包みで", "玄米茶を2袋カートに"]


@pytest.mark.parametrize(("item", "piece", "its_own"), [
    (CAESAR, "anchovies", True),
    (CAESAR, "a soft boiled egg", True),
    (CAESAR, "2 san pellegrinos", False),
    (CAESAR, "a tiramisu", False),
    (CAESAR, "deux tiramisus", False),
    (PIZZA, "chili oil on the side", True),
    (PIZZA, "champignons", True),
    (PIZZA, "a 12 inch diavola with extra hot honey", False),
    (MUG, "a cork coaster", True),
    (MUG, "two dinner plates", False),
    (KYUSU, "2 culinary matcha", False),
    (FONT, "web fonts", True),
    (FONT, "2 sourdough year ebooks", False),
])
def test_a_piece_is_the_items_own_by_its_extras_and_option_values(
        item: dict[str, object], piece: str, its_own: bool) -> None:
    assert line_options.only_its_own(item, piece) is its_own


@pytest.mark.parametrize(("said", "intent"), [
    ("commande le livre Sourdough Year", "buy"),
    ("commande un family feast à emporter", "buy"),
    ("commande l'ebook Python Design Patterns", "buy"),
    ("où en est la commande ?", "status"),
    ("常滑の急須を風呂敷包みでカートに", "add"),
    ("常滑焼の急須を風呂敷でカートへ", "add"),
    ("a 12 inch margherita on gluten free crust with mushrooms, and chili oil on the side",
     "add"),
])
def test_purchase_imperatives_and_configured_items_are_requests(said: str, intent: str) -> None:
    assert understand(said)[0] == intent


def test_a_country_word_inside_a_sentence_makes_no_address() -> None:
    assert words.address("a 12 inch margherita with mushrooms, and chili oil") is None
    assert words.address("Av. Providencia 1234, Santiago, Chili") == {
        "address": "Av. Providencia 1234, Santiago, Chili", "countryCode": "CL"}


def test_french_plurals_in_eaux_are_singular() -> None:
    assert words.stem("cadeaux") == "cadeau"
    assert words.stem("gateaux") == "gateau"



def _beside_the_set(said: str) -> frozenset[str]:
    return words.content_words(words.without_measures(without_shown_set(words.fold(said))))


@pytest.mark.parametrize("said", ["all of them, 12 inch", "both in blue", "the first two, large",
                                  "les deux en bleu"])
def test_words_beside_a_shown_set_that_name_only_options(said: str) -> None:
    assert words.names_only_options(_beside_the_set(said))


@pytest.mark.parametrize("said", ["both teapots", "the first two and a tiramisu",
                                  "les deux tasses"])
def test_words_beside_a_shown_set_that_name_a_product(said: str) -> None:
    assert not words.names_only_options(_beside_the_set(said))
