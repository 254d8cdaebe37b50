"""Where a run's result texts go in the worker: to the caller in chunks as they are
produced, past the kept ones to the spill file, each one counted.

Every engine (the fast path, libjq, the streamed passes, line ranges) hands its texts to one
:class:`Sink`. A chunk leaves when it holds enough bytes, or when its first text has waited
a moment (a flusher thread sends it then, while libjq runs without the GIL or Python code
between two results): a pipe sees the first result of a slow program at once and a fast
program's results in few frames. The caller's ``stop`` is read as chunks leave and ends the
run at the next result (:class:`Stopped`). An engine that may still decline its answer (the
fast path, before it knows its literals) holds its texts back (:meth:`Sink.hold`); when it
declines, the engine after it starts again and the texts the caller already has are skipped
(:meth:`Sink.restart`).
"""

from __future__ import annotations

import os
import select
import threading
import time
from typing import BinaryIO

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import protocol
from jqmagic.core.query.spill import Spill
from jqmagic.core.query.texts import Texts
from jqmagic.core.words import term

CHUNK_BYTES = 1 << 18  # a chunk is sent once it holds this much
CHUNK_SECONDS = 0.05  # or once its first text has waited this long


class Stopped(BaseException):
    """The caller asked the running query to stop (not an error: nothing is wrong)."""


class Channel:
    """The worker's two pipes: replies out (one writer at a time), the caller's messages in
    (a ``stop`` may come while a query runs); the program's clock, restarted by ``begin``
    and ``parsed``; and the sink of the running query, which the flusher watches."""

    def __init__(self, requests: BinaryIO, replies: BinaryIO):
        self.requests, self.replies = requests, replies
        self.clock = time.monotonic()
        self.waited = 0.0  # seconds chunks waited on a full pipe, in all
        self.stop_asked = False
        self.active: Sink | None = None
        self.lock = threading.Lock()
        threading.Thread(target=self._flusher, name="chunk-flusher", daemon=True).start()

    def send(self, frame: protocol.Event | protocol.End) -> None:
        if isinstance(frame, protocol.Event) and frame.event in ("begin", "parsed"):
            self.clock = time.monotonic()
        with self.lock:
            protocol.write_frame(self.replies, frame.to_wire())
            self.replies.flush()

    def send_chunk(self, chunk: protocol.Chunk) -> None:
        """Write a chunk (the caller holds :attr:`lock`), then look for a ``stop``. The
        time the write waits on a full pipe (a caller that reads slowly: ``| less``, a
        paused iterator) is not the program's: its clock moves on by as much."""
        waiting = time.monotonic()
        protocol.write_chunk(self.replies, chunk)
        self.replies.flush()
        spent = time.monotonic() - waiting
        self.clock += spent
        self.waited += spent
        fd = self.requests.fileno()
        while not self.stop_asked and select.select([fd], [], [], 0)[0]:
            try:
                message = protocol.read_request(protocol.read_frame(self.requests))
            except EOFError:  # the caller is gone: nobody reads what follows
                os._exit(0)
            self.stop_asked = isinstance(message, protocol.Control) and message.op == "stop"

    def _flusher(self) -> None:
        while True:
            time.sleep(CHUNK_SECONDS / 2)
            sink = self.active
            if sink is not None:
                sink.send_waiting()


class Sink:
    """The result texts of one run: the first ``keep`` (every one when None) to the caller,
    the rest to the ``spill`` file, all counted in ``total``."""

    def __init__(self, channel: Channel | None, keep: int | None, spill: str | None,
                 timeout: float | None = None):
        self.channel, self.keep, self.timeout = channel, keep, timeout
        self.spill = Spill(spill)
        self.total = 0
        self.sent = 0  # texts the caller has (or will have, once sent)
        self.skip = 0  # texts an engine that declined had already sent
        self._kept: list[bytes] = []  # the sent texts, while a spill may still need them
        self._buffer: list[Texts] = []  # the texts waiting to be sent, in order:
        self._loose: list[bytes] = []  # ... then these, added one at a time
        self._count = 0  # texts in both
        self._size = 0
        self._since = 0.0
        self._held = 0
        self._lock = channel.lock if channel is not None else threading.Lock()
        if channel is not None:
            channel.active = self

    def add(self, data: bytes) -> None:
        """One result text, in order."""
        if self.channel is not None and self.channel.stop_asked:
            raise Stopped
        self.total += 1
        if not self.total & 1023:
            self._check_clock()
        if self.total <= self.skip:
            return
        if self.keep is not None and self.sent >= self.keep:
            self.spill.add(self._kept, data)
            return
        with self._lock:
            self.sent += 1
            if self.keep is not None and self.spill.path is not None:
                self._kept.append(data)
            if not self._count:
                self._since = time.monotonic()
            self._loose.append(data)
            self._count += 1
            self._size += len(data)
            due = self._size >= CHUNK_BYTES
        if due:
            self.flush()

    def add_many(self, texts: list[bytes] | Texts) -> None:
        """Result texts, in order: :meth:`add` of each, counted and buffered at once where
        none is skipped, kept back or spilled."""
        if self.total < self.skip or self.keep is not None:
            for data in texts.texts if isinstance(texts, Texts) else texts:
                self.add(data)
            return
        if not isinstance(texts, Texts):
            texts = Texts(texts)
        if self.channel is not None and self.channel.stop_asked:
            raise Stopped
        self.total += len(texts)
        self._check_clock()
        with self._lock:
            self.sent += len(texts)
            if not self._count:
                self._since = time.monotonic()
            self._close_loose()
            self._buffer.append(texts)
            self._count += len(texts)
            self._size += texts.size()
            due = self._size >= CHUNK_BYTES
        if due:
            self.flush()

    def waited(self) -> float:
        """Seconds the results have waited on a slow reader (the fast path's clock stands
        still meanwhile: :func:`jqmagic.core.jqlang.runtime.start`)."""
        return self.channel.waited if self.channel is not None else 0.0

    def flush(self) -> None:
        """Send what is buffered; TIMEOUT past the program's clock (after sending it, so
        the caller keeps what came before)."""
        self._send()
        self._check_clock()

    def send_waiting(self) -> None:
        """Send the buffer if its first text has waited long enough (the flusher's call)."""
        if self._count and time.monotonic() - self._since >= CHUNK_SECONDS:
            self._send()

    def _send(self) -> None:
        with self._lock:
            if self._count and self.channel is not None and not self._held:
                self._close_loose()
                buffer, self._buffer, self._count, self._size = self._buffer, [], 0, 0
                self.channel.send_chunk(protocol.Chunk.joined(buffer))

    def _close_loose(self) -> None:
        """The texts added one at a time, as one piece of the buffer (its order kept)."""
        if self._loose:
            self._buffer.append(Texts(self._loose))
            self._loose = []

    def _check_clock(self) -> None:
        if self.timeout and self.channel is not None and \
                time.monotonic() - self.channel.clock > self.timeout:
            raise JqMagicError(
                "TIMEOUT", f"The jq program ran longer than {self.timeout:g} s and was "
                "stopped.", f"Narrow the input (e.g. .items[:100]) or raise the limit with "
                f"{term('timeout')}.")

    def hold(self) -> None:
        """Send nothing until :meth:`release`: the engine may still decline everything it
        produced."""
        with self._lock:
            self._held += 1

    def release(self) -> None:
        with self._lock:
            self._held -= 1

    def restart(self) -> None:
        """The engine declined: the next one starts from the first result again; those the
        caller already has are counted and skipped, the rest of the buffer dropped."""
        with self._lock:
            dropped = self._count
            self._buffer, self._loose, self._count, self._size = [], [], 0, 0
            self.sent -= dropped
            if self._kept and dropped:
                del self._kept[-dropped:]
            self.skip, self.total = self.sent, 0
        self.spill.discard()

    def close(self) -> None:
        """Send the rest; close the spill file; the flusher lets go of this sink."""
        try:
            self._send()
        finally:
            self.spill.close()
            if self.channel is not None and self.channel.active is self:
                self.channel.active = None

    def end(self, **fields) -> protocol.End:
        """The :class:`End` of this run, with ``fields`` (error, messages, engine...)."""
        return protocol.End(total=self.total, spilled=self.spill.written,
                            spill_error=self.spill.error, **fields)
