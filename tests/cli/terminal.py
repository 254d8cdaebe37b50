"""The command line run with its stdout on a terminal (a pseudo-terminal), as a person
sees it; stderr is a pipe, read apart."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from dataclasses import dataclass


@dataclass
class Shown:
    returncode: int
    stdout: str  # as the terminal received it (its \r\n made \n again)
    stderr: str


def on_terminal(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> Shown:
    """``python -m jqmagic ARGS`` with stdout on a pseudo-terminal."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "jqmagic", *args], stdout=follower,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env={**os.environ, **(env or {})})
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:  # EIO: the terminal's other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    stderr = process.stderr.read().decode()
    process.stderr.close()
    code = process.wait(timeout)
    return Shown(code, b"".join(chunks).decode().replace("\r\n", "\n"), stderr)
