"""x402 `exact` settled on a chain: POST /orders with `--x402-facilitator` against a local EVM
chain (eth-tester, in process) with an EIP-3009 token deployed and the x402 SDK's own
facilitator serving it over HTTP (tests/support/x402_chain.py). The shopper signs with the SDK's
client. No network: the chain, the facilitator and the server are all on this machine.

Also: without a facilitator the receipt says `settled: false`, and the network and asset
settings (`chain.from_settings`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from eth_account import Account
from eth_account.signers.local import LocalAccount
from starlette.applications import Starlette
from x402 import x402Client
from x402.http import x402HTTPClient
from x402.http.utils import decode_payment_required_header, decode_payment_response_header
from x402.mechanisms.evm.exact import register_exact_evm_client
from x402.schemas import PaymentPayload

from commerce_agent import clock
from commerce_agent.cli import main
from commerce_agent.commerce.payments import chain as chains
from commerce_agent.commerce.payments import settlement
from commerce_agent.commerce.shop import writes as shop_writes
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.settings import Settings
from tests.support.app import running
from tests.support.helpers import LIMITED_MUG
from tests.support.x402 import mug_order, order_count, payment_required
from tests.support.x402_chain import (
    TOKEN_NAME,
    FacilitatorServer,
    LocalChain,
    facilitator_server,
    free_port,
    require_chain,
    settle_directly,
)

FUNDS = 1_000 * 10**6  # 1,000 test USDC


@pytest.fixture(autouse=True)
def default_asset_after() -> Iterator[None]:
    """An app installs its asset and facilitator process-wide (as the card provider): put the
    defaults back, for the tests that sign without building an app of their own."""
    yield
    chains.install(chains.from_settings(chains.DEFAULT_NETWORK))
    settlement.install(None)


@pytest.fixture(scope="module")
def local_chain() -> Iterator[tuple[LocalChain, FacilitatorServer]]:
    require_chain()
    chain = LocalChain.start()
    with facilitator_server(chain) as server:
        yield chain, server


@pytest.fixture
async def shop(settings: Settings, local_chain: tuple[LocalChain, FacilitatorServer]
               ) -> AsyncIterator[tuple[Starlette, httpx.AsyncClient, dict[str, str], str]]:
    """The app settling through the local facilitator, paid to a fresh store wallet."""
    chain, server = local_chain
    pay_to = Account.create().address
    async with running(settings, x402_facilitator=server.url, x402_network=chain.network,
                       x402_asset=chain.address, x402_asset_name=TOKEN_NAME,
                       pay_to=pay_to) as (app, client, alice):
        yield app, client, alice, pay_to


def funded_wallet(chain: LocalChain) -> LocalAccount:
    wallet: LocalAccount = Account.create()
    chain.mint(wallet.address, FUNDS)
    return wallet


async def signed(client: httpx.AsyncClient, headers: dict[str, str], order: dict[str, Any],
                 wallet: LocalAccount) -> PaymentPayload:
    """What the SDK's client signs for this order's PAYMENT-REQUIRED header."""
    required = await payment_required(client, headers, order)
    sdk = x402Client()
    register_exact_evm_client(sdk, wallet)
    # The test token is no default asset of the SDK: allow it (and a mug's price).
    sdk.set_spend_controls({"max_amount_per_payment": "$500", "allowed_assets": True})
    payload = await sdk.create_payment_payload(
        decode_payment_required_header(required.headers["payment-required"]))
    assert isinstance(payload, PaymentPayload)
    return payload


def proof_header(payload: PaymentPayload) -> dict[str, str]:
    return x402HTTPClient(x402Client()).encode_payment_signature_header(payload)


def reason(response: httpx.Response) -> str:
    return str(response.json()["details"][0]["reason"])


async def test_a_paid_order_carries_a_transaction_the_chain_confirms(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    app, client, alice, pay_to = shop
    chain, _ = local_chain
    wallet = funded_wallet(chain)
    order = await mug_order(client, alice)
    required = await client.post("/orders", json=order, headers=alice)
    offer = decode_payment_required_header(required.headers["payment-required"]).accepts[0]
    assert (offer.network, offer.asset, offer.pay_to) == (chain.network, chain.address, pay_to)
    assert required.json()["accepts"][1]["extra"]["chainId"] == chain.chain_id
    payload = await signed(client, alice, order, wallet)

    placed = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})

    assert placed.status_code == 201, placed.text
    receipt = decode_payment_response_header(placed.headers["payment-response"])
    raw = json.loads(base64.b64decode(placed.headers["payment-response"]))
    assert receipt.success and raw["settled"] is True and receipt.network == chain.network
    mined = chain.receipt(receipt.transaction)
    assert mined["status"] == 1
    amount = int(offer.amount)
    assert chain.balance(pay_to) == amount and chain.balance(wallet.address) == FUNDS - amount
    payment = placed.json()["payment"]
    assert payment["reference"] == receipt.transaction and payment["settled"] is True
    stored = (await client.get(placed.headers["location"], headers=alice)).json()
    assert stored["payment"]["reference"] == receipt.transaction
    assert await order_count(app) == 1


async def test_the_same_authorization_pays_once_and_fails_on_chain_the_second_time(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    app, client, alice, pay_to = shop
    chain, server = local_chain
    wallet = funded_wallet(chain)
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, wallet)
    first = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})
    assert first.status_code == 201, first.text
    settles = server.settles

    again = await client.post("/orders", json=await mug_order(client, alice),
                              headers={**alice, **proof_header(payload)})

    assert again.status_code == 400 and reason(again) == "already_used", again.text
    assert await order_count(app) == 1 and server.settles == settles  # not even asked
    # Submitted to the chain once more (by anyone): the token refuses the used nonce.
    document = payload.model_dump(by_alias=True, exclude_none=True)
    second = settle_directly(server, document, document["accepted"])
    assert second["success"] is False
    assert chain.receipt(second["transaction"])["status"] == 0  # reverted on chain
    authorization = document["payload"]["authorization"]
    assert chain.nonce_used(authorization["from"], authorization["nonce"])
    assert chain.balance(pay_to) == int(authorization["value"])  # moved once


async def test_an_authorization_spent_on_chain_elsewhere_places_no_order(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    app, client, alice, _ = shop
    chain, server = local_chain
    wallet = funded_wallet(chain)
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, wallet)
    document = payload.model_dump(by_alias=True, exclude_none=True)
    assert settle_directly(server, document, document["accepted"])["success"] is True

    refused = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})

    assert refused.status_code == 400 and reason(refused) == "already_used", refused.text
    assert await order_count(app) == 0


async def test_a_payer_without_funds_is_refused_before_anything_settles(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    app, client, alice, pay_to = shop
    chain, server = local_chain
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, Account.create())  # holds no USDC
    settles = server.settles

    refused = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})

    assert refused.status_code == 400 and reason(refused) == "insufficient_funds", refused.text
    assert await order_count(app) == 0 and server.settles == settles
    assert chain.balance(pay_to) == 0


async def test_an_order_that_would_be_refused_settles_nothing(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    """The order is checked before the facilitator is asked to settle: a request refused for
    its own reasons (here: no delivery address) moves no money, and the same proof then pays
    the corrected request."""
    app, client, alice, pay_to = shop
    chain, server = local_chain
    wallet = funded_wallet(chain)
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, wallet)
    settles = server.settles

    failed = await client.post("/orders", json={"cartId": order["cartId"]},
                               headers={**alice, **proof_header(payload)})

    assert failed.status_code == 400, failed.text
    assert failed.json()["code"] == "delivery_address_required"
    assert server.settles == settles and chain.balance(pay_to) == 0
    assert chain.balance(wallet.address) == FUNDS and await order_count(app) == 0
    placed = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})
    assert placed.status_code == 201, placed.text
    assert chain.balance(pay_to) == int(payload.accepted.amount)


async def test_an_order_that_fails_after_settling_is_placed_by_the_retry_without_a_second_charge(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The settlement is recorded outside the order's transaction: when that transaction
    refuses after the money moved (here: the last mug sold while the chain settled), the
    retry reuses the mined transfer, even once the authorization has expired (the money moved
    while it was valid)."""
    app, client, alice, pay_to = shop
    chain, server = local_chain
    wallet = funded_wallet(chain)
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, wallet)
    real_settle = settlement.settle

    async def sold_out_meanwhile(*args: Any, **kwargs: Any) -> Any:
        settled = await real_settle(*args, **kwargs)
        async with app.state.db.transaction() as tx:
            await shop_writes.set_stock(tx, LIMITED_MUG, "", 0)
        return settled

    monkeypatch.setattr(settlement, "settle", sold_out_meanwhile)
    failed = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})
    assert failed.status_code == 409, failed.text
    amount = int(payload.accepted.amount)
    assert chain.balance(pay_to) == amount and await order_count(app) == 0
    monkeypatch.setattr(settlement, "settle", real_settle)
    async with app.state.db.transaction() as tx:
        await shop_writes.set_stock(tx, LIMITED_MUG, "", 5)
    settles = server.settles
    expired = int(payload.payload["authorization"]["validBefore"]) + 1
    monkeypatch.setattr(clock, "seconds", lambda: float(expired))

    placed = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})

    assert placed.status_code == 201, placed.text
    receipt = decode_payment_response_header(placed.headers["payment-response"])
    assert chain.receipt(receipt.transaction)["status"] == 1
    assert server.settles == settles and chain.balance(pay_to) == amount
    assert await order_count(app) == 1


async def test_a_facilitator_outage_answers_503_and_the_retry_pays_once(
        settings: Settings, local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    chain, server = local_chain
    wallet = funded_wallet(chain)
    pay_to = Account.create().address
    asset = {"x402_network": chain.network, "x402_asset": chain.address,
             "x402_asset_name": TOKEN_NAME, "pay_to": pay_to}
    down = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    async with running(settings, x402_facilitator=down, **asset) as (app, client, alice):
        order = await mug_order(client, alice)
        payload = await signed(client, alice, order, wallet)
        outage = await client.post("/orders", json=order,
                                   headers={**alice, **proof_header(payload)})
        assert outage.status_code == 503, outage.text
        assert outage.json()["code"] == "payment_provider_unavailable"
        assert outage.headers["retry-after"] == "5"
        assert await order_count(app) == 0 and chain.balance(pay_to) == 0
    async with running(settings, x402_facilitator=server.url, **asset) as (app, client, alice):
        placed = await client.post("/orders", json=order,
                                   headers={**alice, **proof_header(payload)})
        assert placed.status_code == 201, placed.text
        assert await order_count(app) == 1
    assert chain.balance(pay_to) == int(payload.accepted.amount)


async def test_without_a_facilitator_the_receipt_says_unsettled(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, Account.create())
    required = (await client.post("/orders", json=order, headers=alice)).json()
    assert "not settled" in required["accepts"][1]["extra"]["displayName"]

    placed = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})

    assert placed.status_code == 201, placed.text
    receipt = json.loads(base64.b64decode(placed.headers["payment-response"]))
    assert receipt["settled"] is False and placed.json()["payment"]["settled"] is False


def test_base_mainnet_is_circles_usdc() -> None:
    asset = chains.from_settings("base")
    assert (asset.network, asset.caip2, asset.chain_id) == ("base", "eip155:8453", 8453)
    assert asset.address == "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
    assert (asset.name, asset.version) == ("USD Coin", "2")
    assert chains.from_settings("eip155:84532").network == "base-sepolia"


async def test_the_402_offers_the_configured_network(settings: Settings) -> None:
    async with running(settings, x402_network="base") as (_, client, alice):
        order = await mug_order(client, alice)
        required = await client.post("/orders", json=order, headers=alice)
    exact = required.json()["accepts"][1]
    assert (exact["network"], exact["extra"]["chainId"]) == ("base", 8453)
    assert exact["asset"] == chains.KNOWN["base"][2] and exact["extra"]["name"] == "USD Coin"
    offer = decode_payment_required_header(required.headers["payment-required"]).accepts[0]
    assert offer.network == "eip155:8453"


@pytest.mark.parametrize(("network", "asset", "name", "needs"), [
    ("eip155:1337", "", "", "--x402-asset"),
    ("eip155:1337", "0x" + "11" * 20, "", "--x402-asset-name"),
    ("ethereum", "", "", "--x402-network"),
    ("base", "0x1234", "", "--x402-asset must be a token address"),
    ("base", "0x" + "11" * 20, "", "--x402-asset-name"),
])
def test_a_misconfigured_asset_is_refused(network: str, asset: str, name: str,
                                          needs: str) -> None:
    with pytest.raises(chains.AssetMisconfigured, match=needs):
        chains.from_settings(network, asset, name)


async def test_a_settle_whose_answer_is_lost_is_never_charged_twice(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    """The facilitator settles but its answer never arrives (503). The retry asks it to
    settle again; the chain refuses the used nonce, so nothing moves twice, and without a
    chain of its own to read the server cannot name the first transaction: it says so
    (`settlement_unknown`) and keeps the authorization on record for the store."""
    app, client, alice, pay_to = shop
    chain, server = local_chain
    wallet = funded_wallet(chain)
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, wallet)
    server.lose_answers = 1

    lost = await client.post("/orders", json=order, headers={**alice, **proof_header(payload)})
    assert lost.status_code == 503 and lost.headers["retry-after"] == "5", lost.text
    amount = int(payload.accepted.amount)
    assert chain.balance(pay_to) == amount  # it did settle

    retried = await client.post("/orders", json=order,
                                headers={**alice, **proof_header(payload)})

    assert retried.status_code == 400 and reason(retried) == "settlement_unknown", retried.text
    assert chain.balance(pay_to) == amount and await order_count(app) == 0
    authorization = payload.payload["authorization"]
    row = await storage.settlement(app.state.db, authorization["from"].lower(),
                             authorization["nonce"].lower())
    assert row is not None and row["status"] == "unknown"


async def test_the_paid_request_replayed_with_its_key_replays_the_receipt(
        shop: tuple[Starlette, httpx.AsyncClient, dict[str, str], str],
        local_chain: tuple[LocalChain, FacilitatorServer]) -> None:
    app, client, alice, _ = shop
    chain, server = local_chain
    order = await mug_order(client, alice)
    payload = await signed(client, alice, order, funded_wallet(chain))
    headers = {**alice, **proof_header(payload), "Idempotency-Key": "pay-once-on-chain"}
    placed = await client.post("/orders", json=order, headers=headers)
    assert placed.status_code == 201, placed.text
    settles = server.settles

    replayed = await client.post("/orders", json=order, headers=headers)

    assert replayed.status_code == 201, replayed.text
    assert replayed.headers["payment-response"] == placed.headers["payment-response"]
    assert replayed.json()["id"] == placed.json()["id"]
    assert server.settles == settles and await order_count(app) == 1


@pytest.mark.parametrize(("args", "says"), [
    (["--x402-network", "eip155:1337"], "--x402-asset"),
    (["--x402-facilitator", "facilitator.example"], "must be an http(s) URL"),
])
def test_serve_refuses_settings_that_name_no_token_or_facilitator(
        tmp_path: Any, args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "s.db"), *args])
    assert result.exit_code == 2 and says in result.output, result.output
    assert not (tmp_path / "s.db").exists()  # refused before anything was created
