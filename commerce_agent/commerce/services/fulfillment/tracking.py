"""Delivery details the simulator invents: couriers and their route, carriers and numbers.

Everything is derived from the order id, so replaying a step gives the same driver, the same
tracking number and the same positions.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

# A courier delivers when the address is this close to the store; farther goes by carrier.
LOCAL_DELIVERY_KM = 30.0

_DRIVERS = (("Jane D.", "Blue Honda Civic"), ("Marco R.", "White cargo bike"),
            ("Aiko T.", "Silver Toyota Prius"), ("Sam K.", "Red electric scooter"),
            ("Priya N.", "Green Nissan Leaf"))


def _digest(order_id: str, salt: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{salt}:{order_id}".encode()).digest()[:8], "big")


def coordinates(location: dict[str, Any] | None) -> tuple[float, float] | None:
    if not location:
        return None
    latitude, longitude = location.get("latitude"), location.get("longitude")
    if not isinstance(latitude, int | float) or not isinstance(longitude, int | float):
        return None
    return float(latitude), float(longitude)


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def position(origin: tuple[float, float], destination: tuple[float, float], fraction: float
             ) -> dict[str, float]:
    """The point `fraction` of the way from origin to destination (straight line)."""
    return {"latitude": round(origin[0] + (destination[0] - origin[0]) * fraction, 6),
            "longitude": round(origin[1] + (destination[1] - origin[1]) * fraction, 6)}


def driver(order_id: str) -> dict[str, str]:
    name, vehicle = _DRIVERS[_digest(order_id, "driver") % len(_DRIVERS)]
    return {"name": name, "vehicle": vehicle}


def tracking_number(order_id: str, carrier: str) -> str:
    letters = "".join(word[0] for word in carrier.upper().split() if word[:1].isalpha())[:2]
    return f"{letters or 'TR'}{_digest(order_id, 'tracking') % 10**12:012d}"


def tracking_url(carrier_url: str, number: str) -> str:
    return f"{carrier_url.rstrip('/')}/track?trackingNumber={number}"
