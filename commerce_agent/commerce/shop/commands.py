"""`commerce-agent merchant create`: the account that runs a shop through /admin."""

from __future__ import annotations

import click

from commerce_agent.auth.tokens import find_user_id, mint_token
from commerce_agent.commerce.merchant import DB_OPTION, _run
from commerce_agent.commerce.shop import merchants
from commerce_agent.db import Database


@click.group("merchant")
def merchant_group() -> None:
    """Merchant accounts: who may run which store through the admin API."""


@merchant_group.command("create")
@click.option("--email", required=True, help="Email of the merchant account.")
@click.option("--store", "store_ids", multiple=True,
              help="Store the account runs (repeat for several; a merchant can also create "
                   "stores through the admin API).")
@click.option("--name", default=None, help="Name of a new account (default: from the email).")
@click.option("--password", default=None, envvar="COMMERCE_AGENT_MERCHANT_PASSWORD",
              help="Password of a new account (asked when missing; an existing account "
                   "keeps its own).")
@DB_OPTION
def create_command(email: str, store_ids: tuple[str, ...], name: str | None,
                   password: str | None, db_path: str) -> None:
    """Make EMAIL's account a merchant of the stores (creating the account if needed) and
    print a bearer token for the admin API."""

    async def exists(db: Database) -> bool:
        return await find_user_id(db, email) is not None

    if password is None and not _run(db_path, exists):
        password = click.prompt("Password for the new account", hide_input=True,
                                confirmation_prompt=True)

    async def job(db: Database) -> tuple[merchants.Merchant, str]:
        merchant = await merchants.create(db, email, list(store_ids), name=name,
                                          password=password)
        async with db.transaction() as tx:
            token = await mint_token(tx, merchant.user_id, "cli")
        return merchant, token

    merchant, token = _run(db_path, job)
    what = "Created merchant account" if merchant.created else "Merchant account"
    stores = ", ".join(merchant.store_ids) or "no store yet"
    click.echo(f"{what} {merchant.email} ({merchant.user_id}) for {stores}.")
    click.echo(f"Admin API token: {token}")
