"""The catalogue words a misspelt product word is read from (scripted/typed.py) are the words of
the items given, whatever was read before: nothing cached is shared between two catalogues
that give one item id different names or options."""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.models.scripted.typed import catalogue_words


def _pizza(size: str, topping: str) -> dict[str, Any]:
    return {"itemId": "item_pizza", "name": "Pizza margherita", "metadata": {
        "dev.commerce.product.customization": {"groups": [{"options": [{"name": size}]}]},
        "dev.commerce.product.addons": {"items": [{"name": topping}]}}}


def test_two_catalogues_with_one_item_id_do_not_share_their_words() -> None:
    first = catalogue_words([_pizza("Grande", "Mushrooms")])
    second = catalogue_words([_pizza("Petite", "Anchovies")])
    assert {"grande", "mushrooms"} <= first and not {"petite", "anchovies"} & first
    assert {"petite", "anchovies"} <= second and not {"grande", "mushrooms"} & second


def test_the_same_item_read_again_in_another_language_gives_its_own_words() -> None:
    english = catalogue_words([{"itemId": "item_mug", "name": "Classic Stoneware Mug"}])
    french = catalogue_words([{"itemId": "item_mug", "name": "Mug classique en grès"}])
    assert "stoneware" in english and "stoneware" not in french
    assert "classique" in french
