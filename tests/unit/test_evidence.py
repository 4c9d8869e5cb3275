"""An item's evidence in every language (commerce_agent/agent/models/scripted/evidence.py)."""

from __future__ import annotations

from commerce_agent.agent.models.scripted import evidence

HOJICHA = evidence.of_texts((
    ("Kaga Bōcha Roasted Stem Tea, 100 g",
     "Roasted tea stems from Ishikawa: toasty, low in caffeine, lovely in the evening."),
    ("加賀棒茶 100g", "石川の焙じ茎茶（ほうじ茶）。香ばしくカフェイン控えめで、夜の一杯に。"),
    ("Thé bōcha de Kaga (tiges torréfiées, hojicha), 100 g",
     "Tiges de thé torréfiées d'Ishikawa : grillé, peu de caféine, parfait le soir."),
))
CHASEN = evidence.of_texts((
    ("Takayama Bamboo Chasen (80 tines)",
     "Hand-carved bamboo whisk from Takayama, Nara, for a fine, even foam."),
    ("高山 茶筅（八十本立）", "奈良・高山の手削り茶筅。きめ細かな泡立ちに。"),
    ("Fouet à matcha en bambou (chasen) de Takayama, 80 brins",
     "Fouet en bambou taillé à la main à Takayama, Nara, pour une mousse fine et régulière."),
))
WORKSHOP = evidence.of_texts((
    ("Matcha Tea Ceremony Workshop (Yanaka)",
     "A 90-minute introduction to the tea ceremony in our tatami room: whisking usucha."),
    ("Atelier cérémonie du thé matcha (Yanaka)", "Une initiation de 90 minutes."),
))


def test_a_word_said_in_another_language_is_evidence() -> None:
    assert HOJICHA.says("hojicha")  # only the French name says so
    assert HOJICHA.says("ほうじ茶")  # only the Japanese description
    assert HOJICHA.says("ほうじちゃ")  # the same, by sound
    assert HOJICHA.says("roasted") and HOJICHA.says("torrefie")  # « torréfiées », inflected


def test_a_kind_said_by_another_word_is_evidence() -> None:
    assert CHASEN.says("whisk", names_only=True)  # « Fouet » in its French name
    assert CHASEN.says("茶筅") and CHASEN.says("fouet")


def test_a_word_no_text_says_in_any_language_is_no_evidence() -> None:
    assert not CHASEN.says("board") and not CHASEN.says("planche")
    assert not CHASEN.says("まな板")
    assert not HOJICHA.says("green")


def test_names_count_apart_from_descriptions() -> None:
    assert CHASEN.score(["matcha", "whisk"]) == (2, 2)
    assert WORKSHOP.score(["matcha", "whisk"])[1] < CHASEN.score(["matcha", "whisk"])[1]


def test_texts_come_from_the_search_and_every_catalog_read() -> None:
    item = {"itemId": "item_a", "name": "A", "description": "first"}
    catalogs = [{"items": [{"itemId": "item_a", "name": "Un A", "description": "premier"},
                           {"itemId": "item_b", "name": "B"}]},
                {"items": [{"itemId": "item_a", "name": "A", "description": "first"}]}]
    assert evidence.texts_of(item, catalogs) == (("A", "first"), ("Un A", "premier"))


def test_the_same_texts_are_read_once() -> None:
    texts = (("Pizza Diavola", "Tomato"),)
    assert evidence.of_texts(texts) is evidence.of_texts(texts)
