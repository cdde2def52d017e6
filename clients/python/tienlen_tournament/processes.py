"""Stopping a process the tournament started (a bot, or its server): SIGTERM, then SIGKILL."""

from __future__ import annotations

import subprocess


def stop_process(process: subprocess.Popen[bytes], wait_s: float) -> None:
    """Ask ``process`` to stop (SIGTERM); kill it (SIGKILL) when it has not stopped after ``wait_s`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
