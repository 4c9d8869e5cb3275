"""Start real `commerce-agent serve` processes for streaming, multi-process and restart tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import httpx

from commerce_agent.tls import client_context


def cli(*args: str) -> str:
    """Run `commerce-agent ARGS…` as a separate process; its standard output."""
    return subprocess.run([sys.executable, "-m", "commerce_agent", *args], check=True,
                          capture_output=True, text=True, timeout=60).stdout.strip()


def user_token(db_path: str, email: str = "alice@example.com") -> str:
    """A token for a demo user; the store is seeded first (only serve, seed and init create a
    database, and a test may ask for a token before any server opened it)."""
    cli("seed", "--db", db_path)
    return cli("token", "create", "--user", email, "--db", db_path)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    db_path: str
    port: int
    process: subprocess.Popen[bytes]
    extra_args: list[str] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        """What the server printed so far (stdout and stderr)."""
        with open(log_path(self.db_path, self.port), encoding="utf-8") as log:
            return log.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """SIGKILL: the crash the durability tests are about."""
        self.process.kill()
        self.process.wait()

    def restart(self) -> LiveServer:
        self.stop()
        return start_live_server(self.db_path, self.extra_args, port=self.port)


def log_path(db_path: str, port: int) -> str:
    """Where a server's output goes: beside its SQLite file, or, for a database URL, in the
    temporary folder under a name made from the URL's database name."""
    if "://" not in db_path:
        return f"{db_path}.{port}.log"
    name = db_path.rsplit("/", 1)[-1].split("?", 1)[0] or "db"
    return os.path.join(tempfile.gettempdir(), f"commerce-agent-{name}.{port}.log")


def start_live_server(db_path: str, extra_args: list[str] | None = None, *,
                      port: int | None = None, timeout: float = 30.0) -> LiveServer:
    args = list(extra_args or ["--no-simulate"])
    port = port or free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "commerce_agent", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db_path, "--log-level", "warning", *args]
    # Output goes to a file: an unread pipe would fill up and block the server.
    log = open(log_path(db_path, port), "ab")  # closed below; the child keeps its copy
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    log.close()
    server = LiveServer(db_path, port, process, list(extra_args or ["--no-simulate"]))
    deadline = time.monotonic() + timeout
    # One client for every poll: each new httpx client reads the CA bundle (~70 ms of CPU the
    # starting server could use), and httpx.get makes one per call.
    with httpx.Client(timeout=1.0, verify=client_context()) as http:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                with open(log_path(db_path, port)) as log_file:
                    output = log_file.read()
                raise RuntimeError(f"server exited with {process.returncode}:\n{output}")
            try:
                if http.get(f"{server.url}/capabilities").status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("server did not start in time")
