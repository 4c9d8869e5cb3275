"""localstripe (PyPI: a stateful Stripe-compatible server) as a subprocess on a free port, the
official `stripe` client pointed at it, and a receiver for the webhooks it sends.

Without localstripe (or the stripe package) the Stripe tests skip saying so; under CI=true
they fail instead, since CI installs the test extra.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from tests.support.live import free_port

SECRET_KEY = "sk_test_commerce_agent_tests"  # noqa: S105 - localstripe takes any key
PUBLISHABLE_KEY = "pk_test_commerce_agent_tests"
WEBHOOK_SECRET = "whsec_commerce_agent_tests"  # noqa: S105 - a test server's secret
PAYS, DECLINED, NEEDS_3DS = "4242424242424242", "4000000000000341", "4000002760003184"


def require_localstripe() -> None:
    missing = [name for name in ("localstripe", "stripe")
               if importlib.util.find_spec(name) is None]
    if missing:
        reason = (f"{' and '.join(missing)} not installed: pip install "
                  "'commerce-agent[test]' (the Stripe tests run localstripe)")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@dataclass
class LocalStripe:
    url: str
    process: subprocess.Popen[bytes]

    def client(self) -> Any:
        import stripe

        return stripe.StripeClient(SECRET_KEY, base_addresses={"api": self.url},
                                   max_network_retries=0)

    def pay(self, intent_id: str, card: str = PAYS) -> Any:
        """What Stripe.js does for the shopper: a card payment method, then confirm."""
        import stripe

        client = self.client()
        method = client.v1.payment_methods.create(
            {"type": "card", "card": {"number": card, "exp_month": 12, "exp_year": 2040,
                                      "cvc": "123"}})
        client.v1.payment_intents.update(intent_id, {"payment_method": method.id})
        try:
            return client.v1.payment_intents.confirm(intent_id)
        except stripe.CardError:
            return client.v1.payment_intents.retrieve(intent_id)

    def authenticate(self, intent_id: str, client_secret: str, success: bool = True) -> None:
        """The shopper passes (or fails) the 3-D Secure step (localstripe's own endpoint)."""
        response = httpx.post(f"{self.url}/v1/payment_intents/{intent_id}/_authenticate",
                              data={"client_secret": client_secret, "key": PUBLISHABLE_KEY,
                                    "success": "true" if success else "false"})
        assert response.status_code == 200, response.text

    def send_webhooks_to(self, url: str) -> None:
        response = httpx.post(f"{self.url}/_config/webhooks/tests",
                              data={"url": url, "secret": WEBHOOK_SECRET})
        assert response.status_code == 200, response.text


def start_localstripe() -> LocalStripe:
    port = free_port()
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "localstripe", "--port", str(port), "--from-scratch"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"localstripe exited with {process.returncode}")
        try:
            httpx.get(f"{url}/v1/customers", auth=(SECRET_KEY, ""), timeout=1)
            return LocalStripe(url, process)
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("localstripe did not start within 30 s")


@pytest.fixture(scope="module")
def localstripe() -> Iterator[LocalStripe]:
    require_localstripe()
    server = start_localstripe()
    try:
        yield server
    finally:
        server.process.terminate()
        server.process.wait(timeout=10)


@dataclass
class Received:
    body: bytes
    signature: str


@dataclass
class WebhookInbox:
    """Webhooks as localstripe sends them, kept to be handed to the in-process app."""

    url: str
    received: list[Received] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    def wait_for(self, event_type: str, object_id: str, timeout: float = 15.0) -> Received:
        """The first `event_type` event about `object_id` (localstripe may still be delivering an
        earlier test's events to the endpoint this inbox now holds)."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                for item in self.received:
                    event = json.loads(item.body)
                    if event["type"] == event_type \
                            and event["data"]["object"].get("id") == object_id:
                        return item
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {event_type} webhook within {timeout} s")
                self.arrived.wait(left)


@pytest.fixture
def webhook_inbox() -> Iterator[WebhookInbox]:
    holder: list[WebhookInbox] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            inbox = holder[0]
            with inbox.arrived:
                inbox.received.append(Received(body, self.headers.get("Stripe-Signature", "")))
                inbox.arrived.notify_all()
            self.send_response(200)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder.append(WebhookInbox(f"http://127.0.0.1:{server.server_address[1]}/"))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder[0]
    finally:
        server.shutdown()
        server.server_close()


def sign(payload: bytes, secret: str = WEBHOOK_SECRET) -> str:
    """A Stripe-Signature header for `payload`, made as Stripe makes it."""
    import hashlib
    import hmac

    stamp = int(time.time())
    digest = hmac.new(secret.encode(), f"{stamp}.".encode() + payload,
                      hashlib.sha256).hexdigest()
    return f"t={stamp},v1={digest}"
