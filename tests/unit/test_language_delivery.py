"""Delivery details in a shopper's own words: the address apart from the request, its country,
what it still lacks, corrections to it, and pickup."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.delivery import (
    amended,
    country_of,
    missing,
    read_delivery,
    wants_pickup,
)


@pytest.mark.parametrize(("text", "address", "country", "rest"), [
    ("buy the glaze mug and ship it to 1600 Pennsylvania Ave NW, Washington, DC 20500",
     "1600 Pennsylvania Ave NW, Washington, DC 20500", "US", "buy the glaze mug"),
    ("my address is 55 Water Street, Apt 3, Brooklyn, NY 11201",
     "55 Water Street, Apt 3, Brooklyn, NY 11201", "US", ""),
    ("checkout please, ship to Jane Doe, 400 Pine St, Seattle, WA 98101, jane@example.com, "
     "206-555-0100. thanks!", "400 Pine St, Seattle, WA 98101", "US", None),
    ("ship to 350 5th Ave, New York, NY 10118, my phone is (212) 736-3100",
     "350 5th Ave, New York, NY 10118", "US", None),
    ("Ship it to 500 W Madison St Suite 1000 Chicago IL 60661",
     "500 W Madison St Suite 1000 Chicago IL 60661", "US", ""),
    ("deliver it to my place: 45 Elm St., Apt 2R, Somerville, MA 02144",
     "45 Elm St., Apt 2R, Somerville, MA 02144", "US", ""),
    ("Can you send it to 221B Baker Street, London NW1 6XE?",
     "221B Baker Street, London NW1 6XE", "GB", None),
    ("pay now and ship to 9 Elm Road, Leeds LS6 2AB, UK", "9 Elm Road, Leeds LS6 2AB, UK", "GB",
     "pay now"),
    ("je veux commander, livraison au 1200 rue Sainte-Catherine Ouest, Montréal, QC H3B 1K9",
     "1200 rue Sainte-Catherine Ouest, Montréal, QC H3B 1K9", "CA", "je veux commander"),
    ("Livrez-la au 5 avenue Anatole France, 75007 Paris, merci",
     "5 avenue Anatole France, 75007 Paris", "FR", None),
    ("mon adresse est 20 boulevard Haussmann, 75009 Paris", "20 boulevard Haussmann, 75009 Paris",
     "FR", ""),
    ("八女玉露を1つ買います。送り先は〒150-0041 東京都渋谷区神南1-2-3です",
     "〒150-0041 東京都渋谷区神南1-2-3", "JP", "八女玉露を1つ買います。"),
    ("お届け先は大阪府大阪市北区梅田3-1-1でお願いします", "大阪府大阪市北区梅田3-1-1", "JP", ""),
    ("東京都千代田区丸の内1-1", "東京都千代田区丸の内1-1", "JP", ""),
    ("please deliver to 3-12-7 Yanaka, Taito-ku, Tokyo 110-0001",
     "3-12-7 Yanaka, Taito-ku, Tokyo 110-0001", "JP", ""),
    ("send it to Hauptstraße 5, 10827 Berlin, Germany", "Hauptstraße 5, 10827 Berlin, Germany",
     "DE", ""),
    ("deliver to Friedrichstraße 43, 10117 Berlin", "Friedrichstraße 43, 10117 Berlin", "DE", ""),
    ("Keizersgracht 1, Amsterdam, NL", "Keizersgracht 1, Amsterdam, NL", "NL", ""),
    ("buy two dinner plates and deliver them to 350 Sparks St, Ottawa, ON K1R 7S8",
     "350 Sparks St, Ottawa, ON K1R 7S8", "CA", "buy two dinner plates"),
    ("order it and have it sent to 15 Collins St, Melbourne VIC 3000, Australia",
     "15 Collins St, Melbourne VIC 3000, Australia", "AU", None),
    ("can you ship to 42 Wallaby Way, Sydney NSW 2000?", "42 Wallaby Way, Sydney NSW 2000", "AU",
     None),
    ("deliver to 12 Grafton Street, Dublin 2, Ireland", "12 Grafton Street, Dublin 2, Ireland",
     "IE", ""),
    ("express please, to 77 Massachusetts Ave, Cambridge, MA 02139",
     "77 Massachusetts Ave, Cambridge, MA 02139", "US", "express please"),
])
def test_the_address_is_read_apart_from_the_request(text: str, address: str, country: str,
                                                    rest: str | None) -> None:
    found = read_delivery(text)
    assert (found.address, found.country_code) == (address, country)
    if rest is not None:
        assert found.rest == rest


@pytest.mark.parametrize(("text", "address", "country"), [
    ("Ship to:\nMaria Garcia\n2100 Elm Ave\nAustin, TX 78701", "2100 Elm Ave, Austin, TX 78701",
     "US"),
    ("John Smith\n1 Main St\nSpringfield, IL 62701\nUSA", "1 Main St, Springfield, IL 62701, USA",
     "US"),
    ("deliver to: 10 Downing St\nLondon\nSW1A 2AA", "10 Downing St, London, SW1A 2AA", "GB"),
])
def test_an_address_on_several_lines_drops_its_label_and_name(text: str, address: str,
                                                              country: str) -> None:
    found = read_delivery(text)
    assert (found.address, found.country_code, found.rest) == (address, country, "")


@pytest.mark.parametrize("text", [
    "add two mugs to my cart", "I want 3 of the 16 oz mugs", "do you ship to Canada?",
    "what's the shipping to 90210?", "add the 300 ml kyusu to my cart", "Portland, OR 97202",
])
def test_no_address(text: str) -> None:
    found = read_delivery(text)
    assert found.address is None and found.rest == text


@pytest.mark.parametrize(("address", "lacking"), [
    ("12 Oak Street", "place"), ("31 Spooner Street, Quahog", "place"),
    ("Via Roma 12, 00184 Roma", "country"), ("1 Main St, Springfield, IL 62701", None),
    ("1 Main St, Springfield, US", None), ("10 Downing Street, London SW1A 2AA", None),
])
def test_what_a_delivery_still_needs(address: str, lacking: str | None) -> None:
    assert missing(address) == lacking


@pytest.mark.parametrize(("previous", "text", "now"), [
    ("500 Valencia St, San Francisco, CA 94103", "wrong zip, it should be 94110",
     "500 Valencia St, San Francisco, CA 94110"),
    ("10 Downing Street, London SW1A 2AA", "oops the postcode is SW1A 1AA",
     "10 Downing Street, London SW1A 1AA"),
    ("20 W 34th St, New York, NY 10001", "oh sorry, actually it's apartment 4B",
     "20 W 34th St, apartment 4B, New York, NY 10001"),
    ("45 Elm St, Apt 2R, Somerville, MA 02144", "sorry, it's apt 3C",
     "45 Elm St, apt 3C, Somerville, MA 02144"),
    ("12 Oak Street", "Portland, OR 97202", "12 Oak Street, Portland, OR 97202"),
    ("Via Roma 12, 00184 Roma", "Italy", "Via Roma 12, 00184 Roma, Italy"),
    ("1 Main St, Springfield, IL 62701", "add two mugs", None),
    ("1 Main St, Springfield, IL 62701", "the 16 oz one", None),
    ("1 Main St, Springfield, IL 62701", "ship to 9 Birch Lane, Burlington, VT 05401", None),
])
def test_a_correction_or_completion_amends_the_address(previous: str, text: str,
                                                       now: str | None) -> None:
    assert amended(previous, text) == now


@pytest.mark.parametrize(("text", "pickup"), [
    ("I'll collect it myself", True), ("can I pick it up at the shop?", True),
    ("je passe les chercher, retrait en magasin", True), ("店頭で受け取りできますか？", True),
    ("ship it to me", False), ("add two mugs", False), ("livrez-le chez moi", False),
])
def test_pickup_is_understood(text: str, pickup: bool) -> None:
    assert wants_pickup(text) is pickup


_STREETS = st.sampled_from(["Oak", "Maple", "Evergreen", "Pennsylvania", "Water", "Pine", "Elm"])
_TYPES = st.sampled_from(["Street", "St", "Avenue", "Ave", "Road", "Lane", "Drive", "Terrace"])
_PLACES = st.sampled_from([("Springfield", "IL"), ("Portland", "OR"), ("Austin", "TX"),
                           ("Seattle", "WA"), ("Brooklyn", "NY"), ("Boston", "MA")])
_LEADS = st.sampled_from(["ship it to", "please send it to", "deliver to", "my address is",
                          "check out and ship to", "buy the glaze mug and send it to",
                          "ok, deliver them to", "Address:"])
_AFTER = st.sampled_from(["", " thanks!", ", thank you", " please", ". Cheers", "!"])


@given(st.integers(1, 99999), _STREETS, _TYPES, _PLACES, st.integers(10000, 99999), _LEADS,
       _AFTER)
def test_a_us_address_in_any_frame_is_the_address_alone(
        number: int, street: str, kind: str, place: tuple[str, str], zip_code: int, lead: str,
        after: str) -> None:
    address = f"{number} {street} {kind}, {place[0]}, {place[1]} {zip_code}"
    found = read_delivery(f"{lead} {address}{after}")
    assert (found.address, found.country_code) == (address, "US")
    assert str(zip_code) not in found.rest and missing(address, "US") is None


@given(st.text(max_size=160))
def test_any_message_reads_without_failing(text: str) -> None:
    found = read_delivery(text)
    assert found.address is None or re.search(r"\d", found.address)
    assert found.address is None or found.country_code == country_of(found.address) or \
        found.country_code is not None


@pytest.mark.parametrize(("address", "country"), [
    ("12 Main St, Springfield, IL", "US"),  # Illinois, not Israel
    ("4 Elm Avenue, Dover, DE", "US"),
    ("Hauptstraße 5, Berlin, DE", "DE"),
    ("10115 Berlin, DE", "DE"),
    ("200 Bay Street, Toronto, ON M5J 2J5, CA", "CA"),
])
def test_two_letters_that_are_a_state_and_a_country(address: str, country: str) -> None:
    assert country_of(address) == country


@pytest.mark.parametrize(("said", "rest"), [
    ("アランチーニを2つ、店頭で受け取りで", "アランチーニを2つ、"),
    ("ラザニアを店頭受け取りでください", "ラザニアを ください"),
    ("アランチーニを2つ、持ち帰りでお願いします", "アランチーニを2つ、 お願いします"),
])
def test_collecting_in_japanese_is_how_it_is_had_never_a_product_word(said: str,
                                                                   rest: str) -> None:
    found = read_delivery(said)
    assert found.pickup and found.rest == rest


@pytest.mark.parametrize("said", ["I'll come get it", "we'll come and grab them",
                                  "je passe les chercher"])
def test_coming_for_the_order_is_collecting_it(said: str) -> None:
    assert read_delivery(said).pickup
