"""A PostgreSQL cluster a test owns (`initdb` + `pg_ctl`, run as the `postgres` system user when
the tests run as root), so that it can be stopped, frozen and started again without touching
the shared server."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from tests.support.live import free_port
from tests.support.pg import _in_ci


def _binaries() -> tuple[str, str] | None:
    """initdb and pg_ctl of one installation: on PATH (or /usr/local/bin), else Debian's."""
    found = shutil.which("initdb") or shutil.which("initdb", path="/usr/local/bin")
    candidates = [os.path.dirname(found)] if found else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        initdb, pg_ctl = os.path.join(folder, "initdb"), os.path.join(folder, "pg_ctl")
        if os.access(initdb, os.X_OK) and os.access(pg_ctl, os.X_OK):
            return initdb, pg_ctl
    return None


def _as_postgres() -> list[str] | None:
    """How to run a command as a user PostgreSQL accepts (it refuses root)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return None
    runuser = shutil.which("runuser")
    return [runuser, "-u", "postgres", "--"] if runuser else None


def require_cluster_tools() -> tuple[str, str, list[str]]:
    binaries, prefix = _binaries(), _as_postgres()
    reason = None
    if binaries is None:
        reason = "initdb/pg_ctl not found (PostgreSQL server binaries are not installed)"
    elif prefix is None:
        reason = "running as root without a `postgres` system user (or runuser) for initdb"
    if reason is not None:
        if _in_ci():
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)
    assert binaries is not None and prefix is not None
    return binaries[0], binaries[1], prefix


@dataclass
class Cluster:
    pg_ctl: str
    prefix: list[str]
    data: str
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _ctl(self, *args: str) -> None:
        subprocess.run([*self.prefix, self.pg_ctl, "-D", self.data, *args], check=True,
                       capture_output=True, timeout=60)

    def start(self) -> None:
        """Returns once the server accepts connections (`pg_ctl -w`)."""
        options = (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 "
                   f"-c fsync=off -c max_connections=100")
        self._ctl("-l", os.path.join(self.data, "server.log"), "-w", "-o", options, "start")

    def stop(self) -> None:
        """A crash, as far as clients can tell: every connection is cut at once."""
        self._ctl("-m", "immediate", "-w", "stop")

    def processes(self) -> list[int]:
        with open(os.path.join(self.data, "postmaster.pid")) as pid_file:
            postmaster = int(pid_file.readline())
        children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(postmaster)],
                                  capture_output=True, text=True).stdout.split()
        return [postmaster, *map(int, children)]

    def freeze(self) -> None:
        """SIGSTOP the server and every backend: connections stay open, nothing answers."""
        for pid in self.processes():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.processes():
            os.kill(pid, signal.SIGCONT)


@contextmanager
def own_cluster() -> Iterator[Cluster]:
    initdb, pg_ctl, prefix = require_cluster_tools()
    base = tempfile.mkdtemp(prefix="ca-pg-cluster-")
    data = os.path.join(base, "data")
    if prefix:
        user = pwd.getpwnam("postgres")
        os.chown(base, user.pw_uid, user.pw_gid)
    subprocess.run([*prefix, initdb, "-D", data, "-U", "postgres", "--auth=trust",
                    "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"],
                   check=True, capture_output=True, timeout=120)
    cluster = Cluster(pg_ctl, prefix, data, free_port())
    cluster.start()
    try:
        yield cluster
    finally:
        try:
            cluster.thaw()
        except (OSError, ValueError):
            pass
        try:
            cluster.stop()
        except subprocess.CalledProcessError:
            pass
        time.sleep(0.1)
        shutil.rmtree(base, ignore_errors=True)
