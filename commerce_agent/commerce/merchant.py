"""Merchant commands: `commerce-agent orders list|advance`, `commerce-agent returns list|advance`.

They work on the database file directly (a running server sees the changes), through the same
state machines as the API and the simulator.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import click

from commerce_agent import setting_options
from commerce_agent.commerce.orders import lifecycle, model
from commerce_agent.commerce.orders.model import STATUSES
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.commerce.shop import orders as shop_orders
from commerce_agent.commerce.storage import lifecycle as order_storage
from commerce_agent.commerce.storage import returns as return_storage
from commerce_agent.db import Database, Row, database_for
from commerce_agent.db.backends import MissingExtra, backend_for, exists
from commerce_agent.db.targets import display, is_postgres
from commerce_agent.errors import CommerceError
from commerce_agent.settings import Settings

T = TypeVar("T")

def checked_database(context: click.Context, parameter: click.Parameter, value: str | None
                    ) -> str | None:
    """A postgresql:// URL needs the postgres extra: say so before anything runs."""
    if value is not None:
        try:
            backend_for(value)
        except MissingExtra as exc:
            raise click.BadParameter(str(exc)) from None
    return value


def existing_database(context: click.Context, parameter: click.Parameter, value: str | None
                      ) -> str | None:
    """Only `serve`, `seed` and `init` create a database: any other command fails at once,
    naming where it looked, rather than make (and seed) a new one nobody serves."""
    checked_database(context, parameter, value)
    if value is not None:
        require_existing(value)
    return value


def require_existing(value: str) -> None:
    """Fail (a usage error naming the path and --db / COMMERCE_AGENT_DB) when `value` names
    no database a server has made."""
    if not exists(value):
        where = display(value) if is_postgres(value) else os.path.abspath(value)
        raise click.BadParameter(
            f"no commerce-agent database at {where}. Name the database the server uses with "
            "--db PATH (or a postgresql:// URL) or the COMMERCE_AGENT_DB environment "
            "variable; `commerce-agent serve` prints it. To start a new shop run "
            "`commerce-agent serve` or `commerce-agent init` first.", param_hint="'--db'")


# A database that must already exist (every command but serve, seed and init).
DB_OPTION = setting_options.option(Settings, "db_path", existing_database)
# The database seed and init create when it is not there yet (serve: its own options).
NEW_DB_OPTION = setting_options.option(Settings, "db_path", checked_database)
LIMIT_OPTION = click.option("--limit", default=50, show_default=True,
                            type=click.IntRange(1, 1000), help="How many to show.")


def _run(db_path: str, job: Callable[[Database], Awaitable[T]]) -> T:
    async def run() -> T:
        database = database_for(db_path)
        await database.open()
        try:
            return await job(database)
        finally:
            await database.close()

    try:
        return asyncio.run(run())
    except CommerceError as exc:
        click.echo(f"error: {exc.code}: {exc.message}", err=True)
        sys.exit(1)


def _listing(group: click.Group, noun: str, statuses: Sequence[str],
             read: Callable[[Database, str | None, int], Awaitable[list[Row]]],
             line: Callable[[Row], str]) -> None:
    """The group's `list` command: the rows `read` finds (of one status), one line a row."""

    @group.command("list", help=f"List {noun} of every customer, newest first.")
    @click.option("--status", type=click.Choice(statuses), default=None,
                  help=f"Only {noun} with this status.")
    @LIMIT_OPTION
    @DB_OPTION
    def list_rows(status: str | None, limit: int, db_path: str) -> None:
        rows = _run(db_path, lambda db: read(db, status, limit))
        for row in rows:
            click.echo(line(row))
        if not rows:
            click.echo(f"No {noun}.")


@click.group("orders")
def orders_group() -> None:
    """Merchant view of orders: list them, move them along by hand."""


def _order_line(row: Row) -> str:
    doc = model.decode(row["doc"])
    method = doc.get("fulfillment", {}).get("method", "-")
    return (f"{row['id']}  {row['status']:<11} {method:<15} {row['store_id']:<20} "
            f"{doc['total']['amount']:>10} {doc['total']['currency']}  "
            f"{row['owner_id']}  {row['created_at']}")


_listing(orders_group, "orders", STATUSES, order_storage.orders_for_merchant, _order_line)


@orders_group.command("advance")
@click.argument("order_id")
@click.option("--to", "to", type=click.Choice(STATUSES), default=None,
              help="Target status (default: the next one in the order's fulfillment).")
@click.option("--base-url", default="http://127.0.0.1:8000", show_default=True,
              envvar="COMMERCE_AGENT_BASE_URL", help="Public URL used in download links.")
@click.option("--carrier", default=None, help="Carrier of the parcel (with --tracking-number).")
@click.option("--tracking-number", default=None,
              help="Ship the order now with this tracking number.")
@click.option("--tracking-url", default=None, help="Where the customer can follow the parcel.")
@DB_OPTION
def advance_order(order_id: str, to: str | None, base_url: str, carrier: str | None,
                  tracking_number: str | None, tracking_url: str | None, db_path: str) -> None:
    """Move ORDER_ID to its next status (running its fulfillment steps), or to --to."""

    async def job(db: Database) -> tuple[str, dict[str, Any]]:
        async with db.transaction() as tx:
            _, before = await lifecycle.load(tx, order_id)
            after = await shop_orders.advance(
                tx, order_id, base_url.rstrip("/"), to=to, carrier=carrier,
                tracking_number=tracking_number, tracking_url=tracking_url)
        return str(before["status"]), after

    before, after = _run(db_path, job)
    click.echo(f"{order_id}: {before} -> {after['status']}")


@click.group("returns")
def returns_group() -> None:
    """Merchant view of returns: list them, approve, receive, refund."""


def _return_line(row: Row) -> str:
    doc = json.loads(row["doc"])
    return (f"{row['id']}  {row['status']:<10} order {row['order_id']}  "
            f"{doc['refundAmount']['amount']} {doc['refundAmount']['currency']}  "
            f"{row['owner_id']}")


_listing(returns_group, "returns", returns.STATUSES, return_storage.for_merchant, _return_line)


@returns_group.command("advance")
@click.argument("return_id")
@click.option("--to", "to", type=click.Choice(returns.STATUSES), default=None,
              help="Target status (default: the next one; `rejected` must be asked for).")
@DB_OPTION
def advance_return(return_id: str, to: str | None, db_path: str) -> None:
    """Move RETURN_ID one step along the return state machine, or to --to."""

    async def job(db: Database) -> tuple[str, dict[str, Any]]:
        async with db.transaction() as tx:
            row = await return_storage.get(tx, return_id)
            before = str(row["status"]) if row else "?"
            after = await shop_orders.advance_return(tx, return_id, to=to)
        return before, after

    before, after = _run(db_path, job)
    click.echo(f"{return_id}: {before} -> {after['status']}")
