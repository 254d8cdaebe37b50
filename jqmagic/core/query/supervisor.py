"""The supervisor of the worker process where every query runs (see ``worker``).

libjq holds the GIL while it runs and aborts its process when memory runs out; any
program can loop forever or build a value bigger than memory. So no query runs in the
caller's (the notebook kernel's) process: one long-lived worker, started on first use,
keeps compiled programs and parsed documents. A timeout, an interrupt, a memory cap or a
crash costs one restarted worker, never the caller; each is reported as a
:class:`JqMagicError`.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

from jqmagic.core import confine, sandbox
from jqmagic.core.errors import JqMagicError, too_deep
from jqmagic.core.query import affinity, callerenv, forkworker, progress, protocol
from jqmagic.core.settings import default_worker_memory, settings
from jqmagic.core.words import term

GRACE = 0.3  # seconds past a timeout before the worker is killed (the fast path stops itself)
START_UP = 60.0  # seconds a worker may take to start and take a request


class Supervisor:
    """A handle on one worker process, restarted when it dies or is killed."""

    def __init__(self, memory_limit: int | None = None, spares: int | None = 0):
        self._given_limit = memory_limit
        self.memory_limit = memory_limit or settings.worker_memory or default_worker_memory()
        self._process: subprocess.Popen | None = None
        self._stderr: Any = None
        self._tmpdir = ""
        self._confined_by: tuple | None = None
        self._lock = threading.Lock()
        self._spares: list[Supervisor] = []  # started while this one is busy (up to spares)
        self._spare_count = spares  # None: as many as settings.workers allows
        self._freed = threading.Condition()  # a member's lock was released
        self._owner: int | None = None  # the thread whose ask() holds this worker
        self._waiting: set[int] = set()  # the threads waiting in _free for a worker
        self._holders = affinity.Holders()  # which member parsed which file
        self._parsed_in: float | None = None  # the last request's parse, in seconds

    def _start(self) -> subprocess.Popen:
        if self._process is not None and self._confined_by != sandbox.worker_key():
            self.stop()  # a confinement cannot be widened: its environment and rules follow
        if self._process is not None and self._process.poll() is None:
            return self._process
        self.memory_limit = self._given_limit or settings.worker_memory or \
            default_worker_memory()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _close
        # The worker's temporary files live in a folder of its own, removed with it, so a
        # killed worker leaves nothing behind.
        self._tmpdir = tempfile.mkdtemp(prefix="jqmagic-worker-")
        self._confined_by = sandbox.worker_key()
        if self._confined_by and (said := confine.shortfall_once()):
            print(f"jqmagic: {said}", file=sys.stderr)  # once: what this kernel cannot confine
        # Sandboxed, the worker starts scrubbed (no secrets in $ENV) and confines itself
        # (confine.start_worker: Landlock, no sockets); it dies with this process either way.
        # Else libjq's $ENV is the caller's environment (callerenv: the worker's own
        # variables are taken out of C's environ there).
        own = {"JQMAGIC_WORKER_MEMORY": str(self.memory_limit), "TMPDIR": self._tmpdir,
               "JQMAGIC_WORKER_PARENT": str(os.getpid())}
        env = dict(sandbox.worker_environment(os.environ), **own) if self._confined_by \
            else callerenv.for_worker(os.environ, own)
        if forkworker.can_fork():  # a command line: a fork, not a second interpreter
            self._process = forkworker.ForkedWorker(env, self._stderr)
            return self._process
        self._process = confine.popen(
            [sys.executable, "-m", "jqmagic.core.query.worker"],
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

    def clear_cache(self) -> None:
        """Forget every parsed document the workers keep (no-op when none runs); a worker
        this thread's open results hold keeps its own (waiting for it would never end)."""
        self._holders.clear()
        for member in (self, *self._spares):
            if member._owner == threading.get_ident():
                continue
            if member._process is not None and member._process.poll() is None:
                member._lock.acquire()
                try:
                    for _ in member._asked(protocol.Control("clear_cache"), 30):
                        pass
                finally:
                    self._release(member)

    def stop_all(self) -> None:
        """Kill this worker and its spares (at exit)."""
        for member in (self, *self._spares):
            member.stop()

    def _close(self, process: subprocess.Popen) -> None:
        for stream in (process.stdin, process.stdout, self._stderr):
            if stream is not None:
                stream.close()
        shutil.rmtree(self._tmpdir, ignore_errors=True)

    def warm(self) -> None:
        """Start the worker now, so that its start-up overlaps the caller's own work (the
        command line reads its arguments and input meanwhile)."""
        self._lock.acquire()
        try:
            self._start()
        finally:
            self._release(self)

    def request(self, request: protocol.QueryRequest,
                timeout: float | None) -> tuple[protocol.End, list[bytes]]:
        """Send one request and gather its whole reply: every text, then how it ended."""
        texts: list[bytes] = []
        for reply in self.ask(request, timeout):
            if isinstance(reply, protocol.Chunk):
                texts.extend(reply.texts)
            else:
                return reply, texts
        raise AssertionError("a reply always ends")  # pragma: no cover

    def ask(self, request: protocol.QueryRequest | protocol.Call | protocol.Control,
            timeout: float | None) -> Iterator[protocol.Chunk | protocol.End]:
        """Send one request; yield its chunks as they come, then its :class:`End`. The
        program's clock (``timeout`` seconds, None for none, plus a moment's grace in which
        the worker stops itself and keeps its caches) runs from the worker's ``begin`` and
        stops while it parses. Closing the iterator early stops the run (the worker keeps
        its caches when it stops in time). While this worker is busy with another thread's
        request, a spare worker answers (one slow call never waits for another while a
        worker is idle or may be started; past that, the first worker to free takes it).
        A query about a file goes to the worker that parsed it (``affinity``)."""
        key = affinity.file_key(request)
        member = self._free(key, side=isinstance(request, protocol.Call))
        member._owner = threading.get_ident()
        try:
            for reply in member._asked(request, timeout):
                if isinstance(reply, protocol.End):  # a caller may stop reading here
                    self._holders.record(key, member, member._parsed_in)
                yield reply
        finally:
            self._release(member)

    def _free(self, key: tuple[str, ...] | None = None, side: bool = False) -> Supervisor:
        """The worker that holds ``key``'s files (waited for as long as its parse took), or
        this supervisor, or an idle spare while it is busy (its lock held on return), or a
        new spare while there may be more; when every one is busy, whichever frees first,
        unless each is held by this thread or one that waits here too (open results, a
        query inside a loop over another's: waiting would never end), then one more.
        ``side`` work (a shape, a hint) leaves the workers holding files to queries."""
        held = self._holders.holder(key)
        until = time.monotonic() + affinity.patience(held) if held else 0.0
        with self._freed:
            while True:
                if held is not None:
                    if held.member._lock.acquire(blocking=False):
                        return held.member
                    if (left := until - time.monotonic()) > 0:
                        self._freed.wait(left)
                        continue
                    held = None
                member = self._idle(side)
                if member is not None:
                    return member
                me = threading.get_ident()
                if all(m._owner == me or m._owner in self._waiting
                       for m in (self, *self._spares)):
                    self._spares.append(Supervisor(self._given_limit))
                    self._spares[-1]._lock.acquire()
                    return self._spares[-1]
                self._waiting.add(me)
                try:
                    self._freed.wait()
                finally:
                    self._waiting.discard(me)

    def _idle(self, side: bool) -> Supervisor | None:
        members = (self, *self._spares)
        holding = [m for m in members if side and self._holders.holds_any(m)]
        for member in members:
            if member not in holding and member._lock.acquire(blocking=False):
                return member
        allowed = pool_size() - 1 if self._spare_count is None else self._spare_count
        if len(self._spares) < allowed:
            self._spares.append(Supervisor(self._given_limit))
            self._spares[-1]._lock.acquire()
            return self._spares[-1]
        for member in holding:
            if member._lock.acquire(blocking=False):
                return member
        return None

    def _release(self, member: Supervisor) -> None:
        """Give ``member`` back, waking a caller that waits for a worker."""
        with self._freed:
            member._owner = None
            member._lock.release()
            self._freed.notify()

    def _asked(self, request: protocol.QueryRequest | protocol.Call | protocol.Control,
               timeout: float | None) -> Iterator[protocol.Chunk | protocol.End]:
        """:meth:`ask` on this worker (its lock held by the caller)."""
        process = self._start()
        deadline: float | None = time.monotonic() + START_UP
        ended, parsing, began = False, None, 0.0
        self._parsed_in = None
        try:
            _check_stop()
            protocol.write_frame(process.stdin, request.to_wire())
            while True:
                reply = self._receive(process, deadline)
                if isinstance(reply, protocol.Event):
                    deadline = self._clock(reply, deadline, timeout)
                    if reply.event == "parsed" and parsing is not None:
                        self._parsed_in = (self._parsed_in or 0.0) + time.monotonic() - began
                    if reply.event == "parsing":
                        began = time.monotonic()
                    parsing = reply if reply.event == "parsing" else None
                    continue
                ended = isinstance(reply, protocol.End)
                away = time.monotonic()
                yield reply
                if ended:
                    return
                if deadline is not None:  # the caller's own time is not the program's
                    deadline += time.monotonic() - away
        except (KeyboardInterrupt, _Stopped):
            ended = True
            self.stop()
            raise JqMagicError("INTERRUPTED", "The jq program was interrupted.",
                               "The jq worker was restarted; nothing else was lost.") from None
        except TimeoutError:
            ended = True
            self.stop()
            if parsing is not None:
                raise _parse_timeout(parsing) from None
            raise JqMagicError(
                "TIMEOUT", f"The jq program ran longer than {timeout:g} s and was stopped.",
                "Narrow the input (e.g. .items[:100]) or raise the limit with "
                f"{term('timeout')}."
            ) from None
        except (EOFError, BrokenPipeError, OSError):
            ended = True
            raise self._crashed() from None
        finally:
            if not ended:  # the caller stopped reading: stop the run
                self._cancel(process)

    def call(self, name: str, timeout: float | None = None, /, **kwargs: Any) -> Any:
        """The answer of the worker's core function ``name`` on ``kwargs`` (its error raised
        here): heavy reads cost the worker, never this process."""
        answer = None
        caller = protocol.caller_settings(protocol.WORKER_SETTINGS)
        for reply in self.ask(protocol.Call(name, kwargs, caller), timeout):
            if isinstance(reply, protocol.Chunk):
                try:
                    answer = protocol.answer_value(reply.texts[0])
                except RecursionError:
                    raise too_deep(f"The {name}'s answer", "Look at a deeper part.") from None
            elif reply.error:
                raise JqMagicError.from_wire(reply.error)
        return answer

    @staticmethod
    def _clock(event: protocol.Event, deadline: float | None,
               timeout: float | None) -> float | None:
        """The deadline after ``event``: the program's clock (re)starts at ``begin`` and
        ``parsed``; while a file parses, the parse has a clock of its own, by its size
        (a parse that crawls near the memory cap is stopped, a big one is not)."""
        if event.event != "begin":
            progress.reporter(event.as_dict())
        if event.event in ("begin", "parsed"):
            return None if timeout is None else time.monotonic() + timeout + GRACE
        if event.event == "parsing":
            return time.monotonic() + parse_seconds(event)
        return deadline

    def _cancel(self, process: subprocess.Popen) -> None:
        """Ask the worker to stop the running query and wait for its end (a moment); kill
        it if it does not stop in time."""
        try:
            protocol.write_frame(process.stdin, protocol.Control("stop").to_wire())
            deadline = time.monotonic() + GRACE + 1.0
            while not isinstance(self._receive(process, deadline), protocol.End):
                pass
        except (TimeoutError, EOFError, OSError, ValueError, KeyboardInterrupt, _Stopped):
            self.stop()  # ValueError: its pipe closed already (at exit, by stop_all)

    def _receive(self, process: subprocess.Popen,
                 deadline: float | None) -> protocol.Event | protocol.Chunk | protocol.End:
        stream = process.stdout
        fd = stream.fileno()
        # Wait in slices so that Ctrl-C in the caller is seen promptly.
        while not select.select([fd], [], [], self._slice(deadline))[0]:
            if process.poll() is not None:
                raise EOFError
            _check_stop()
        return protocol.read_reply(stream)

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
        # Out of memory ends libjq in an abort, orjson in a segfault, the kernel's OOM killer
        # in SIGKILL: each is the memory cap at work, not a bug to report as such.
        if "cannot allocate memory" in stderr or "MemoryError" in stderr or code in (
                -signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT, -signal.SIGBUS):
            return JqMagicError(
                "TOO_LARGE", f"The query ran out of memory (the worker's cap is "
                f"{self.memory_limit / 2**30:.1f} GiB) and was stopped.",
                "Query a smaller part (e.g. .items[:1000]), print less (length, keys), or "
                f"stream with {term('jsonl')}.")
        last = stderr.splitlines()[-1] if stderr else f"exit status {code}"
        return JqMagicError("QUERY_ERROR", f"The jq worker crashed: {last}",
                            "The worker was restarted; try again or simplify the program.")


PARSE_SECONDS = 30.0  # every parse may take this long, and more by its size:
PARSE_RATES = {"yaml": 0.2e6, "jsonc": 2e6}  # bytes a second at the least (JSON: 5e6)


def parse_seconds(event: protocol.Event) -> float:
    """How long the parse ``event`` announces may take: far more than it needs (orjson reads
    JSON at hundreds of MB a second, PyYAML's C loader YAML at a few)."""
    return PARSE_SECONDS + event.bytes / PARSE_RATES.get(event.format, 5e6)


def _parse_timeout(event: protocol.Event) -> JqMagicError:
    return JqMagicError(
        "TIMEOUT", f"Parsing {event.label} ({event.bytes / 1e6:,.0f} MB of {event.format}) "
        f"took longer than {parse_seconds(event):,.0f} s and was stopped (near the worker's "
        "memory cap, a parse crawls).",
        "Query a smaller file, or convert it to JSON Lines (one value a line, read a line "
        f"at a time: {term('jsonl')}).")


class _Stopped(Exception):
    """The caller's stop event was set while its request ran."""


_stop = threading.local()


@contextlib.contextmanager
def stopped_by(event: threading.Event) -> Iterator[None]:
    """Requests this thread makes inside the block end in INTERRUPTED (the worker restarted)
    within half a second of ``event`` being set from another thread, as Ctrl-C ends them:
    how an MCP client's cancellation stops the work."""
    _stop.event = event
    try:
        yield
    finally:
        _stop.event = None


def _check_stop() -> None:
    event = getattr(_stop, "event", None)
    if event is not None and event.is_set():
        raise _Stopped


_shared: Supervisor | None = None


def pool_size() -> int:
    """Workers a process runs at most: ``settings.workers``, else one a core plus one
    (a quick call beside a slow one on each core), from 2 to 4."""
    return settings.workers or max(2, min(4, (os.cpu_count() or 1) + 1))


def shared_worker() -> Supervisor:
    """The process-wide worker's supervisor, created on first use."""
    global _shared
    if _shared is None:
        _shared = Supervisor(spares=None)
        atexit.register(_shared.stop_all)
    return _shared


def _forget_in_child() -> None:
    """After a fork (a process pool's worker, a pre-forking server), the parent's workers
    are not this process's children (waitpid says ECHILD) nor its to stop: the child
    starts its own on first use, and leaves the parent's alone, at exit too."""
    global _shared
    inherited, _shared = _shared, None
    if inherited is not None:
        for member in (inherited, *inherited._spares):
            member._process = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)

