"""A count said as the line's new total: "actually 4 in total", « quatre en tout »,
"3 altogether", 「全部で4つ」.

The words that say "in total" name no product: without them the message reads as the count
it sets ("actually 4"), not as a search for "total".
"""

from __future__ import annotations

import re

_IN_TOTAL = re.compile(
    r"\b(?:in total|in all|altogether|all together|total|en tout|au total|en totalite)\b|"
    r"(?:全部で|合計で|全部合わせて)", re.IGNORECASE)


def without_total(text: str) -> str:
    """`text` without its "in total" words; `text` itself when it has none."""
    kept = _IN_TOTAL.sub(" ", text)
    return re.sub(r"\s{2,}", " ", kept).strip(" ,") if kept != text else text
