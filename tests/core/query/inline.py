"""The worker's own code run inside the test process, so that tests can watch the document
cache and the fast path (monkeypatch, counters) that normally live in the worker."""

from __future__ import annotations

import json
from contextlib import contextmanager

from jqmagic.core.query import libjq, run, serve
from jqmagic.core.sources import dumps


class InlineWorker:
    """Answers requests as the worker process would, in this process."""

    def __init__(self) -> None:
        self.programs = libjq.ProgramCache()

    def request(self, request: dict, timeout: float | None) -> tuple[dict, bytes]:
        return serve.execute(self.programs, json.loads(dumps(request)))


@contextmanager
def inline_worker(monkeypatch):
    """Route query() through an :class:`InlineWorker` for the block."""
    worker = InlineWorker()
    monkeypatch.setattr(run, "shared_worker", lambda: worker)
    yield worker
