"""Keep the garbage collector's full collections off what a test process holds for good.

CPython's full (oldest-generation) collection walks every tracked object, and a test process
holds a great many that never die: the modules, thousands of collected test items and their
parameters (every conversation of tests/conversations/), and what the agent's readers load on
first use (pykakasi's dictionary alone is some 280,000 objects). A conversation run sees
about one full collection every dozen conversations, each walking all of that: measured, a
tenth of a conversation file's CPU time.

`freeze()` collects what is garbage now, then moves every object still alive to the
collector's permanent generation (`gc.freeze`), which no later collection walks. Called where
the only live objects are long-lived ones (after collection; between tests, once the test's
fixtures are torn down), it changes nothing a test can see: garbage is still collected, a
little earlier; what is frozen is never freed, and it was not going to be. Test runs only:
the server has its own (commerce_agent/gc_tuning.py).
"""

from __future__ import annotations

import gc

# Tests (or conversations) between two freezes: what the readers load on first use is frozen
# soon, and the collection before each freeze walks only what came since the last one.
EVERY = 50


def freeze() -> None:
    gc.collect()
    gc.freeze()


class Checkpoints:
    """`passed()` after each unit of work; every EVERY units, `freeze()`."""

    def __init__(self, every: int = EVERY) -> None:
        self.every = every
        self._count = 0

    def passed(self) -> None:
        self._count += 1
        if self._count % self.every == 0:
            freeze()
