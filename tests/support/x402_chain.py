"""A local EVM chain in this process and an x402 facilitator on it, for the settlement tests.

The chain is eth-tester on py-evm (the `x402-chain` extra), with the EIP-3009 token of
tests/data/chain/TestUSDC.sol deployed from its committed build (TestUSDC.json beside it;
rebuilt by tests/data/chain/compile.sh). The facilitator is the x402 SDK's own
(`ExactEvmScheme` with a `FacilitatorWeb3Signer`), served over HTTP by uvicorn on a free port
in a thread, so the server under test reaches it exactly as it would reach a real one.

Without the chain packages the tests skip saying so; under CI=true they fail instead, since
CI installs the test extra.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.live import free_port

TOKEN_BUILD = Path(__file__).parent.parent / "data" / "chain" / "TestUSDC.json"
TOKEN_NAME, TOKEN_VERSION = "USDC", "2"
# eth-tester's first funded account: its key is 1 (the facilitator pays the gas from it).
FACILITATOR_KEY = "0x" + "00" * 31 + "01"


def require_chain() -> None:
    missing = [name for name in ("eth_tester", "eth", "web3", "x402")
               if importlib.util.find_spec(name) is None]
    if missing:
        reason = (f"{', '.join(missing)} not installed: pip install "
                  "'commerce-agent[x402-chain]' (the settlement tests run a local EVM chain)")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@dataclass
class LocalChain:
    """eth-tester's chain with TestUSDC deployed; one lock, since eth-tester is not safe to
    use from two threads (the facilitator's and the test's) at once."""

    w3: Any
    token: Any
    lock: threading.RLock = field(default_factory=threading.RLock)

    @classmethod
    def start(cls) -> LocalChain:
        limit = sys.getrecursionlimit()
        try:  # py-evm raises the limit on import: a deep JSON body could then overflow the
            # C stack instead of raising RecursionError (as exact._import_eth_account says)
            from eth_tester import EthereumTester
            from web3 import EthereumTesterProvider, Web3

            w3 = Web3(EthereumTesterProvider(EthereumTester()))
        finally:
            sys.setrecursionlimit(limit)
        build = json.loads(TOKEN_BUILD.read_text())
        contract = w3.eth.contract(abi=build["abi"], bytecode=build["bytecode"])
        deployed = contract.constructor(TOKEN_NAME, TOKEN_VERSION).transact(
            {"from": w3.eth.accounts[0]})
        address = w3.eth.get_transaction_receipt(deployed)["contractAddress"]
        return cls(w3, w3.eth.contract(address=address, abi=build["abi"]))

    @property
    def chain_id(self) -> int:
        return int(self.w3.eth.chain_id)

    @property
    def network(self) -> str:
        return f"eip155:{self.chain_id}"

    @property
    def address(self) -> str:
        return str(self.token.address)

    def mint(self, to: str, amount: int) -> None:
        with self.lock:
            self.token.functions.mint(to, amount).transact({"from": self.w3.eth.accounts[0]})

    def balance(self, owner: str) -> int:
        with self.lock:
            return int(self.token.functions.balanceOf(owner).call())

    def nonce_used(self, payer: str, nonce: str) -> bool:
        with self.lock:
            return bool(self.token.functions.authorizationState(
                payer, bytes.fromhex(nonce.removeprefix("0x"))).call())

    def receipt(self, transaction: str) -> Any:
        with self.lock:
            return self.w3.eth.get_transaction_receipt(transaction)


@dataclass
class FacilitatorServer:
    """The SDK's facilitator for `exact` on the local chain, at `url` (/verify, /settle,
    /supported). `settles` counts the settle calls it answered; while `lose_answers` is
    above 0, a settle is carried out but its answer is lost (a 502 instead)."""

    url: str
    facilitator: Any
    chain: LocalChain
    settles: int = 0
    lose_answers: int = 0


def _facilitator(chain: LocalChain) -> Any:
    from x402 import x402FacilitatorSync
    from x402.mechanisms.evm import FacilitatorWeb3Signer
    from x402.mechanisms.evm.exact import register_exact_evm_facilitator

    # The signer reads and writes the chain through web3; point it at the in-process chain
    # instead of an RPC URL (nothing listens on the placeholder).
    signer = FacilitatorWeb3Signer(private_key=FACILITATOR_KEY, rpc_url="http://127.0.0.1:9")
    signer._w3 = chain.w3  # noqa: SLF001 - the SDK has no in-process provider option
    facilitator = x402FacilitatorSync()
    register_exact_evm_facilitator(facilitator, signer, chain.network)
    return facilitator


def _app(server: FacilitatorServer) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from x402.schemas import PaymentPayload, PaymentRequirements

    def documents(body: dict[str, Any]) -> tuple[Any, Any]:
        return (PaymentPayload.model_validate(body["paymentPayload"]),
                PaymentRequirements.model_validate(body["paymentRequirements"]))

    async def verify(request: Request) -> JSONResponse:
        payload, requirements = documents(await request.json())
        with server.chain.lock:
            result = server.facilitator.verify(payload, requirements)
        return JSONResponse(result.model_dump(by_alias=True, exclude_none=True))

    async def settle(request: Request) -> JSONResponse:
        payload, requirements = documents(await request.json())
        with server.chain.lock:
            result = server.facilitator.settle(payload, requirements)
        server.settles += 1
        if server.lose_answers > 0:
            server.lose_answers -= 1
            return JSONResponse({"error": "answer lost"}, status_code=502)
        return JSONResponse(result.model_dump(by_alias=True, exclude_none=True))

    async def supported(request: Request) -> JSONResponse:
        return JSONResponse(server.facilitator.get_supported().model_dump(
            by_alias=True, exclude_none=True))

    return Starlette(routes=[Route("/verify", verify, methods=["POST"]),
                             Route("/settle", settle, methods=["POST"]),
                             Route("/supported", supported)])


@contextmanager
def facilitator_server(chain: LocalChain) -> Iterator[FacilitatorServer]:
    """The facilitator served by uvicorn in a thread until the block ends."""
    import uvicorn

    port = free_port()
    server = FacilitatorServer(f"http://127.0.0.1:{port}", _facilitator(chain), chain)
    config = uvicorn.Config(_app(server), host="127.0.0.1", port=port, log_level="warning",
                            lifespan="off", loop="asyncio")
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(uvicorn_server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uvicorn_server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the facilitator server did not start")
        time.sleep(0.05)
    try:
        yield server
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=10)


def settle_directly(server: FacilitatorServer, payload: dict[str, Any],
                    requirements: dict[str, Any]) -> Any:
    """Ask the facilitator to settle without going through our server (someone else
    submitting the same authorization)."""
    import httpx

    response = httpx.post(f"{server.url}/settle", timeout=30, json={
        "x402Version": 2, "paymentPayload": payload, "paymentRequirements": requirements})
    response.raise_for_status()
    return response.json()
