"""The worker's own code run inside the test process, so that tests can watch the document
cache and the fast path (monkeypatch, counters) that normally live in the worker."""

from __future__ import annotations

import threading
from contextlib import contextmanager

from jqmagic.core.query import libjq, protocol, run, worker


class _Collect:
    """A channel that keeps the chunks the sink sends (no pipe, no stop, no clock)."""

    def __init__(self) -> None:
        self.texts: list[bytes] = []
        self.clock = float("inf")
        self.waited = 0.0  # no pipe: nothing waits on a reader
        self.stop_asked = False
        self.active = None
        self.lock = threading.Lock()

    def send_chunk(self, chunk: protocol.Chunk) -> None:
        self.texts.extend(chunk.texts)


class InlineWorker:
    """Answers requests as the worker process would, in this process."""

    def __init__(self) -> None:
        self.programs = libjq.ProgramCache()

    def ask(self, request: protocol.QueryRequest, timeout: float | None):
        wired = protocol.read_request(request.to_wire())  # as it crosses the pipe
        channel = _Collect()
        end = worker.execute(self.programs, wired, channel)
        yield protocol.Chunk(channel.texts)
        yield end

    def call(self, name: str, timeout: float | None = None, /, **kwargs):
        """A worker call (a shape, a hint), in this process."""
        return worker.calls()[name](**kwargs)


@contextmanager
def inline_worker(monkeypatch):
    """Route query() through an :class:`InlineWorker` for the block."""
    worker = InlineWorker()
    monkeypatch.setattr(run, "shared_worker", lambda: worker)
    yield worker
