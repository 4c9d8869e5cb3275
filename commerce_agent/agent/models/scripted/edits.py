"""Several cart edits in one message: "drop the teapot and make the plates four", "enlève la
théière et mets deux assiettes", "ティーポットを削除して、皿を4つにして".

Each clause that is a cart edit of its own (a removal or a new count) is served in order by
the same handler a message of that one edit goes through, each seeing only the calls made
for it, so a line is named by its own clause's words ("the teapot" goes, not the plates the
next clause counts). A message whose clauses are not all edits is served whole, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.intents import Frame, understand
from commerce_agent.agent.models.scripted.phrasing import asks
from commerce_agent.agent.models.scripted.planner import Decision, Planner

_EDITS = ("remove", "quantity")
# Where one edit ends and the next begins: "and", "then", "et", "puis", a Japanese comma
# after a request form ("削除して、").
_BREAK = re.compile(r"\s*,?\s+(?:and then|and|then|et puis|puis|et)\s+|\s*;\s*|(?<=て)、")


# "no teapot", "pas de théière", "茶筅はなし": among other edits, a thing let go.
_NO_THING = re.compile(r"^(?:no|no more|pas de|pas d'|plus de|sans)\s+(?P<thing>\w.*)$|"
                       r"^(?P<ja>[^、。\s]+)は(?:なし|無し|いらない|要らない)$")


def _removal(part: str) -> tuple[str, str] | None:
    found = _NO_THING.match(words.fold(part))
    return None if found is None else ("remove", found.group("thing") or found.group("ja"))


def clauses(text: str) -> list[tuple[str, str]]:
    """The (intent, words) of each edit a message makes, or [] unless it makes several."""
    parts = [part.strip(" ,.!") for part in _BREAK.split(text) if part.strip(" ,.!")]
    if len(parts) < 2:
        return []
    read = [_removal(part) or understand(part) for part in parts]
    if any(kind not in _EDITS for kind, _ in read):
        return []
    return read


def serve(p: Planner, handlers: dict[str, Callable[[Planner], Decision]]) -> Decision | None:
    """The next call or the reply for a message of several edits, or None for one edit."""
    found = clauses(p.frame.first) if len(p.frame.texts) == 1 else []
    if not found:
        return None
    calls, start, said = p.state.calls, 0, []
    for kind, text in found:
        handler = handlers[kind]
        for end in range(start, len(calls) + 1):
            sub = Planner(replace(p.state, calls=calls[start:end], frame=Frame(kind, (text,))),
                          p.tools)
            decision = handler(sub)
            if isinstance(decision, str):
                break
        if not isinstance(decision, str):
            return decision  # this edit's next call
        if asks(decision):
            return decision  # "which line do you mean?": asked, the rest waits
        said.append(decision)
        start = end
    return " ".join(said)
