"""The scripted model's kept folds (scripted/folds.py) give exactly the replay's state.

Histories are real ones (tests/support/recorded_conversations.json): every prefix is folded
both ways, in order as a session grows and in any order hypothesis picks (jumps ahead, a
history that shrank or changed, sessions evicted).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commerce_agent.agent.models.base import Message
from commerce_agent.agent.models.scripted.folds import Folds
from commerce_agent.agent.models.scripted.policy import decide
from commerce_agent.agent.models.scripted.state import fold
from commerce_agent.operations import all_tools
from tests.support.recorded_conversations import load

RECORDED = load()
TOOLS = {tool.short_name: tool.name for tool in all_tools()}


def test_the_recording_has_long_conversations_with_tools() -> None:
    assert len(RECORDED) >= 30
    assert max(len(messages) for _, _, messages in RECORDED) >= 30
    assert sum(message.role == "tool" for _, _, messages in RECORDED
               for message in messages) >= 100


@pytest.mark.parametrize(("name", "context", "messages"), RECORDED,
                         ids=[name for name, _, _ in RECORDED])
def test_every_prefix_folded_on_is_the_replay(name: str, context: dict[str, Any],
                                              messages: list[Message]) -> None:
    """Step by step as the session grows; the policy then reads (and may change) the state
    it is given, as the model's step does, which must not reach the kept past."""
    folds = Folds()
    for end in range(len(messages) + 1):
        state = folds.fold("ses_1", messages[:end], context)
        assert state == fold(messages[:end], context), (name, end)
        decide(state, TOOLS)


def test_equal_messages_rebuilt_from_the_journal_are_the_same_history() -> None:
    """A conversation folded again from the journal has new message objects, equal ones."""
    _, context, messages = max(RECORDED, key=lambda entry: len(entry[2]))
    folds = Folds()
    for end in range(len(messages) + 1):
        prefix = messages[:end] if end % 2 else copy.deepcopy(messages[:end])
        assert folds.fold("ses_1", prefix, context) == fold(prefix, context)


def test_another_client_context_is_another_fold() -> None:
    _, _, messages = RECORDED[0]
    folds = Folds()
    folds.fold("ses_1", messages, {})
    given = {"deliveryAddress": "12 Oak St, Portland, OR 97202"}
    assert folds.fold("ses_1", messages, given) == fold(messages, given)


def test_no_session_keeps_nothing() -> None:
    _, context, messages = RECORDED[0]
    folds = Folds()
    assert folds.fold("", messages, context) == fold(messages, context)
    assert len(folds) == 0


def test_the_least_recently_used_session_goes_first() -> None:
    _, context, messages = RECORDED[0]
    folds = Folds(sessions=2)
    for session in ("ses_a", "ses_b", "ses_a", "ses_c"):
        folds.fold(session, messages, context)
    assert folds.kept() == ["ses_a", "ses_c"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(capacity=st.integers(1, 3), steps=st.lists(st.tuples(
    st.sampled_from(["ses_a", "ses_b", "ses_c"]), st.integers(0, len(RECORDED) - 1),
    st.floats(0, 1)), min_size=1, max_size=25))
def test_any_order_of_requests_folds_as_the_replay(
        capacity: int, steps: list[tuple[str, int, float]]) -> None:
    """Sessions asked in any order, each time for any prefix of any conversation: ahead of
    what was kept, behind it, or of another history altogether."""
    folds = Folds(sessions=capacity)
    for session, which, share in steps:
        _, context, messages = RECORDED[which]
        prefix = messages[:round(share * len(messages))]
        state = folds.fold(session, prefix, context)
        assert state == fold(prefix, context)
        decide(state, TOOLS)
    assert len(folds) <= capacity
