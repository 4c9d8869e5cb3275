"""Money as decimal text: parsing, rounding to the currency's minor units, minor-unit integers."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from babel.numbers import get_currency_precision, list_currencies

# The ISO 4217 codes this server knows (stores, preferences and the documents that list them).
CURRENCIES = frozenset(list_currencies())


@lru_cache(maxsize=64)
def minor_units(currency: str) -> int:
    """Digits after the decimal point for `currency` (2 for USD, 0 for JPY)."""
    return int(get_currency_precision(currency))


def parse(amount: str) -> Decimal:
    try:
        value = Decimal(amount)
    except InvalidOperation as exc:
        raise ValueError(f"not a decimal amount: {amount!r}") from exc
    if not value.is_finite():
        raise ValueError(f"not a finite amount: {amount!r}")
    return value


@lru_cache(maxsize=64)
def _smallest_unit(currency: str) -> Decimal:
    return Decimal(1).scaleb(-minor_units(currency))


def quantize(amount: Decimal, currency: str) -> Decimal:
    return amount.quantize(_smallest_unit(currency), rounding=ROUND_HALF_UP)


def money(amount: Decimal, currency: str) -> dict[str, Any]:
    """The wire form {amount, currency}, with exactly the currency's minor digits."""
    return {"amount": str(quantize(amount, currency)), "currency": currency}


def to_minor(amount: Decimal, currency: str) -> int:
    """An amount in minor units (cents for USD, yen for JPY), as x402 wants it."""
    return int(quantize(amount, currency).scaleb(minor_units(currency)))


def from_minor(units: int, currency: str) -> Decimal:
    """An integer of the currency's minor units as an amount (what card providers send)."""
    return quantize(Decimal(units).scaleb(-minor_units(currency)), currency)
