"""The delivery stage keeps only the place: not the person it is for, not what is said after
the postcode that ends it; Canada by its postcode's shape; a Japanese building and room; and
where an order is collected is cut from the request."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.delivery import collects_in_person, read_delivery

_STREETS = st.sampled_from(["Oak St", "W 4th Ave", "Birch Lane", "Market Street", "Elm Rd"])
_PLACES = st.sampled_from([("Anchorage", "AK", "99501"), ("Austin", "TX", "78701"),
                           ("Portland", "OR", "97202"), ("Denver", "CO", "80203")])
_PEOPLE = st.sampled_from(["", "my sister Maria Lopez at ", "Jane Doe, ", "my dad at "])
_AFTER = st.sampled_from(["", ", she'll love it", ", thanks!", " please", ", it's a gift"])


@given(_PEOPLE, st.integers(1, 9999), _STREETS, st.sampled_from(["", " Apt 4B", ", Unit 12"]),
       _PLACES, _AFTER)
def test_a_us_address_is_kept_without_the_person_or_the_words_after(
        person: str, number: int, street: str, unit: str, place: tuple[str, str, str],
        after: str) -> None:
    city, state, zip_code = place
    address = f"{number} {street}{unit}, {city}, {state} {zip_code}"
    found = read_delivery(f"please send it to {person}{address}{after}")
    assert (found.address, found.country_code) == (address, "US")


@pytest.mark.parametrize(("said", "address", "country"), [
    ("check out, it goes to 1200 Bay Street, Unit 804, Toronto, Ontario M5R 2A5 thanks",
     "1200 Bay Street, Unit 804, Toronto, Ontario M5R 2A5", "CA"),
    ("ship to 555 W Hastings St, Vancouver V6B 4N6", "555 W Hastings St, Vancouver V6B 4N6", "CA"),
    ("post it to Flat 2, 14 Elm Grove, Manchester M14 6PF, she does yoga",
     "Flat 2, 14 Elm Grove, Manchester M14 6PF", "GB"),
    ("ship to 12 Oak St, Portland, OR 97202, USA", "12 Oak St, Portland, OR 97202, USA", "US"),
    ("注文お願いします。〒530-0001 大阪府大阪市北区梅田1-2-3 梅田ビル502号室 山田太郎宛",
     "〒530-0001 大阪府大阪市北区梅田1-2-3 梅田ビル502号室", "JP"),
])
def test_the_place_alone_and_its_country(said: str, address: str, country: str) -> None:
    found = read_delivery(said)
    assert (found.address, found.country_code) == (address, country)
    assert "宛" not in found.rest


@pytest.mark.parametrize(("said", "rest"), [
    ("grab me a studio seconds box, I'll collect it at the Portland studio",
     "grab me a studio seconds box, I'll collect it"),
    ("une diavola 16 pouces à emporter", "une diavola 16 pouces"),
    ("a 12 inch margherita, takeaway please", "a 12 inch margherita please"),
    ("je valide, je passe le chercher au restaurant", "je valide, je passe le chercher"),
    ("ring it up, I'll grab it at the counter", "ring it up, I'll grab it"),
])
def test_where_it_is_collected_is_no_request(said: str, rest: str) -> None:
    found = read_delivery(said)
    assert found.pickup and found.address is None and found.rest == rest


@pytest.mark.parametrize(("said", "myself"), [
    ("I'll pick it up", True), ("we'll come and collect it", True),
    ("je passe le chercher", True), ("明日取りに行きます", True),
    ("the seconds box for pickup", False), ("can I pick it up?", False),
])
def test_collecting_as_the_shoppers_own_plan(said: str, myself: bool) -> None:
    assert collects_in_person(said) is myself
