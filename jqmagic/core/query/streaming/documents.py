"""A big JSON file's documents as jq 1.8.2's reader meets them (``_docscan``, one strict
pass in C, the text never held), for the command line's choice: the streaming pass answers
as libjq over the whole file does for a file holding one array or object that jq's parser
takes, whose objects along the program's path repeat no key (jq keeps a repeated key's last
value in its first place; a walk meets both). A file the scan cannot vouch for (damaged,
several documents, jq's own leniencies, a repeated key) is read as jq reads it, or is
TOO_LARGE past the document budget."""

from __future__ import annotations

import os
from dataclasses import dataclass

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings
from jqmagic.core.words import term

_KINDS = {"a": "an array", "o": "an object", "s": "a string", "n": "a number",
          "l": "a literal (true, false or null)", "-": "nothing"}
_SEEN: dict[tuple, Documents] = {}  # by device, inode, size and time: one scan a version


@dataclass(frozen=True)
class Documents:
    """What the scan found in a file (or why the files do not stream: ``several``)."""

    vouched: bool  # strict JSON to its end, which jq's parser takes as it is
    documents: int = 0
    kind: str = "-"  # the first document's: a (array), o (object), s, n, l
    biggest: int = 0  # bytes of the biggest document
    odd_at: int = -1  # where the scan stopped vouching
    repeated_at: int = -1  # the first key repeated (or not compared as jq compares it)
    several: bool = False  # more than one file

    @property
    def streams(self) -> bool:
        """Whether the streaming pass answers as jq does: one array or object, no key
        repeated along the walk."""
        return self.vouched and self.repeated_at < 0 and self.documents == 1 and \
            self.kind in ("a", "o")

    def too_large(self, size: int) -> JqMagicError:
        """TOO_LARGE for a file past the document budget that cannot stream exactly."""
        return JqMagicError(
            "TOO_LARGE", f"The file is {size / 1e6:,.0f} MB, over the document budget "
            f"({settings.doc_cache_bytes / 1e6:,.0f} MB), and cannot be streamed exactly: "
            f"{self._why()}.",
            "Convert it to JSON Lines (one value per line). Or raise the budget, to read "
            f"it whole as jq does: {term('doc_budget')}.")

    def _why(self) -> str:
        if self.several:
            return "the program reads several files (one streams at a time)"
        if self.repeated_at >= 0 and (self.vouched or self.repeated_at < self.odd_at):
            return f"the key at byte {self.repeated_at:,} repeats in an object the program " \
                "walks (jq keeps the last value), or is not ASCII there"
        if not self.vouched:
            return f"its text is not JSON this pass vouches for at byte {self.odd_at:,} " \
                "(a damaged document, or one of jq's own leniencies such as nan or 01)"
        if self.documents != 1:
            return f"it holds {self.documents:,} documents, the biggest " \
                f"{self.biggest / 1e6:,.0f} MB"
        return f"its document is {_KINDS.get(self.kind, self.kind)}"


def of_files(names: list[str], key_depth: int) -> Documents | None:
    """The documents of the command line's files: one file streams; None without the
    scan (an install with no C compiler). ``key_depth``: the objects whose keys must not
    repeat, down from the document's own (1)."""
    if len(names) != 1 or names[0] == "-":
        return Documents(vouched=False, several=True) if _scan() else None
    return of_file(names[0], key_depth)


def of_file(name: str, key_depth: int) -> Documents | None:
    """The documents of the file ``name`` (scanned once a version and depth); None
    without the scan."""
    scan = _scan()
    if scan is None:
        return None
    path = os.path.expanduser(name)
    try:
        stat = os.stat(path)
        key = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, key_depth)
        if key not in _SEEN:
            if len(_SEEN) >= 16:  # the oldest scan forgotten
                _SEEN.pop(next(iter(_SEEN)))
            _SEEN[key] = Documents(*scan(path, key_depth))
    except OSError:  # gone, or not a file: read as jq reads it, and said so
        return Documents(vouched=False)
    return _SEEN[key]


def _scan():  # noqa: ANN202 - the C function, or None
    try:
        from jqmagic.core.query.streaming._docscan import scan
    except ImportError:
        return None
    return scan
