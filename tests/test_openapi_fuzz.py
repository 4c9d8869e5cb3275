"""Schema-driven fuzzing with every check schemathesis has: the engine behind `schemathesis run
--checks all` (examples, coverage, fuzzing and stateful phases) runs in process against the
ASGI app, and every failed check of every operation fails the test. The answers must match
the documented status codes, media types, headers (Allow included) and schemas, valid input
must be accepted and invalid input refused.

Bounded and deterministic: a fixed seed, derandomized generation, no shrinking, a few examples
per operation, one worker.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import Status, events, from_schema

from commerce_agent.app import create_app
from commerce_agent.auth.tokens import mint_token
from commerce_agent.settings import Settings

EXAMPLES = 4
AGENT_MOUNT = Settings().agent_mount
# Open-ended streams: the in-process client reads a body to its end, so a stream of a real
# order or session (which the stateful phase would find) never ends. Fuzzed here on their own
# (test_streams_answer_as_documented, unknown ids only) and live in test_order_updates_live.py
# and test_agent_live.py.
STREAMS = ["GET /orders/{order_id}/updates", f"GET {AGENT_MOUNT}/session/{{session_id}}/stream"]
# Operations where the spec answers 400 to input no schema can describe, each with why:
BUSINESS_400 = {
    # An opaque cursor: only the server knows which strings it issued (documented 400).
    "GET /stores": "cursor", "GET /catalogs": "cursor", "GET /search": "cursor",
    "GET /orders": "cursor", "GET /webhooks": "cursor", "GET /catalogs/{catalog_id}": "cursor",
    "GET /webhooks/{webhook_id}/deliveries": "cursor",
    # promotion_invalid: whether a code exists and applies.
    "POST /carts/{cart_id}/promotions": "promotion_invalid",
    # storeId / itemId / variant that names nothing, product_unavailable, invalid_quantity
    # past the store's stock or limits, delivery_address_required, minimum_order_value.
    "POST /carts": "storeId names no store",
    "POST /carts/{cart_id}/items": "product_unavailable, unknown item",
    "PATCH /carts/{cart_id}/items/{line_id}": "product_unavailable",
    "POST /orders": "delivery_address_required, minimum_order_value, payment_failed",
    "POST /returns": "items not in the order, more than was bought",
    # A rating or tip for an order that cannot take one (its state, its currency).
    "POST /orders/{order_id}/ratings": "order state", "POST /orders/{order_id}/tips": "order state",
    # Saved preferences: a currency or language this server does not know.
    "PATCH /user/profile": "unknown currency or language",
    # A subscription URL must parse, name a host, use https (http to loopback only) and carry
    # no credentials; events must be known event names.
    "POST /webhooks": "url and events checked by the webhook service",
    # outputSchema must pass the JSON Schema metaschema; clientContext nests 32 deep at most.
    f"POST {AGENT_MOUNT}/session": "outputSchema metaschema, clientContext depth",
    f"POST {AGENT_MOUNT}/session/{{session_id}}": "outputSchema metaschema, nothing to do",
    # token_mismatch: the Authorization header and the body's continuationToken differ.
    f"POST {AGENT_MOUNT}/session/{{session_id}}/cancel": "token_mismatch",
}
ACCEPTED = ["2xx", "3xx", 401, 403, 404, 409, 429]


async def _prepare(settings_: Settings) -> str:
    """Migrate and seed the database once, and mint a token for the fuzzer to send."""
    app = create_app(settings_)
    async with app.router.lifespan_context(app):
        async with app.state.db.transaction() as tx:
            return await mint_token(tx, "user_alice", "fuzz")


@pytest.fixture
def fuzz_state(tmp_path: os.PathLike[str]) -> dict[str, Any]:
    fuzz_settings = Settings(db_path=os.path.join(tmp_path, "fuzz.db"),
                             base_url="http://testserver", simulate=False,
                             sqlite_synchronous="OFF")
    token = asyncio.run(_prepare(fuzz_settings))
    return {"app": create_app(fuzz_settings), "token": token}


def _config(token: str) -> SchemathesisConfig:
    every_check = {name: {"enabled": True} for name in CHECKS.get_all_names()}
    return SchemathesisConfig.from_dict({
        "seed": 14,
        "workers": 1,
        "headers": {"Authorization": f"Bearer {token}"},
        "checks": every_check,
        "generation": {"max-examples": EXAMPLES, "deterministic": True, "database": "none",
                       "no-shrink": True},
        # One unexpected method per path is enough to check 405s and their Allow header.
        "phases": {"coverage": {"unexpected-methods": ["OPTIONS"]},
                   "stateful": {"max-steps": 6}},
        "operations": [
            # Signing out with the shared token would revoke it for every later case (its
            # answers are covered in test_accounts_api.py).
            {"include-name": "POST /auth/sign-out", "enabled": False},
            *({"include-name": name, "enabled": False} for name in STREAMS),
            *({"include-name": name, "checks": {"positive_data_acceptance": {
                "expected-statuses": [*ACCEPTED, 400]}}} for name in BUSINESS_400),
        ],
    })


def _failures(event: events.ScenarioFinished) -> list[str]:
    found = []
    for checks in event.recorder.checks.values():
        for check in checks:
            if check.status == Status.FAILURE and check.failure_info is not None:
                failure = check.failure_info.failure
                found.append(f"{event.recorder.label}: {check.name}: {failure.title}\n"
                             f"{str(failure.message)[:400]}\n"
                             f"{check.failure_info.code_sample[:600]}")
    return found


def test_every_operation_answers_as_documented(fuzz_state: dict[str, Any]) -> None:
    # (The schemathesis pytest loaders do not run on pytest 9 yet, so this drives its engine.)
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_state["app"],
                                            config=_config(fuzz_state["token"]))
    failures: list[str] = []
    errors: list[str] = []
    labels: set[str] = set()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            labels.add(event.recorder.label)
            failures += _failures(event)
        elif isinstance(event, events.NonFatalError | events.FatalError):
            errors.append(str(getattr(event, "value", None) or getattr(event, "exception", "")))
    assert len(labels) >= 40
    assert not errors, "\n\n".join(errors)
    assert not failures, "\n\n".join(dict.fromkeys(failures))


def test_streams_answer_as_documented(fuzz_state: dict[str, Any]) -> None:
    """The two streams, with generated (so unknown) ids: never a stream that does not end."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_state["app"])
    headers = {"Authorization": f"Bearer {fuzz_state['token']}"}
    checks = [CHECKS.get_one(name) for name in CHECKS.get_all_names()]
    failures = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.label not in STREAMS:
            continue
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(max_examples=EXAMPLES * 2, deadline=None, derandomize=True, database=None,
                      phases=[Phase.explicit, Phase.generate],
                      suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy(mode))
            def run(case: Any) -> None:
                case.call_and_validate(headers=headers, checks=checks)

            try:
                run()
            except Exception as exc:  # noqa: BLE001 - collected and reported below
                failures.append(f"{operation.label} ({mode.value}): {str(exc)[:1500]}")
    assert not failures, "\n\n".join(failures)
