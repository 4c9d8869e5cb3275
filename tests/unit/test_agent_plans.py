"""Subscriptions and bookings in everyday words: the stages that read them (dates' days counted
from the shopper's clock and limits on the time, the slot choice, the subscription intents)
and the day a plan's minimum term ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from commerce_agent.agent.language import read
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.agent.models.scripted.intents import intent, understand
from commerce_agent.agent.models.scripted.state import begin
from commerce_agent.commerce.orders.model import SCHEDULING
from commerce_agent.commerce.orders.rules import cancellable_from, commitment_problem

SUNDAY = datetime(2027, 1, 10, 9, 0, tzinfo=UTC)  # Sunday 10 January 2027


def _slots(*starts: tuple[str, bool]) -> dict[str, Any]:
    return {
        "itemId": "item_class",
        "name": "Class",
        "metadata": {
            SCHEDULING: {
                "timeSlots": [
                    {"id": f"slot_{start}", "startTime": start, "available": free}
                    for start, free in starts
                ]
            }
        },
    }


CLASS = _slots(
    ("2027-01-11T07:00:00+00:00", True),
    ("2027-01-11T18:30:00+00:00", True),
    ("2027-01-13T07:00:00+00:00", True),
    ("2027-01-14T17:00:00+00:00", False),
    ("2027-01-16T09:30:00+00:00", True),
    ("2027-01-16T11:00:00+00:00", True),
)


# -- dates: counted days, limits, parts of the day --------------------------------------------


@pytest.mark.parametrize(
    ("text", "relative"),
    [
        ("tomorrow at 7am", True),
        ("next Saturday morning", True),
        ("samedi prochain", True),
        ("来週の土曜の午前", True),
        ("the day after tomorrow", True),
        ("on 16 January", False),
        ("le 3 avril", False),
        ("3月13日", False),
        ("土曜の午前", False),
    ],
)
def test_a_day_counted_from_today_is_marked(text: str, relative: bool) -> None:
    found = read(text, now=SUNDAY).when
    assert found is not None and found.relative_day is relative


@pytest.mark.parametrize(
    ("text", "bound", "hour"),
    [
        ("any evening after 6", "after", 18),
        ("before 10am", "before", 10),
        ("avant 10h", "before", 10),
        ("18時以降", "after", 18),
        ("10時まで", "before", 10),
        ("tomorrow at 5", "at", 17),
    ],
)
def test_a_limit_on_the_time_is_read(text: str, bound: str, hour: int) -> None:
    found = read(text, now=SUNDAY).when
    assert found is not None and (found.bound, found.at.hour) == (bound, hour)


@pytest.mark.parametrize("text", ["book vinyasa, any evening after 6", "a slot before 9"])
def test_an_hour_after_a_limit_word_is_no_count(text: str) -> None:
    assert read(text, now=SUNDAY).counts == ()


@pytest.mark.parametrize(
    "text",
    ["after 6 months", "choose from 5 options", "a table for 2", "reduce it by 2", "pick from 3"],
)
def test_a_number_with_a_noun_after_a_limit_word_is_no_time(text: str) -> None:
    assert read(text, now=SUNDAY).when is None


def test_a_part_of_the_day_is_marked_as_one() -> None:
    found = read("le matin", now=SUNDAY).when
    assert found is not None and found.part_of_day
    clock = read("at 9am", now=SUNDAY).when
    assert clock is not None and not clock.part_of_day


# -- choosing a slot --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tomorrow at 7am", ["2027-01-11T07:00"]),
        ("next Saturday morning", ["2027-01-16T09:30", "2027-01-16T11:00"]),
        ("any evening after 6", ["2027-01-11T18:30"]),
        ("the earliest you have", ["2027-01-11T07:00"]),
        ("le plus tôt possible", ["2027-01-11T07:00"]),
        ("一番早い枠", ["2027-01-11T07:00"]),
        ("tomorrow morning", ["2027-01-11T07:00"]),
        ("来週の土曜の午前", ["2027-01-16T09:30", "2027-01-16T11:00"]),
    ],
)
def test_slots_fit_the_words_against_the_shoppers_clock(text: str, expected: list[str]) -> None:
    found, named = choices.pick_slots(CLASS, (text,), SUNDAY)
    assert named and [choice.words[:16] for choice in found] == expected


def test_slots_already_begun_are_not_offered() -> None:
    later = SUNDAY + timedelta(days=3)  # Wednesday 13 January, 09:00
    assert [c.words[:10] for c in choices.open_slots(CLASS, later)] == ["2027-01-16", "2027-01-16"]
    assert len(choices.open_slots(CLASS)) == 5  # without the clock: every free one


def test_a_taken_time_is_answered_with_the_nearest_free_ones() -> None:
    free = choices.open_slots(CLASS)
    nearest = choices.nearest(free, ("on 14 January at 5pm",))
    assert [c.words[:16] for c in nearest[:2]] == ["2027-01-13T07:00", "2027-01-16T09:30"]


def test_the_words_name_no_day_the_slots_stay_in_order() -> None:
    free = choices.open_slots(CLASS)
    assert choices.nearest(free, ("whenever",)) == free


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("book that one", True),
        ("book it", True),
        ("celui-là", True),
        ("それで", True),
        ("this time works", True),
        ("book a class", False),
        ("the 4pm", False),
    ],
)
def test_pointing_at_what_was_shown(text: str, shown: bool) -> None:
    assert words.points_at_shown(text) is shown


def test_the_shoppers_clock_comes_from_the_client_context() -> None:
    state = begin({"now": "2027-03-06T09:00:00+09:00", "timeZone": "Asia/Tokyo"}).state
    assert state.now == datetime(2027, 3, 6, 9, 0, tzinfo=timezone(timedelta(hours=9)))
    assert state.time_zone == "Asia/Tokyo"
    assert begin({"now": "soon"}).state.now is None
    assert begin({}).state.time_zone == "UTC"


# -- subscriptions: actions and questions ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm done with the membership", "sub_cancel"),
        ("don't want my membership anymore", "sub_cancel"),
        ("I no longer need the online membership", "sub_cancel"),
        ("stop charging me for Folio", "sub_cancel"),
        ("stop sending me the tea", "sub_cancel"),
        ("je ne veux plus de mon abonnement", "sub_cancel"),
        ("会員はもういらない", "sub_cancel"),
        ("定期便をやめたい", "sub_cancel"),
        ("hold my membership till September", "sub_pause"),
        ("I'd like to take a break from Folio", "sub_pause"),
        ("mettez-le en pause", "sub_pause"),
        ("一時停止して", "sub_pause"),
        ("start it up again", "sub_resume"),
        ("turn my membership back on", "sub_resume"),
        ("再開して", "sub_resume"),
    ],
)
def test_subscription_actions_in_everyday_words(text: str, expected: str) -> None:
    assert understand(text)[0] == expected


@pytest.mark.parametrize(
    "text",
    [
        "how do I cancel later?",
        "could I pause it if I go on holiday?",
        "est-ce que je peux arrêter quand je veux ?",
        "can I stop anytime?",
        "is it true I don't need the membership anymore?",
    ],
)
def test_questions_about_a_plan_are_answered_never_done(text: str) -> None:
    assert understand(text)[0] == "policy"


def test_a_plan_kept_is_not_ended() -> None:
    assert understand("don't cancel my membership, when does it renew?")[0] != "sub_cancel"
    assert intent("I don't want the mug") != "sub_cancel"


# -- the minimum term ------------------------------------------------------------------------

TERMS = {
    "status": "active",
    "frequency": "monthly",
    "startDate": "2026-11-26T10:00:00.000Z",
    "cancellationPolicy": {"canCancelAnytime": False, "minimumCommitment": 3},
}


def test_a_minimum_term_ends_its_commitment_periods_after_the_start() -> None:
    first = cancellable_from(TERMS)
    assert first is not None and first.date().isoformat() == "2027-02-26"
    assert cancellable_from({**TERMS, "cancellationPolicy": {"canCancelAnytime": True}}) is None


def test_a_refused_cancel_carries_the_day_it_becomes_possible() -> None:
    doc = {"metadata": {"dev.commerce.order.subscription": TERMS}}
    problem = commitment_problem(doc, datetime(2026, 12, 1, tzinfo=UTC))
    assert problem is not None and problem.params == {
        "minimumCommitment": 3,
        "cancellableFrom": "2027-02-26",
    }
    assert commitment_problem(doc, datetime(2027, 2, 27, tzinfo=UTC)) is None
