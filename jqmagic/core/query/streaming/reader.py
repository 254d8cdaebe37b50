"""Parts of a big JSON document read in one streaming pass (ijson's C backend), each given
back as JSON text that libjq reads as the very value it would have read from the file.

Numbers keep their meaning to the digit: ijson gives a non-integer as a ``Decimal`` whose
text is the number's canonical form, the one libjq 1.8.2's decNumber keeps and prints
(``1.0E-7`` for ``1.0e-7``). Two spellings a stream cannot keep, ``-0`` (read as the
integer 0) and a lone ``\\uD800``-style escape (read as ``?``), make :class:`Inexact`;
the caller then reads the file whole or says it cannot. Keys are ijson's dotted prefixes,
so a path key holding a dot, or a document of several top-level values, does not stream.
Known limit: an object with the same key twice on the streamed path gives both values
(jq keeps the last); elsewhere in an element, the last value wins as in jq.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, BinaryIO

import ijson
import orjson

from jqmagic.core.query.doccache import BOM
from jqmagic.core.query.streaming.forms import Step

READ_BYTES = 1 << 20
# each pattern starts with a literal, which re finds at C speed (an alternation of them
# tried every byte: 0.1 s a megabyte, where "-0" is in most blocks, as in "station-0436")
_MINUS_ZERO = re.compile(rb"-0(?![0-9.eE])")  # the integer -0, which ijson reads as 0
_LONE = (re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"),  # a high one
         re.compile(rb"\\u[dD][c-fC-F]"))  # a low surrogate escape (alone: see _judge)
_HIGH_BEFORE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}$")
_OVERLAP = 12  # bytes kept from the block before, so a spelling cut in two is still seen


class Inexact(Exception):
    """The document holds a spelling a stream would not read as libjq does."""


class NotStreamable(Exception):
    """The document's layout does not stream (several values, dotted keys, bad JSON)."""


class Guarded:
    """A file read in blocks, each searched for the spellings a stream cannot keep; call
    :meth:`settle` when reading stops before the end."""

    def __init__(self, handle: BinaryIO, beat: Callable[[], None] = lambda: None):
        self._handle = handle
        self._beat = beat  # told of each block: the pass goes on
        self._tail = b""  # the last bytes read: some not judged yet, and context before them
        self._pending = 0  # where in the tail the bytes not judged yet start
        self._first = True

    def read(self, size: int = -1) -> bytes:
        block = self._handle.read(size)
        self._beat()
        if self._first and block.startswith(BOM):
            block = block[3:]
        self._first = False
        data = self._tail + block
        if b"-0" not in data and b"\\u" not in data:  # the usual case, found at C speed
            # nothing judged in the tail: a spelling it starts may end in the next block
            self._tail, self._pending = data[-_OVERLAP:], 0
            return block
        # a spelling near the end is judged with the next block, which may complete it
        self._judge(data, len(data) - _OVERLAP if block else len(data))
        return block

    def settle(self) -> None:
        """Judge what was read (a spelling cut off by the stop counts, to be safe)."""
        self._judge(self._tail, len(self._tail))

    def _judge(self, data: bytes, end: int) -> None:
        start = self._pending
        end = max(end, start)
        if any(_a_number(data, m.start()) for m in _MINUS_ZERO.finditer(data, start)
               if m.start() < end) or \
                b"\\u" in data and _lone_surrogate(data, start, end):
            raise Inexact("the document holds -0 or a lone surrogate escape")
        cut = max(0, end - _OVERLAP)
        self._tail, self._pending = data[cut:], end - cut


_SPACE = b" \t\r\n"


def _a_number(data: bytes, at: int) -> bool:
    """Whether the ``-0`` at ``at`` may be a number: after ``:``, ``,`` or ``[`` (spaces
    aside) or with nothing known before it; not inside a string such as "theta-0"."""
    before = at - 1
    while before >= 0 and data[before] in _SPACE:
        before -= 1
    return before < 0 or data[before] in b":,["


def _lone_surrogate(data: bytes, start: int, end: int) -> bool:
    """Whether a surrogate escape starting in ``data[start:end]`` has no partner."""
    high, low = _LONE
    if any(m.start() < end for m in high.finditer(data, start)):
        return True
    return any(m.start() < end and not _HIGH_BEFORE.search(data, max(0, m.start() - 6),
                                                            m.start())
               for m in low.finditer(data, start))


@dataclass(frozen=True)
class Target:
    """What is at a path: ``kind`` is ``map``, ``array``, a scalar kind or ``missing``;
    ``stand_in`` is a small document on which the path behaves as on the real one
    (set when the path cannot be streamed into: a scalar, a missing key, a wrong type)."""

    kind: str
    stand_in: str | None = None


def prefix(keys: tuple[Step, ...]) -> str:
    """ijson's prefix of a path of keys (``item`` stands for any array element)."""
    if any("." in str(k) for k in keys):
        raise NotStreamable("a key with a dot in it")
    return ".".join(str(k) for k in keys)


def target(reader: Guarded, keys: tuple[str, ...]) -> Target:
    """Walk ``keys`` from the top (stopping as soon as the answer is known): the kind of
    value found there, or a stand-in document for where the walk stopped."""
    prefixes = [prefix(keys[:j]) for j in range(len(keys) + 1)]
    kinds: list[tuple[str, Any]] = []
    events = ijson.parse(reader, buf_size=READ_BYTES, use_float=False)
    for event_prefix, event, value in _checked(events):
        depth = len(kinds)
        if depth and event == "end_map" and event_prefix == prefixes[depth - 1]:
            kinds.append(("missing", None))  # the object ended without the key
        elif event_prefix == prefixes[depth] and event not in ("map_key", "end_map",
                                                                "end_array"):
            kinds.append((event, value))
        else:
            continue
        if len(kinds) == len(prefixes) or kinds[-1][0] != "start_map":
            break
    if not kinds:
        raise NotStreamable("an empty document")
    kind, value = kinds[-1]
    depth = len(kinds) - 1
    if depth == len(keys) and kind in ("start_map", "start_array"):
        return Target(kind.removeprefix("start_"))
    if kind == "missing":  # the object holding the key, empty
        inner, depth = "{}", depth - 1
    elif kind in ("start_map", "start_array"):  # a container the next key cannot enter
        inner = "{}" if kind == "start_map" else "[]"
    else:
        inner = text_of(value)
    return Target(kind, nest(keys[:depth], inner))


def nest(keys: tuple[str, ...], inner: str) -> str:
    """The JSON text of ``{k1: {k2: ... inner}}``."""
    for key in reversed(keys):
        inner = "{" + orjson.dumps(key).decode() + ":" + inner + "}"
    return inner


def elements(reader: Guarded, keys: tuple[str, ...], kind: str,
             floats: bool = False) -> Iterator[Any]:
    """The elements of the array (or the values of the object) at ``keys``, in order;
    numbers with a fraction or exponent as floats (``floats``) or exact Decimals."""
    at = prefix(keys)
    if kind == "array":
        items = ijson.items(reader, f"{at}.item" if at else "item", buf_size=READ_BYTES,
                            use_float=floats)
    else:
        items = (v for _, v in ijson.kvitems(reader, at, buf_size=READ_BYTES,
                                              use_float=floats))
    return _checked(items)


def value(reader: Guarded, keys: tuple[str, ...]) -> Any:
    """The (first) value at ``keys``."""
    items = ijson.items(reader, prefix(keys), buf_size=READ_BYTES, use_float=False)
    for found in _checked(items):
        return found
    raise NotStreamable("no value at the path")


def _checked(values: Iterator[Any]) -> Iterator[Any]:
    """``values``, with ijson's complaints (bad JSON, trailing values) as NotStreamable."""
    try:
        yield from values
    except ijson.JSONError as exc:
        raise NotStreamable(str(exc).splitlines()[0]) from exc


def text_of(item: Any) -> str:
    """The JSON text of a value ijson built (Decimals as their canonical digits)."""
    try:
        return orjson.dumps(item, default=_decimal).decode()
    except TypeError:  # an integer past 64 bits
        return _slow_text(item)


def _decimal(number: Any) -> orjson.Fragment:
    if isinstance(number, Decimal):
        return orjson.Fragment(str(number))
    raise TypeError(type(number).__name__)


def _slow_text(item: Any) -> str:
    if isinstance(item, dict):
        return "{" + ",".join(orjson.dumps(k).decode() + ":" + _slow_text(v)
                              for k, v in item.items()) + "}"
    if isinstance(item, list):
        return "[" + ",".join(_slow_text(v) for v in item) + "]"
    if isinstance(item, int | Decimal) and not isinstance(item, bool):
        return str(item)
    return orjson.dumps(item).decode()
