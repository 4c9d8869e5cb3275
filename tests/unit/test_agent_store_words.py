"""Store words and addresses in the shopper's language (messages.store_word,
countries.named_in)."""

from __future__ import annotations

from commerce_agent.agent.language.countries import named_in
from commerce_agent.agent.models.scripted.messages import store_word


def test_payment_methods_from_the_catalog_and_brands_as_written() -> None:
    assert store_word("fr", "Credit Card") == "carte de crédit"
    assert store_word("ja", "Cash") == "現金"
    assert store_word("fr", "Apple Pay") == "Apple Pay"
    assert store_word("en", "Credit Card") == "Credit Card"


def test_the_country_of_an_address_in_the_shoppers_language() -> None:
    address = "2150 N Milwaukee Ave, Chicago, IL 60647, United States"
    assert named_in(address, "US", "fr").endswith("États-Unis")
    assert named_in(address, "US", "ja").endswith("アメリカ合衆国")
    assert named_in(address, "US", "en") == address
    assert named_in(address, None, "fr") == address
