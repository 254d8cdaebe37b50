"""JSON Lines too big to hold whole, held as spans of their text (issue 57).

A 500 MB log's whole values take six times its text in memory (3 GB: a dict per line, an
object per value). Where they would be over the document budget but the text is not
(:meth:`.doccache.DocumentCache.as_spans`), the first read keeps instead where each line's
top-level members lie (4 bytes a member, 8 a line: a fifth of the text or less), checked in
one pass in C (``_jvbuild.line_spans``: each line one JSON value, or the file is read as
before). A question's rows are made from the file read again a block at a time: each line
written again with only the members the question reads (``_jvbuild.project_lines``; a line
that is no object, or whose keys cannot be told apart by their bytes, whole) and decoded by
the pass that decodes any JSON Lines (:func:`.projected.whole_values`), so every value is
the one a whole read makes. The rows hold whole members (``.user`` for ``.user.name``) and
are kept until a question reads another member (:meth:`.doccache.DocumentCache.get`).
A question whose plans read only columns (:mod:`jqmagic.core.jqlang.columnsonly`) makes
its columns and no row: each piece's values are let go as their columns are taken, and
the rows are made only if something reads an item after all (:func:`hollowed`).

>>> data = b'{"id":1,"user":{"name":"zoe"},"big":[1,2]}\\n[3]\\n'
>>> held = read(data)
>>> held.count, held.names
(2, ('id', 'user', 'big'))
>>> import io
>>> b"".join(held.pieces(io.BytesIO(data), frozenset({("user", "name")})))
b'{"user":{"name":"zoe"}}\\n[3]\\n'
>>> b"".join(held.pieces(io.BytesIO(data), frozenset({("big",), ("big", "x")}), block=4))
b'{"big":[1,2]}\\n[3]\\n'
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any, BinaryIO

import orjson

from jqmagic.core.gcpause import gc_paused
from jqmagic.core.jqlang import columns
from jqmagic.core.jqlang.boundinputs import Hollow
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.query import literalfacts, projected
from jqmagic.core.query.document import BOM, Document, resident_bytes

try:
    from jqmagic.core.query import _jvbuild
except ImportError:  # no C compiler at install: JSON Lines are held whole
    _jvbuild = None
C_SPANS = getattr(_jvbuild, "line_spans", None)
C_PROJECT = getattr(_jvbuild, "project_lines", None)
C_SEEK = getattr(_jvbuild, "seek_rows", None)
C_MOVE = getattr(_jvbuild, "moved_items", None)

FIRST_READ_PER_BYTE = 1.25
"""What a first read holds at its peak, per byte of text: the text and its spans."""
SPARE_SHARE = 0.25
"""The last question's rows are kept beside the next one's while they took at most this
share of the text (:meth:`.doccache.DocumentCache.get`)."""
BLOCK = 4 << 20
"""The file is read again this much at a time (into one buffer) to make a question's rows."""
THREADS = 4
"""At most this many threads write a question's rows' text at once (one a core)."""
PIECES = 16
"""A question's rows' text is written and decoded in at most this many pieces."""
PART_ROWS = 100_000
"""Rows a piece at least."""

@dataclass(frozen=True)
class LineSpans:
    """Where each non-blank line of a JSON Lines text lies, and each top-level member of
    the objects: ``rows`` and ``entries`` as ``_linespans.h`` packs them (8 bytes a line,
    4 a member), the members' ``names`` (their keys' text), how many lines hold a value,
    newlines, and where the text starts in the file (``base``: 3 after a byte order
    mark)."""

    rows: bytes
    entries: bytes
    names: tuple[str, ...]
    count: int
    newlines: int
    base: int = 0

    @property
    def resident(self) -> int:
        """Bytes held (the names' few aside)."""
        return len(self.rows) + len(self.entries)

    @cached_property
    def objects(self) -> bool:
        """Whether every line holds an object whose members the spans know (none odd:
        the top bit of its row, the last byte of eight on a little-endian machine)."""
        return sys.byteorder == "little" and max(self.rows[7::8], default=0) < 0x80

    def lines_at(self, handle: BinaryIO, places: list[int]) -> list[Any]:
        """The whole values of the lines at ``places`` (in any order), read from ``handle``
        as a whole read reads them (orjson: the pass refused a line it does not)."""
        order = sorted(set(places))
        found, read_at = {}, _reader(handle, self.base)
        for place, (_, end) in zip(order, C_SEEK(self.rows, tuple(order)), strict=True):
            row = int.from_bytes(self.rows[8 * place:8 * place + 8], sys.byteorder)
            start, size = end + (row >> 24 & 0xFFFFFF), row & 0xFFFFFF
            text = bytearray(size)
            with memoryview(text) as view:
                got = 0
                while got < size and (more := read_at(view[got:], start + got)):
                    got += more
            try:
                found[place] = orjson.loads(text)
            except orjson.JSONDecodeError as exc:
                raise NotMine("the file's lines changed under its version") from exc
        return [found[place] for place in places]

    def held(self, chains: frozenset) -> frozenset:
        """The chains rows made for ``chains`` hold: a member whole where a chain ends at
        it, else its object's members the chains go through, each whole."""
        whole = {chain[0] for chain in chains if len(chain) == 1}
        return frozenset(chain[:1] if chain[0] in whole else chain[:2] for chain in chains
                         if chain)

    def pieces(self, handle: BinaryIO, chains: frozenset, block: int = BLOCK,
               threads: int | None = None) -> Iterator[bytearray]:
        """The lines written again with only what ``chains`` read of them (:meth:`held`;
        the odd lines whole), in pieces of at least :data:`PART_ROWS` rows, in order, the
        text read from ``handle`` ``block`` bytes at a time into one buffer a piece (a line
        longer than it: twice the room). ``threads`` (default: one a core, up to
        :data:`THREADS`) write the next pieces while the last one is decoded (the writing
        lets the GIL go)."""
        held = self.held(chains)
        members: dict[str, set[bytes]] = {chain[0]: set() for chain in held}
        for chain in held:
            if len(chain) == 2:
                members[chain[0]].add(chain[1].encode())
        wanted = (tuple(name.encode() for name in self.names),
                  bytes(0 if name not in members else 2 if members[name] else 1
                        for name in self.names),
                  tuple(tuple(members.get(name) or ()) for name in self.names))
        read_at = _reader(handle, self.base)
        many = max(1, min(PIECES, self.count // PART_ROWS))
        cuts = [self.count * piece // many for piece in range(many + 1)]
        starts = C_SEEK(self.rows, tuple(cuts[:-1]))
        if threads is None:
            threads = min(THREADS, _cores())
        if many == 1 or threads <= 1:
            for piece in range(many):
                yield self._part(read_at, wanted, cuts[piece], cuts[piece + 1], starts[piece],
                                 block)
            return
        with ThreadPoolExecutor(threads) as pool:
            ahead: deque[Future] = deque()
            for piece in range(many):
                ahead.append(pool.submit(self._part, read_at, wanted, cuts[piece],
                                         cuts[piece + 1], starts[piece], block))
                if len(ahead) > threads:
                    yield ahead.popleft().result()
            while ahead:
                yield ahead.popleft().result()

    def _part(self, read_at: Callable[[memoryview, int], int], wanted: tuple, row: int,
              stop: int, start: tuple[int, int], block: int) -> bytearray:
        """The rows from ``row`` to ``stop`` written again (:meth:`pieces`); ``start``: the
        first one's entry and the end of the row before it."""
        rows = memoryview(self.rows)[:stop * 8]
        entry, end = start
        text, buffer = bytearray(), bytearray(block)
        base, have = end, 0  # the buffer holds `have` bytes of the text from `base`
        while row < stop:
            if have == len(buffer):
                buffer.extend(bytes(len(buffer)))
            with memoryview(buffer) as view:
                got = read_at(view[have:], base + have)
            if not got:
                break
            have += got
            try:
                with memoryview(buffer) as view:
                    found, row, entry, end = C_PROJECT(view[:have], base, rows, self.entries,
                                                       row, entry, end, *wanted)
            except ValueError as exc:
                raise NotMine("the file's lines changed under its version") from exc
            text += found  # (no list of pieces joined: the text once in memory)
            kept = min(end - base, have)  # from the last line written's newline on
            buffer[:have - kept] = buffer[kept:have]
            base, have = base + kept, have - kept
        if row != stop:
            raise NotMine("the file's lines changed under its version")
        return text


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):  # Linux
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _reader(handle: BinaryIO, base: int) -> Callable[[memoryview, int], int]:
    """Reads into a buffer from an offset of the text (``base`` into the file), from any
    thread: ``preadv`` on a file, else a seek first (one thread at a time)."""
    try:
        fd = handle.fileno() if hasattr(os, "preadv") else None
    except (AttributeError, OSError):  # io.BytesIO (io.UnsupportedOperation)
        fd = None
    if fd is None:
        lock = threading.Lock()

        def read_at(view: memoryview, offset: int) -> int:
            with lock:
                handle.seek(base + offset)
                return handle.readinto(view)
        return read_at
    return lambda view, offset: os.preadv(fd, [view], base + offset)


def read(data: bytes, base: int = 0) -> LineSpans | None:
    """The spans of the JSON Lines ``data`` (the file's text from ``base``); None without
    the extension; NotMine where a line is not one value the pass reads (a lone surrogate,
    bytes not UTF-8, values run together: the file is read as before)."""
    if None in (C_SPANS, C_PROJECT, C_SEEK, C_MOVE):
        return None
    try:
        rows, entries, names, count, newlines = C_SPANS(data)
    except ValueError as exc:
        raise NotMine(str(exc)) from exc
    return LineSpans(rows, entries, tuple(name.decode() for name in names), count, newlines,
                     base)


def first_read(handle: BinaryIO, chains: frozenset,
               reopen: Callable[[], BinaryIO] | None = None,
               narrowed: frozenset | None = None) -> Document | None:
    """A JSON Lines file (open, at its start) held as spans, its rows made for ``chains``
    (``reopen``: only their columns, or :func:`columns_for` ``narrowed``'s, the rows
    :func:`hollowed`); None where a line is not
    one the spans' pass reads, or without the extension (its questions are libjq's, which
    reads it as jq does)."""
    data = handle.read()
    literals, base = literalfacts.facts_beside(data), 3 if data.startswith(BOM) else 0
    try:
        spans = read(memoryview(data)[base:], base)
    except NotMine:
        spans = None
    size, line_ended = len(data), data[-1:].isspace()
    if spans is None:
        handle.seek(0)
        return None
    del data
    literals.settle()  # the text is let go before the rows are made
    before = resident_bytes()
    with gc_paused():
        made_for = columns_for(spans, chains, narrowed) if reopen else chains
        values, made = rows(spans, handle, made_for, reopen is not None)
    doc = Document(values, literals, size, line_ended=line_ended,
                   chains=made_for if reopen else spans.held(chains),
                   one_per_line=spans.newlines == spans.count, made=made, spans=spans,
                   rows_resident=max(resident_bytes() - before, 0))
    if reopen is not None:
        doc.values = hollowed(doc, chains, reopen)
    return doc


def columns_for(spans: LineSpans, chains: frozenset, narrowed: frozenset | None) -> frozenset:
    """The columns a columns-only question makes: ``narrowed`` (the chains its plan reads
    whole, :func:`.columnsonly.whole_chains`) where every line is an object (the others
    are read on the few lines kept), else all its ``chains``."""
    return narrowed if narrowed is not None and spans.objects else chains


def hollowed(doc: Document, chains: frozenset, reopen: Callable[[], BinaryIO]) -> Hollow:
    """The values of ``doc`` (held as spans, the columns of ``chains`` made: a question
    whose plans read columns alone makes no row) as rows made when a question first reads
    them, from the file opened again (``reopen``: its version checked), and counted in
    what the document holds then."""
    spans, held = doc.spans, weakref.ref(doc)  # (the document holds the rows' maker)

    def make() -> list[Any]:
        before = resident_bytes()
        with reopen() as handle, gc_paused():
            values, _ = rows(spans, handle, chains)
        kept = held()
        if kept is not None:
            kept.rows_resident += max(resident_bytes() - before, 0)
            kept.resident = max(spans.resident + kept.rows_resident, kept.size)
        return values

    def pick(places: list[int]) -> list[Any]:
        with reopen() as handle:
            return spans.lines_at(handle, places)
    return Hollow(spans.count, make, pick, spans.objects)


def rows(spans: LineSpans, handle: BinaryIO, chains: frozenset,
         hollow: bool = False) -> tuple[list[Any], columns.Made]:
    """The values of the file's lines holding what ``chains`` read of them
    (:meth:`LineSpans.held`), and the columns of ``chains`` and of the members the first
    lines hold made in the same pass (:func:`.projected.whole_values`), a piece at a time
    while threads write the next (:meth:`LineSpans.pieces`): the whole text is never held.
    A column's strings are one object each text within a piece (how many distinct ones it
    holds said as at most their sum over the pieces). ``hollow``: the columns of ``chains``
    alone, each line's value let go in C once they are read (no values returned)."""
    values: list[Any] = [] if hollow else [None] * spans.count
    made, order, at = columns.Made(), None, 0
    for text in spans.pieces(handle, chains):
        if order is None:
            order = chains - {()} if hollow else projected.sample_chains(text, chains)
            made.update((chain, [None] * spans.count) for chain in order)
        found = projected.whole_values(text, order, share=True, keep=not hollow)
        del text
        if found is None:
            raise NotMine("no extension to decode the lines")
        piece, _, more = found
        del found
        many = len(piece)
        if at + many > spans.count:
            raise NotMine("the file's lines changed under its version")
        for chain, column in more.items():
            C_MOVE(made[chain], at, column)
        if not hollow:
            C_MOVE(values, at, piece)
        del piece
        for chain, bits in more.kinds.items():
            made.kinds[chain] = made.kinds.get(chain, 0) | bits
        made.distinct = dict(more.distinct) if at == 0 else {
            chain: count + more.distinct[chain] for chain, count in made.distinct.items()
            if chain in more.distinct}
        at += many
    if at != spans.count:
        raise NotMine("the file's lines changed under its version")
    return values, made
