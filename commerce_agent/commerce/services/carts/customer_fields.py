"""`dev.commerce.order.customer_fields@1.0`: tax id, customs declaration and company on an order.

Sent by the client in POST /orders `metadata` (under the base key or the versioned one),
validated here and stored on the order under the base key with `_version`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from commerce_agent.errors import CommerceError
from commerce_agent.http import reason_of

Text = Annotated[str, Meta(min_length=1, max_length=200)]


class CustomsDeclaration(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    description: Annotated[str, Meta(min_length=1, max_length=500)]
    value: Annotated[float, Meta(ge=0, le=1_000_000_000)]
    countryOfOrigin: Annotated[str, Meta(pattern="^[A-Z]{2}$")]


class CustomerFields(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    version: Literal["1.0"] = msgspec.field(default="1.0", name="_version")
    taxId: Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9 .\-/]{2,29}$")] | None = None
    customsDeclaration: CustomsDeclaration | None = None
    companyName: Text | None = None
    purchaseOrderNumber: Annotated[str, Meta(min_length=1, max_length=64)] | None = None


def pointer_of(error: msgspec.ValidationError) -> tuple[str, str]:
    """(JSON pointer below the value, reason) of a msgspec validation error."""
    text = str(error)
    reason, _, where = text.partition(" - at `$")
    path = where.rstrip("`")
    parts = [part for part in path.replace("[", ".").replace("]", "").split(".") if part]
    if "unknown field" in reason and "`" in reason:
        parts.append(reason.split("`")[1])
        reason = "is not a known field"
    return "".join(f"/{part}" for part in parts), reason_of(reason)


def parse(value: Any, key: str) -> dict[str, Any]:
    """The stored form of the client's customer fields, or 400 bad_request pointing at a field."""
    field = f"/metadata/{key}"
    try:
        fields = msgspec.convert(value, CustomerFields)
    except msgspec.ValidationError as exc:
        below, reason = pointer_of(exc)
        raise CommerceError(400, "bad_request", f"Invalid customer fields: {reason}.",
                            details=[{"type": "validation", "field": field + below,
                                      "reason": reason}],
                            params={"field": field + below}) from None
    stored: dict[str, Any] = msgspec.to_builtins(fields)
    stored.pop("_version", None)
    if not stored:
        raise CommerceError(400, "bad_request", "Customer fields must name at least one field.",
                            details=[{"type": "validation", "field": field,
                                      "reason": "names no field"}], params={"field": field})
    if fields.taxId is not None:
        stored["taxId"] = fields.taxId.upper()
    return {"_version": "1.0", **stored}
