"""Where an add puts things: "to my cart", "in my basket", « dans mon panier », 「カートに」.

These words are the destination of an add, not a request of their own: "practical rust in
my basket" adds the book, "茶筅をひとつカートにお願いします" the whisk. `without_destination`
takes them out so the rest is read for what it asks; "show me my cart" keeps nothing else
and stays a look at the cart.
"""

from __future__ import annotations

import re

_DESTINATION = re.compile(
    r"(?:,\s*)?\b(?:(?:in|into|to|onto|inside)\s+(?:my|the|our|your)\s+"
    r"(?:shopping\s+)?(?:cart|basket|bag|trolley)|"
    r"(?:dans|a|à|au|en)\s+(?:mon|ma|le|notre|votre)?\s*panier|au\s+panier)\b|"
    r"(?:ショッピング)?カート(?:に|へ)(?!入|いれ|追加|加え)", re.IGNORECASE)


def without_destination(text: str) -> str:
    """`text` without the cart it names as where things go; `text` itself when it names none."""
    kept = _DESTINATION.sub(lambda found: "" if "カート" in found.group(0) else " ", text)
    return re.sub(r"\s{2,}", " ", kept).strip() if kept != text else text


def names_destination(text: str) -> bool:
    return _DESTINATION.search(text) is not None
