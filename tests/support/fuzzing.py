"""Hypothesis settings for properties over the in-process app, one reading of the knob that
scales them: a few dozen examples a test, the same ones every run (CI); more and random by
hand: BAD_INPUT_EXAMPLES=500 pytest …"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def examples(default: int) -> settings:
    """`default` examples, or BAD_INPUT_EXAMPLES of them drawn at random; no example database,
    no deadline (a request to the app has no fixed time), and function-scoped fixtures (the app,
    its client) shared by the examples of one test."""
    return settings(
        max_examples=int(os.environ.get("BAD_INPUT_EXAMPLES", str(default))),
        deadline=None,
        derandomize="BAD_INPUT_EXAMPLES" not in os.environ,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
