"""The sign-in throttle: at most MAX_FAILURES failed password attempts per email per window.

Every password check (the token API, the sign-in page, the agent's consent page) goes through
``accounts.authenticate``, which calls ``admit`` first and ``succeeded`` on a match:

- ``admit`` counts the attempt as a failure *before* the password is checked, in one write
  transaction. Counting afterwards would let a burst of parallel guesses all pass the check
  before the first failure is written; counting first makes the limit exact across requests
  and across server processes sharing the database file.
- Once MAX_FAILURES are counted, every attempt for that email, right password or not, is
  refused with 429 ``too_many_attempts`` and ``Retry-After`` until the window (WINDOW_SECONDS
  from the first failure) ends. Refused attempts cost no scrypt run and extend nothing.
- A successful sign-in clears the count.

The key is the SHA-256 of the normalized email, whether or not an account has it, so a 429
says nothing about which emails exist.
"""

from __future__ import annotations

import hashlib
import math
from datetime import timedelta

from commerce_agent import clock
from commerce_agent.auth import storage
from commerce_agent.db import Database
from commerce_agent.errors import CommerceError

MAX_FAILURES = 5
WINDOW_SECONDS = 15 * 60


def email_key(email: str) -> str:
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()


def too_many_attempts(retry_after: int) -> CommerceError:
    minutes = max(1, math.ceil(retry_after / 60))
    return CommerceError(
        429, "too_many_attempts",
        f"Too many failed sign-in attempts for this email address. Try again in {minutes} "
        f"minute{'s' if minutes != 1 else ''}.",
        params={"minutes": minutes},
        headers={"Retry-After": str(retry_after), "Cache-Control": "no-store"})


async def admit(db: Database, email: str) -> str:
    """Count an attempt for `email` (its key is returned), or raise 429 when the limit is hit."""
    key = email_key(email)
    now = clock.now()
    async with db.transaction() as tx:
        await storage.forget_ended_windows(tx, clock.iso(now))
        ends = clock.iso(now + timedelta(seconds=WINDOW_SECONDS))
        # Counted first, checked after: a refused attempt rolls its count back.
        row = await storage.count_sign_in_failure(tx, key, ends)
        if row["failures"] > MAX_FAILURES:
            left = (clock.parse(row["window_ends_at"]) - now).total_seconds()
            raise too_many_attempts(max(1, math.ceil(left)))
    return key


async def succeeded(db: Database, key: str) -> None:
    async with db.transaction() as tx:
        await storage.clear_sign_in_failures(tx, key)
