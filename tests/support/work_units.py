"""How `pytest -n auto --dist loadscope` (pyproject.toml) shares the tests between workers.

xdist's loadscope sends a whole module to one worker (a class, if the test is in one), so
its module-scoped servers and browsers start once and its tests run in their written order.
With two workers a module of several minutes bounds the run alone. The modules in `SPREAD`
have no module-wide state their tests depend on, so their work units are smaller: one per
parameter of a test (the part before any "/" of its id), so each held-out set, each agent
conversation and each fuzzing role is a unit of its own (a set's tests stay together, and its
module-scoped run happens once).

xdist starts the units with the most tests first, which says little about their time: the
units of `LONGEST` (the modules that take longest, longest first) start before everything
else, so none of them is left running alone at the end; the many one-test units (the
conversations) come last and fill the gaps.
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling
from xdist.workermanage import WorkerController

SPREAD = frozenset({"tests/e2e/test_agent_conversations.py", "tests/e2e/test_agent_heldout.py",
                    "tests/api/test_openapi_fuzz.py"})
LONGEST = ("tests/api/test_openapi_fuzz.py", "tests/e2e/test_agent_heldout.py")


def work_unit(nodeid: str) -> str:
    """The unit a test is scheduled in: its module (or class), or in a SPREAD module the
    module and the test's parameter id up to its first "/"."""
    module, _, rest = nodeid.partition("::")
    if module in SPREAD and "[" in rest:
        parameter = rest.partition("[")[2].removesuffix("]").split("/", 1)[0]
        return f"{module}[{parameter}]"
    return nodeid.rsplit("::", 1)[0]


def _rank(unit: str, tests: int) -> tuple[int, int]:
    module = unit.partition("[")[0].partition("::")[0]
    longest = LONGEST.index(module) if module in LONGEST else len(LONGEST)
    return longest, -tests


class SpreadScheduling(LoadScopeScheduling):
    """loadscope with the units of `work_unit`, the LONGEST ones started first."""

    _ranked = False

    def _split_scope(self, nodeid: str) -> str:
        return work_unit(nodeid)

    def _assign_work_unit(self, node: WorkerController) -> None:
        if not self._ranked and self.workqueue:  # once, when the queue is first filled
            self._ranked = True
            ranked = sorted(self.workqueue.items(), key=lambda pair: _rank(pair[0], len(pair[1])))
            self.workqueue.clear()
            self.workqueue.update(ranked)
        super()._assign_work_unit(node)


class Plugin:
    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any
                                    ) -> LoadScopeScheduling | None:
        return SpreadScheduling(config, log) if config.getvalue("dist") == "loadscope" else None
