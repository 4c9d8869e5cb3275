"""A thing named with a please and no article is asked for ("tiramisu pls"); a please after an
act, the shopper's own things, a day, a pace or a reply's language asks for no thing (intents)."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize("said", [
    "tiramisu pls", "genmaicha please", "matcha whisk please", "diavola please",
    "hojicha svp", "espresso cups please", "a pour-over dripper please"])
def test_a_thing_said_with_a_please_is_added(said: str) -> None:
    assert understand(said)[0] == "add"


@pytest.mark.parametrize("said", [
    "stop folio please", "drop folio pls", "opt me out pls", "unsub please",  # acts
    "my subscription please", "mon colis svp",  # the shopper's own
    "tomorrow please", "next week please",  # a day
    "right away please", "immediately please", "asap please",  # a pace
    "in french please", "english please",  # a reply's language
    "everything please", "just folio please", "the price please", "the blue one please"])
def test_a_please_after_no_thing_adds_nothing(said: str) -> None:
    assert understand(said)[0] != "add"


def test_a_plan_named_with_its_frequency_is_taken() -> None:
    # "monthly" is a plan's frequency, not an adverb of manner
    assert understand("lumen online monthly membership please")[0] in ("add", "subscribe")
