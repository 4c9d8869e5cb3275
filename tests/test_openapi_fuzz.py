"""Schema-driven fuzzing: schemathesis generates requests for every operation of /openapi.json
and sends them through the ASGI app; no answer may be a 5xx, and every answer must match the
documented status codes, media types and schemas.

Bounded: a fixed number of examples per operation, derandomized (the same cases every run, so
the test cannot flake), no shrinking-heavy phases. Runs in well under a minute on 2 cores.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from commerce_agent.app import create_app
from commerce_agent.auth.tokens import mint_token
from commerce_agent.settings import Settings

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
EXAMPLES = 12
AGENT_MOUNT = Settings().agent_mount
# Operations whose answers cannot be checked the usual way, each with the reason.
NO_TOKEN = {
    # Signing out with the shared token would revoke it for every later case; without a token
    # the fuzzer still checks the 401 answers (the success path is in test_accounts_api.py).
    ("POST", "/auth/sign-out"),
}


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


def _fuzz(operation: Any, mode: GenerationMode, token: str, examples: int) -> None:
    """Run `examples` generated cases of one operation; raise on the first failed check."""
    headers = {} if (operation.method.upper(), operation.path) in NO_TOKEN else {
        "Authorization": f"Bearer {token}"}

    under_mount = operation.path.startswith(AGENT_MOUNT)

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(mode))
    def run(case: Any) -> None:
        if under_mount:
            # Starlette's Mount matches its prefix with `.*`, which stops at a newline: such a
            # path never reaches the agent API and gets the top-level (commerce) 404 instead.
            parameters = (case.path_parameters or {}).values()
            assume(not any("\n" in str(value) for value in parameters))
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()


def test_every_operation_answers_as_documented(fuzz_state: dict[str, Any]) -> None:
    # (The schemathesis pytest loaders do not run on pytest 9 yet, so this drives Hypothesis
    # itself: one test, every operation, both positive and schema-violating inputs.)
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_state["app"])
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        for mode, examples in ((GenerationMode.POSITIVE, EXAMPLES),
                               (GenerationMode.NEGATIVE, EXAMPLES // 2)):
            try:
                _fuzz(operation, mode, fuzz_state["token"], examples)
            except Unsatisfiable:
                pass  # nothing in this operation can be made schema-invalid (string-only input)
            except Exception as exc:  # noqa: BLE001 - collected and reported below
                failures.append(f"{operation.label} ({mode.value}): {str(exc)[:1500]}")
    assert operations >= 40
    assert not failures, "\n\n".join(failures)
