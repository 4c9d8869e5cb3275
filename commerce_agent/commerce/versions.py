"""Capability versions: which versions the server serves, Accept-Commerce-Capabilities
negotiation, deprecation announcements, and the shape of versioned metadata.

Negotiation (docs/versioning.md): the header lists `<capability>@<major>.<minor>` ids in order of
preference. An exact match wins; else the nearest served version of the same major (minors only
add optional fields, so either direction is readable). A requested major the server does not serve
answers 406 `capability_version_unsupported` from any response that would carry that metadata.
Unknown capabilities and malformed entries are ignored. Without a header, the default serves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from functools import lru_cache
from typing import Any

from starlette.types import Scope

from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.errors import CommerceError

MAX_HEADER_LENGTH = 4096
_ENTRY = re.compile(r"^([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)@(\d{1,4})\.(\d{1,4})$")


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


@dataclass(frozen=True)
class Served:
    """One version of a capability the server serves (its own entry in /capabilities)."""

    base: str
    version: Version
    schema: str
    default: bool = False
    deprecated: datetime | None = None
    sunset: datetime | None = None
    successor: str | None = None

    @property
    def id(self) -> str:
        return f"{self.base}@{self.version}"

    def announcement(self) -> dict[str, Any]:
        """Fields added to this version's /capabilities entry."""
        extra: dict[str, Any] = {"default": True} if self.default else {}
        if self.deprecated is not None:
            extra["deprecated"] = True
            extra["deprecatedAt"] = _iso(self.deprecated)
            if self.sunset is not None:
                extra["sunset"] = _iso(self.sunset)
            if self.successor is not None:
                extra["successor"] = self.successor
        return extra


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


SERVED: tuple[Served, ...] = (
    Served(VARIANTS, Version(1, 0), "product/variants/v1.json",
           deprecated=datetime(2026, 9, 1, tzinfo=UTC), sunset=datetime(2027, 9, 1, tzinfo=UTC),
           successor=f"{VARIANTS}@1.1"),
    Served(VARIANTS, Version(1, 1), "product/variants/v1.1.json", default=True),
    Served(VARIANTS, Version(2, 0), "product/variants/v2.json"),
)


def served_versions(base: str) -> list[Served]:
    return [served for served in SERVED if served.base == base]


def _default(base: str) -> Served:
    return next(served for served in served_versions(base) if served.default)


def _resolve(base: str, requested: list[Version]) -> Served | None:
    served = served_versions(base)
    for wanted in requested:
        exact = next((s for s in served if s.version == wanted), None)
        if exact is not None:
            return exact
    for wanted in requested:
        same = [s for s in served if s.version.major == wanted.major]
        if same:
            lower = [s for s in same if s.version <= wanted]
            return max(lower, key=lambda s: s.version) if lower else \
                min(same, key=lambda s: s.version)
    return None


@dataclass(frozen=True)
class Negotiated:
    chosen: dict[str, Served] = field(default_factory=dict)
    unsupported: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def served(self, base: str) -> Served:
        """The version to render `base` in; 406 when the client asked for a missing major."""
        if base in self.unsupported:
            versions = ", ".join(str(s.version) for s in served_versions(base))
            requested = ", ".join(self.unsupported[base])
            raise CommerceError(
                406, "capability_version_unsupported",
                f"This server does not serve {base}@{requested}; it serves {versions}.",
                details=[{"type": "business_logic", "reason": "unsupported_version",
                          "value": f"{base}@{requested}"}],
                params={"capability": base, "requested": requested, "served": versions})
        return self.chosen.get(base) or _default(base)

    def deprecation_headers(self) -> list[tuple[bytes, bytes]]:
        """RFC 9745 Deprecation, RFC 8594 Sunset and a Link to the announcement."""
        deprecated = [s for s in self.chosen.values() if s.deprecated is not None]
        if not deprecated:
            return []
        since = min(s.deprecated for s in deprecated if s.deprecated is not None)
        headers = [(b"deprecation", f"@{int(since.timestamp())}".encode()),
                   (b"link", b'</capabilities>; rel="deprecation"; '
                             b'type="application/commerce+json"')]
        sunsets = [s.sunset for s in deprecated if s.sunset is not None]
        if sunsets:
            headers.append((b"sunset", format_datetime(min(sunsets), usegmt=True).encode()))
        return headers


NOTHING_ASKED = Negotiated()
_current: ContextVar[Negotiated] = ContextVar("capability_versions", default=NOTHING_ASKED)


def parse(header: str) -> dict[str, list[Version]]:
    """Requested versions per capability, in header order; malformed entries are skipped."""
    requested: dict[str, list[Version]] = {}
    if len(header) > MAX_HEADER_LENGTH:
        return requested
    for entry in header.split(","):
        match = _ENTRY.match(entry.split(";")[0].strip().lower())
        if match:
            base, major, minor = match.groups()
            requested.setdefault(base, []).append(Version(int(major), int(minor)))
    return requested


@lru_cache(maxsize=256)
def negotiate(header: str) -> Negotiated:
    chosen: dict[str, Served] = {}
    unsupported: dict[str, tuple[str, ...]] = {}
    for base, versions in parse(header).items():
        if not served_versions(base):
            continue
        resolved = _resolve(base, versions)
        if resolved is None:
            unsupported[base] = tuple(str(v) for v in versions)
        else:
            chosen[base] = resolved
    return Negotiated(chosen, unsupported)


def current() -> Negotiated:
    """The negotiation of the request being handled (set by request_stack)."""
    return _current.get()


def _sku(variant_id: str) -> str:
    return variant_id.removeprefix("var_").replace("_", "-").upper()


def _shape_variants(entry: dict[str, Any], version: Version) -> dict[str, Any]:
    shaped: dict[str, Any] = {"_version": str(version)}
    shaped.update((key, value) for key, value in entry.items() if key != "_version")
    variants = []
    for raw in entry.get("variants", []):
        variant = dict(raw)
        if version >= Version(1, 1):
            variant.setdefault("sku", _sku(str(variant.get("id", ""))))
            stock = variant.get("stock")  # None: not counted, always available
            variant["available"] = not isinstance(stock, int) or stock > 0
        else:
            variant.pop("sku", None)
            variant.pop("available", None)
        if version.major >= 2:
            variant = {("optionValues" if key == "values" else key): value
                       for key, value in variant.items()}
        variants.append(variant)
    shaped["variants"] = variants
    return shaped


SHAPES: dict[str, Callable[[dict[str, Any], Version], dict[str, Any]]] = {
    VARIANTS: _shape_variants,
}


def shape_metadata(metadata: dict[str, Any] | None) -> None:
    """Render each versioned metadata entry in the negotiated version, in place."""
    if not metadata:
        return
    negotiated = current()
    for base, shape in SHAPES.items():
        entry = metadata.get(base)
        if isinstance(entry, dict):
            metadata[base] = shape(entry, negotiated.served(base).version)


# What every response of a request that negotiated (request_stack) carries.
_VARY = (b"vary", b"Accept-Commerce-Capabilities")


def requested(scope: Scope) -> Negotiated:
    """The negotiation of a request's Accept-Commerce-Capabilities (cached per value)."""
    values = [value for name, value in scope["headers"]
              if name == b"accept-commerce-capabilities"]
    return negotiate(b",".join(values).decode("latin-1")) if values else NOTHING_ASKED


def response_headers(negotiated: Negotiated) -> list[tuple[bytes, bytes]]:
    """Vary, and the deprecation of any version the client negotiated."""
    return [_VARY, *negotiated.deprecation_headers()]


def enter(negotiated: Negotiated) -> Token[Negotiated]:
    """Expose a request's negotiation to renderers (`current`) until `leave`."""
    return _current.set(negotiated)


def leave(token: Token[Negotiated]) -> None:
    _current.reset(token)
