"""What every bench script shares: ports, CPU pinning, waiting for a server, its memory."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pin(cpu: int) -> list[str]:
    """A command prefix running on one CPU, where the machine has two (server and driver
    apart)."""
    return ["taskset", "-c", str(cpu)] if (os.cpu_count() or 1) > 1 and shutil.which(
        "taskset") else []


def pin_self(cpu: int) -> None:
    if (os.cpu_count() or 1) > 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})


def wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited early ({process.returncode})")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("server did not come up")


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak) of a process, in KiB."""
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found


def cli(*args: str) -> str:
    """`commerce-agent ARGS…` in its own process; its standard output."""
    return subprocess.run([sys.executable, "-m", "commerce_agent", *args], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout.strip()


def serve_ours(db: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """`commerce-agent serve` on CPU 0 (simulator off unless `extra` says otherwise)."""
    return subprocess.Popen([*pin(0), sys.executable, "-m", "commerce_agent", "serve",
                             "--port", str(port), "--db", str(db), "--no-simulate",
                             "--log-level", "warning", *extra], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def serve_bare(port: int) -> subprocess.Popen[bytes]:
    """The ceiling (bench/bare_app.py) under uvicorn, served exactly like ours."""
    return subprocess.Popen([*pin(0), sys.executable, "-m", "uvicorn", "bare_app:app",
                             "--port", str(port), "--log-level", "warning", "--no-access-log"],
                            cwd=ROOT / "bench", stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
