"""`commerce-agent serve --workers 2`: two processes answer on one port, the start-up text is
printed once, Ctrl-C (to the parent, or to the whole process group as a terminal sends it) and
SIGTERM stop every process; the memory journal (one process only) is refused; and the worker
factory refuses to start without its settings."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
from click.testing import CliRunner

from commerce_agent.cli import main
from tests.support.live import LiveServer, start_live_server

pytestmark = pytest.mark.both_backends


def workers_of(parent: int) -> list[int]:
    """The server processes uvicorn spawned (not multiprocessing's resource tracker)."""
    with open(f"/proc/{parent}/task/{parent}/children") as children:
        pids = [int(pid) for pid in children.read().split()]
    found = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"spawn_main" in cmdline.read():
                    found.append(pid)
        except FileNotFoundError:  # gone meanwhile
            pass
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def answers(url: str) -> bool:
    """A fresh connection (so that any process may accept it) gets a 200."""
    with httpx.Client(timeout=3) as http:
        return http.get(f"{url}/capabilities").status_code == 200


def ready_workers(server: LiveServer, count: int) -> list[int]:
    deadline = time.monotonic() + 30
    while len(pids := workers_of(server.process.pid)) < count or \
            server.output().count("Application startup complete") < count:
        assert time.monotonic() < deadline, server.output()
        time.sleep(0.1)
    return pids


@pytest.mark.parametrize("stop", ["ctrl-c to the parent", "ctrl-c to the group", "sigterm"])
def test_two_workers_each_answer_and_stop_together(stop: str, db_target: str,
                                                    servers: list[LiveServer]) -> None:
    server = start_live_server(db_target, ["--no-simulate", "--workers", "2",
                                       "--log-level", "info"])
    servers.append(server)
    pids = ready_workers(server, 2)
    assert len(pids) == 2
    # Each process answers on its own: with the other one paused, requests still succeed
    # (well inside uvicorn's 5 s health check, which would replace a paused process).
    for paused, serving in (pids, pids[::-1]):
        os.kill(paused, signal.SIGSTOP)
        try:
            assert all(answers(server.url) for _ in range(3)), f"{serving} did not answer"
        finally:
            os.kill(paused, signal.SIGCONT)
    if stop == "ctrl-c to the parent":
        server.process.send_signal(signal.SIGINT)
    elif stop == "ctrl-c to the group":  # what a terminal does: every process gets SIGINT
        for pid in [server.process.pid, *pids]:
            os.kill(pid, signal.SIGINT)
    else:
        server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=20) == 0, server.output()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)
    output = server.output()
    assert output.count(f"commerce-agent serving {server.url}") == 1, output
    assert output.count("Uvicorn running on") == 1, output
    assert output.count("Application startup complete") == 2, output
    assert output.count("Application shutdown complete") == 2, output
    assert "Traceback" not in output, output


def test_the_memory_journal_is_refused_with_several_workers(tmp_path: os.PathLike[str]) -> None:
    result = CliRunner().invoke(main, ["serve", "--workers", "2", "--journal", "memory",
                                       "--db", os.path.join(tmp_path, "m.db")])
    assert result.exit_code == 2
    assert "--journal memory lives in one process" in result.output


def test_a_worker_without_its_settings_says_how_to_start_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from commerce_agent.workers import SETTINGS_VARIABLE, app_from_environment

    monkeypatch.delenv(SETTINGS_VARIABLE, raising=False)
    with pytest.raises(RuntimeError, match="serve --workers"):
        app_from_environment()


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_workers_die_with_a_killed_supervisor(db_target: str,
                                               servers: list[LiveServer]) -> None:
    server = start_live_server(db_target, ["--no-simulate", "--workers", "2",
                                       "--log-level", "info"])
    servers.append(server)
    pids = ready_workers(server, 2)
    server.kill()  # SIGKILL: the supervisor cannot stop its workers itself
    deadline = time.monotonic() + 10
    while (any(alive(pid) for pid in pids) or not _port_free(server.port)) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids), server.output()
    assert _port_free(server.port)
    again = start_live_server(db_target, ["--no-simulate"], port=server.port)
    servers.append(again)
    assert answers(again.url)



def test_a_worker_whose_supervisor_is_gone_does_not_start() -> None:
    # In a process of its own: the parent-death signal must not be set on the test runner.
    code = "from commerce_agent.workers import die_with_supervisor; die_with_supervisor(1)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 1
    assert "started this worker is gone" in result.stderr
