"""A big YAML stream parsed in two processes: the documents cut at a marker line near the
middle, the second half read in a forked process while this one reads the first.

A line that starts with ``---`` or ``...`` ends every scalar and collection (YAML forbids
them as content at the start of a line), and documents share nothing but directives, so
the two halves hold the stream's documents. Anything unusual (a directive, no marker to
cut at, an error in either half, values orjson cannot carry back) returns None: the caller
reads the stream whole, as before, and reports any error where it is.
"""

from __future__ import annotations

import os
import re
from typing import Any

import orjson

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import forked
from jqmagic.core.sources.formats import value_text
from jqmagic.core.sources.yamldocs import parse_yaml

_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.M)
_DIRECTIVE = re.compile(r"^%", re.M)
HALVES_FROM = 1 << 20  # below this, a fork costs more than it saves


def idle_core() -> bool:
    """Whether a core is idle now (a second process would only slow a busy machine)."""
    try:
        return os.getloadavg()[0] < (os.cpu_count() or 1) - 1
    except OSError:
        return False


def parse_in_halves(text: str, label: str) -> list[Any] | None:
    """The documents of ``text`` (as :func:`parse_yaml` gives them), or None."""
    if len(text) < HALVES_FROM or not hasattr(os, "fork") or _DIRECTIVE.search(text):
        return None
    cut = _START.search(text, len(text) // 2)
    if cut is None:
        return None
    started = forked.beside(lambda writing: _send(writing, text[cut.start():], label))
    if started is None:
        return None
    try:
        first = parse_yaml(text[:cut.start()], label)
    except JqMagicError:
        first = None
    answer = forked.answer(started)
    if first is None or not answer.startswith(b"1"):
        return None
    return first + orjson.loads(memoryview(answer)[1:])


def _send(fd: int, text: str, label: str) -> None:
    try:
        converted = value_text(parse_yaml(text, label))
        message = b"1" + converted.data if converted.plain else b"0"
    except JqMagicError:
        message = b"0"
    with os.fdopen(fd, "wb") as pipe:
        pipe.write(message)
