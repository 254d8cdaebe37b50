"""Parsed documents kept between queries: one parse per file version (size, mtime, ctime).

Files are parsed with orjson while the garbage collector is paused (the fastest parser on
this machine, see DESIGN.md): a JSON file as one value, JSON Lines line by line (a file of
values one per line; anything else is libjq's to read); YAML is built straight from
libyaml's events (``sources.yamlbuild``) and JSONC converted to JSON text first. A JSON
Lines file a question reads only some field chains of is decoded for those chains alone
(:mod:`.projected`), and decoded again for the chains a later question adds. With
libjq's own cache (``jvcache``) it holds at most ``settings.doc_cache_bytes`` resident
bytes (what each parse added to the worker's resident set); the least recently used
documents go first, and a file bigger than the whole budget is parsed but not kept.
"""

from __future__ import annotations

import gc
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import orjson

from jqmagic.core import jsonc, sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.gcpause import gc_paused
from jqmagic.core.jqlang import columns
from jqmagic.core.jqlang.boundinputs import Hollow
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.query import linespans, literalfacts, progress, projected
from jqmagic.core.query.document import BOM, Document, resident_bytes
from jqmagic.core.query.yamlhalves import idle_core, parse_in_halves
from jqmagic.core.settings import default_worker_memory, settings, worker_memory
from jqmagic.core.sources.formats import value_facts, value_text

FREEZE_BYTES = 1 << 20
MEASURED_FROM_BYTES = 1 << 20
RESIDENT_PER_BYTE = {"json": 8.5, "jsonl": 8.5, "jsonc": 8.5, "yaml": 5.5}
"""Resident bytes per byte of text a parse costs, as measured on bench/'s files (events and
orders: 8.2 and 9; manifests: 5.1): what a parse is expected to cost before it is made."""
WIDEN_BELOW = 100 << 20
"""JSON Lines read whole at a second look when smaller (a parse under about a second, 9x
the text in memory), bigger ones extended by each question's chains; with the C pass
(:data:`.projected.C_LINES`) whole at first read at any size that fits (524 MB in 4.2 s)."""


def version(st: os.stat_result) -> tuple[int, int, int]:
    """What changes when a file's content may have: size, mtime and ctime (a file rewritten
    with its old mtime restored still gets a new ctime)."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns


def resident_cost(before: int, size: int) -> int:
    """What a parse of ``size`` bytes that started at ``before`` resident bytes cost; the
    size itself for small files, where the resident set moves by whole arenas."""
    if size < MEASURED_FROM_BYTES:
        return size
    return max(resident_bytes() - before, size)


def parse_one(data: bytes | str) -> Any:
    """One JSON value; NotMine when orjson refuses it (libjq then reports or reads it).

    A big tree is moved out of the collector's sight (``gc.freeze``): it holds no cycles
    and is freed by reference counting, while a full collection over its millions of
    containers would cost a third of the parse. :meth:`DocumentCache.clear` undoes it.
    """
    try:
        with gc_paused():
            value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise NotMine("not one JSON value orjson reads") from exc
    if len(data) >= FREEZE_BYTES:
        gc.freeze()
    return value


def parse_text(text: str) -> Document:
    """An inline JSON text (also a Python value's JSON)."""
    data = text.encode()
    return Document([parse_one(data)], Literals.of_text(data).settle(), len(data))


def load_file(path: str, fmt: str, handle: BinaryIO | None = None,
              chains: frozenset | None = None, widen: bool = False) -> Document:
    """Parse one file as the worker would read it (``fmt``: json, jsonl, yaml or jsonc);
    ``handle`` is the file already opened through the sandbox (:func:`sources.open_file`);
    ``chains``: of JSON Lines, the only field chains the values need (None: whole);
    ``widen``: and every member of its first lines (:func:`.projected.widened`)."""
    if fmt in ("json", "jsonl"):
        with handle or open(sources.open_file(path), "rb") as handle:
            data = handle.read()
        literals = literalfacts.facts_beside(data)  # waited for when first needed
        newlines, made = -1, None
        body = data[3:] if data.startswith(BOM) else data
        if fmt == "jsonl" and chains is not None:
            made, values, newlines, chains = _first_read(body, chains, widen)
        elif fmt == "jsonl":
            values, newlines, made = whole_lines(body, projected.sample_chains(body, frozenset()))
        else:
            values = [parse_one(body)]
        literals = literalfacts.WrittenBack(literals, values, path, len(data), fmt == "json")
        return Document(values, literals, len(data), line_ended=data[-1:].isspace(),
                        one_per_line=newlines == len(values),
                        chains=chains if fmt == "jsonl" else None, made=made)
    text = sources.read_text(path)
    if fmt == "jsonc":
        return parse_text(jsonc.to_json(text))
    values = parse_in_halves(text, path) if literalfacts.scan_beside and idle_core() \
        else None
    if values is None:
        values = sources.parse_yaml(text, path)
    converted = value_text(values)  # libjq's text of them
    if not converted.plain:  # a long integer, NaN or an infinity: libjq's to read
        raise NotMine("YAML values orjson cannot write")
    facts = value_facts(values)  # exact: no digits of strings (image digests) counted
    literals = Literals.of_text(converted.data).settle() if facts is None else \
        Literals.known(facts)
    return Document(values, literals, len(converted.data))


def _first_read(body: bytes, chains: frozenset,
                widen: bool) -> tuple[dict | None, list[Any], int, frozenset | None]:
    """JSON Lines decoded on ``chains``, and on every member of the first lines when
    ``widen`` (whole, in C where the extension is built; a line orjson refuses in a member
    no question asked, 1e1000, then leaves the chains asked alone): the columns made, the
    values, the newlines, the chains held (None: whole)."""
    made = projected.column_lists(chains)  # the chains asked: the others' when asked
    if widen:
        try:
            if projected.C_LINES is not None:
                values, newlines, whole = whole_lines(body, projected.sample_chains(body, chains))
                return whole, values, newlines, None
            wide = projected.widened(body, chains)
            return made, *projected_lines(body, wide, made), wide
        except NotMine:
            made = projected.column_lists(chains)
    return made, *projected_lines(body, chains, made), chains


def json_lines(data: bytes) -> tuple[list[Any], int]:
    """The values of a JSON Lines text held whole, and how many newlines it has."""
    values, newlines, _ = whole_lines(data, frozenset())
    return values, newlines


def whole_lines(data: bytes, chains: frozenset) -> tuple[list[Any], int, dict | None]:
    """The values (as :func:`.projected.json_line_batches` reads them), newlines and the columns of
    ``chains`` made in the same pass where the extension decodes them (:func:`.projected.
    whole_values`; None without it: the lines split at once, a copy for a moment)."""
    with gc_paused():
        found = projected.whole_values(data, chains)
        if found is None:
            lines = data.split(b"\n")
            last = lines.pop()
            newlines = len(lines)
            values = projected.lines_values(lines)
            del lines
            values.extend(projected.careful_lines([last]))
            found = values, newlines, None
    if len(data) >= FREEZE_BYTES:
        gc.freeze()
    return found


def projected_lines(data: bytes, chains: frozenset,
                    made: dict | None = None) -> tuple[list[Any], int]:
    """:func:`json_lines` with only ``chains`` of each value (:func:`.projected.decode`,
    ``made`` its columns)."""
    one_a_line = projected.one_a_line(data)
    with gc_paused():
        values = projected.decode(data, chains, made,
                                  projected.LinesKnown.NO_BLANK if one_a_line else None)
    if len(data) >= FREEZE_BYTES:
        gc.freeze()
    # no blank line, each block's lines counted: no second count of the whole text
    return values, len(values) - (data[-1:] != b"\n") if one_a_line else data.count(b"\n")


READ = 1 << 20
FIRST_READ = 1 << 13
"""8 KB: first(inputs | select(...)) met on a log's ninth line decodes 40 lines, not 300
(1.7 -> 0.85 ms a question; jq 1.8.2 answers it in 4 ms)."""


def file_reads(handle: BinaryIO) -> Iterator[bytes]:
    """An open file's bytes from its start, its BOM left out: a first read of
    :data:`FIRST_READ` (a question that stops at an early line decodes little more than
    it), each next one twice the last, up to :data:`READ`."""
    size = min(FIRST_READ, READ)
    first = handle.read(size)
    yield first[3:] if first.startswith(BOM) else first
    while block := handle.read(size := min(size * 2, READ)):
        yield block


class DocumentCache:
    """Documents by (device, inode, format), valid while the file's version matches."""

    def __init__(self) -> None:
        self._entries: OrderedDict[tuple, tuple[tuple, Document]] = OrderedDict()
        self._lock = threading.Lock()
        self.others: Callable[[], int] = lambda: 0  # what libjq's cache holds of the budget
        self._per_byte = dict(RESIDENT_PER_BYTE)  # the last measured parse's, per format
        self._to_widen: tuple[tuple, str] | None = None  # (key, path): read whole when idle

    def expected_resident(self, size: int, fmt: str) -> int:
        """What parsing ``size`` bytes of ``fmt`` is expected to cost in resident bytes (as
        the last parse of that format measured it; before any, as the bench's files did)."""
        return int(size * self._per_byte.get(fmt, max(RESIDENT_PER_BYTE.values())))

    def share_budget_with(self, others: Callable[[], int]) -> None:
        """Count ``others()`` resident bytes (another cache's) against the one budget."""
        self.others = others

    @property
    def size(self) -> int:
        """Resident bytes held."""
        return sum(doc.resident for _, doc in self._entries.values())

    def get(self, path: str, fmt: str, use_cache: bool = True,
            chains: frozenset | None = None, hollow: bool = False,
            narrowed: frozenset | None = None) -> Document:
        """The parsed document at ``path``, from the cache when its version is there.

        ``chains``: the only field chains of each value a JSON Lines question reads (None:
        whole values); a document holding fewer is decoded again for the chains it lacks.
        The file is opened first (the sandbox judges the descriptor; a missing file is
        NOT_FOUND, as in the worker path) and known by its device and inode. ``hollow``:
        the question reads its inputs' columns alone (a file held as spans then makes
        only them: :func:`.linespans.hollowed`), or ``narrowed``'s (read whole).
        """
        chains = chains if fmt == "jsonl" else None
        with open(sources.open_file(path), "rb") as handle:
            st = os.fstat(handle.fileno())
            key, stamp = (st.st_dev, st.st_ino, fmt), version(st)
            with self._lock:
                hit = self._entries.get(key)
                if hit is not None and hit[0] == stamp and use_cache:
                    self._entries.move_to_end(key)
                    doc = hit[1]
                    if doc.chains is None or chains is not None and \
                            projected.covers(doc.chains, chains):
                        return doc
            if hit is not None and hit[0] == stamp and use_cache and chains is not None:
                if hit[1].spans is None:
                    return self._extended((key, path), hit[1], handle, chains)
                hit = doc = None  # let go before the rows are made anew
                return self._respanned(key, stamp, handle, chains, _reopen(path, stamp, hollow),
                                       narrowed)
            before = resident_bytes()
            progress.parsing(path, st.st_size, fmt)
            whole = st.st_size >= projected.WIDE_FROM and self.whole_fits_size(st.st_size) \
                and (st.st_size < WIDEN_BELOW or projected.C_LINES is not None)
            if use_cache and chains is not None and self.as_spans(st.st_size, fmt):
                doc = linespans.first_read(handle, chains, _reopen(path, stamp, hollow),
                                           narrowed)
                if doc is None:  # its values are over the budget: libjq reads it as jq does
                    raise NotMine("JSON Lines over the budget the spans' pass refuses")
            else:
                doc = load_file(path, fmt, handle, chains, chains is not None and whole)
            progress.parsed(path, st.st_size, fmt)
            doc.resident = resident_cost(before, doc.size)
            if doc.size >= MEASURED_FROM_BYTES and chains is None:
                self._per_byte[fmt] = doc.resident / doc.size
        if use_cache and doc.resident <= settings.doc_cache_bytes:
            self._keep(key, stamp, doc)
        return doc

    def holds(self, path: str, fmt: str, chains: frozenset | None) -> bool:
        """Whether the cache holds the file's current version with ``chains`` (None: its
        whole values)."""
        try:
            st = os.stat(path)
        except OSError:
            return False
        hit = self._entries.get((st.st_dev, st.st_ino, fmt))
        unmade = hit is not None and type(hit[1].values) is Hollow and not hit[1].values.made
        return hit is not None and hit[0] == version(st) and not unmade and (
            hit[1].chains is None or chains is not None and
            projected.covers(hit[1].chains, chains))

    def _respanned(self, key: tuple, stamp: tuple, handle: BinaryIO, chains: frozenset,
                   reopen: Callable[[], BinaryIO] | None,
                   narrowed: frozenset | None = None) -> Document:
        """The rows of a file held as spans for ``chains``: spare ones if they hold them,
        else made anew, the last ones let go first (never two big sets of rows at once: a
        500 MB log's rows of a member that does not repeat take 700 MB). The rows of the
        last questions are kept as spares, the newest first, while together they took at
        most :data:`.linespans.SPARE_SHARE` of the text (members that repeat, equal short
        lines one row: an analyst going back and forth between ``.kind``, ``.tags`` and
        ``.user.name`` pays each once). ``reopen``: only the columns of ``chains`` are made
        (:func:`.linespans.hollowed`; of ``narrowed`` where every line is an object)."""
        with self._lock:
            old = self._entries.pop(key, (None, None))[1]
        if old is None:
            raise NotMine("the file left the cache")
        old.keep_columns(False)
        spares, old.spares = [old, *old.spares], []
        doc = Document([], old.literals, old.size, line_ended=old.line_ended,
                       one_per_line=old.one_per_line, chains=old.spans.held(chains),
                       spans=old.spans)
        del old
        made_for = linespans.columns_for(doc.spans, chains, narrowed) if reopen else chains
        hit = next((spare for spare in spares if projected.covers(spare.chains, made_for)),
                   None)
        spares = _within([spare for spare in spares if spare is not hit],
                         linespans.SPARE_SHARE * doc.size)
        if hit is not None:
            hit.spares = spares
            self._keep(key, stamp, hit)
            return hit
        doc.spares = spares
        del spares
        before = resident_bytes()
        with gc_paused():
            doc.values, doc.made = linespans.rows(doc.spans, handle, made_for, bool(reopen))
        if reopen is not None:
            doc.chains, doc.values = made_for, linespans.hollowed(doc, chains, reopen)
        doc.rows_resident = max(resident_bytes() - before, 0)
        doc.resident = max(doc.spans.resident + doc.rows_resident, doc.size)
        self._keep(key, stamp, doc)
        return doc

    def _extended(self, where: tuple[tuple, str], doc: Document, handle: BinaryIO,
                  chains: frozenset) -> Document:
        """``doc``'s values with ``chains`` too, decoded from the file (its version
        checked): the lines' members the new chains start from, read again for every chain
        they hold (:func:`.projected.extend`). A second look at a file means more are
        coming (an analyst's next question reads a new chain more often than not): when its
        whole values fit, the worker reads them in its idle time (:meth:`widen_idle`)."""
        made = projected.column_lists(chains)
        self._replaced(where[0], doc, lambda: projected.extend(
            doc.values, projected.whole_lines(file_reads(handle)), doc.chains, chains, made,
            projected.LinesKnown.ONE_VALUE_EACH if doc.one_per_line else None), made)
        if self.whole_fits(doc):
            self._to_widen = where
        return doc

    def _replaced(self, key: tuple, doc: Document, read: Callable[[], frozenset | None],
                  made: dict | None = None) -> None:
        """``doc``'s values made fuller in place by ``read`` (which returns the chains they
        hold; the list kept: the columns and literals know it); a column of a chain not held
        whole before is dropped (its items were partial); ``made``: the columns ``read``
        made, kept."""
        before, held = resident_bytes(), doc.chains
        with gc_paused():
            doc.chains = read()
        if doc.size >= FREEZE_BYTES:
            gc.freeze()
        doc.resident += max(resident_bytes() - before, 0)
        doc.grown()
        columns.keep_only(doc.values, lambda chain: projected.covers(held, {chain}))
        columns.adopted(doc.values, made or {})
        with self._lock:
            self._make_room(key, doc)

    @property
    def widening(self) -> bool:
        """Whether a file waits to be read whole in idle time (:meth:`widen_idle`)."""
        return self._to_widen is not None

    def stop_widening(self) -> None:
        """Read no file whole in idle time (until a second look marks one again)."""
        self._to_widen = None

    def widen_idle(self, busy: Callable[[], bool]) -> None:
        """Read the lines of the file :meth:`_extended` marked whole, in blocks, while
        ``busy()`` says no request waits (a request stops it: nothing is changed, and the
        next idle time starts again). Its version is checked first."""
        if self._to_widen is None:
            return
        key, path = self._to_widen
        hit = self._entries.get(key)
        if hit is None or hit[1].chains is None:
            self._to_widen = None
            return
        stamp, doc = hit
        try:
            with open(sources.open_file(path), "rb") as handle:
                if version(os.fstat(handle.fileno())) != stamp:
                    self._to_widen = None
                    return
                data = handle.read()
        except (OSError, JqMagicError):
            self._to_widen = None
            return
        data = data[3:] if data.startswith(BOM) else data
        values: list[Any] = []
        try:
            with gc_paused():
                for block in projected.line_blocks(data):
                    if busy():
                        return
                    values += json_lines(block)[0]
        except (NotMine, MemoryError):  # a member no chain read that orjson refuses
            self._to_widen = None  # (1e1000), or no room: the chains asked are enough
            return
        if len(values) != len(doc.values):
            self._to_widen = None  # lines read otherwise: the whole parse says how
            return

        def whole() -> None:
            doc.values[:] = values  # None: every chain held

        self._replaced(key, doc, whole)
        self._to_widen = None

    def _keep(self, key: tuple, stamp: tuple, doc: Document) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                old[1].keep_columns(False)
            self._make_room(key, doc)
            self._entries[key] = (stamp, doc)
            doc.keep_columns(True)

    def whole_fits(self, doc: Document) -> bool:
        """Whether ``doc``'s values are worth reading whole: a text under
        :data:`WIDEN_BELOW` whose values are expected to fit the budget (a bigger one keeps
        to the chains asked, near its text's size in memory)."""
        return doc.size < WIDEN_BELOW and self.whole_fits_size(doc.size)

    def as_spans(self, size: int, fmt: str) -> bool:
        """Whether a JSON Lines file of ``size`` bytes is held as spans (:mod:`.linespans`):
        its whole values are expected over the budget, its text (read whole once) and its
        spans within it."""
        return fmt == "jsonl" and linespans.C_SPANS is not None and \
            not self.whole_fits_size(size) and \
            size * linespans.FIRST_READ_PER_BYTE <= settings.doc_cache_bytes

    def whole_fits_size(self, size: int) -> bool:
        """Whether the whole values of ``size`` bytes of JSON Lines are expected to fit."""
        return self.expected_resident(size, "jsonl") <= min(
            settings.doc_cache_bytes, whole_parse_limit() or settings.doc_cache_bytes)

    def _make_room(self, key: tuple, doc: Document) -> None:
        """Drop the least recently used documents but ``key``'s until ``doc`` fits the
        budget beside the rest (the lock held)."""
        budget = settings.doc_cache_bytes - doc.resident - self.others()
        while self._entries and \
                self.size - (doc.resident if key in self._entries else 0) > budget:
            oldest = next(iter(self._entries))
            if oldest == key:
                break
            self._entries.pop(oldest)[1].keep_columns(False)

    def clear(self) -> None:
        """Drop every document (none is left to read whole in idle time); the collector
        sees what is left again."""
        with self._lock:
            self._entries.clear()
            self._to_widen = None
            columns.forget_all()
        gc.unfreeze()


documents = DocumentCache()
"""The process-wide document cache."""


def whole_parse_limit() -> int:
    """The resident bytes one whole parse may take: half the worker's memory (0: no limit
    known)."""
    return (worker_memory() or settings.worker_memory or default_worker_memory()) // 2


def fits_whole(size: int, fmt: str) -> bool:
    """Whether a file of ``size`` bytes of ``fmt`` may be parsed whole: its text within the
    document budget, and its parse expected within :func:`whole_parse_limit` (the budget
    is a quarter of physical memory: a 2 GB JSON file, 17 GB parsed, is read as it comes
    instead, or refused)."""
    limit = whole_parse_limit()
    return size <= settings.doc_cache_bytes and (
        not limit or documents.expected_resident(size, fmt) <= limit)


def _reopen(path: str, stamp: tuple, hollow: bool) -> Callable[[], BinaryIO] | None:
    """The file opened again for a columns-only question; NotMine unless at ``stamp``."""
    def reopen() -> BinaryIO:
        handle = open(sources.open_file(path), "rb")  # noqa: SIM115 - the caller closes it
        if version(os.fstat(handle.fileno())) != stamp:
            handle.close()
            raise NotMine("the file changed since it was read")
        return handle
    return reopen if hollow else None


def _within(spares: list[Document], room: float) -> list[Document]:
    """``spares``, the newest first, whose rows together take at most ``room`` bytes (a
    big set left out, the smaller ones after it kept)."""
    kept, used = [], 0
    for spare in spares:
        if used + spare.rows_resident <= room:
            kept.append(spare)
            used += spare.rows_resident
    return kept
