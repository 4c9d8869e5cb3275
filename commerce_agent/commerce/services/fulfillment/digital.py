"""Digital goods: the `digital_access` entries of an order and the files served to its owner."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from commerce_agent.commerce.orders.model import DIGITAL_ACCESS, SUBSCRIPTION
from commerce_agent.errors import CommerceError

_CODE_WORDS = ("licen", "gift card", "pass")


def digital_lines(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Order lines delivered (at least partly) as digital goods."""
    lines = []
    for line in doc.get("items", []):
        kind = line.get("fulfillmentType")
        components = line.get("fulfillmentComponents", [])
        if kind == "digital" or (kind == "hybrid"
                                 and any(c.get("type") == "digital" for c in components)):
            lines.append(line)
    return lines


def _key(order_id: str, line_id: str) -> str:
    digest = hashlib.sha256(f"license:{order_id}:{line_id}".encode()).hexdigest().upper()
    return "-".join(digest[index:index + 5] for index in range(0, 25, 5))


def _entry(doc: dict[str, Any], line: dict[str, Any], base_url: str) -> dict[str, Any]:
    name = str(line.get("name") or line.get("itemId"))
    words = f"{name} {line.get('itemId', '')}".lower()
    entry: dict[str, Any] = {"_version": "1.0", "name": name, "assetId": line["id"]}
    subscription = doc.get("metadata", {}).get(SUBSCRIPTION, {})
    if subscription.get("cartItemId") == line["id"]:
        entry.update(type="access_code", code=_key(doc["id"], line["id"]),
                     description="Membership access code; valid while the subscription is "
                                 "active.")
    elif any(word in words for word in _CODE_WORDS):
        entry.update(type="license", code=_key(doc["id"], line["id"]),
                     description="Your licence key.")
    else:
        entry.update(type="download",
                     url=f"{base_url.rstrip('/')}/orders/{doc['id']}/downloads/{line['id']}",
                     description="Download link; it works for the buyer's account only.")
    return entry


def access_entries(doc: dict[str, Any], base_url: str) -> list[dict[str, Any]]:
    return [_entry(doc, line, base_url) for line in digital_lines(doc)]


def grant(doc: dict[str, Any], base_url: str) -> None:
    """Add digital_access to an order that has digital goods (once)."""
    entries = access_entries(doc, base_url)
    if entries and DIGITAL_ACCESS not in doc["metadata"]:
        doc["metadata"][DIGITAL_ACCESS] = entries


def download(doc: dict[str, Any], asset_id: str, owner_email: str) -> tuple[str, bytes]:
    """(file name, content) of one granted download, or 404 when the order grants none."""
    entries = doc.get("metadata", {}).get(DIGITAL_ACCESS, [])
    entry = next((e for e in entries if e.get("assetId") == asset_id
                  and e.get("type") == "download"), None)
    if entry is None:
        raise CommerceError(404, "download_not_found",
                            f"Order {doc['id']} grants no download {asset_id!r}.",
                            params={"id": asset_id})
    slug = re.sub(r"[^a-z0-9]+", "-", str(entry["name"]).lower()).strip("-") or "download"
    text = (f"{entry['name']}\n\nSandbox copy delivered by commerce-agent.\n"
            f"Order: {doc['id']}\nLicensed to: {owner_email}\n")
    return f"{slug}.txt", text.encode()
