"""What a store, an item or a promotion in the sample-data format must satisfy
(docs/sample-data.md), as a list of problems each pointing at a field (a JSON pointer).

One set of rules for every way in: `seed`, `catalog import` (which turns pointers back into
file lines and columns) and the admin API (which answers them as field-level 400 details).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, get_args

from babel.numbers import list_currencies

from commerce_agent import clock, links
from commerce_agent.commerce import money
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.errors import CommerceError
from commerce_agent.json_input import MalformedJson, check_value

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
CODE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$")
# A percentage promotion's value: 0.01 to 100, at most 3 digits and 2 decimals.
PERCENTAGE = re.compile(r"^(?:100(?:\.0{1,2})?|(?:0?[1-9][0-9]|0{0,2}[1-9])(?:\.[0-9]{1,2})?"
                        r"|0{1,3}\.(?:[1-9][0-9]?|0[1-9]))$")
FULFILLMENT_TYPES = ("physical", "digital", "pickup", "hybrid")
ItemStatus = Literal["active", "draft", "archived"]
ITEM_STATUSES: tuple[ItemStatus, ...] = get_args(ItemStatus)
MAX_NAME = 300
MAX_DESCRIPTION = 20_000
MAX_STOCK = 10**9
_CURRENCIES = frozenset(list_currencies())


@dataclass(frozen=True)
class Problem:
    field: str  # JSON pointer into the checked document
    reason: str
    value: Any = None


def refusal(problems: list[Problem], prefix: str = "") -> CommerceError:
    """The 400 naming every problem (the first one in the message)."""
    details = []
    for problem in problems:
        detail: dict[str, Any] = {"type": "validation", "field": prefix + problem.field,
                                  "reason": problem.reason}
        if problem.value is not None and isinstance(problem.value, str | int | float):
            detail["value"] = problem.value
        details.append(detail)
    first = problems[0]
    return CommerceError(400, "bad_request",
                         f"Invalid request: {prefix + first.field} {first.reason}.",
                         details=details, params={"field": prefix + first.field})


def stored_problems(doc: Any, pointer: str = "") -> list[Problem]:
    """What no stored document may hold, whatever it describes: a link that links.url_problem
    refuses, or U+0000 in its text (PostgreSQL refuses it)."""
    problems = [Problem(field, reason, value)
                for field, reason, value in links.document_link_problems(doc, pointer)]
    try:
        check_value(doc)
    except MalformedJson as exc:
        problems.append(Problem(pointer, f"must not be {exc.reason}" if "deep" in exc.reason
                                else "must not contain U+0000 in any text"))
    return problems


def ensure_stored(doc: Any, pointer: str = "") -> None:
    """stored_problems as a 400, for the writers every way in shares (shop.writes)."""
    problems = stored_problems(doc, pointer)
    if problems:
        raise refusal(problems)


def currency_problem(currency: Any) -> str | None:
    if not isinstance(currency, str) or not re.fullmatch(r"[A-Z]{3}", currency):
        return "must be an ISO 4217 code such as USD"
    if currency not in _CURRENCIES:
        return "is not a known ISO 4217 currency"
    return None


def amount_problem(amount: Any, currency: str, *, positive: bool = False) -> str | None:
    """Decimal text with exactly the currency's minor digits ("12.50" USD, "1800" JPY)."""
    digits = money.minor_units(currency)
    pattern = r"\d{1,12}" + (rf"\.\d{{{digits}}}" if digits else "")
    if not isinstance(amount, str) or not re.fullmatch(pattern, amount):
        example = "12.50" if digits == 2 else "1800" if digits == 0 else f"1.{'0' * digits}"
        return f"must be decimal text with {digits} decimals in {currency}, like \"{example}\""
    if positive and Decimal(amount) <= 0:
        return "must be more than zero"
    return None


def _money(value: Any, currency: str, field: str, problems: list[Problem]) -> None:
    if not isinstance(value, dict):
        problems.append(Problem(field, "must be an object {amount, currency}"))
        return
    reason = amount_problem(value.get("amount"), currency)
    if reason:
        problems.append(Problem(f"{field}/amount", reason, value.get("amount")))
    if value.get("currency") != currency:
        problems.append(Problem(f"{field}/currency", f"must be the store's currency {currency}",
                                value.get("currency")))


def _stock(value: Any, field: str, problems: list[Problem]) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STOCK:
        problems.append(Problem(field, "must be a whole number of units from 0, or null for "
                                       "unlimited", value))


def _text(item: dict[str, Any], key: str, limit: int, problems: list[Problem], *,
          required: bool) -> None:
    value = item.get(key)
    if value is None and not required:
        return
    if not isinstance(value, str) or (required and not value.strip()):
        problems.append(Problem(f"/{key}", "is required" if value is None else
                                "must be non-empty text"))
    elif len(value) > limit:
        problems.append(Problem(f"/{key}", f"must be at most {limit} characters"))


def _variants(item: dict[str, Any], currency: str, problems: list[Problem]) -> None:
    spec = item.get("metadata", {}).get(VARIANTS)
    if spec is None:
        return
    base = f"/metadata/{VARIANTS}"
    options = spec.get("options") if isinstance(spec, dict) else None
    if not isinstance(options, list) or not 1 <= len(options) <= 3 \
            or not all(isinstance(name, str) and name.strip() for name in options):
        problems.append(Problem(f"{base}/options", "must list 1 to 3 option names"))
        return
    variants = spec.get("variants")
    if not isinstance(variants, list) or not variants:
        problems.append(Problem(f"{base}/variants", "must list at least one variant"))
        return
    seen_ids: set[str] = set()
    seen_values: set[tuple[str, ...]] = set()
    for index, variant in enumerate(variants):
        field = f"{base}/variants/{index}"
        if not isinstance(variant, dict):
            problems.append(Problem(field, "must be an object"))
            continue
        variant_id = variant.get("id")
        if not isinstance(variant_id, str) or not ID_PATTERN.match(variant_id):
            problems.append(Problem(f"{field}/id", "must be an id of letters, digits, _ . -",
                                    variant_id))
        elif variant_id in seen_ids:
            problems.append(Problem(f"{field}/id", "appears twice", variant_id))
        seen_ids.add(str(variant_id))
        values = variant.get("values")
        if not isinstance(values, list) or len(values) != len(options) \
                or not all(isinstance(value, str) and value for value in values):
            problems.append(Problem(f"{field}/values",
                                    f"must give one value for each of {len(options)} options"))
        elif tuple(values) in seen_values:
            problems.append(Problem(f"{field}/values", "repeat another variant's values",
                                    " / ".join(values)))
        else:
            seen_values.add(tuple(values))
        _money(variant.get("price"), currency, f"{field}/price", problems)
        _stock(variant.get("stock"), f"{field}/stock", problems)


def _identifier(document: dict[str, Any], field: str, pattern: re.Pattern[str], reason: str,
                problems: list[Problem]) -> None:
    value = document.get(field)
    if not isinstance(value, str) or not pattern.match(value):
        problems.append(Problem(f"/{field}", reason, value))


def _named(document: dict[str, Any], id_reason: str) -> list[Problem]:
    """The problems of what a store and an item both start with: id, name and description."""
    problems: list[Problem] = []
    _identifier(document, "id", ID_PATTERN, id_reason, problems)
    _text(document, "name", MAX_NAME, problems, required=True)
    _text(document, "description", MAX_DESCRIPTION, problems, required=False)
    return problems


def item_problems(item: Any, currency: str) -> list[Problem]:
    """Everything wrong with an item in the sample-data format, for a store in `currency`."""
    if not isinstance(item, dict):
        return [Problem("", "must be an object")]
    problems = _named(item, "must be an id of letters, digits, _ . - (at most 100)")
    _money(item.get("price"), currency, "/price", problems)
    kind = item.get("fulfillmentType", "physical")
    if kind not in FULFILLMENT_TYPES:
        problems.append(Problem("/fulfillmentType",
                                f"must be one of {', '.join(FULFILLMENT_TYPES)}", kind))
    _stock(item.get("stock"), "/stock", problems)
    metadata = item.get("metadata", {})
    if not isinstance(metadata, dict):
        problems.append(Problem("/metadata", "must be an object of capability documents"))
        return problems
    for key, value in metadata.items():
        if not isinstance(value, dict):
            problems.append(Problem(f"/metadata/{key}", "must be an object with \"_version\""))
    _variants(item, currency, problems)
    return problems + stored_problems(item)


def promotion_problems(promotion: Any, currency: str) -> list[Problem]:
    if not isinstance(promotion, dict):
        return [Problem("", "must be an object")]
    problems: list[Problem] = []
    _identifier(promotion, "code", CODE_PATTERN, "must be 1 to 50 letters, digits, _ or -",
                problems)
    kind, value = promotion.get("type"), promotion.get("value")
    if kind == "percentage":
        if not isinstance(value, str) or not PERCENTAGE.match(value):
            problems.append(Problem("/value", "must be a percentage from 0.01 to 100", value))
    elif kind == "fixed_amount":
        reason = amount_problem(value, currency, positive=True)
        if reason:
            problems.append(Problem("/value", reason, value))
    else:
        problems.append(Problem("/type", "must be percentage or fixed_amount", kind))
    if promotion.get("minimumSubtotal") is not None:
        reason = amount_problem(promotion["minimumSubtotal"], currency)
        if reason:
            problems.append(Problem("/minimumSubtotal", reason, promotion["minimumSubtotal"]))
    for key in ("startsAt", "expiresAt"):
        if promotion.get(key) is not None:
            try:
                clock.parse(str(promotion[key]))
            except ValueError:
                problems.append(Problem(f"/{key}", "must be an ISO 8601 timestamp",
                                        promotion[key]))
    limit = promotion.get("perUserLimit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                              or not 1 <= limit <= 1_000_000):
        problems.append(Problem("/perUserLimit", "must be a whole number from 1", limit))
    description = promotion.get("description")
    if description is not None and (not isinstance(description, str) or len(description) > 500):
        problems.append(Problem("/description", "must be text of at most 500 characters"))
    return problems + stored_problems(promotion)


def store_problems(store: Any) -> list[Problem]:
    """A store file: its own fields, then every promotion, catalog and item."""
    if not isinstance(store, dict):
        return [Problem("", "must be an object")]
    problems = _named(store, "must be an id of letters, digits, _ . -")
    reason = currency_problem(store.get("currency"))
    if reason:
        problems.append(Problem("/currency", reason, store.get("currency")))
        return problems
    currency = str(store["currency"])
    if not isinstance(store.get("metadata", {}), dict):
        problems.append(Problem("/metadata", "must be an object of capability documents"))
    problems += stored_problems({key: value for key, value in store.items()
                                 if key not in ("catalogs", "promotions")})
    for index, promotion in enumerate(store.get("promotions", [])):
        problems += [Problem(f"/promotions/{index}{p.field}", p.reason, p.value)
                     for p in promotion_problems(promotion, currency)]
    seen: set[str] = set()
    catalogs = store.get("catalogs", [])
    if not isinstance(catalogs, list):
        return [*problems, Problem("/catalogs", "must be a list")]
    for c_index, catalog in enumerate(catalogs):
        if not isinstance(catalog, dict) or not isinstance(catalog.get("id"), str) \
                or not ID_PATTERN.match(catalog["id"]):
            problems.append(Problem(f"/catalogs/{c_index}/id", "must be an id"))
            continue
        problems += stored_problems({key: value for key, value in catalog.items()
                                     if key != "items"}, f"/catalogs/{c_index}")
        for i_index, item in enumerate(catalog.get("items", [])):
            field = f"/catalogs/{c_index}/items/{i_index}"
            problems += [Problem(field + p.field, p.reason, p.value)
                         for p in item_problems(item, currency)]
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                if item["id"] in seen:
                    problems.append(Problem(f"{field}/id", "appears twice", item["id"]))
                seen.add(item["id"])
    return problems
