"""The garbage collector as `commerce-agent serve` runs it.

CPython runs a young-generation collection whenever the container objects created since the
last one, less those freed, pass 700. Every request in flight holds a few hundred (frames,
dicts, rows), so with a few dozen requests at once that count passes 700 every few requests,
and each collection then walks all of them only to find them still alive: measured with 32
add-to-cart requests at once, about one collection per ten requests and some 7% of the
server's CPU. A threshold of 20,000 lets that working set come and go without a collection;
garbage in reference cycles is still found, a little later. Objects alive once the app is
built (modules, schemas, sample data) are frozen out of the full collections, which would
otherwise walk them every time.

Only the server command does this: an application embedding `create_app` keeps its own
settings.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 20_000


def tune_for_serving() -> None:
    _, middle, oldest = gc.get_threshold()
    gc.collect()  # what startup left behind goes now, not into the frozen set
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
