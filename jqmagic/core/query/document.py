"""A source's parsed values as the document cache holds them (:mod:`.doccache`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.jqlang import columns
from jqmagic.core.jqlang.boundinputs import Hollow
from jqmagic.core.jqlang.literals import Literals

BOM = b"\xef\xbb\xbf"
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
COLUMNS_SHARE = 10  # a kept document's columns may take a tenth of its bytes more


@dataclass
class Document:
    """A source's top-level values and what its number literals allow."""

    values: list[Any]
    literals: Literals
    size: int
    resident: int = 0  # bytes the parsed tree added to the worker's resident set
    line_ended: bool = True  # the text ends with white space (jq's input_filename is exact)
    one_per_line: bool = False  # JSON Lines, every line a value: the nth is on line n
    chains: frozenset | None = None  # JSON Lines holding only these chains; None: whole
    made: dict | None = None  # columns made as the values were decoded, for the store
    spans: Any = None  # JSON Lines held as spans (.linespans.LineSpans): rows made anew
    rows_resident: int = 0  # with spans: what its rows added to the resident set
    spares: list[Document] = field(default_factory=list)  # with spans: earlier questions'
    # rows, the newest first, while together small (.doccache.DocumentCache._respanned)

    def walked(self) -> list[Any]:
        """The lists a question walks whole: the values, a lone value that is one, and the
        lists a lone object holds (``.features``, ``.items``, ``.orders``)."""
        if type(self.values) is Hollow:  # no value made: its columns alone
            return [self.values]
        lone = self.values[0] if len(self.values) == 1 else None
        if type(lone) is dict:
            return [self.values, *(v for v in lone.values() if type(v) is list)]
        return [self.values, lone] if type(lone) is list else [self.values]

    def keep_columns(self, keep: bool) -> None:
        """Keep (or drop) the columns of the lists it walks: a tenth of its bytes more,
        shared by the lists as their lengths are."""
        for values, budget in self._column_budgets():
            if keep:
                columns.own(values, budget)
            else:
                columns.forget(values)
        if keep and self.made:
            columns.adopted(self.values, self.made)
        if type(self.values) is not Hollow:  # (its columns are its content: kept again)
            self.made = None

    def grown(self) -> None:
        """Its values were made fuller in place: their columns may take a tenth of the
        new size."""
        for values, budget in self._column_budgets():
            columns.allow(values, budget)

    def _column_budgets(self) -> Iterator[tuple[list, int]]:
        lists = self.walked()
        share = max(self.resident, self.size) // COLUMNS_SHARE
        if type(self.values) is Hollow:  # its columns are what it holds: room for two more
            share = max(share, 8 * len(self.values) * (len(self.made or ()) + 3))
        items = sum(map(len, lists)) or 1
        return ((values, share * len(values) // items) for values in lists)


def resident_bytes() -> int:
    """This process's resident set, in bytes (0 where /proc is absent)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0
