"""The one Idempotency-Key module (commerce/idempotency.py), as the Commerce API, the agent's
tool calls and MCP use it: claimed first, so concurrent retries give one result."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce import idempotency
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from tests.support.helpers import CERAMICS

pytestmark = pytest.mark.both_backends

SCOPE = idempotency.Scope("user_alice", "POST", "/test/tool", "call-1")


async def test_concurrent_api_retries_give_one_result(client: httpx.AsyncClient,
                                                      alice: dict[str, str]) -> None:
    headers = {**alice, "Idempotency-Key": "same-cart"}
    answers = await asyncio.gather(*(client.post("/carts", json={"storeId": CERAMICS},
                                                 headers=headers) for _ in range(4)))
    assert {answer.status_code for answer in answers} == {201}
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert sum(answer.headers.get("idempotent-replayed") == "true" for answer in answers) == 3


async def test_a_key_reused_with_another_body_is_refused(client: httpx.AsyncClient,
                                                         alice: dict[str, str]) -> None:
    headers = {**alice, "Idempotency-Key": "k-body"}
    first = await client.post("/carts", json={"storeId": CERAMICS}, headers=headers)
    assert first.status_code == 201
    # The same JSON spelled differently is the same request.
    again = await client.post("/carts", content=b'{ "storeId" :"store_ceramics"}',
                              headers={**headers, "Content-Type": "application/json"})
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"]
    other = await client.post("/carts", json={"storeId": "store_bakery"}, headers=headers)
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"


async def test_concurrent_tool_calls_run_the_work_once(app: Starlette) -> None:
    runs: list[int] = []

    async def work(tx: Transaction) -> idempotency.Outcome:
        runs.append(1)
        await asyncio.sleep(0.01)
        return idempotency.Outcome(201, {"made": len(runs)})

    outcomes = await asyncio.gather(*(idempotency.call_once(app.state.db, SCOPE, {"a": 1},
                                                            work) for _ in range(4)))
    assert len(runs) == 1
    assert {outcome.status for outcome in outcomes} == {201}
    assert all(outcome.body == {"made": 1} for outcome in outcomes)
    assert sorted(outcome.replayed for outcome in outcomes) == [False, True, True, True]
    found = await idempotency.call_lookup(app.state.db, SCOPE, {"a": 1})
    assert found is not None and found.replayed and found.body == {"made": 1}


async def test_a_tool_key_reused_with_other_arguments_is_refused(app: Starlette) -> None:
    async def work(tx: Transaction) -> idempotency.Outcome:
        return idempotency.Outcome(200, {"ok": True})

    await idempotency.call_once(app.state.db, SCOPE, {"a": 1}, work)
    for attempt in (idempotency.call_once(app.state.db, SCOPE, {"a": 2}, work),
                    idempotency.call_lookup(app.state.db, SCOPE, {"a": 2})):
        with pytest.raises(CommerceError) as refused:
            await attempt
        assert refused.value.code == "idempotency_key_reused"
        assert refused.value.message == idempotency.REUSED_ARGUMENTS


async def test_only_a_2xx_result_is_kept(app: Starlette) -> None:
    statuses = [402, 201]

    async def work(tx: Transaction) -> idempotency.Outcome:
        return idempotency.Outcome(statuses.pop(0), {"left": len(statuses)})

    assert await idempotency.call_lookup(app.state.db, SCOPE, {}) is None
    first = await idempotency.call_once(app.state.db, SCOPE, {}, work)
    assert (first.status, first.replayed) == (402, False)
    assert await idempotency.call_lookup(app.state.db, SCOPE, {}) is None  # given back
    second = await idempotency.call_once(app.state.db, SCOPE, {}, work)
    assert (second.status, second.replayed) == (201, False)
    third = await idempotency.call_once(app.state.db, SCOPE, {}, work)
    assert (third.status, third.body, third.replayed) == (201, {"left": 0}, True)


async def test_an_error_gives_the_key_back(app: Starlette) -> None:
    async def failing(tx: Transaction) -> idempotency.Outcome:
        raise CommerceError(400, "bad_request", "No.")

    async def working(tx: Transaction) -> idempotency.Outcome:
        return idempotency.Outcome(200, {"ok": True})

    with pytest.raises(CommerceError):
        await idempotency.call_once(app.state.db, SCOPE, {"x": 1}, failing)
    done = await idempotency.call_once(app.state.db, SCOPE, {"x": 1}, working)
    assert done.body == {"ok": True} and not done.replayed


def test_fingerprints_ignore_spelling_not_content() -> None:
    assert idempotency.body_fingerprint(b'{"a":1,"b":2}') == \
        idempotency.body_fingerprint(b'{ "b": 2, "a": 1 }')
    assert idempotency.body_fingerprint(b'{"a":1}') != idempotency.body_fingerprint(b'{"a":2}')
    assert idempotency.body_fingerprint(b"not json") != idempotency.body_fingerprint(b"")
    assert idempotency.arguments_fingerprint({"a": 1, "b": [1]}) == \
        idempotency.arguments_fingerprint({"b": [1], "a": 1})
