"""`commerce-agent serve --workers N`: N server processes sharing one listening socket.

uvicorn does the process work: its supervisor (uvicorn.supervisors.Multiprocess) binds the
socket once, spawns N processes that each import `app_from_environment` below and accept on
that socket, replaces a process that dies, and on SIGINT/SIGTERM stops them all and waits for
them. The settings travel through one environment variable (spawned processes inherit the
environment; uvicorn gives an app factory no arguments).

What makes N processes safe is the store, not this module: the parent migrates and seeds once
before any process starts, and every background loop of the app already shares the work
through the database: the webhook sender leases each delivery in a transaction (one attempt at
a time per event, whichever process claims it), the simulator re-reads a fulfillment job in the
transaction that moves its order (a step runs once), the order feed and agent journal
followers read what any process committed. docs/deploy.md says the same for several hosts.

A worker dies with its supervisor, however the supervisor ends: on SIGINT/SIGTERM it stops
them, and if it is killed outright (SIGKILL, the OOM killer) each worker gets SIGTERM from the
kernel (Linux's parent-death signal; elsewhere a thread that watches for a new parent), so no
orphan keeps the port and a restart can bind it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

import msgspec
import uvicorn
from starlette.applications import Starlette

from commerce_agent.app import create_app
from commerce_agent.gc_tuning import tune_for_serving
from commerce_agent.settings import Settings

# Set by `serve` for its worker processes only; not an option anyone sets by hand.
SETTINGS_VARIABLE = "COMMERCE_AGENT_WORKER_SETTINGS"
SUPERVISOR_VARIABLE = "COMMERCE_AGENT_SUPERVISOR_PID"
PR_SET_PDEATHSIG = 1  # linux/prctl.h
FACTORY = f"{__name__}:app_from_environment"
# Open streams (order updates, following agent streams) would hold Ctrl-C forever: they get a
# few seconds to finish, then are cancelled (clients resume from their ids).
GRACEFUL_SHUTDOWN_SECONDS = 3


def app_from_environment() -> Starlette:
    """The app of one worker process, on the settings `serve` put in the environment. The
    parent seeded the store already: N processes never race to seed it."""
    encoded = os.environ.get(SETTINGS_VARIABLE)
    if encoded is None:
        raise RuntimeError(f"{SETTINGS_VARIABLE} is not set: start workers with "
                           "`commerce-agent serve --workers N`")
    die_with_supervisor(int(os.environ.get(SUPERVISOR_VARIABLE, "0")))
    app = create_app(msgspec.json.decode(encoded, type=Settings), seed_data=False)
    tune_for_serving()
    return app


def die_with_supervisor(supervisor: int) -> None:
    """SIGTERM to this process once `supervisor` (its parent) is gone, and uvicorn's SIGTERM
    handling ends the worker as a Ctrl-C would; SystemExit if it is gone already."""
    if not supervisor:  # not started by `serve --workers`
        return
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            _watch_parent(supervisor)
    else:
        _watch_parent(supervisor)
    if os.getppid() != supervisor:  # it died before the signal was set
        raise SystemExit("the serve process that started this worker is gone")


def _watch_parent(supervisor: int) -> None:
    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="supervisor-watch", daemon=True).start()


def serve(settings: Settings, *, host: str, port: int, workers: int, log_level: str,
          seed_data: bool = True) -> None:
    """Serve until SIGINT/SIGTERM: in this process (workers=1) or in `workers` processes."""
    app: Starlette | str = FACTORY
    if workers == 1:
        app = create_app(settings, seed_data=seed_data)
        tune_for_serving()
    else:
        os.environ[SETTINGS_VARIABLE] = msgspec.json.encode(settings).decode()
        os.environ[SUPERVISOR_VARIABLE] = str(os.getpid())
    # uvicorn writes access lines at info: below that level it would still format each one.
    uvicorn.run(app, host=host, port=port, workers=workers, factory=workers > 1,
                log_level=log_level, access_log=log_level in ("info", "debug"),
                timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS)
