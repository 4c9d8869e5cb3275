"""The import graph of `commerce_agent`: no circles, and the layers point one way.

Every `import` and `from … import` of every module is read with `ast`, wherever it stands
(module level, inside a function, under `if TYPE_CHECKING:`), since a function-level import
that closes a loop is a circle all the same. An import names the module it imports: a
submodule when `from package import name` names one, else the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import commerce_agent

ROOT = Path(commerce_agent.__file__).parent
PACKAGE = "commerce_agent"
# Front ends: nothing under commerce_agent.commerce may import them.
FRONT_ENDS = ("commerce_agent.web", "commerce_agent.mcp", "commerce_agent.agent",
              "commerce_agent.commerce.admin")
# Pairs (importer, imported) allowed to break a rule below. Keep it empty.
ALLOWED: frozenset[tuple[str, str]] = frozenset()


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = (PACKAGE, *path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _known(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """The modules of this package that `module` imports, anywhere in its body."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(filter(None, (_known(alias.name) for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                named = f"{base}.{alias.name}"
                target = named if named in MODULES else _known(base)
                if target:
                    found.add(target)
    found.discard(module)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected sets of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep graph cannot hit the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def _allowed_graph() -> dict[str, set[str]]:
    return {module: {target for target in targets if (module, target) not in ALLOWED}
            for module, targets in GRAPH.items()}


def test_the_allow_list_is_empty() -> None:
    assert not ALLOWED


def test_the_parser_sees_function_level_imports() -> None:
    # cli.py imports the workers inside `serve` only, so that other commands start fast.
    assert "commerce_agent.workers" in GRAPH["commerce_agent.cli"]
    # `from package import submodule` names the submodule.
    assert "commerce_agent.commerce.orders.rules" in GRAPH["commerce_agent.commerce.orders.view"]


def test_cycles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back() -> None:
    circles = cycles(_allowed_graph())
    assert not circles, "import circles:\n" + "\n".join(
        " ⇄ ".join(circle) for circle in circles)


def test_commerce_never_imports_a_front_end() -> None:
    wrong = sorted((module, target) for module, targets in _allowed_graph().items()
                   if module.startswith("commerce_agent.commerce.")
                   and not module.startswith("commerce_agent.commerce.admin")
                   for target in targets if target.startswith(FRONT_ENDS))
    assert not wrong, wrong


def test_orders_never_import_fulfillment() -> None:
    """Fulfillment listens to orders (the schedule rows the lifecycle writes, and the
    lifecycle it calls); the order package never imports it back."""
    wrong = sorted((module, target) for module, targets in GRAPH.items()
                   if module.startswith("commerce_agent.commerce.orders")
                   for target in targets
                   if target.startswith("commerce_agent.commerce.services.fulfillment"))
    assert not wrong, wrong


def test_the_order_rules_import_nothing_that_writes() -> None:
    """model and rules are pure: only the standard library, msgspec, the clock, the error
    type and the address type."""
    for module in ("commerce_agent.commerce.orders.model", "commerce_agent.commerce.orders.rules"):
        assert GRAPH[module] <= {"commerce_agent.clock", "commerce_agent.errors",
                                 "commerce_agent.commerce.address",
                                 "commerce_agent.commerce.orders.model"}, GRAPH[module]


def _inside(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def test_front_ends_share_one_registry_of_operations() -> None:
    """The agent and MCP both adapt commerce_agent.operations (the tools and their approval
    policy): MCP imports nothing of the agent's, the agent nothing of MCP's, and the registry
    imports neither (docs/decisions.md, "One registry of operations")."""
    operations = "commerce_agent.operations"
    rules = (("commerce_agent.mcp", ("commerce_agent.agent",)),
             ("commerce_agent.agent", ("commerce_agent.mcp",)),
             (operations, FRONT_ENDS))
    wrong = sorted((module, target) for importer, forbidden in rules
                   for module, targets in _allowed_graph().items()
                   if _inside(module, (importer,))
                   for target in targets if _inside(target, forbidden))
    assert not wrong, wrong
    assert operations + ".policy" in GRAPH["commerce_agent.mcp.server"]
    assert operations + ".policy" in GRAPH["commerce_agent.agent.turn"]
