"""Offers named loosely (language/offer_names.py): a code mistyped, an offer described by its
value or its words; and the answers around a checkout (a slip owned up to, a go-ahead, a
checkout closing cart edits)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.offer_names import described_offer, mistyped
from commerce_agent.agent.models.scripted.assent import classify, goes_ahead
from commerce_agent.agent.models.scripted.sequence import concluded

STORES = Path(__file__).parents[2] / "sample_data" / "stores"


def _offers(name: str) -> list[dict[str, Any]]:
    store = json.loads((STORES / f"{name}.json").read_text(encoding="utf-8"))
    offers: list[dict[str, Any]] = store["metadata"]["dev.commerce.promotions.discoverable"][
        "items"]
    return offers


@pytest.mark.parametrize(("store", "said", "code"), [
    ("01-ceramics", "use my 10% code", "WELCOME10"),
    ("01-ceramics", "the five dollar off coupon", "FIVEOFF"),
    ("01-ceramics", "$5 off please", "FIVEOFF"),
    ("01-ceramics", "the welcome discount", "WELCOME10"),
    ("03-trattoria", "the pizza friday code", "PIZZAFRIDAY"),
    ("03-trattoria", "the pizza fridey code", "PIZZAFRIDAY"),
    ("03-trattoria", "the dessert discount", "DOLCE4"),
    ("04-midori-tokyo", "500円引きのクーポンを使って", "MIDORI500"),
    ("04-midori-tokyo", "1割引のクーポン", "OCHA10"),
    ("05-lumen-studio", "with the namaste code", "NAMASTE10"),
    ("02-ebooks", "the 3 euro code", "FOLIO3"),
])
def test_an_offer_is_told_by_its_value_or_its_words(store: str, said: str, code: str) -> None:
    assert described_offer(said, _offers(store)) == code


@pytest.mark.parametrize(("store", "said"), [
    ("01-ceramics", "use my 20% code"),  # a value no offer has
    ("01-ceramics", "I have a coupon"),  # nothing to tell one by
    ("01-ceramics", "use the code"),
    ("02-ebooks", "a discount code please"),
])
def test_a_description_that_fits_no_one_offer_names_none(store: str, said: str) -> None:
    assert described_offer(said, _offers(store)) is None


@pytest.mark.parametrize(("said", "code"), [
    ("WELCOM10", "WELCOME10"), ("FIVEOF", "FIVEOFF"), ("PIZAFRIDAY", "PIZZAFRIDAY"),
    ("READMOR15", "READMORE15"),
    ("WELCOME20", "WELCOME20"),  # other digits: another code, refused by the store
    ("BOGUS", "BOGUS"),
])
def test_a_mistyped_code_is_the_stores_one_typo_away(said: str, code: str) -> None:
    assert mistyped(said, ["WELCOME10", "FIVEOFF", "PIZZAFRIDAY", "READMORE15"]) == code


@given(st.sampled_from(["WELCOME10", "FIVEOFF", "PIZZAFRIDAY", "READMORE15", "DOLCE4"]))
def test_a_code_as_the_store_writes_it_stays(code: str) -> None:
    assert mistyped(code, ["WELCOME10", "FIVEOFF", "PIZZAFRIDAY", "READMORE15", "DOLCE4"]) == code


@pytest.mark.parametrize("said", [
    "sorry, misclicked. sure, go ahead", "oops wrong button, yes please",
    "my bad, yes do it", "désolé, mauvais bouton, oui vas-y",
    "すみません、間違えました。お願いします",
])
def test_a_slip_owned_up_to_leaves_the_yes(said: str) -> None:
    assert classify(said).act == "confirm"


@pytest.mark.parametrize(("said", "acts"), [
    ("ok now do it", True), ("sure, go ahead", True), ("vas-y", True),
    ("ok thanks", False), ("great", False), ("don't do it", False),
])
def test_a_go_ahead_tells_the_agent_to_act(said: str, acts: bool) -> None:
    assert goes_ahead(said) is acts


@pytest.mark.parametrize(("text", "split"), [
    ("actually remove the mug then pay", ("actually remove the mug", "pay")),
    ("make it 3 and then place the order", ("make it 3", "place the order")),
    ("hmm make it 2 and do it", ("hmm make it 2", "do it")),
    ("check out", None),
    ("make it 2, thanks", None),
])
def test_a_checkout_may_close_the_requests_before_it(text: str,
                                                    split: tuple[str, str] | None) -> None:
    assert concluded(text) == split
