"""The sample stores' items as the agent's tools show them: read from sample_data/stores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SAMPLE_STORES = Path(__file__).parents[2] / "sample_data" / "stores"


def sample_item(item_id: str) -> dict[str, Any]:
    """The item `item_id` of any sample store, with its `itemId` as a search result has it."""
    for path in sorted(SAMPLE_STORES.glob("*.json")):
        for catalog in json.loads(path.read_text(encoding="utf-8"))["catalogs"]:
            for item in catalog.get("items", []):
                if item["id"] == item_id:
                    return {"itemId": item_id, **item}
    raise LookupError(item_id)
