"""`commerce-agent mcp` over stdio with the SDK's stdio client (relaying to a live server, and
on a database file), and the client configuration and snippet of docs/mcp.md, run for real."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters
from mcp.shared.subscriptions import ResourceUpdated

from commerce_agent.cli import main
from commerce_agent.db import database_for
from commerce_agent.seed import seed
from tests.support.live import LiveServer, start_live_server
from tests.support.mcp_support import ADDRESS, advance, call, filled_cart, mint, read_json

DOC = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")


def _block(language: str) -> str:
    found = re.search(rf"```{language}\n(.*?)```", DOC, re.S)
    assert found is not None, f"docs/mcp.md has no {language} block"
    return found.group(1)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = start_live_server(os.path.join(tmp_path_factory.mktemp("mcp"), "live.db"))
    try:
        server.tokens["alice"] = asyncio.run(mint(server.db_path))
        yield server
    finally:
        server.stop()


def _stdio(args: list[str]) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "commerce_agent", *args],
                                 env=dict(os.environ))


async def test_the_documented_desktop_config_relays_to_the_server(live: LiveServer) -> None:
    entry = json.loads(_block("json"))["mcpServers"]["commerce-agent"]
    assert entry["command"] == "commerce-agent"
    args = [live.url if arg == "http://127.0.0.1:8000" else
            live.tokens["alice"] if arg == "TOKEN" else arg for arg in entry["args"]]
    async with Client(_stdio(args)) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"search_products", "place_order"} <= names
        cart_id = await filled_cart(client)
        quote = (await call(client, "place_order", {"cartId": cart_id,
                                                    "deliveryAddress": ADDRESS}))["quote"]
        order = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        assert order["status"] == "confirmed"
        uri = f"commerce://orders/{order['orderId']}"
        assert (await read_json(client, uri))["status"] == "confirmed"
        async with client.listen(resource_subscriptions=[uri]) as updates:
            await advance(live.db_path, order["orderId"])
            with anyio.fail_after(20):
                assert await updates.__anext__() == ResourceUpdated(uri=uri)


async def test_stdio_on_a_database_file(tmp_path: Path) -> None:
    db_path = str(tmp_path / "own.db")
    database = database_for(db_path)
    await database.open()
    try:
        await seed(database)  # mcp --db never creates a database: serve or seed makes it
    finally:
        await database.close()
    async with Client(_stdio(["mcp", "--db", db_path])) as public:
        names = {tool.name for tool in (await public.list_tools()).tools}
        assert names == {"list_stores", "get_store", "search_products", "get_catalog", "get_item"}
        stores = await read_json(public, "commerce://stores")
        assert stores["total"] >= 1
    token = await mint(db_path)

    async def approve(context: object, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"confirm": True})

    async with Client(_stdio(["mcp", "--db", db_path, "--token", token]), mode="legacy",
                      elicitation_callback=approve) as client:
        cart_id = await filled_cart(client)
        cart = await read_json(client, f"commerce://carts/{cart_id}")
        assert cart["items"][0]["quantity"] == 1
        order = await call(client, "place_order", {"cartId": cart_id,
                                                   "deliveryAddress": ADDRESS})
        assert order["status"] == "confirmed" and order["total"]["amount"] == "26.50"


def test_the_python_snippet_runs(live: LiveServer, tmp_path: Path) -> None:
    script = _block("python").replace("http://127.0.0.1:8000", live.url) \
        .replace('"TOKEN"', repr(live.tokens["alice"]))
    path = tmp_path / "snippet.py"
    path.write_text(script, encoding="utf-8")
    result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    name, order = result.stdout.strip().splitlines()
    assert "Mug" in name
    assert order.startswith("ord_") and order.endswith(" confirmed")


@pytest.mark.parametrize("args", [[], ["--url", "http://x", "--db", "x.db"]])
def test_mcp_needs_url_or_db(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["mcp", *args])
    assert result.exit_code == 2 and "--url" in result.output
