"""The browser layer's fixture: `chromium`, launched once per module against that module's
own `server` fixture (tests/support/browser.py)."""

from tests.support.browser import chromium

__all__ = ["chromium"]
