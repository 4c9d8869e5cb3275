"""How the storage modules keep a JSON value (an order, a return, a store's document, a list
of codes) in a text column: msgspec's compact encoding, written in one place."""

from __future__ import annotations

from typing import Any

import msgspec


def document_text(value: Any) -> str:
    """`value` as the JSON text its column holds."""
    return msgspec.json.encode(value).decode()
