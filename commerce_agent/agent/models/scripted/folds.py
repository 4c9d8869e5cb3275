"""Each session's folded past, kept between model steps so that a step folds only what is new.

The replay (`state.fold`) stays the one definition of the state. Messages before the latest
user message fold the same way whichever later turn is served (`state.fold_past`), so the fold
of that past is kept, per session, with the messages it folded; the next step of the same
session checks that its messages begin with those (the same objects, or equal ones), folds on
from there, and folds its own turn onto a copy. Anything else (a new process, a restart, a
session evicted here, a history that differs, another client context) replays from the start.

Bounded by sessions, least recently used first: a kept past holds the state and the list of
messages it folded (docs/decisions.md, "Keeping the scripted fold between turns").
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from commerce_agent.agent.models.base import Message
from commerce_agent.agent.models.scripted.state import (
    Replay,
    State,
    begin,
    fold,
    fold_past,
    fold_turn,
    latest_user,
)

SESSIONS = 256  # as many as agent/sessions.py keeps conversations of


@dataclass
class _Past:
    context: dict[str, Any]  # a copy of the client context the fold began with
    messages: list[Message]  # the messages folded, all before the latest user message
    replay: Replay


def detached(replay: Replay) -> Replay:
    """A copy to fold on without changing `replay`: every list, dict and set the state holds
    (whichever reader added it) is copied; what they hold is shared, as the fold only ever
    replaces those values (tool results, frames, frozensets), never changes them in place."""
    state = copy.copy(replay.state)
    for name, value in vars(replay.state).items():
        if isinstance(value, list | dict | set):
            setattr(state, name, copy.copy(value))
    return Replay(state, dict(replay.calls))


class Folds:
    """The folded past of the sessions this process served last."""

    def __init__(self, sessions: int = SESSIONS) -> None:
        self.sessions = sessions
        self._kept: OrderedDict[str, _Past] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def kept(self) -> list[str]:
        """The sessions whose past is kept, least recently used first."""
        return list(self._kept)

    def fold(self, session: str, messages: list[Message], context: dict[str, Any]) -> State:
        """The state `messages` reach, as `state.fold` gives it (a replay when `session` is
        empty)."""
        if not session:
            return fold(messages, context)
        turn = max(latest_user(messages), 0)
        past = self._past(session, messages[:turn], context)
        return fold_turn(detached(past.replay), messages[turn:])

    def _past(self, session: str, before: list[Message], context: dict[str, Any]) -> _Past:
        """The kept fold of `before`, folded on from what was kept for `session` when that is
        where `before` begins."""
        past = self._kept.pop(session, None)
        if past is None or past.context != context or len(past.messages) > len(before) or \
                before[:len(past.messages)] != past.messages:
            past = _Past(copy.deepcopy(context), [], begin(context))
        for message in before[len(past.messages):]:
            fold_past(past.replay, message)
        past.messages = before
        self._kept[session] = past
        while len(self._kept) > self.sessions:
            self._kept.popitem(last=False)
        return past
