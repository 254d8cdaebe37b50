"""Progress of the slow step before a query runs (reading and parsing a big file): events
the worker sends as they happen, and the reporter that shows them on the caller's side.

Parsing counts against the memory cap, not against the program's timeout: the supervisor
starts the program's clock again when it hears that parsing has ended.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

SHOWN_FROM_BYTES = 50 * 1024 * 1024  # smaller JSON files parse in well under a second
SLOWER = {"yaml": 50}  # YAML parses about fifty times slower a byte than JSON
Event = dict[str, Any]

# ---------------------------------------------------------------- the worker's side

_send: Callable[[Event], None] | None = None


def sending(sink: Callable[[Event], None] | None) -> None:
    """Send this request's events to ``sink`` (None: drop them)."""
    global _send
    _send = sink


def parsing(label: str, size: int, fmt: str = "json") -> None:
    """A file of ``size`` bytes in format ``fmt`` is about to be parsed."""
    if _send is not None:
        _send({"event": "parsing", "label": label, "bytes": size, "format": fmt})


def working() -> None:
    """A long streaming pass is still under way: the program's clock starts again (each
    stretch of work between two calls is bounded by the timeout)."""
    if _send is not None:
        _send({"event": "begin"})


def parsed(label: str, size: int, fmt: str = "json") -> None:
    """Parsing has ended: the program's clock starts now."""
    if _send is not None:
        _send({"event": "parsed", "label": label, "bytes": size, "format": fmt})


def worth_showing(event: Event) -> bool:
    """Whether parsing this file takes long enough to be shown (about a second or more)."""
    return event["bytes"] * SLOWER.get(event.get("format", "json"), 1) >= SHOWN_FROM_BYTES


# ---------------------------------------------------------------- the caller's side


class Reporter:
    """Shows parsing progress; faces replace :data:`reporter` with their own (a notebook
    line, a terminal line). This one writes to stderr when it is a terminal."""

    def __init__(self) -> None:
        self._started: float | None = None

    def __call__(self, event: Event) -> None:
        if not worth_showing(event):
            return
        if event["event"] == "parsing":
            self._started = time.monotonic()
            self.show(f"Parsing {event['label']} ({event['bytes'] / 1e6:,.0f} MB)...", False)
        else:
            took = time.monotonic() - (self._started or time.monotonic())
            self.show(f"Parsed {event['label']} ({event['bytes'] / 1e6:,.0f} MB) in "
                      f"{took:.1f} s; it stays parsed for later queries.", True)

    def show(self, text: str, done: bool) -> None:
        if sys.stderr.isatty():
            print(f"\r{text}", end="\n" if done else "", file=sys.stderr, flush=True)


reporter: Callable[[Event], None] = Reporter()
"""What the caller does with each event (a face sets its own: :func:`report_to`)."""


def report_to(show: Callable[[Event], None]) -> None:
    """Show this process's parsing events with ``show`` (a notebook line, an MCP client's
    progress notifications)."""
    global reporter
    reporter = show
