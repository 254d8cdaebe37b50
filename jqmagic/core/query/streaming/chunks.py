"""The array at a path of keys read as runs of whole elements, each run parsed at C speed
(libjq's parser, or orjson for the fast path): far quicker than an event per token.

The array's start is found in the document's first megabyte; then each block read is cut
after an element: a cut is only taken when ``[`` + the run + ``]`` parses, and a cut inside
an element or a string never does (an element left open, a string left open), so every
run is whole elements, in order. After the array, the document's skeleton (its text with
the array emptied) must parse, and hold the path's keys once each; else the document does
not stream this way (:class:`Unchunked`) and the caller reads it as before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from jqmagic.core.query.doccache import BOM
from jqmagic.core.query.streaming.reader import NotStreamable

HEAD_BYTES = 1 << 20  # where the array must start
BLOCK_BYTES = 256 << 10  # a run's text, about: a stretch of work well within a timeout
GROWN_BYTES = 256 << 20  # one element's text at most
TRIES = 16  # cuts tried per block before reading on
_SPACE = re.compile(r"[ \t\n\r]*")
_BETWEEN_OBJECTS = re.compile(rb"\}[ \t\n\r]*,[ \t\n\r]*\{")


class Unchunked(NotStreamable):
    """The document does not read this way (another layout, an element that no parser
    took); the caller reads it as before, from the start."""


def array_start(handle: BinaryIO, keys: tuple[str, ...]) -> int | None:
    """The offset just past the ``[`` of the array at ``keys``, found in the first megabyte
    of the document (None: not there, or not an array: the caller streams it as before).
    The handle is left at the document's start."""
    handle.seek(0)
    head = handle.read(HEAD_BYTES)
    handle.seek(0)
    skip = len(BOM) if head.startswith(BOM) else 0
    text = _decoded(head[skip:])
    at = _SPACE.match(text).end()
    try:
        for key in keys:
            if text[at:at + 1] != "{":
                return None
            at = _SPACE.match(text, at + 1).end()
            while True:
                if text[at:at + 1] != '"':
                    return None
                name, at = json.decoder.scanstring(text, at + 1)
                at = _SPACE.match(text, at).end()
                if text[at:at + 1] != ":":
                    return None
                at = _SPACE.match(text, at + 1).end()
                if name == key:
                    break
                at = _SPACE.match(text, _DECODER.raw_decode(text, at)[1]).end()
                if text[at:at + 1] != ",":
                    return None
                at = _SPACE.match(text, at + 1).end()
    except ValueError:  # a value running past the head, or not JSON
        return None
    if text[at:at + 1] != "[":
        return None
    return skip + len(text[:at + 1].encode("utf-8"))


_DECODER = json.JSONDecoder()


def _decoded(head: bytes) -> str:
    """The head's text, a character cut off at its end left out."""
    for cut in range(4):
        try:
            return head[:len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
    raise Unchunked("the document's head is not UTF-8")


class Runs:
    """The runs of whole elements of the array whose text starts at ``start``, each given
    as ``parse(b"[" + run + b"]")``; once they are read, :attr:`suffix` is the document's
    text after the array."""

    def __init__(self, handle: BinaryIO, start: int, parse: Callable[[bytes], Any],
                 on_block: Callable[[], None] = lambda: None):
        self._handle, self._start, self._parse, self._on_block = handle, start, parse, on_block
        self.suffix: bytes | None = None

    def __iter__(self) -> Iterator[Any]:
        self._handle.seek(self._start)
        pending = b""
        while True:
            block = self._handle.read(BLOCK_BYTES)
            self._on_block()
            data = pending + block
            if not block:  # the end: the array closes, the rest is the document's
                yield from self._last(data)
                return
            cut = self._cut(data)
            if cut is None:  # an element longer than the block: read on
                if len(data) > GROWN_BYTES:
                    raise Unchunked("an element over 256 MB")
                pending = data
                continue
            parsed, at = cut
            yield parsed
            pending = data[at + 1:]

    def _cut(self, data: bytes) -> tuple[Any, int] | None:
        """The run up to the last comma after which an element starts, parsed; None."""
        tried: set[int] = set()
        for at in _candidates(data):
            if at in tried:
                continue
            tried.add(at)
            if len(tried) > TRIES:
                return None
            try:
                return self._parse(b"[" + data[:at] + b"]"), at
            except Exception:  # noqa: BLE001 - a cut inside an element: the next one
                self._on_block()  # each attempt is work done
                continue
        return None

    def _last(self, data: bytes) -> Iterator[Any]:
        end = len(data)
        for _ in range(TRIES):
            end = data.rfind(b"]", 0, end)
            if end < 0:
                break
            try:
                parsed = self._parse(b"[" + data[:end] + b"]")
            except Exception:  # noqa: BLE001 - a bracket inside the last element
                continue
            self.suffix = data[end + 1:]
            yield parsed
            return
        raise Unchunked("the array does not end")


def _candidates(data: bytes) -> Iterator[int]:
    """Commas a run may end at, likeliest first: between objects (compact, then spaced),
    between arrays, then any."""
    at = len(data)
    for _ in range(TRIES):
        at = data.rfind(b"},{", 0, at)
        if at < 0:
            break
        yield at + 1
    tail = max(0, len(data) - (256 << 10))
    for found in reversed(list(_BETWEEN_OBJECTS.finditer(data, tail))):
        yield data.index(b",", found.start())
    at = len(data)
    for _ in range(TRIES):
        at = data.rfind(b",", 0, at)
        if at < 0:
            return
        yield at


def check_skeleton(handle: BinaryIO, start: int, suffix: bytes,
                   keys: tuple[str, ...]) -> None:
    """Unchunked unless the document with the array emptied is one JSON value whose
    objects on the path hold each key once (jq keeps a repeated key's last value)."""
    handle.seek(0)
    head = handle.read(start)
    head = head[len(BOM):] if head.startswith(BOM) else head
    if len(suffix) > HEAD_BYTES:
        raise Unchunked("a long text after the array")
    try:
        value = json.loads(head + b"]" + suffix, object_pairs_hook=list)
    except ValueError as exc:
        raise Unchunked(f"the document does not parse around the array: {exc}") from exc
    for key in keys:
        found = [v for k, v in value if k == key] if isinstance(value, list) else []
        if len(found) != 1:
            raise Unchunked(f"the key {key!r} is there {len(found)} times")
        value = found[0]
