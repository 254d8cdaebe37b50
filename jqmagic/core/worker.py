"""The supervised libjq worker process: where jq programs run.

libjq holds the GIL while it runs, aborts its process when memory runs out and can loop
forever, so it never runs in the caller's (the notebook kernel's) process. One long-lived
worker, started on first use, keeps compiled programs and reads input files by path.
A timeout, an interrupt, a memory cap or a crash costs one restarted worker, never the
caller; each is reported as a :class:`JqMagicError`.

Wire format (both directions): frames of an 8-byte little-endian length, then JSON. A
reply is a JSON header followed by one raw frame holding the result texts back to back;
the header's ``sizes`` says where each ends.
"""

from __future__ import annotations

import atexit
import json
import os
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, BinaryIO

from jqmagic.core.errors import JqMagicError
from jqmagic.core.spill import Spill

_HEADER = struct.Struct("<Q")


def _write_frame(stream: BinaryIO, data: bytes) -> None:
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_frame(stream: BinaryIO) -> bytes:
    (size,) = _HEADER.unpack(_read_exact(stream, _HEADER.size))
    return _read_exact(stream, size)


# ---------------------------------------------------------------- the worker side


def _serve(requests: BinaryIO, replies: BinaryIO) -> None:
    from jqmagic.core import libjq

    cache = libjq.ProgramCache()
    while True:
        try:
            request = json.loads(_read_frame(requests))
        except EOFError:
            return
        header, body = _execute(libjq, cache, request)
        _write_frame(replies, json.dumps(header).encode())
        _write_frame(replies, body)
        replies.flush()


def _execute(libjq, cache, request: dict) -> tuple[dict, bytes]:
    """Run one request; results beyond ``keep`` go to ``spill`` (when given) only."""
    keep, spill = request["keep"], Spill(request.get("spill"))
    kept: list[bytes] = []
    total = 0
    try:
        program = cache.get(request["program"], request.get("args"), request.get("library_paths"))
        flags = libjq.dump_flags(**request.get("layout", {}))
        for text in libjq.run(program, request["files"], null_input=request["null_input"],
                              slurp=request["slurp"], raw_input=request.get("raw_input", False),
                              flags=flags):
            total += 1
            data = text.encode()
            if keep is None or len(kept) < keep:
                kept.append(data)
            else:
                spill.add(kept, data)
        status, error = "ok", None
    except libjq.CompileError as exc:
        status, error = "compile_error", str(exc)
    except libjq.RunError as exc:
        status, error = "run_error", str(exc)
    except libjq.InputError as exc:
        status, error = "input_error", str(exc)
    except libjq.Halt as exc:
        status, error = "halt", {"exit_code": exc.exit_code, "message": exc.message}
    finally:
        spill.close()
    messages = program.messages[:] if status != "compile_error" else []
    header = {
        "status": status, "error": error, "total": total, "sizes": [len(d) for d in kept],
        "spilled": spill.written, "spill_error": spill.error, "messages": messages[:100],
    }
    return header, b"".join(kept)


def main() -> None:
    """Entry point of the worker process (``python -m jqmagic.core.worker``)."""
    limit = int(os.environ.get("JQMAGIC_WORKER_MEMORY", "0"))
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor decides, not Ctrl-C
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything libjq prints must not corrupt the replies
    _serve(sys.stdin.buffer, replies)


# ---------------------------------------------------------------- the supervisor side


def default_memory_limit() -> int:
    """Three quarters of physical memory: a runaway program fails, the machine survives."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 3 // 4
    except (ValueError, OSError):
        return 0


class Worker:
    """A handle on one worker process, restarted when it dies or is killed."""

    def __init__(self, memory_limit: int | None = None):
        self.memory_limit = default_memory_limit() if memory_limit is None else memory_limit
        self._process: subprocess.Popen | None = None
        self._stderr: Any = None
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _close
        env = dict(os.environ, JQMAGIC_WORKER_MEMORY=str(self.memory_limit))
        self._process = subprocess.Popen(
            [sys.executable, "-m", "jqmagic.core.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            env=env, start_new_session=True, bufsize=0,
        )
        return self._process

    def stop(self) -> None:
        """Kill the worker (the next request starts a new one)."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
            process.wait()
        self._close(process)

    def _close(self, process: subprocess.Popen) -> None:
        for stream in (process.stdin, process.stdout, self._stderr):
            if stream is not None:
                stream.close()

    def request(self, request: dict, timeout: float | None) -> tuple[dict, bytes]:
        """Send one request and wait for its reply, at most ``timeout`` seconds."""
        with self._lock:
            process = self._start()
            deadline = None if timeout is None else time.monotonic() + timeout
            try:
                _write_frame(process.stdin, json.dumps(request).encode())
                process.stdin.flush()
                header = json.loads(self._receive(process, deadline))
                body = self._receive(process, deadline)
            except KeyboardInterrupt:
                self.stop()
                raise JqMagicError("INTERRUPTED", "The jq program was interrupted.",
                                   "The jq worker was restarted; nothing else was lost.") from None
            except TimeoutError:
                self.stop()
                raise JqMagicError(
                    "TIMEOUT", f"The jq program ran longer than {timeout:g} s and was stopped.",
                    "Narrow the input (e.g. .items[:100]) or raise the limit with --timeout."
                ) from None
            except (EOFError, BrokenPipeError, OSError):
                raise self._crashed() from None
            return header, body

    def _receive(self, process: subprocess.Popen, deadline: float | None) -> bytes:
        stream = process.stdout
        fd = stream.fileno()
        # Wait in slices so that Ctrl-C in the caller is seen promptly.
        while not select.select([fd], [], [], self._slice(deadline))[0]:
            if process.poll() is not None:
                raise EOFError
        return _read_frame(stream)

    @staticmethod
    def _slice(deadline: float | None) -> float:
        if deadline is None:
            return 0.5
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        return min(left, 0.5)

    def _crashed(self) -> JqMagicError:
        process = self._process
        code = process.wait() if process is not None else None
        self._stderr.seek(0)
        stderr = self._stderr.read()[-2000:].decode("utf-8", "replace").strip()
        self._process = None
        if process is not None:
            self._close(process)
        if "cannot allocate memory" in stderr or code == -signal.SIGKILL:
            return JqMagicError(
                "TOO_LARGE", "The jq program ran out of memory and was stopped.",
                "Query a smaller part (e.g. .items[:1000]) or stream with --jsonl.")
        last = stderr.splitlines()[-1] if stderr else f"exit status {code}"
        return JqMagicError("QUERY_ERROR", f"The jq worker crashed: {last}",
                            "The worker was restarted; try again or simplify the program.")


_shared: Worker | None = None


def shared_worker() -> Worker:
    """The process-wide worker, created on first use."""
    global _shared
    if _shared is None:
        _shared = Worker()
        atexit.register(_shared.stop)
    return _shared


if __name__ == "__main__":
    main()
