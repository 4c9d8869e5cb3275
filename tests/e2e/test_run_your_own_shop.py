"""The README's "Run your own shop", as written, from the files of the repository: an empty
database, the sample Shopify export under docs/examples/, a merchant, then (against
`serve --no-samples`, simulator running) admin changes, a paid order and shipping by hand. The
simulator leaves the imported store's order alone; serve names the console and the --db."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.live import start_live_server

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks() -> tuple[str, str]:
    section = re.search(r"## Run your own shop(.*?)\n## ", README, re.S)
    assert section is not None
    setup, walk = re.findall(r"```sh\n(.*?)```", section.group(1), re.S)[:2]
    return setup, walk


def test_the_example_export_it_names_is_in_the_repository() -> None:
    setup, _ = _blocks()
    named = re.findall(r"catalog import (\S+)", setup)
    assert named and all((ROOT / path).is_file() for path in named), named


def test_run_your_own_shop_takes_a_first_order(tmp_path: Path) -> None:
    setup, walk = _blocks()
    assert "commerce-agent serve --no-samples" in setup
    db = str(tmp_path / "commerce-agent.db")
    bin_dir = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "COMMERCE_AGENT_DB": db}
    commands = "\n".join(line for line in setup.splitlines()
                         if not line.startswith(("pip install", "commerce-agent serve")))
    prepared = subprocess.run(["bash", "-e", "-c", commands], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
    assert prepared.returncode == 0, prepared.stderr
    assert "store_birch_loom" in prepared.stdout
    server = start_live_server(db, ["--no-samples", "--simulate", "--simulate-speed", "2000"])
    try:
        result = subprocess.run(
            ["bash", "-e", "-c", walk.replace("http://127.0.0.1:8000", server.url)],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        order_id = re.findall(r'"id":"(ord_[^"]+)"', result.stdout)[-1]
        time.sleep(1.0)  # the simulator, 2000 times faster, would have delivered it by now
        token = httpx.post(f"{server.url}/auth/token", json={
            "email": "owner@birch.example", "password": "change-this-secret"}).json()
        order = httpx.get(f"{server.url}/admin/orders/{order_id}", headers={
            "Authorization": f"Bearer {token['accessToken']}"}).json()
        stores = httpx.get(f"{server.url}/stores").json()["stores"]
        output = server.output()
    finally:
        server.stop()
    assert [store["id"] for store in stores] == ["store_birch_loom"]
    assert '"trackingNumber":"1Z999AA10123456784"' in result.stdout
    assert '"status":"in_transit"' in result.stdout
    assert '"amount":"52.00"' in result.stdout  # two towel sets at the new price
    assert order["status"] == "in_transit"  # moved by hand only
    assert f"Console: {server.url}/console" in output
    assert f"--db {db}" in output
