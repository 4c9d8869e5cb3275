"""The commerce-agent command: seed, tokens, and serve as a real process."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from commerce_agent import gc_tuning, workers
from commerce_agent.cli import main
from tests.support.elsewhere import read_all, read_one, write
from tests.support.live import start_live_server

pytestmark = pytest.mark.both_backends


def _count(db: str, table: str) -> int:
    return int(read_one(db, f"SELECT COUNT(*) AS n FROM {table}")["n"])  # noqa: S608


def test_seed_is_idempotent_and_reset_clears(make_db: Callable[[str], str]) -> None:
    db = make_db("cli.db")
    runner = CliRunner()
    first = runner.invoke(main, ["seed", "--db", db])
    assert first.exit_code == 0 and "Seeded" in first.output
    assert "already" in runner.invoke(main, ["seed", "--db", db]).output
    write(db, "INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
              "VALUES ('r', 'i', 'u', 5, 'now')")
    reset = runner.invoke(main, ["seed", "--db", db, "--reset"])
    assert reset.exit_code == 0 and "Seeded" in reset.output
    assert _count(db, "reviews") == 0 and _count(db, "stores") >= 5
    # The auth counter stays: without its row no process could keep the tokens it has read.
    assert _count(db, "auth_changes") == 1


def test_token_create_prints_only_the_token(make_db: Callable[[str], str]) -> None:
    db = make_db("tok.db")
    runner = CliRunner()
    assert runner.invoke(main, ["seed", "--db", db]).exit_code == 0
    result = runner.invoke(main, ["token", "create", "--user", "alice@example.com", "--db", db])
    assert result.exit_code == 0
    token = result.output.strip()
    assert token.startswith("cat_") and "\n" not in token
    stored = [row["token_hash"] for row in read_all(db, "SELECT token_hash FROM tokens")]
    assert token not in stored and len(stored) == 1
    unknown = runner.invoke(main, ["token", "create", "--user", "nobody@example.com", "--db", db])
    assert unknown.exit_code == 1 and "no user" in unknown.output


def test_env_var_sets_the_database(tmp_path: Any) -> None:
    db = os.path.join(tmp_path, "env.db")
    result = CliRunner().invoke(main, ["seed"], env={"COMMERCE_AGENT_DB": db})
    assert result.exit_code == 0 and os.path.exists(db)


def test_serve_prints_demo_tokens_that_work(make_db: Callable[[str], str]) -> None:
    server = start_live_server(make_db("serve.db"))
    try:
        output = server.output()
        token = next(word for line in output.splitlines() if "alice@example.com" in line
                     for word in line.split() if word.startswith("cat_"))
        response = httpx.post(f"{server.url}/carts", json={"storeId": "store_ceramics"},
                              headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert response.status_code == 201
    finally:
        server.stop()
    assert server.process.returncode == 0


def test_serve_tunes_the_garbage_collector_before_serving(tmp_path: Any,
                                                           monkeypatch: Any) -> None:
    seen: dict[str, Any] = {}

    def run(app: Any, **options: Any) -> None:  # instead of serving: what serving would get
        seen["threshold"], seen["frozen"] = gc.get_threshold(), gc.get_freeze_count()

    monkeypatch.setattr(workers.uvicorn, "run", run)
    threshold = gc.get_threshold()
    try:
        result = CliRunner().invoke(main, ["serve", "--db", os.path.join(tmp_path, "g.db")])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    assert result.exit_code == 0, result.output
    assert seen["threshold"] == (gc_tuning.YOUNG_THRESHOLD, *threshold[1:])
    assert seen["frozen"] > 10_000  # the modules and schemas loaded by then
