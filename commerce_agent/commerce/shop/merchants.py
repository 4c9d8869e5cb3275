"""Merchant accounts: an account with the `merchant` role and the stores it runs."""

from __future__ import annotations

from dataclasses import dataclass

from commerce_agent.auth import accounts
from commerce_agent.auth import storage as account_storage
from commerce_agent.auth.tokens import Principal, find_user_id
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, not_found

ROLE = "merchant"


@dataclass(frozen=True)
class Merchant:
    user_id: str
    email: str
    created: bool  # a new account (False: an existing one became a merchant)
    store_ids: list[str]


async def is_merchant(db: Database | Transaction, user_id: str) -> bool:
    return await storage.user_role(db, user_id) == ROLE


async def create(db: Database, email: str, store_ids: list[str], *, name: str | None = None,
                 password: str | None = None) -> Merchant:
    """Make the account with `email` a merchant of `store_ids` (creating the account, with
    `password`, when there is none). Stores must exist."""
    email = accounts.normalize_email(email)
    for store_id in store_ids:  # before the account is made: a typo creates nothing
        if await catalog_storage.get_store(db, store_id) is None:
            raise not_found("store", store_id)
    user_id = await find_user_id(db, email)
    created = False
    if user_id is None:
        if password is None:
            raise CommerceError(400, "bad_request",
                                f"No account {email}: give a password to create it.")
        name = name or email.split("@")[0]
        problems = accounts.check_registration(email, password, name)
        if problems:
            field, reason = next(iter(problems.items()))
            raise CommerceError(400, "bad_request", f"The {field} {reason}.",
                                params={"field": field})
        principal: Principal = await accounts.register(db, email, password, name)
        user_id, created = principal.user_id, True
    async with db.transaction() as tx:
        for store_id in store_ids:
            if await catalog_storage.get_store(tx, store_id) is None:
                raise not_found("store", store_id)
        await storage.set_user_role(tx, user_id, ROLE)
        for store_id in store_ids:
            await storage.link_merchant(tx, store_id, user_id)
        stores = await storage.merchant_store_ids(tx, user_id)
    row = await account_storage.user_by_id(db, user_id)
    assert row is not None
    return Merchant(user_id, str(row["email"]), created, stores)
