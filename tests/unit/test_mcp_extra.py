"""Without the `mcp` extra, /mcp and `commerce-agent mcp` say which extra to install."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from commerce_agent import mcp
from commerce_agent.app import create_app
from commerce_agent.cli import main
from commerce_agent.settings import Settings


async def test_the_endpoint_names_the_missing_extra(settings: Settings,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # as if the extra were not installed
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            answer = await http.post("/mcp", json={})
            metadata = await http.get("/.well-known/oauth-protected-resource/mcp")
            # RFC 9728 section 3.3: the root document would be the root resource's, not /mcp's
            root = await http.get("/.well-known/oauth-protected-resource")
    assert root.status_code == 404
    assert answer.status_code == 501
    assert "commerce-agent[mcp]" in answer.json()["message"]
    assert metadata.json()["resource"] == "http://test/mcp"


def test_the_command_names_the_missing_extra(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    (tmp_path / "x.db").touch()
    result = CliRunner().invoke(main, ["mcp", "--db", str(tmp_path / "x.db")])
    assert result.exit_code != 0
    assert mcp.EXTRA_MISSING in result.output


def test_the_extra_is_seen_when_installed() -> None:
    assert mcp.available()
