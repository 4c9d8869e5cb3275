"""The catalogue words a misspelt product word is read from (scripted/typed.py) are the words of
the items given, whatever was read before: nothing cached is shared between two catalogues
that give one item id different names or options."""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.models.base import Message, ToolCallRecord
from commerce_agent.agent.models.scripted.folds import Folds
from commerce_agent.agent.models.scripted.state import fold
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


def _session(grade: str) -> list[Message]:
    """A session that read the item `item_tea` with one grade, then answered with a typo."""
    item = {"id": "item_tea", "name": "Uji Matcha", "storeId": "store_tea", "metadata": {
        "dev.commerce.product.variants": {"variants": [{"id": "var_1", "values": [grade]}]}}}
    return [Message("user", "show me the uji matcha"),
            Message("assistant", tool_calls=[ToolCallRecord("c1", "get_item",
                                                            {"itemId": "item_tea"})]),
            Message("tool", tool_call_id="c1", name="get_item", result=item),
            Message("assistant", "Uji Matcha comes in one grade."),
            Message("user", "ceremonal please")]


def test_two_sessions_reading_one_item_id_differently_do_not_share_its_words() -> None:
    """Sessions folded one after the other in one process (as the model serves them) correct a
    typo toward their own catalogue only."""
    folds = Folds()
    culinary = folds.fold("ses_culinary", _session("Culinary"), {})
    ceremonial = folds.fold("ses_ceremonial", _session("Ceremonial"), {})
    again = folds.fold("ses_culinary", _session("Culinary"), {})
    assert "ceremonial" in catalogue_words(ceremonial.items.values())
    assert "ceremonial" not in catalogue_words(culinary.items.values())
    assert again == culinary == fold(_session("Culinary"), {})
