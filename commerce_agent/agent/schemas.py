"""Output schemas sent by clients: checked when a request brings one, then used to validate the
turn's structured result without touching the network or stalling the server.

- `$ref`s resolve only inside the schema. jsonschema's default registry fetches unknown URIs
  with urllib, synchronously, in the event loop; here the registry retrieves nothing, and a
  schema whose refs do not resolve locally is refused when it arrives.
- `pattern`, `patternProperties` and `additionalProperties` (which consults the patterns) match
  with the `regex` package under a timeout and a time budget per validation, in a worker
  thread: Python's `re` cannot be interrupted and holds the GIL, so one catastrophic pattern
  froze every request. A match that runs out of time fails the validation.
- jsonschema matches `patternProperties` with `re` on its own while evaluating
  `unevaluatedProperties`, and a nested `$schema` switches to its stock validator classes
  (with `re`): a schema that holds either is refused.
- Size and nesting are capped.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import jsonschema
import referencing
import referencing.exceptions
import referencing.jsonschema
import regex  # type: ignore[import-untyped]  # no type information published
from jsonschema.exceptions import ValidationError

MAX_DEPTH = 32  # nested objects and arrays in the schema document
MAX_NODES = 5_000  # JSON values in the schema document
PATTERN_SECONDS = 0.1  # one match
BUDGET_SECONDS = 1.0  # every match of one validation together

DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class SchemaRefused(ValueError):
    """The outputSchema cannot be used; the message says why (for a 400)."""


class _PatternFailed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# When the running validation must stop matching patterns (time.monotonic()); None: no budget.
_deadline: ContextVar[float | None] = ContextVar("schema_deadline", default=None)


def _search(pattern: str, text: str) -> bool:
    deadline = _deadline.get()
    left = PATTERN_SECONDS if deadline is None else min(PATTERN_SECONDS,
                                                        deadline - time.monotonic())
    if left <= 0:
        raise _PatternFailed(f"matching the pattern {pattern!r} ran out of time "
                             f"({BUDGET_SECONDS:g} s for the whole result)")
    try:
        # concurrent=True releases the GIL while matching, so the event loop keeps running.
        return regex.search(pattern, text, timeout=left, concurrent=True) is not None
    except TimeoutError:
        raise _PatternFailed(f"matching the pattern {pattern!r} took too long (over "
                             f"{left:.2g} s)") from None
    except regex.error as exc:
        raise _PatternFailed(f"the pattern {pattern!r} is not a valid regular expression: "
                             f"{exc}") from None


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not _search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any
                        ) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: Any
                           ) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = [key for key in instance if key not in properties
              and not any(_search(pattern, key) for pattern in patterns)]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        listed = ", ".join(repr(extra) for extra in sorted(extras))
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            yield ValidationError(f"{listed} {verb} not match any of the regexes: "
                                  f"{', '.join(repr(p) for p in sorted(patterns))}")
        else:
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(f"Additional properties are not allowed ({listed} {verb} "
                                  "unexpected)")


_KEYWORDS = {"pattern": _pattern, "patternProperties": _pattern_properties,
             "additionalProperties": _additional_properties}
_classes: dict[Any, Any] = {}


def _validator_class(schema: dict[str, Any]) -> Any:
    """The dialect's validator class with the bounded pattern keywords."""
    base = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    if base not in _classes:
        _classes[base] = jsonschema.validators.extend(base, _KEYWORDS)
    return _classes[base]


# referencing's classes are attrs classes behind its own decorator, which mypy cannot see
# through: hence the ignores on their constructors.

def _nothing_remote(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


# Resolves refs among the schema's own resources (and the metaschemas jsonschema adds); never
# retrieves a URI.
LOCAL_ONLY: referencing.Registry[Any] = referencing.Registry(
    retrieve=_nothing_remote)  # type: ignore[call-arg]


# -- checking a schema when it arrives -----------------------------------------------------

_ONE_SCHEMA = ("additionalProperties", "unevaluatedProperties", "additionalItems",
               "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else",
               "items", "contentSchema")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
                "dependencies")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")


def _shape(root: dict[str, Any]) -> None:
    """Refuse a schema that is too big or too deep, or holds what jsonschema would match with
    `re` (see the module docstring). Walks every value, not only subschemas, because a `$ref`
    may point anywhere in the document."""
    nodes = 0
    keywords: set[str] = set()
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise SchemaRefused(f"outputSchema is too large (over {MAX_NODES} JSON values).")
        if isinstance(node, dict | list) and depth > MAX_DEPTH:
            raise SchemaRefused(f"outputSchema nests too deeply (over {MAX_DEPTH} levels).")
        if isinstance(node, dict):
            if node is not root and isinstance(node.get("$schema"), str):
                raise SchemaRefused("$schema is allowed only at the root of outputSchema.")
            keywords.update(key for key in ("unevaluatedProperties", "patternProperties")
                            if key in node)
            stack.extend((child, depth + 1) for child in node.values())
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
    if len(keywords) == 2:
        raise SchemaRefused("outputSchema cannot combine unevaluatedProperties with "
                            "patternProperties.")


def _subschemas(node: dict[str, Any]) -> Iterator[Any]:
    for key in _ONE_SCHEMA:
        if isinstance(node.get(key), dict):
            yield node[key]
    for key in _SCHEMA_MAPS:
        if isinstance(node.get(key), dict):
            yield from node[key].values()
    for key in _SCHEMA_LISTS:
        if isinstance(node.get(key), list):
            yield from node[key]


def _compiles(pattern: Any) -> None:
    if not isinstance(pattern, str):
        return
    try:
        regex.compile(pattern)
    except regex.error as exc:
        raise SchemaRefused(f"outputSchema has a pattern that is not a valid regular "
                            f"expression: {pattern!r} ({exc}).") from None


def _local_refs(node: Any, resolver: Any, specification: referencing.Specification[Any]
                ) -> None:
    """Check every subschema's patterns compile and its refs resolve inside the schema."""
    if not isinstance(node, dict):
        return
    resolver = resolver.in_subresource(specification.create_resource(node))
    _compiles(node.get("pattern"))
    for pattern in node.get("patternProperties", {}) if isinstance(
            node.get("patternProperties"), dict) else ():
        _compiles(pattern)
    for keyword in ("$ref", "$dynamicRef"):
        ref = node.get(keyword)
        if not isinstance(ref, str):
            continue
        try:
            resolver.lookup(ref)
        except referencing.exceptions.Unresolvable:
            raise SchemaRefused(f"outputSchema's {keyword} {ref!r} does not resolve inside "
                                "the schema (refs may point only within outputSchema; "
                                "nothing is fetched).") from None
    for child in _subschemas(node):
        _local_refs(child, resolver, specification)


def check(value: Any) -> dict[str, Any]:
    """The outputSchema of a request, or SchemaRefused saying why it cannot be used.

    Blocking (the metaschema check of a large schema takes a while): run it in a thread."""
    if not isinstance(value, dict):
        raise SchemaRefused("outputSchema must be a JSON object holding a JSON Schema.")
    dialect = value.get("$schema", DEFAULT_DIALECT)
    if not isinstance(dialect, str) or (
            "$schema" in value and jsonschema.validators.validator_for(value, None) is None):
        raise SchemaRefused(f"outputSchema's $schema is not a JSON Schema dialect this server "
                            f"knows; omit it or use {DEFAULT_DIALECT}.")
    _shape(value)
    try:
        _validator_class(value).check_schema(value)
    except jsonschema.SchemaError as exc:
        raise SchemaRefused(f"outputSchema is not a valid JSON Schema: {exc.message}") from None
    specification = referencing.jsonschema.specification_with(
        dialect, default=referencing.jsonschema.DRAFT202012)
    _local_refs(value, LOCAL_ONLY.resolver_with_root(specification.create_resource(value)),
                specification)
    return value


# -- validating a result -------------------------------------------------------------------

def problem(schema: dict[str, Any], value: Any) -> str | None:
    """Why `value` does not match `schema` (the first error, by position), or None.

    Blocking: run it in a worker thread."""
    token = _deadline.set(time.monotonic() + BUDGET_SECONDS)
    try:
        validator = _validator_class(schema)(schema, registry=LOCAL_ONLY)
        # By position; (is-a-key, part) keeps keys and indexes from being compared.
        errors = sorted(validator.iter_errors(value), key=lambda error: [
            (isinstance(part, str), part) for part in error.absolute_path])
    except _PatternFailed as exc:
        return exc.message
    except referencing.exceptions.Unresolvable as exc:
        return f"a $ref of the output schema does not resolve inside it ({exc})"
    except RecursionError:
        return "the output schema refers to itself without end"
    finally:
        _deadline.reset(token)
    if not errors:
        return None
    where = "/" + "/".join(str(part) for part in errors[0].absolute_path)
    return f"{errors[0].message} (at {where})"
