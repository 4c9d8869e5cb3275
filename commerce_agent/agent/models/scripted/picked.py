"""A yes that names one of the things shown: "yes to the planter, not the plate", "ok the
glaze one", « oui, le tiramisu », 「じゃあ急須の方で」 after a list whose best match was offered.

The offer on the table ("Want me to add it?") is about the best match; a yes naming another
of the items shown takes that one instead. What the yes declines ("not the plate") is cut
first, so it never names the thing."""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.models.scripted import choices, naming, words
from commerce_agent.agent.models.scripted.speech import read_act

# A yes that takes another thing beside the one offered ("yes, and the glaze mug too", « oui,
# et aussi le tiramisu », 「それとアランチーニも」): both, which this stage leaves alone.
_BESIDE = re.compile(r"\b(?:and|also|too|as well|both|plus|aussi|egalement|avec)\b|"
                     r"(?:それと|あと|も)(?:[、。!！\s]|$)")


def shown_item_named(shown: list[dict[str, Any]], focus: str | None, text: str) -> str | None:
    """The id of the one item of several `shown` that the yes names better than any other,
    when it is not the item in `focus` (the one offered); else None."""
    if len(shown) < 2:
        return None
    kept = choices.without_declined(read_act(text).text)
    if _BESIDE.search(words.fold(kept)):
        return None
    said = naming.wanted(kept)
    if not said:
        return None
    scored = sorted(((naming.name_score(item, said), str(item.get("itemId"))) for item in shown),
                    reverse=True)
    (top, best), (second, _) = scored[0], scored[1]
    if top == 0 or top == second or best == focus:
        return None
    return best
