"""A delivery address inside a sentence, with its country; None when there is none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read


@pytest.mark.parametrize(("text", "address", "country"), [
    ("please send it to 12 Oak Avenue, Portland, OR 97205 thanks",
     "12 Oak Avenue, Portland, OR 97205", "US"),
    ("ship to 1 Main St, Springfield, US", "1 Main St, Springfield, US", "US"),
    ("2 plates to 400 Broadway, New York, NY 10013 please", "400 Broadway, New York, NY 10013",
     "US"),
    ("ship to 12 Oak Ave. Portland OR 97205. Thanks!", "12 Oak Ave. Portland OR 97205", "US"),
    ("send to 3 High Street, Oxford OX1 4AA, UK", "3 High Street, Oxford OX1 4AA, UK", "GB"),
    ("12 rue de Rivoli, 75001 Paris", "12 rue de Rivoli, 75001 Paris", "FR"),
    ("livraison au 5 rue Lepic, 75018 Paris merci", "5 rue Lepic, 75018 Paris", "FR"),
    ("東京都渋谷区神南1-2-3に送ってください", "東京都渋谷区神南1-2-3", "JP"),
    ("渋谷区神南1-2-3まで", "渋谷区神南1-2-3", "JP"),
    ("3-12-7 Yanaka, Taito-ku, Tokyo 110-0001, Japan",
     "3-12-7 Yanaka, Taito-ku, Tokyo 110-0001, Japan", "JP"),
    ("Oranienstraße 185, 10999 Berlin, Germany", "Oranienstraße 185, 10999 Berlin, Germany",
     "DE"),
])
def test_address_in_a_sentence(text: str, address: str, country: str) -> None:
    reading = read(text)
    assert reading.address is not None
    assert (reading.address.text, reading.address.country_code) == (address, country)
    assert reading.address.text not in reading.rest


def test_the_house_number_and_zip_are_not_counts() -> None:
    reading = read("2 mugs to 88 Pine Street, Seattle, WA 98101")
    assert [count.value for count in reading.counts] == [2]
    assert reading.rest == "mugs to"


def test_the_address_keeps_its_case_and_its_span_points_at_it() -> None:
    reading = read("Send it to 9 Elm Road, Austin, TX 78701 for delivery")
    assert reading.address is not None
    start, end = reading.address.span
    assert reading.folded[start:end] == reading.address.text.lower()


@pytest.mark.parametrize("text", ["I live in Portland", "ship it to my place",
                                  "add 2 blue mugs", "table for 4 at 8 tomorrow",
                                  "the 2nd street one", "order #12 status"])
def test_no_address(text: str) -> None:
    assert read(text).address is None


STREETS = ["Oak Avenue", "Main St", "Elm Road", "Pine Street", "Lake Dr", "Maple Lane"]
CITIES = [("Portland", "OR"), ("Austin", "TX"), ("Boston", "MA"), ("Denver", "CO")]


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=9999), st.sampled_from(STREETS),
       st.sampled_from(CITIES), st.integers(min_value=10000, max_value=99999),
       st.sampled_from(["ship to {} please", "my address is {}", "send it to {}, thanks",
                        "deliver to {}"]))
def test_us_addresses_property(number: int, street: str, city: tuple[str, str], zip_code: int,
                               sentence: str) -> None:
    address = f"{number} {street}, {city[0]}, {city[1]} {zip_code}"
    reading = read(sentence.format(address))
    assert reading.address is not None
    assert (reading.address.text, reading.address.country_code) == (address, "US")
    assert reading.counts == ()


@settings(deadline=None)
@given(st.lists(st.sampled_from(["add", "the", "blue", "mug", "please", "to", "my", "cart",
                                 "two", "cheapest", "teapot", "ship", "it", "home"]),
                max_size=10))
def test_sentences_without_a_street_have_no_address(words: list[str]) -> None:
    assert read(" ".join(words)).address is None


@pytest.mark.parametrize(("text", "address", "country"), [
    ("passe la commande stp, 300 rue Sparks, Ottawa ON K1R 7S3",
     "300 rue Sparks, Ottawa ON K1R 7S3", "CA"),
    ("commande, 55 rue King Ouest, Sherbrooke QC J1H 1N6",
     "55 rue King Ouest, Sherbrooke QC J1H 1N6", "CA"),
    ("je commande, 12 boul. Saint-Joseph, Gatineau, (QC) J8Y 3W6 merci",
     "12 boul. Saint-Joseph, Gatineau, (QC) J8Y 3W6", "CA"),
    ("12 chemin des Vignes, 1260 Nyon, Suisse", "12 chemin des Vignes, 1260 Nyon, Suisse", "CH"),
    ("Rue Neuve 25, 1000 Bruxelles", "Rue Neuve 25, 1000 Bruxelles", None),
    ("livrez au 3 place du Marché, 1003 Lausanne", "3 place du Marché, 1003 Lausanne", None),
])
def test_french_speaking_addresses_with_any_postcode(text: str, address: str,
                                                     country: str | None) -> None:
    """France's, Belgium's, Switzerland's and Québec's streets: a postcode before the city
    (five digits or four) or Canada's after it; four digits alone name no country."""
    reading = read(text)
    assert reading.address is not None
    assert (reading.address.text, reading.address.country_code) == (address, country)
