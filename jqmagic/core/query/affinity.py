"""Which worker of the pool holds a file: a query about a file goes to the worker that
parsed it (each worker keeps its own parsed documents), and side work (a shape, a hint)
leaves that worker to the user's next question.

A kernel whose pool handed the next ``%jq`` on a 50 MB file to another worker than the one
that parsed it paid the parse again (a completion shape made after the cell held the
first worker): the pool now asks this map before it takes the first idle worker.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from jqmagic.core.query import protocol

KEPT = 64  # files remembered (the most recent)
PATIENCE = (0.05, 30.0)  # a held file's wait for its worker: its parse's time, within these


@dataclass
class Held:
    """A file's worker (the pool member and the process that parsed it: a restarted
    worker holds nothing) and how long its parse took (what a parse elsewhere would cost)."""

    member: Any
    process: Any
    parse_seconds: float


def file_key(request: Any) -> tuple[str, ...] | None:
    """The files a query reads, as absolute paths from the caller's directory; None for a
    call, a control or a source that is not a file."""
    if not isinstance(request, protocol.QueryRequest) or request.source.kind != "file":
        return None
    spec = request.source.spec
    names = spec if isinstance(spec, list) else [spec]
    if not all(isinstance(name, str) for name in names):
        return None
    here = request.caller.cwd or os.getcwd()
    return tuple(os.path.abspath(os.path.join(here, os.path.expanduser(name)))
                 for name in names)


class Holders:
    """The map from a file to the worker that parsed it (thread-safe, bounded)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: OrderedDict[tuple[str, ...], Held] = OrderedDict()

    def holder(self, key: tuple[str, ...] | None) -> Held | None:
        """The live worker holding ``key``'s files, if any."""
        if key is None:
            return None
        with self._lock:
            held = self._held.get(key)
            if held is None or held.member._process is not held.process:
                return None
            return held

    def holds_any(self, member: Any) -> bool:
        """Whether ``member``'s current process holds a file a query read."""
        with self._lock:
            return any(held.member is member and held.process is member._process
                       for held in self._held.values())

    def record(self, key: tuple[str, ...] | None, member: Any, parse_seconds: float | None
               ) -> None:
        """``member`` answered a query on ``key`` (parsing it in ``parse_seconds``, None
        when it held it already)."""
        if key is None or member._process is None:
            return
        with self._lock:
            old = self._held.pop(key, None)
            if parse_seconds is None:
                same = old is not None and old.process is member._process
                parse_seconds = old.parse_seconds if same else PATIENCE[0]
            self._held[key] = Held(member, member._process, parse_seconds)
            while len(self._held) > KEPT:
                self._held.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._held.clear()


def patience(held: Held) -> float:
    """How long a query waits for the busy worker that holds its file before another one
    parses it again: as long as that parse took."""
    low, high = PATIENCE
    return min(high, max(low, held.parse_seconds))
