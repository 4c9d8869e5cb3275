"""The test suite's own layout: every test module sits in its layer's folder, and no module
under tests/ imports a test module (shared helpers live in tests/support), so a merge that adds
a flat test file or a cross-import fails here rather than growing the tangle again."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
LAYERS = ("unit", "api", "db", "live", "browser", "e2e")


def imported_modules(path: Path, root: Path = TESTS.parent) -> set[str]:
    """Every module `path` (below `root`) imports, at any depth (function-level imports
    included), with relative imports resolved against its package."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def is_test_module(name: str) -> bool:
    return name.rsplit(".", 1)[-1].startswith("test_") or name == "tests.conftest"


def test_test_modules_sit_in_a_layer() -> None:
    flat = sorted(path.name for path in TESTS.glob("test_*.py"))
    assert flat == [], f"move these into one of tests/{{{','.join(LAYERS)}}}/: {flat}"
    folders = {path.parent.name for path in TESTS.rglob("test_*.py")}
    assert folders <= set(LAYERS), f"test modules outside the layers: {folders - set(LAYERS)}"
    for layer in (*LAYERS, "support"):
        assert (TESTS / layer / "__init__.py").is_file(), f"tests/{layer} is not a package"


def test_no_test_module_imports_another() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        names = {name for name in imported_modules(path)
                 if name.startswith("tests.") and is_test_module(name)}
        if names:
            offenders[str(path.relative_to(TESTS))] = sorted(names)
    assert offenders == {}, f"import these from tests/support instead: {offenders}"


def test_the_check_sees_every_way_of_importing_a_test_module(tmp_path: Path) -> None:
    probe = tmp_path / "tests" / "api" / "test_probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from tests.api.test_errors import assert_error\n"
                     "from .test_orders import place\n"
                     "from .. import conftest\n"
                     "from tests.support import helpers\n"
                     "def later():\n    import tests.live.test_cli\n", encoding="utf-8")
    found = {name for name in imported_modules(probe, tmp_path) if is_test_module(name)}
    assert found == {"tests.api.test_errors", "tests.api.test_orders", "tests.conftest",
                     "tests.live.test_cli"}
