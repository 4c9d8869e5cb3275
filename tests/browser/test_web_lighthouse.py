"""The shop's Lighthouse targets (issue 25): performance >= 0.95, accessibility 1.0, best
practices 1.0, SEO >= 0.95 and layout shift <= 0.05 on the storefront, a store, a product, the
cart and an order page, each the median of three mobile runs (Lighthouse's own simulated slow
4G and 4x slower CPU): `bench/lighthouse.py --check`, run as a script.

It runs where npm `lighthouse` and chromium are installed (COMMERCE_AGENT_LIGHTHOUSE, or
/work/npm/node_modules/.bin/lighthouse, or `lighthouse` on PATH) and skips, saying why,
elsewhere, CI included: .ci/run installs chromium but not npm's lighthouse, so CI=true does
not turn the skip into a failure. It takes minutes (fifteen Lighthouse runs).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_INSTALLED = 2  # bench/lighthouse.py's exit status when lighthouse or chromium is missing


def test_the_shop_meets_its_lighthouse_targets() -> None:
    result = subprocess.run(  # noqa: S603 - our own script
        [sys.executable, str(ROOT / "bench" / "lighthouse.py"), "--check", "--runs", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False)
    if result.returncode == NOT_INSTALLED:
        pytest.skip(result.stderr.strip())
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line.split()[0] for line in result.stdout.splitlines()[1:]]
    assert rows == ["storefront", "store", "product", "cart", "order"], result.stdout
