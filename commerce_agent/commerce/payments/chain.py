"""The chain and token the x402 `exact` scheme is paid in, read from the settings.

`--x402-network` names the chain: `base` (Base mainnet), `base-sepolia` (the default) or any
EVM chain by its CAIP-2 id `eip155:<chain id>` (a test chain). On Base the token is Circle's
USDC unless `--x402-asset` names another; on any other chain `--x402-asset` and
`--x402-asset-name` are required (the token's address and its EIP-712 domain name), since no
address is known there. The asset is installed when the app is built (`install`), as the card
provider is, and every code path asks `active()`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

USDC_DECIMALS = 6


@dataclass(frozen=True)
class ExactAsset:
    """One EIP-3009 token on one chain: what the 402 offers and the signature is checked
    against (its EIP-712 domain is name, version, chain id and address)."""

    network: str  # x402 version 1 name (`base-sepolia`); the CAIP-2 id when it has none
    caip2: str  # x402 version 2 name (`eip155:84532`)
    chain_id: int
    address: str
    name: str
    version: str
    label: str  # shown to payers: "USDC on Base Sepolia"
    decimals: int = USDC_DECIMALS


# Circle's USDC where x402 is used today: (v1 name, chain id, address, EIP-712 name, label).
KNOWN: dict[str, tuple[str, int, str, str, str]] = {
    "base": ("base", 8453, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "USD Coin",
             "USDC on Base"),
    "base-sepolia": ("base-sepolia", 84532, "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
                     "USDC", "USDC on Base Sepolia"),
}
DEFAULT_NETWORK = "base-sepolia"


class AssetMisconfigured(ValueError):
    """The x402 network or asset settings do not name one token: the server does not start."""


def _by_caip2(network: str) -> str | None:
    return next((name for name, known in KNOWN.items() if f"eip155:{known[1]}" == network),
                None)


def from_settings(network: str, asset: str = "", asset_name: str = "",
                  asset_version: str = "") -> ExactAsset:
    """The asset the settings name; AssetMisconfigured says what is wrong."""
    network = network.strip()
    known_name = network if network in KNOWN else _by_caip2(network)
    if asset and not re.fullmatch(r"0x[0-9a-fA-F]{40}", asset):
        raise AssetMisconfigured(f"--x402-asset must be a token address (0x and 40 hex "
                                 f"digits), not {asset!r}.")
    if known_name is not None:
        v1_name, chain_id, usdc, domain_name, label = KNOWN[known_name]
        if asset and asset.lower() != usdc.lower() and not asset_name:
            raise AssetMisconfigured(f"--x402-asset {asset} is not USDC on {known_name}: "
                                     "give its EIP-712 domain name in --x402-asset-name.")
        return ExactAsset(network=v1_name, caip2=f"eip155:{chain_id}", chain_id=chain_id,
                          address=asset or usdc, name=asset_name or domain_name,
                          version=asset_version or "2",
                          label=label if not asset else f"{asset_name or domain_name} on "
                          f"{known_name}")
    match = re.fullmatch(r"eip155:([1-9][0-9]{0,19})", network)
    if match is None:
        raise AssetMisconfigured(f"--x402-network must be one of {', '.join(KNOWN)} or an EVM "
                                 f"chain's CAIP-2 id eip155:<chain id>, not {network!r}.")
    if not asset or not asset_name:
        raise AssetMisconfigured(f"On {network} no token is known: give its address in "
                                 "--x402-asset and its EIP-712 domain name in "
                                 "--x402-asset-name.")
    return ExactAsset(network=network, caip2=network, chain_id=int(match.group(1)),
                      address=asset, name=asset_name, version=asset_version or "2",
                      label=f"{asset_name} on chain {match.group(1)}")


_active: list[ExactAsset] = [from_settings(DEFAULT_NETWORK)]


def install(asset: ExactAsset) -> None:
    _active[0] = asset


def active() -> ExactAsset:
    return _active[0]
