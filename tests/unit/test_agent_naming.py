"""The naming stage (commerce_agent/agent/models/scripted/naming.py): which of the items a
search reached, across stores, the shopper's words name; and the day and time of a booking
taken out of those words (language/reading.py `without_when`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.reading import without_when
from commerce_agent.agent.models.scripted import naming
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.state import relevant


def _item(item_id: str, name: str, store: str) -> dict[str, Any]:
    return {"itemId": item_id, "name": name, "storeId": store}


# Names as a Japanese search returns them (each store's own translation).
SOUND_BATH = _item("item_sound_bath_workshop", "サウンドバス＆リストラティブヨガ ワークショップ",
                   "store_lumen_studio")
API_WORKSHOP = _item("item_api_workshop_recordings", "API設計ワークショップ 録画＋ワークブック",
                     "store_ebooks")
CEREMONY = _item("item_tea_ceremony_workshop", "抹茶・茶道体験（谷中）", "store_midori")
SECONDS_BOX = _item("item_studio_seconds_box", "Studio Seconds Box (Local Pickup)",
                    "store_ceramics")
GIFT_CARD = _item("item_studio_gift_card", "Lumen Studio Gift Card (£50)", "store_lumen_studio")
UNLIMITED = _item("item_unlimited_studio_monthly", "Unlimited Studio Membership",
                  "store_lumen_studio")
KYUSU = _item("item_tokoname_kyusu", "Tokoname Kyusu Teapot, 300 ml", "store_midori")
CELADON = _item("item_celadon_teapot", "Celadon Teapot, 700 ml", "store_ceramics")


def test_wanted_words_are_latin_content_words_and_japanese_phrases() -> None:
    assert naming.wanted("the studio seconds boxes") == {"studio", "box"}  # "second": an ordinal
    assert naming.wanted("和紙ノートを1冊") == {"和紙ノート"}
    assert naming.wanted("玄米茶を3袋ください") == {"玄米茶"}


def test_a_japanese_phrase_counts_when_the_name_writes_it() -> None:
    assert naming.name_score(CEREMONY, frozenset({"茶道"})) == 1
    assert naming.name_score(SOUND_BATH, frozenset({"茶道"})) == 0
    assert naming.name_score(SOUND_BATH, frozenset({"ワークショップ"})) == 1


def test_the_rarer_word_wins_over_one_several_names_share() -> None:
    said = naming.wanted(naming.compound_parts("茶道ワークショップ"))
    assert said == {"茶道", "ワークショップ"}
    assert naming.best([SOUND_BATH, API_WORKSHOP, CEREMONY], said) == [CEREMONY]
    assert relevant([SOUND_BATH, API_WORKSHOP, CEREMONY], "茶道 ワークショップ")[0] == CEREMONY


def test_a_whole_item_name_beats_a_store_word_it_shares() -> None:
    said = naming.wanted("studio seconds box")
    assert naming.best([GIFT_CARD, UNLIMITED, SECONDS_BOX], said) == [SECONDS_BOX]


def test_a_true_tie_stays_a_tie_unless_a_store_is_in_view() -> None:
    said = naming.wanted("teapot")
    assert naming.best([CELADON, KYUSU], said) == [CELADON, KYUSU]
    assert naming.best([CELADON, KYUSU], said, "store_midori") == [KYUSU]
    assert naming.best([CELADON, KYUSU], said, "store_ceramics") == [CELADON]


def test_a_japanese_phrase_names_its_last_noun() -> None:
    whisk = _item("item_chasen_whisk", "高山 茶筅（八十本立）", "store_midori")
    matcha = _item("item_uji_matcha", "宇治抹茶", "store_midori")
    query = "宇治抹茶の茶筅をカートに入れて"
    said = naming.wanted(query)
    assert naming.japanese_head(query) == "茶筅"
    assert naming.best([matcha, whisk], said) == [matcha, whisk]
    assert naming.best([matcha, whisk], said, head=naming.japanese_head(query)) == [whisk]
    assert naming.japanese_head("茶筅をください") is None


def test_compound_parts_split_where_the_script_changes() -> None:
    assert naming.compound_parts("茶道ワークショップ") == "茶道 ワークショップ"
    assert naming.compound_parts("和紙ノート 玄米茶") == "和紙 ノート 玄米茶"
    assert naming.compound_parts("ワークショップ") == "ワークショップ"


@pytest.mark.parametrize(("said", "left"), [
    ("réserve l'atelier cérémonie du thé le 13 mars à 14h",
     "réserve l'atelier cérémonie du thé le"),
    ("3月13日14時の茶道ワークショップを予約したい", "の茶道ワークショップを予約したい"),
    ("book the tea ceremony workshop on March 13 at 10am", "book the tea ceremony workshop"),
    ("a family feast for four", "a family feast for four"),
])
def test_the_day_and_time_are_no_product_words(said: str, left: str) -> None:
    assert without_when(said) == left


@pytest.mark.parametrize("said", [
    "réserve l'atelier cérémonie du thé le 13 mars à 14h",
    "book the tea ceremony workshop on March 13 at 10am",
    "3月13日14時の茶道ワークショップを予約したい",
])
def test_a_date_is_no_count(said: str) -> None:
    frame = Frame("book", (said,))
    assert frame.quantity("Atelier cérémonie du thé matcha (Yanaka)") is None


@given(st.lists(st.sampled_from([SOUND_BATH, API_WORKSHOP, CEREMONY, SECONDS_BOX, GIFT_CARD,
                                 UNLIMITED, KYUSU, CELADON]), min_size=1, max_size=8,
                unique_by=lambda item: item["itemId"]),
       st.sampled_from(["teapot", "studio", "茶道 ワークショップ", "gift card", "box"]))
def test_the_best_are_among_the_items_and_fit_equally(items: list[dict[str, Any]],
                                                      query: str) -> None:
    said = naming.wanted(query)
    top = naming.best(items, said)
    weights = naming.rarity(items, said)
    assert top and all(item in items for item in top)

    def rank(item: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, float]]:
        return naming.strength(item, said), naming.fit(item, said, weights)

    ranks = {rank(item) for item in top}  # the head noun said first, then the words' fit
    assert len(ranks) == 1
    assert all(rank(item) <= next(iter(ranks)) for item in items)


# -- the head noun: what a name is about, not what describes it -----------------------------

WORKSHOP_EN = _item("item_tea_ceremony_workshop", "Matcha Tea Ceremony Workshop (Yanaka)",
                    "store_midori")
WORKSHOP_FR = _item("item_tea_ceremony_workshop", "Atelier cérémonie du thé matcha (Yanaka)",
                    "store_midori")
MATCHA_FR = _item("item_uji_matcha", "Thé matcha d'Uji", "store_midori")
MATCHA_JA = _item("item_uji_matcha", "宇治抹茶", "store_midori")
GENMAICHA = _item("item_genmaicha", "Genmaicha with Matcha, 200 g", "store_midori")
CORK_MAT = _item("item_cork_yoga_mat", "Cork & Natural Rubber Yoga Mat", "store_lumen_studio")


@pytest.mark.parametrize(("name", "expected"), [
    ("Matcha Tea Ceremony Workshop (Yanaka)", {"matcha", "workshop"}),
    ("Genmaicha with Matcha, 200 g", {"genmaicha"}),  # "with" ends the head's phrase
    ("Thé matcha d'Uji", {"tea", "matcha"}),
    ("Practical Rust — Paperback + eBook", {"practical", "rust", "paperback", "ebook"}),
    ("Family Feast for Four", {"family", "feast"}),
])
def test_heads_are_the_ends_of_each_segments_leading_phrase(name: str, expected: set[str]) -> None:
    assert naming.heads(name) == expected


def test_an_option_value_is_no_head_noun() -> None:
    # « cérémonie » is the matcha's Ceremonial grade, not what the workshop is
    said = naming.wanted("matcha cérémonie")
    assert naming.head_named(MATCHA_FR, said, "fr")
    assert not naming.head_named(WORKSHOP_FR, said, "fr")
    assert naming.best([WORKSHOP_FR, MATCHA_FR], said, lang="fr") == [MATCHA_FR]


def test_an_english_word_is_read_as_english() -> None:
    # the French table's « mat » (matte) is no option in "a cork yoga mat"
    assert naming.head_named(CORK_MAT, naming.wanted("cork yoga mat"), "en")
    assert naming.is_option_word("mat", "fr") and not naming.is_option_word("mat", "en")


def test_the_item_whose_head_is_said_beats_one_carrying_more_modifiers() -> None:
    said = naming.wanted("a friend in yanaka says your tea ceremony is lovely, just a genmaicha")
    assert naming.best([WORKSHOP_EN, GENMAICHA], said) == [GENMAICHA]
    assert relevant([WORKSHOP_EN, GENMAICHA], "friend yanaka tea ceremony genmaicha") == [
        WORKSHOP_EN, GENMAICHA]  # both stay shown; the naming chooses


def test_a_japanese_name_is_named_by_any_phrase_it_writes() -> None:
    # a shopper's 茶道ワークショップ is the 茶道体験: no word order to read a head from
    assert naming.head_named(MATCHA_JA, frozenset({"抹茶"}))
    assert naming.head_named(CEREMONY, frozenset({"茶道"}))
    assert not naming.head_named(MATCHA_JA, frozenset({"茶"}))


def test_only_words_that_are_no_option_value_name_an_item_well_enough_to_add() -> None:
    assert naming.names_it(MATCHA_FR, naming.wanted("matcha"), "fr")
    assert not naming.names_it(WORKSHOP_FR, frozenset({"ceremonie"}), "fr")
    assert not naming.names_it(MATCHA_JA, frozenset({"茶"}), "ja")  # one kanji: every tea
    assert not naming.names_it(SECONDS_BOX, naming.wanted("こんにちは 配送"), "ja")
    assert naming.names_it(CEREMONY, frozenset({"茶道ワークショップ"}), "ja")  # by its parts
