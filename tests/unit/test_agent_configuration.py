"""The configuration stage: an item's variant, options and add-ons read from the words said
beside its name, in English, French and Japanese, with numbers, refusals and relative sizes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from commerce_agent.agent.models.scripted import configuration
from tests.support.sample_items import SAMPLE_STORES, sample_item


def _item(item_id: str, language: str = "en") -> dict[str, Any]:
    """The item as `get_item` shows it in `language`: its name and its options' names."""
    item = sample_item(item_id)
    if language == "en":
        return item
    for path in sorted(SAMPLE_STORES.glob("*.json")):
        translations = json.loads(path.read_text(encoding="utf-8"))["translations"]
        names = translations.get(language, {})
        if item_id in names.get("items", {}):
            return {**item, "name": names["items"][item_id]["name"],
                    "optionNames": names.get("options", {})}
    return item


@pytest.mark.parametrize(("item_id", "language", "text", "variants"), [
    ("item_classic_mug", "fr", "une tasse bleue, la grosse de 16 oz", ["var_mug_blue_16oz"]),
    ("item_classic_mug", "en", "your cobalt mugs, the bigger size", ["var_mug_blue_16oz"]),
    ("item_classic_mug", "ja", "マグの小さい方、コバルトブルーで", ["var_mug_blue_12oz"]),
    ("item_uji_matcha", "en", "for cakes, not the fancy ceremonial stuff, the 100g bag",
     ["var_matcha_culinary_100g"]),
    ("item_uji_matcha", "fr", "3 sachets de matcha cérémonie de 30 g",
     ["var_matcha_ceremonial_30g"]),
    ("item_uji_matcha", "ja", "抹茶はお点前用じゃなくて製菓用で", ["var_matcha_culinary_100g"]),
])
def test_a_variant_is_read_from_every_attribute_said(item_id: str, language: str, text: str,
                                                     variants: list[str]) -> None:
    reading = configuration.read(_item(item_id, language), text, language)
    assert reading.variant_named
    assert reading.variants == variants


@pytest.mark.parametrize(("item_id", "language", "text", "options", "addons"), [
    ("item_aurelia_font_license", "en",
     "a team of about 15 people, the aurelia sans licence with 20 seats and the app embedding",
     {"group_aurelia_seats": ["opt_aurelia_seats_20"],
      "group_aurelia_formats": ["opt_aurelia_app_embed"]}, []),
    ("item_aurelia_font_license", "en", "aurelia sans with five seats plus the web fonts",
     {"group_aurelia_seats": ["opt_aurelia_seats_5"],
      "group_aurelia_formats": ["opt_aurelia_webfonts"]}, []),
    ("item_aurelia_font_license", "ja", "Aurelia Sansを5ユーザー、Webフォント付きで",
     {"group_aurelia_seats": ["opt_aurelia_seats_5"],
      "group_aurelia_formats": ["opt_aurelia_webfonts"]}, []),
    ("item_pixelforge_license", "en", "with the priority support and the film presets", {},
     ["addon_pixelforge_priority_support", "addon_pixelforge_preset_pack"]),
    ("item_cacio_e_pepe", "en", "cacio e pepe, not with the fresh tonnarelli, the gluten free",
     {"group_cacio_pasta": ["opt_cacio_pasta_gluten_free"]}, []),
    ("item_caesar_salad", "fr", "une salade César avec un œuf mollet",
     {"group_caesar_protein": ["opt_caesar_egg"]}, []),
    ("item_pizza_margherita", "en", "margherita, the big one, gluten-free, with nduja",
     {"group_margherita_size": ["opt_margherita_size_16in"],
      "group_margherita_crust": ["opt_margherita_crust_gluten_free"],
      "group_margherita_toppings": ["opt_margherita_top_nduja"]}, []),
    ("item_pizza_diavola", "ja", "ディアボラの16インチにホットハニーを付けて",
     {"group_diavola_size": ["opt_diavola_size_16in"]}, ["addon_trattoria_extra_honey"]),
    ("item_tokoname_kyusu", "en", "kyusu teapot, gift wrapped", {}, ["addon_midori_furoshiki"]),
])
def test_options_and_add_ons_are_read_by_their_names_in_any_wording(
        item_id: str, language: str, text: str, options: dict[str, list[str]],
        addons: list[str]) -> None:
    reading = configuration.read(_item(item_id, language), text, language)
    assert reading.options == options
    assert sorted(reading.addons) == sorted(addons)


def test_a_refused_choice_is_declined_not_chosen() -> None:
    reading = configuration.read(_item("item_lasagna_bolognese"),
                                 "lasagna, no garlic focaccia")
    assert reading.addons == []
    assert reading.declined == {"addon_trattoria_garlic_bread"}


def test_words_naming_only_the_item_pick_nothing() -> None:
    assert configuration.read(_item("item_pizza_margherita"), "a lovely margherita").named == 0
    # a count is not a seat number, an item's own "sans" takes nothing back
    reading = configuration.read(_item("item_aurelia_font_license"), "3 aurelia sans licences")
    assert reading.options == {} and reading.declined == set()


@pytest.mark.parametrize(("item_id", "language", "piece", "belongs"), [
    ("item_classic_mug", "en", "the bigger 16 oz size", True),
    ("item_classic_mug", "fr", "la grosse de 16 oz", True),
    ("item_caesar_salad", "ja", "半熟卵をのせてください", True),
    ("item_pixelforge_license", "en", "the film preset pack", True),
    ("item_caesar_salad", "en", "and 2 san pellegrinos", False),
    ("item_classic_mug", "en", "a large serving bowl", False),
])
def test_a_piece_said_apart_configures_the_item_before_it(item_id: str, language: str,
                                                          piece: str, belongs: bool) -> None:
    assert configuration.configures(_item(item_id, language), piece, language) is belongs
