"""Resource identifiers: a readable prefix, the creation time and 64 random bits.

The time comes first (milliseconds since 1970 from `clock.seconds()`, 12 hex digits) so that
ids made one after another sort together: a new row's primary-key and foreign-key index
entries then land on the last pages of each index, instead of on a random page of an index
that grows with every order (which made each write read and rewrite pages all over the file).
"""

from __future__ import annotations

import secrets

from commerce_agent import clock


def new_id(prefix: str) -> str:
    return f"{prefix}_{int(clock.seconds() * 1000):012x}{secrets.token_hex(8)}"
