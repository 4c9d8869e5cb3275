"""How the pages show the API's documents (web/present.py): prices and dates in the shopper's
locale with fallbacks for what cannot be read, images per variant, availability, and what was
chosen on a cart line."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.commerce.capability_ids import PRODUCT_RICH_INFO, PRODUCT_VARIANTS
from commerce_agent.web import present


@pytest.mark.parametrize(("amount", "locale", "shown"), [
    ({"amount": "24.00", "currency": "USD"}, "en-US", "$24.00"),
    ({"amount": "1200", "currency": "JPY"}, "ja", "￥1,200"),
    ({"amount": "1234.50", "currency": "EUR"}, "fr", "1\u202f234,50\xa0€"),
    ({"amount": "24.00", "currency": "USD"}, "xx-invalid-locale", "$24.00"),  # en_US
    ({"amount": "24.00", "currency": "USD"}, None, "$24.00"),
    ({"amount": "lots", "currency": "USD"}, "en", "lots USD"),  # shown as stored
    ({"amount": "3.00"}, "en", "3.00"),
    (None, "en", ""),
])
def test_price(amount: dict[str, Any] | None, locale: str | None, shown: str) -> None:
    assert present.price(amount, locale) == shown


def test_when_in_a_locale_and_a_time_zone() -> None:
    moment = "2026-11-26T15:00:00Z"
    assert present.when(moment, "en-US") == "Nov 26, 2026, 3:00:00\u202fPM"
    assert present.when(moment, "en-US", "Asia/Tokyo") == "Nov 27, 2026, 12:00:00\u202fAM"
    assert present.when(moment, "en-US", "Not/AZone") == moment  # unknown zone: as stored
    assert present.when("next week", "en") == "next week"
    assert present.when(None) == "" and present.when("") == ""


ITEM = {"name": "Mug", "metadata": {
    PRODUCT_RICH_INFO: {"imageGallery": [
        {"fallbackUrl": "/img/blue.jpg", "variantId": "v_blue", "alt": "Blue mug"},
        {"fallbackUrl": "/img/mug.jpg"},
        {"alt": "no url: skipped"},
        "not an image"]},
    PRODUCT_VARIANTS: {"variants": [
        {"id": "v_red", "values": ["Red", "8 oz"], "stock": 0},
        {"id": "v_blue", "values": ["Blue", "8 oz"], "available": False},
        {"id": "v_green", "values": ["Green", "12 oz"], "stock": 4}]},
    "dev.commerce.product.addons": {"items": [{"id": "gift", "name": "Gift box"}]},
    "dev.commerce.service.scheduling": {"timeSlots": [
        {"id": "slot_1", "startTime": "2026-12-01T09:30:00Z"}]}}}


def test_the_gallery_and_the_image_of_a_variant() -> None:
    assert present.gallery(ITEM) == [
        {"src": "/img/blue.jpg", "alt": "Blue mug", "variantId": "v_blue"},
        {"src": "/img/mug.jpg", "alt": "Mug", "variantId": ""}]
    assert present.image_for(ITEM, "v_blue")["src"] == "/img/blue.jpg"  # type: ignore[index]
    assert present.image_for(ITEM, "v_red")["src"] == "/img/mug.jpg"  # type: ignore[index]
    assert present.image_for(ITEM)["src"] == "/img/mug.jpg"  # type: ignore[index]
    only_variant = {"metadata": {PRODUCT_RICH_INFO: {"imageGallery": [
        {"fallbackUrl": "/img/v.jpg", "variantId": "v"}]}}}
    assert present.image_for(only_variant)["src"] == "/img/v.jpg"  # type: ignore[index]
    assert present.image_for({"name": "Bare"}) is None


def test_the_first_choice_is_the_first_variant_for_sale() -> None:
    assert [present.variant_sold_out(v) for v in present.variants(ITEM)] == [True, True, False]
    assert present.first_choice(ITEM) == present.variants(ITEM)[2]
    assert present.first_choice({"name": "No variants"}) is None


@pytest.mark.parametrize(("item", "shown"), [
    ({"available": False, "stock": 3}, "Sold out"),
    ({"stock": 1}, "Only 1 left"), ({"stock": 5}, "Only 5 left"),
    ({"stock": 6}, "In stock"), ({"stock": 0}, "In stock"), ({}, "In stock"),
])
def test_availability(item: dict[str, Any], shown: str) -> None:
    assert present.availability(item) == shown


def test_a_cart_ships_when_a_line_may_be_sent() -> None:
    assert present.ships({"items": [{"fulfillmentType": "digital"}, {}]})  # unknown: may ship
    assert present.ships({"items": [{"fulfillmentType": "hybrid"}]})
    assert not present.ships({"items": [{"fulfillmentType": "digital"},
                                        {"fulfillmentType": "pickup"}]})
    assert not present.ships({})


def test_line_details_name_what_was_chosen() -> None:
    line = {"variantId": "v_green", "addOnIds": ["gift", "ribbon"], "timeSlotId": "slot_1"}
    assert present.line_details(line, ITEM, "en-US") == \
        "Green / 12 oz, Gift box, ribbon, Dec 1, 2026, 9:30:00\u202fAM"
    # An item no longer sold: the ids as they are.
    assert present.line_details(line, None) == "v_green, gift, ribbon, slot_1"
    assert present.line_details({}, ITEM) == ""
