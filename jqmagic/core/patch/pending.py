"""Splices waiting to be applied to a text, all in that text's offsets: a batch of edits is
located against the text as read and applied in one pass; meanwhile a span's bytes can be
asked whether they are still as read (no splice touches them)."""

from __future__ import annotations

import bisect
from collections.abc import Iterator

Splice = tuple[int, int, str]  # replace text[start:end] by the new text
_BUCKET = 256  # characters a bucket of the index covers


class Pending:
    """Splices that do not overlap, in any order; iterated by offset."""

    def __init__(self) -> None:
        self._splices: list[Splice] = []
        self._sorted = True
        self._buckets: dict[int, list[int]] = {}  # bucket -> the splices touching it
        self._indexed = 0  # the splices in _buckets (the rest indexed when first asked)
        self._lines: list[tuple[int, int]] = []  # (start, end) of those adding a newline

    def __bool__(self) -> bool:
        return bool(self._splices)

    def __iter__(self) -> Iterator[Splice]:
        if not self._sorted:
            self._splices.sort()
            self._sorted = True
            self._buckets, self._indexed = {}, 0  # their numbers changed
        return iter(self._splices)

    def add(self, start: int, end: int, new: str) -> int:
        """Queue a splice (the caller knows it touches no other: see :meth:`touched`);
        its number, for :meth:`grow`."""
        number = len(self._splices)
        if number and self._sorted and start < self._splices[-1][0]:
            self._sorted = False
        self._splices.append((start, end, new))
        if "\n" in new:
            bisect.insort(self._lines, (start, end))
        return number

    def extend(self, splices: list[Splice]) -> None:
        """:meth:`add` of each of ``splices``, at once."""
        if self._sorted:
            last = self._splices[-1][0] if self._splices else -1
            for start, _, _ in splices:
                if start < last:
                    self._sorted = False
                    break
                last = start
        self._splices += splices
        for start, end, new in splices:
            if "\n" in new:
                bisect.insort(self._lines, (start, end))

    def grow(self, number: int, more: str) -> None:
        """Write ``more`` after the new text of the splice ``number``."""
        start, end, new = self._splices[number]
        self._splices[number] = (start, end, new + more)
        if "\n" in more and "\n" not in new:
            bisect.insort(self._lines, (start, end))

    def first(self) -> int:
        """The smallest offset a splice starts at."""
        return min(start for start, _, _ in self._splices)

    def touched(self, low: int, high: int) -> bool:
        """Whether a splice touches the characters ``low`` through ``high`` (both kept; a
        splice ending at ``low`` or starting at ``high`` counts)."""
        splices = self._splices
        if self._indexed < len(splices):
            self._index()
        for bucket in range(low // _BUCKET, high // _BUCKET + 1):
            for number in self._buckets.get(bucket, ()):
                start, end, _ = splices[number]
                if start <= high and end >= low:
                    return True
        return False

    def _index(self) -> None:
        """Put the splices added since the last look into their buckets (a batch that never
        asks, as -i's scalar replacements, never builds the index)."""
        buckets, splices = self._buckets, self._splices
        for number in range(self._indexed, len(splices)):
            start, end, _ = splices[number]
            for bucket in range(start // _BUCKET, max(start, end - 1) // _BUCKET + 1):
                buckets.setdefault(bucket, []).append(number)
        self._indexed = len(splices)

    def new_line_in(self, low: int, high: int) -> bool:
        """Whether a splice touching ``low`` through ``high`` writes a newline."""
        at = bisect.bisect_left(self._lines, (low, -1))
        if at and self._lines[at - 1][1] >= low:
            return True
        return at < len(self._lines) and self._lines[at][0] <= high


def apply(text: str, splices: Iterator[Splice] | list[Splice]) -> str:
    """``text`` with the splices (in order of offset, apart) applied, in one pass."""
    parts, done = [], 0
    for start, end, new in splices:
        parts += [text[done:start], new]
        done = end
    parts.append(text[done:])
    return "".join(parts)
