"""The `commerce-agent` command: serve the demo, seed data, mint tokens."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from typing import Any

import click

from commerce_agent import setting_options
from commerce_agent.agent.commands import chat_command, check_agent
from commerce_agent.auth.tokens import find_user_id, mint_token
from commerce_agent.commerce.catalog_import.commands import (
    catalog_group,
    first_steps,
    shop_summary,
)
from commerce_agent.commerce.merchant import (
    DB_OPTION,
    NEW_DB_OPTION,
    checked_database,
    orders_group,
    returns_group,
)
from commerce_agent.commerce.payments import chain, providers, settlement
from commerce_agent.commerce.payments.stripe_api import StripeUnavailable
from commerce_agent.commerce.shop.commands import merchant_group
from commerce_agent.db import Database
from commerce_agent.db.backends import CannotOpen, open_database
from commerce_agent.db.targets import display, is_postgres
from commerce_agent.mcp.command import mcp_command
from commerce_agent.seed import load_users, seed
from commerce_agent.settings import ServerSettings, Settings


async def _open(db_path: str) -> Database:
    try:
        return await open_database(db_path)
    except CannotOpen as exc:
        raise click.ClickException(str(exc)) from None


async def _prepare(settings: Settings, samples: bool = True) -> list[tuple[str, str, str]]:
    """Migrate, seed on first run, and mint a fresh demo token for each sample user."""
    database = await _open(settings.db_path)
    try:
        if not samples:
            return []
        await seed(database)
        demo = []
        for user in load_users():
            async with database.transaction() as tx:
                token = await mint_token(tx, user["id"], "demo")
            demo.append((user["email"], user["password"], token))
        return demo
    finally:
        await database.close()


def other_terminals(db_path: str) -> str:
    """The --db value that names this database from any directory (a URL's password hidden)."""
    return display(db_path) if is_postgres(db_path) else shlex.quote(os.path.abspath(db_path))


@click.group()
@click.version_option(package_name="commerce-agent")
def main() -> None:
    """A complete local commerce backend and shopping-agent server in one process."""


@main.command()
@setting_options.options(ServerSettings, Settings, callbacks={"db_path": checked_database})
def serve(**given: Any) -> None:
    """Create or migrate the database, seed the sample stores, and serve the API."""
    from commerce_agent.workers import serve as serve_processes  # the app, only when serving

    server = ServerSettings(**setting_options.values(ServerSettings, given))
    host, port, workers, no_samples = server.host, server.port, server.workers, server.no_samples
    if workers > 1 and given["journal"] == "memory":
        raise click.UsageError("--journal memory lives in one process: with --workers use "
                               "sqlite (the default), file or redis (docs/deploy.md).")
    fields = setting_options.values(Settings, given)
    fields.setdefault("base_url", f"http://{host}:{port}")
    settings = Settings(**check_agent(fields))
    db_path = settings.db_path
    try:
        providers.build(settings.payments, os.environ, settings.stripe_api_base)
        chain.from_settings(settings.x402_network, settings.x402_asset,
                            settings.x402_asset_name, settings.x402_asset_version)
        settlement.build(settings.x402_facilitator)
    except (StripeUnavailable, chain.AssetMisconfigured,
            settlement.SettlementUnavailable) as exc:
        raise click.UsageError(str(exc)) from None
    demo = asyncio.run(_prepare(settings, samples=not no_samples))
    base = settings.base_url.rstrip("/")
    click.echo(f"Storefront: {base}/  (open it in a browser)")
    click.echo(f"Console: {base}/console  (merchants run the shop here)")
    click.echo(f"commerce-agent serving {settings.base_url}  (database: {display(db_path)})")
    click.echo(f"Other terminals: add --db {other_terminals(db_path)} to commerce-agent "
               "commands (or export COMMERCE_AGENT_DB with it)")
    if no_samples:
        click.echo(asyncio.run(shop_summary(db_path)))
    else:
        click.echo("Demo users (password, bearer token):")
    for email, password, token in demo:
        click.echo(f"  {email:<22} {password:<18} {token}")
    click.echo(f"Try: curl {settings.base_url}/capabilities")
    click.echo(f"Agent: curl {settings.base_url}{settings.agent_mount}/info  (journal: "
               f"{settings.journal}; chat: commerce-agent chat --url {settings.base_url})")
    if workers > 1:
        click.echo(f"Serving with {workers} worker processes on one socket.")
    serve_processes(settings, host=host, port=port, workers=workers,
                    log_level=server.log_level, seed_data=not no_samples)


@main.command("seed")
@NEW_DB_OPTION
@click.option("--reset", is_flag=True, help="Clear stores, carts and orders first.")
def seed_command(db_path: str, reset: bool) -> None:
    """Load the sample stores and demo users into the database."""

    async def run() -> bool:
        database = await _open(db_path)
        try:
            return await seed(database, reset=reset)
        finally:
            await database.close()

    created = asyncio.run(run())
    click.echo("Seeded the sample stores." if created else "Sample stores already present.")


@main.command("init")
@NEW_DB_OPTION
def init_command(db_path: str) -> None:
    """Create or migrate an empty database (no sample stores) and say how to fill it."""
    asyncio.run(_prepare(Settings(db_path=db_path), samples=False))
    click.echo(f"Database ready: {display(db_path)} (no sample stores).")
    click.echo(first_steps(db_path))


@main.group()
def token() -> None:
    """Bearer tokens for the sandbox."""


@token.command("create")
@click.option("--user", "email", required=True, help="Email of the user the token acts for.")
@DB_OPTION
@click.option("--lifetime", type=click.IntRange(1), default=None,
              help="Seconds until the token expires (default: never).")
def token_create(email: str, db_path: str, lifetime: int | None) -> None:
    """Mint a token for USER and print only the token, for scripts to capture."""

    async def run() -> str | None:
        database = await _open(db_path)
        try:
            user_id = await find_user_id(database, email)
            if user_id is None:
                return None
            async with database.transaction() as tx:
                return await mint_token(tx, user_id, "cli", lifetime)
        finally:
            await database.close()

    minted = asyncio.run(run())
    if minted is None:
        click.echo(f"error: no user with email {email!r}", err=True)
        sys.exit(1)
    click.echo(minted)


main.add_command(chat_command)
main.add_command(catalog_group)
main.add_command(merchant_group)
main.add_command(orders_group)
main.add_command(returns_group)
main.add_command(mcp_command)
