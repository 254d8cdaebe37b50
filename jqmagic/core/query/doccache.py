"""Parsed documents kept between queries: one parse per file version (size, mtime, ctime).

Files are parsed with orjson while the garbage collector is paused (the fastest parser on
this machine, see DESIGN.md); YAML and JSONC are converted to JSON text first, exactly as
libjq gets them. With libjq's own cache (``jvcache``) it holds at most
``settings.doc_cache_bytes`` resident bytes (what each parse added to the worker's resident
set); the least recently used documents go first, and a file bigger than the whole budget
is parsed but not kept.
"""

from __future__ import annotations

import gc
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

import orjson

from jqmagic.core import jsonc, sources
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.numbers import Literals, file_stamp
from jqmagic.core.query import progress
from jqmagic.core.settings import settings

BOM = b"\xef\xbb\xbf"
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
FREEZE_BYTES = 1 << 20
MEASURED_FROM_BYTES = 1 << 20


@dataclass
class Document:
    """A source's top-level values and what its number literals allow."""

    values: list[Any]
    literals: Literals
    size: int
    resident: int = 0  # bytes the parsed tree added to the worker's resident set


def version(st: os.stat_result) -> tuple[int, int, int]:
    """What changes when a file's content may have: size, mtime and ctime (a file rewritten
    with its old mtime restored still gets a new ctime)."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns


def resident_bytes() -> int:
    """This process's resident set, in bytes (0 where /proc is absent)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def resident_cost(before: int, size: int) -> int:
    """What a parse of ``size`` bytes that started at ``before`` resident bytes cost; the
    size itself for small files, where the resident set moves by whole arenas."""
    if size < MEASURED_FROM_BYTES:
        return size
    return max(resident_bytes() - before, size)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (JSON trees hold no cycles; it only costs time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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


def load_file(path: str, fmt: str, handle: BinaryIO | None = None) -> Document:
    """Parse one file as the worker would read it (``fmt``: json, yaml or jsonc); ``handle``
    is the file already opened through the sandbox (:func:`sources.open_file`)."""
    if fmt == "json":
        with handle or open(sources.open_file(path), "rb") as handle:
            stamp = file_stamp(os.fstat(handle.fileno()))
            data = handle.read()
        value = parse_one(data[3:] if data.startswith(BOM) else data)
        literals = Literals.of_file(path, stamp).learn_long(data)  # most queries compare
        return Document([value], literals, len(data))
    text = sources.read_text(path)
    if fmt == "jsonc":
        return parse_text(jsonc.to_json(text))
    converted = [sources.dumps(doc) for doc in sources.parse_yaml(text, path)]
    data = "\n".join(converted).encode()
    return Document([parse_one(t) for t in converted], Literals.of_text(data).settle(),
                    len(data))


class DocumentCache:
    """Documents by (device, inode, format), valid while the file's version matches."""

    def __init__(self) -> None:
        self._entries: OrderedDict[tuple, tuple[tuple, Document]] = OrderedDict()
        self._lock = threading.Lock()
        self.others: Callable[[], int] = lambda: 0  # what libjq's cache holds of the budget
        self._settler: threading.Thread | None = None

    def settle_while_idle(self) -> None:
        """Learn the literal facts of the kept documents in the background, while the worker
        waits for its next request (one pass over each file), so that a later question
        needs no pass of its own."""
        with self._lock:
            waiting = [doc.literals for _, doc in self._entries.values()
                       if not doc.literals.settled]
        if waiting and (self._settler is None or not self._settler.is_alive()):
            self._settler = threading.Thread(target=_settle, args=(waiting,),
                                             name="literal-facts", daemon=True)
            self._settler.start()

    @property
    def size(self) -> int:
        """Resident bytes held."""
        return sum(doc.resident for _, doc in self._entries.values())

    def get(self, path: str, fmt: str, use_cache: bool = True) -> Document:
        """The parsed document at ``path``, from the cache when its version is there.

        The file is opened first (the sandbox judges the descriptor; a missing file is
        NOT_FOUND, as in the worker path) and known by its device and inode.
        """
        with open(sources.open_file(path), "rb") as handle:
            st = os.fstat(handle.fileno())
            key, stamp = (st.st_dev, st.st_ino, fmt), version(st)
            with self._lock:
                hit = self._entries.get(key)
                if hit is not None and hit[0] == stamp and use_cache:
                    self._entries.move_to_end(key)
                    return hit[1]
            before = resident_bytes()
            progress.parsing(path, st.st_size, fmt)
            doc = load_file(path, fmt, handle)
            progress.parsed(path, st.st_size, fmt)
            doc.resident = resident_cost(before, doc.size)
        if use_cache and doc.resident <= settings.doc_cache_bytes:
            self._keep(key, stamp, doc)
        return doc

    def _keep(self, key: tuple, stamp: tuple, doc: Document) -> None:
        with self._lock:
            self._entries.pop(key, None)
            budget = settings.doc_cache_bytes - doc.resident - self.others()
            while self._entries and self.size > budget:
                self._entries.popitem(last=False)
            self._entries[key] = (stamp, doc)

    def clear(self) -> None:
        """Drop every document; the collector sees what is left again."""
        with self._lock:
            self._entries.clear()
        gc.unfreeze()


def _settle(waiting: list[Literals]) -> None:
    for literals in waiting:
        try:
            literals.settle()
        except NotMine:  # the file changed: the next question reads it again anyway
            continue


documents = DocumentCache()
"""The process-wide document cache."""
