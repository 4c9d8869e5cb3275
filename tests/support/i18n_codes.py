"""Every error code the server can produce, found by walking the source tree's syntax.

Codes come from `CommerceError(status, "code", …)` calls, from `not_found("kind", id)`
(`kind_not_found`), from error_codes.for_status, and from helpers that pass a code parameter through
to CommerceError (their callers' string arguments). A CommerceError whose code cannot be traced
to a string is reported, so a new code never slips past the translation test.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import commerce_agent
from commerce_agent import error_codes

ROOT = Path(commerce_agent.__file__).parent
# Calls whose code is computed and accounted for above (not_found, the HTTPException handler).
KNOWN_DYNAMIC = {("errors.py", "not_found"), ("errors.py", "http_error_handler")}


@dataclass
class Found:
    codes: dict[str, list[set[str] | None]] = field(default_factory=dict)  # code → params/site
    untraced: list[str] = field(default_factory=list)

    def add(self, code: str, params: set[str] | None) -> None:
        self.codes.setdefault(code, []).append(params)

    def params(self, code: str) -> set[str]:
        """Params every raise site of `code` passes (None = unknown → nothing guaranteed)."""
        sites = self.codes.get(code, [])
        known = [site for site in sites if site is not None]
        if len(known) < len(sites) or not known:
            return set()
        return set.intersection(*known)


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _arg(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _param_keys(call: ast.Call) -> set[str] | None:
    params = next((k.value for k in call.keywords if k.arg == "params"), None)
    if params is None:
        return set()
    if isinstance(params, ast.Dict) and all(isinstance(k, ast.Constant) for k in params.keys):
        return {str(k.value) for k in params.keys if isinstance(k, ast.Constant)}
    return None


def _functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef,
                                                     ast.Call]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    yield node, inner


@functools.cache
def walk(root: Path = ROOT) -> Found:
    """What the tree at `root` raises: parsed and walked once per process (read it, do not
    change it)."""
    found = Found()
    trees = {path: ast.parse(path.read_text(), str(path)) for path in root.rglob("*.py")}
    calls = {path: [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
             for path, tree in trees.items()}
    helpers: dict[str, tuple[int, str]] = {}  # function name → (position, parameter name)
    for path, tree in trees.items():
        raising = [call for call in calls[path] if _name(call.func) == "CommerceError"]
        for call in raising:
            code = _arg(call, 1, "code")
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                found.add(code.value, _param_keys(call))
        for function, call in _functions(tree) if raising else ():
            code = _arg(call, 1, "code") if _name(call.func) == "CommerceError" else None
            if code is None or isinstance(code, ast.Constant):
                continue
            if (path.name, function.name) in KNOWN_DYNAMIC:
                continue
            names = [a.arg for a in function.args.args]
            if isinstance(code, ast.Name) and code.id in names:
                helpers[function.name] = (names.index(code.id), code.id)
            else:
                found.untraced.append(f"{path.relative_to(root)}:{call.lineno} "
                                      f"({function.name})")
    for found_calls in calls.values():
        for call in found_calls:
            name = _name(call.func)
            if name == "not_found" and len(call.args) == 2:
                kind = call.args[0]
                if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
                    found.add(f"{kind.value}_not_found", {"id"})
            elif name in helpers:
                position, keyword = helpers[name]
                value = _arg(call, position, keyword)
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.add(value.value, None)
    for code in [*(error_codes.for_status(status) for status in range(400, 600)),
                 "bad_request", error_codes.SERVER_ERROR]:
        found.add(code, set())
    return found
