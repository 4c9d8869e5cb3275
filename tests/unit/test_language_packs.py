from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.packs import amount_asked, pack_size, packs
from commerce_agent.agent.language.tidy import tidy


def test_amounts_said_as_how_much_of_a_thing() -> None:
    for text, value, unit in (("add 2 kg of genmaicha", 2, "kg"),
                              ("half a kilo of the culinary matcha", Decimal("0.5"), "kg"),
                              ("ajoutez 500 grammes de hojicha", 500, "g"),
                              ("玄米茶を1キロカートに入れて", 1, "kg"),
                              ("3 litres of san pellegrino", 3, "l")):
        amount = amount_asked(text)
        assert amount is not None and amount.value == value and amount.unit == unit, text


def test_a_size_naming_the_item_is_no_amount() -> None:
    assert amount_asked("add the 300 ml kyusu to my cart") is None
    assert amount_asked("the 16 oz blue mug") is None


def test_packs_round_up_and_say_when_inexact() -> None:
    pack = pack_size(["Genmaicha with Matcha, 200 g"])
    amount = amount_asked("2 kg of genmaicha")
    assert pack is not None and amount is not None
    made = packs(amount, pack)
    assert made is not None and made.count == 10 and made.exact
    gyokuro = pack_size(["Yame Gyokuro, 50 g"])
    asked = amount_asked("120 g of gyokuro")
    assert gyokuro is not None and asked is not None
    rounded = packs(asked, gyokuro)
    assert rounded is not None and rounded.count == 3 and not rounded.exact


def test_a_weight_is_no_volume() -> None:
    pack, amount = pack_size(["Water, 750 ml"]), amount_asked("2 kg of water")
    assert pack is not None and amount is not None and packs(amount, pack) is None


@given(st.integers(min_value=1, max_value=5000), st.integers(min_value=1, max_value=1000))
def test_packs_always_cover_the_amount(grams: int, size: int) -> None:
    amount, pack = amount_asked(f"{grams} g of tea"), pack_size([f"Tea, {size} g"])
    assert amount is not None and pack is not None
    made = packs(amount, pack)
    assert made is not None and made.count * size >= grams * Decimal("0.99")
    assert (made.count - 1) * size < grams


def test_a_shop_word_slipped_where_things_go() -> None:
    assert tidy("add the blue mug to my card") == "add the blue mug to my cart"
    assert tidy("pop a mug in my bakset") == "pop a mug in my basket"
    assert tidy("charge it to my card") == "charge it to my card"
