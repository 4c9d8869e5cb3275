"""Lighthouse (npm `lighthouse`, run against Debian's chromium) on the shop's pages: the
storefront, a store, a product, the cart and an order page, signed in as the demo user Alice
with a filled cart and a placed order.

    python bench/lighthouse.py [--lighthouse PATH] [--chromium /usr/bin/chromium]
                               [--form-factor mobile|desktop] [--runs 3] [--page order ...]
                               [--check]

Install lighthouse outside the repository (`cd /work/npm && npm install lighthouse`), or put
its path in COMMERCE_AGENT_LIGHTHOUSE. Each page is measured `--runs` times with Lighthouse's
own settings for the form factor (simulated throttling: a slow 4G network and a 4x slower
CPU on mobile) and the median of each score is printed, one row per page, with the median
first contentful paint, largest contentful paint, total blocking time and speed index (ms).
With --check, exits 1 when a page's median misses a target (TARGETS, MAX_CLS below).
Not part of the test suite: fifteen Lighthouse runs take about ten minutes.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from support import free_port, serve_ours, stop, wait_until_up

TARGETS = {"performance": 0.95, "accessibility": 1.0, "best-practices": 1.0, "seo": 0.95}
MAX_CLS = 0.05
# Where lighthouse is looked for when COMMERCE_AGENT_LIGHTHOUSE does not say.
KNOWN_LIGHTHOUSE = ("/work/npm/node_modules/.bin/lighthouse",
                    "/work/npm/lighthouse/node_modules/.bin/lighthouse")
METRICS = {"fcp": "first-contentful-paint", "lcp": "largest-contentful-paint",
           "tbt": "total-blocking-time", "si": "speed-index"}
PAGES = ("storefront", "store", "product", "cart", "order")


def find_lighthouse() -> str | None:
    """The lighthouse command: COMMERCE_AGENT_LIGHTHOUSE, one of KNOWN_LIGHTHOUSE, or on PATH."""
    named = os.environ.get("COMMERCE_AGENT_LIGHTHOUSE")
    for candidate in ([named] if named else [*KNOWN_LIGHTHOUSE, "lighthouse"]):
        found = shutil.which(candidate) or (candidate if Path(candidate).exists() else None)
        if found:
            return found
    return None
EMAIL, PASSWORD = "alice@example.com", "alice-demo-pass"  # noqa: S105 - the demo user


def _csrf(html: str) -> str:
    marker = 'name="csrf_token" value="'
    start = html.index(marker) + len(marker)
    return html[start:html.index('"', start)]


def prepare(url: str) -> tuple[str, str]:
    """Sign Alice in (a browser session cookie), fill a cart and place an order; the Cookie
    header for lighthouse and the order's id."""
    with httpx.Client(base_url=url, timeout=30) as browser:
        form = browser.get("/account/sign-in")
        signed = browser.post("/account/sign-in", data={
            "csrf_token": _csrf(form.text), "email": EMAIL, "password": PASSWORD})
        assert signed.status_code == 303, signed.text
        cookie = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
    token = httpx.post(f"{url}/auth/token", json={"email": EMAIL, "password": PASSWORD}
                       ).json()["accessToken"]
    bearer = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, headers=bearer, timeout=30) as api:
        def cart(item: str, variant: str | None = None) -> str:
            made = api.post("/carts", json={"storeId": "store_ceramics"}).json()
            line: dict[str, Any] = {"itemId": item, "quantity": 1}
            if variant:
                line["variantId"] = variant
            assert api.post(f"/carts/{made['id']}/items", json=line).status_code == 200
            return str(made["id"])

        body = {"cartId": cart("item_limited_glaze_mug"),
                "deliveryAddress": {"address": "1 Main St, Springfield", "countryCode": "US"}}
        first = api.post("/orders", json=body)
        order = first
        if first.status_code == 402:
            entry = next(a for a in first.json()["accepts"] if a["scheme"] == "fiat_intent")
            paid = api.post(entry["extra"]["confirmUrl"], json={
                "clientSecret": entry["extra"]["clientSecret"], "card": "4242424242424242"})
            proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
                     "payload": {"paymentIntentId": paid.json()["paymentIntentId"]}}
            order = api.post("/orders", json=body, headers={
                "X-PAYMENT": base64.b64encode(json.dumps(proof).encode()).decode()})
        assert order.status_code == 201, order.text
        cart("item_classic_mug", "var_mug_blue_12oz")  # the cart page has something to show
        return cookie, str(order.json()["id"])


def run_lighthouse(lighthouse: str, chromium: str, url: str, cookie: str, form_factor: str,
                   out: Path) -> dict[str, Any]:
    command = [lighthouse, url, "--quiet", "--output=json", f"--output-path={out}",
               "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
               f"--extra-headers={json.dumps({'Cookie': cookie})}",
               "--only-categories=performance,accessibility,best-practices,seo"]
    if form_factor == "desktop":
        command.append("--preset=desktop")
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": chromium},
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def scores(report: dict[str, Any]) -> dict[str, float]:
    found = {name: float(category["score"] or 0)
             for name, category in report["categories"].items()}
    found["cls"] = float(report["audits"]["cumulative-layout-shift"]["numericValue"])
    for short, audit in METRICS.items():
        found[short] = float(report["audits"][audit].get("numericValue") or 0)
    return found


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    """The median of each score over the runs of one page."""
    return {name: statistics.median(run[name] for run in runs) for name in runs[0]}


def row(name: str, found: dict[str, float]) -> str:
    return (f"{name:<11} {found['performance']:>5.2f} {found['accessibility']:>5.2f} "
            f"{found['best-practices']:>5.2f} {found['seo']:>5.2f} {found['cls']:>6.3f} "
            + " ".join(f"{found[short]:>6.0f}" for short in METRICS))


def measure(lighthouse: str, chromium: str, form_factor: str, runs: int,
            pages: tuple[str, ...] = PAGES, verbose: bool = False,
            show: Any = print) -> dict[str, dict[str, float]]:
    """Serve the sample shop on a fresh database, and the median scores of each of `pages`
    over `runs` Lighthouse runs."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    medians = {}
    with tempfile.TemporaryDirectory() as scratch:
        server = serve_ours(Path(scratch) / "lighthouse.db", port, "--base-url", url)
        try:
            wait_until_up(url + "/health", server)
            cookie, order_id = prepare(url)
            paths = {"storefront": "/", "store": "/shop/stores/store_ceramics",
                     "product": "/shop/items/item_classic_mug", "cart": "/shop/cart",
                     "order": f"/shop/orders/{order_id}"}
            for name in pages:
                measured = []
                for run in range(runs):
                    report = run_lighthouse(lighthouse, chromium, url + paths[name], cookie,
                                            form_factor, Path(scratch) / f"{name}-{run}.json")
                    measured.append(scores(report))
                    if verbose:
                        show(row(f"  run {run + 1}", measured[-1]))
                        for audit in report["audits"].values():
                            if audit.get("score") is not None and audit["score"] < 1 and \
                                    audit.get("scoreDisplayMode") in ("binary", "numeric"):
                                show(f"    {audit['id']}: {audit['score']} {audit['title']}")
                medians[name] = median(measured)
                missed = misses(medians[name])
                show(row(name, medians[name]) + (f"  misses: {', '.join(missed)}"
                                                 if missed else ""))
        finally:
            stop(server)
    return medians


def misses(found: dict[str, float]) -> list[str]:
    missed = [f"{name} {found[name]:.2f} < {target}" for name, target in TARGETS.items()
              if found[name] < target]
    if found["cls"] > MAX_CLS:
        missed.append(f"CLS {found['cls']:.3f} > {MAX_CLS}")
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", default=None, help="the lighthouse command")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--form-factor", choices=("mobile", "desktop"), default="mobile")
    parser.add_argument("--runs", type=int, default=3, help="runs per page (the median counts)")
    parser.add_argument("--page", action="append", choices=PAGES,
                        help="measure only this page (repeatable)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    options = parser.parse_args()
    lighthouse = options.lighthouse or find_lighthouse()
    if lighthouse is None or not (shutil.which(lighthouse) or Path(lighthouse).exists()):
        print("lighthouse not found: npm install lighthouse outside the repository, or set "
              "COMMERCE_AGENT_LIGHTHOUSE", file=sys.stderr)
        return 2
    if not (shutil.which(options.chromium) or Path(options.chromium).exists()):
        print(f"chromium not found at {options.chromium} (apt-get install chromium, or "
              "--chromium PATH)", file=sys.stderr)
        return 2
    print(f"{'page':<11} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'CLS':>6} "
          + " ".join(f"{short:>6}" for short in METRICS)
          + f"  ({options.form_factor}, median of {options.runs})")
    medians = measure(lighthouse, options.chromium, options.form_factor, max(1, options.runs),
                      tuple(options.page or PAGES),
                      bool(os.environ.get("COMMERCE_AGENT_LIGHTHOUSE_VERBOSE")))
    failed = [page for page, found in medians.items() if misses(found)]
    return 1 if options.check and failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
