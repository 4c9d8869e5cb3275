"""Drive Debian's chromium with Playwright (Python) against a live server, for the web app's
browser tests. Missing chromium or playwright skips those tests with the reason, and fails them
when CI=true."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("COMMERCE_AGENT_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The README's pictures are refreshed on request only (COMMERCE_AGENT_SCREENSHOTS=1): an
# ordinary test run takes them too, into a scratch folder, and leaves the checkout clean.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" \
    if os.environ.get("COMMERCE_AGENT_SCREENSHOTS") == "1" \
    else Path(tempfile.gettempdir()) / "commerce-agent-screenshots"


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    return None


def require_browser() -> None:
    reason = missing()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run: {reason}")
    pytest.skip(reason)


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def screenshot(page: Any, name: str) -> None:
    """A screenshot of the whole page into SCREENSHOTS (docs/screenshots/ for the README when
    COMMERCE_AGENT_SCREENSHOTS=1)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
