"""Files parsed by libjq, kept between queries: programs outside the fast path skip the parse.

One entry per file version (device, inode, format; size, mtime and ctime), least recently
used out, within the document budget counted in resident bytes (the growth of the worker's
resident set while the file was parsed). A file the fast path holds whole is not parsed
again: its values are made into jvs in C where that is exact (:mod:`.jvfrom`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from jqmagic.core import sources
from jqmagic.core.query import jvfrom, libjqinput, progress
from jqmagic.core.query.doccache import DocumentCache, resident_bytes, resident_cost, version
from jqmagic.core.query.jqdefs import LIBJQ_RESIDENT_PER_BYTE
from jqmagic.core.settings import settings


@dataclass
class Parsed:
    """A file's top-level values as libjq holds them, and what they cost in memory."""

    values: list
    resident: int
    kept: bool = False

    def free(self) -> None:
        libjqinput.free_values(self.values)


class JvCache:
    """Parsed files by (device, inode, format), valid while their version matches."""

    def __init__(self, others: Callable[[], int] = lambda: 0,
                 held: DocumentCache | None = None) -> None:
        self._entries: OrderedDict[tuple, tuple[tuple, Parsed]] = OrderedDict()
        self._lock = threading.Lock()
        self._others = others  # resident bytes the other cache of the budget holds
        self._held = held  # the fast path's documents, made into jvs rather than parsed

    @property
    def size(self) -> int:
        """Resident bytes held."""
        return sum(parsed.resident for _, parsed in self._entries.values())

    @contextmanager
    def values(self, path: str, fmt: str) -> Iterator[list]:
        """The parsed values of ``path`` read as ``fmt`` (json, jsonl, yaml or jsonc), for
        the block; a file over the budget is parsed, used and freed."""
        parsed = self._get(path, fmt)
        try:
            yield parsed.values
        finally:
            if not parsed.kept:
                parsed.free()

    def left_to_libjq(self, path: str, fmt: str) -> bool:
        """Whether libjq had better read a JSON or JSON Lines file itself, as jq does (JSON
        Lines one value at a time): its parse is expected over the document budget and the
        fast path does not hold its values whole to make jvs of (parsed into this cache
        and freed after, a 60 MB log's question took 1 GB)."""
        return fmt in ("json", "jsonl") and \
            os.path.getsize(path) * LIBJQ_RESIDENT_PER_BYTE > settings.doc_cache_bytes and \
            not (self._held is not None and self._held.holds(path, fmt, None))

    def _get(self, path: str, fmt: str) -> Parsed:
        fd = sources.open_file(path)
        try:
            st = os.fstat(fd)
        finally:
            os.close(fd)
        key, stamp = (st.st_dev, st.st_ino, fmt), version(st)
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and hit[0] == stamp and settings.doc_cache_bytes:
                self._entries.move_to_end(key)
                return hit[1]
        before = resident_bytes()
        progress.parsing(path, st.st_size, fmt)  # made from held values or parsed: untimed
        made = self._made_from_held(path, fmt)
        if made is None:
            made = _parse(path, fmt)
        progress.parsed(path, st.st_size, fmt)
        parsed = Parsed(made, 0)
        parsed.resident = resident_cost(before, st.st_size)
        self._keep(key, stamp, parsed)
        return parsed

    def _made_from_held(self, path: str, fmt: str) -> list | None:
        """The fast path's values of ``path`` made into jvs, when it holds them whole and
        they are made exactly; None: libjq parses the file."""
        if self._held is None or not self._held.holds(path, fmt, None):
            return None
        doc = self._held.get(path, fmt)
        texts = jvfrom.odd_texts(doc.literals) if doc.chains is None else None
        return None if texts is None else jvfrom.values(doc.values, texts)

    def _keep(self, key: tuple, stamp: tuple, parsed: Parsed) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                old[1].free()
            while self._entries and self.size + self._others() + parsed.resident > \
                    settings.doc_cache_bytes:
                self._entries.popitem(last=False)[1][1].free()
            if parsed.resident <= settings.doc_cache_bytes:
                self._entries[key] = (stamp, parsed)
                parsed.kept = True

    def clear(self) -> None:
        """Free every parsed file."""
        with self._lock:
            for _, parsed in self._entries.values():
                parsed.free()
            self._entries.clear()


def _parse(path: str, fmt: str) -> list:
    if fmt in ("json", "jsonl"):
        return libjqinput.parse_inputs([path])
    return libjqinput.parse_text(sources.convert(sources.read_text(path), fmt, path))
