"""The wheel ships sample_data/ and the web app's files: build it, install it in a fresh
venv, seed and serve."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import httpx

from tests.support.live import free_port

ROOT = Path(__file__).resolve().parents[2]


def _run(*command: str, cwd: Path | None = None) -> str:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600,
                            check=False)
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_wheel_installs_seeds_and_serves(tmp_path: Any) -> None:
    work = Path(tmp_path)
    source = work / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "*.db*", "__pycache__", ".venv", "venv", "dist", "build", ".*_cache"))
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(work / "dist"),
         str(source))
    wheel = next((work / "dist").glob("commerce_agent-*.whl"))
    # PostgreSQL's migrations ship beside SQLite's (`--db postgresql://…` after pip install).
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    folder = ROOT / "commerce_agent" / "db" / "migrations" / "postgres"
    expected = {f"commerce_agent/db/migrations/postgres/{sql.name}"
                for sql in folder.glob("*.sql")}
    assert expected and expected <= shipped
    # So do the account, consent and /docs pages' templates.
    for package in ("auth", "agent", "openapi"):
        templates = ROOT / "commerce_agent" / package / "templates"
        assert {f"commerce_agent/{package}/templates/{page.name}"
                for page in templates.glob("*.html")} <= shipped
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", str(venv))
    bin_dir = venv / "bin"
    _run(str(bin_dir / "pip"), "install", "--quiet", str(wheel))
    db = work / "wheel.db"
    # Run from an empty folder so nothing from the source tree can be imported by accident.
    empty = work / "empty"
    empty.mkdir()
    seeded = _run(str(bin_dir / "commerce-agent"), "seed", "--db", str(db), cwd=empty)
    assert "Seeded" in seeded
    port = free_port()
    log = open(work / "serve.log", "wb")  # closed below; the child keeps its copy
    server = subprocess.Popen([str(bin_dir / "commerce-agent"), "serve", "--port", str(port),
                               "--db", str(db), "--no-simulate"], cwd=empty, stdout=log,
                              stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": ""})
    log.close()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/stores", timeout=2)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, (work / "serve.log").read_text()
                assert server.poll() is None, (work / "serve.log").read_text()
                time.sleep(0.2)
        assert response.status_code == 200
        assert response.json()["pagination"]["totalCount"] >= 5
        # The web app's templates and static files ship in the wheel too.
        storefront = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert storefront.status_code == 200 and "Search every store" in storefront.text
        script = httpx.get(f"http://127.0.0.1:{port}/shop/static/chat.js", timeout=5)
        assert script.status_code == 200 and "readNdjson" in script.text
        console = httpx.get(f"http://127.0.0.1:{port}/console", timeout=5)
        assert console.status_code == 200 and "Merchant console" in console.text
        sign_in = httpx.get(f"http://127.0.0.1:{port}/account/sign-in", timeout=5)
        assert sign_in.status_code == 200 and 'name="csrf_token"' in sign_in.text
    finally:
        server.terminate()
        server.wait(timeout=15)
