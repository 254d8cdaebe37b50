"""The SchemaBrowser's jq box as the user types: offers from the browsed node's merged
shape (core/complete, nothing parsed per key) and a live preview run in one thread per
box, where the newest request replaces any waiting one and an answer older than the
newest asked is dropped. Every answer carries the generation of the key that asked it,
so the view never draws an older answer over a newer one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from jqmagic.core.complete import complete
from jqmagic.core.errors import JqMagicError
from jqmagic.core.shape.node import Node

MAX_OFFERS = 300  # offers sent to the view at most (every builtin fits; typing narrows)
PREVIEW_TIMEOUT = 5.0  # seconds a preview may run (Enter runs without this bound)


def offered(shape: Node, text: str, cursor: int | None = None) -> dict:
    """What may come at ``cursor`` of ``text`` run on a node of ``shape``: the span the
    offers replace and, for each, its text, kind and type ("string, in 86 of 300")."""
    cursor = len(text) if cursor is None else max(0, min(cursor, len(text)))
    done = complete(text, cursor, shape=shape)
    return {"start": done.start, "end": done.end,
            "items": [{"text": o.text, "kind": o.kind, "type": o.type}
                      for o in done.offers[:MAX_OFFERS]],
            "more": max(0, len(done.offers) - MAX_OFFERS)}


def status(total: int, shown: int, elapsed: float) -> str:
    """The preview's count line: ``300 results, the first 20 shown (0.03 s)``."""
    count = "no results" if not total else "1 result" if total == 1 else f"{total:,} results"
    first = f", the first {shown:,} shown" if 0 < shown < total else ""
    return f"{count}{first} ({elapsed:.2f} s)"


def caret_column(error: JqMagicError, program: str) -> int | None:
    """The column (0-based) the error's caret points at in a one-line ``program``, read
    from its excerpt (``caret_excerpt``: the line, then the caret under it); None when
    the error has no place in it."""
    lines = error.detail.splitlines()
    if "\n" in program or len(lines) != 2 or not lines[1].endswith("^"):
        return None
    shown, under = lines[0][4:], lines[1][4:]
    if shown.startswith("...") or shown != program.expandtabs(1)[:len(shown)]:
        return None  # a long line cut around its column: no column of the box
    return len(under) - 1


class Previews:
    """Runs ``answer(request)`` for the newest request only, one at a time, in a thread
    of its own; ``send`` gets each answer that no newer request superseded meanwhile (a
    running query is never killed: the worker would lose the document it keeps)."""

    def __init__(self, answer: Callable[[dict], dict], send: Callable[[dict], None]):
        self._answer, self._send = answer, send
        self._waiting: dict | None = None
        self._newest = -1
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def ask(self, request: dict) -> None:
        """Preview ``request`` (it has a ``gen``) once the one running is done."""
        with self._lock:
            self._waiting = request
            self._newest = max(self._newest, request["gen"])
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True,
                                                name="jqmagic-preview")
                self._thread.start()

    def wait(self, timeout: float = 30.0) -> None:
        """Until no preview runs or waits (for tests and scripts)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _loop(self) -> None:
        while True:
            with self._lock:
                request, self._waiting = self._waiting, None
                if request is None:
                    self._thread = None
                    return
            try:
                answer: dict[str, Any] = {"gen": request["gen"], **self._answer(request)}
            except Exception as exc:  # a bug: said in the box, later previews still run
                answer = {"gen": request["gen"], "error": f"The preview failed: {exc!r}"}
            with self._lock:
                stale = request["gen"] < self._newest
            if not stale:
                self._send(answer)
