"""Unified diffs of edited text, worked out on a window of changed lines (a one-value
edit of a big file diffs a few lines): the text stores' previews."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from jqmagic.core.patch.pending import apply


def lines_after(text: str, pos: int, count: int) -> int:
    end = pos
    for _ in range(count + 1):
        found = text.find("\n", end)
        if found < 0:
            return len(text)
        end = found + 1
    return end


# a line ends at "\n" only, as the offsets count them (str.splitlines also ends one at
# U+2028, \x85, \x0c... that a JSON string may hold raw)
_LINE = re.compile(r"[^\n]*\n|[^\n]+")


def lines_before(text: str, pos: int, count: int) -> int:
    """Where the line ``count`` lines above the one holding ``pos`` starts."""
    start = text.rfind("\n", 0, pos) + 1
    for _ in range(count):
        start = text.rfind("\n", 0, max(start - 1, 0)) + 1
    return start


def hunks(old: str, new: str, offset: int, name: str, context: int,
          new_offset: int | None = None) -> str:
    """A unified diff of two windows of text that start at line ``offset`` of the file
    (the new one at ``new_offset``, if lines were added or removed above it)."""
    lines = difflib.unified_diff(_LINE.findall(old), _LINE.findall(new), f"a/{name}",
                                 f"b/{name}", n=context)
    moved = offset if new_offset is None else new_offset
    return "".join(_shift_hunk(line, offset, moved) for line in lines)


def spliced_diff(old: str, splices: list[tuple[int, int, str]], name: str, context: int,
                 real: Callable[[str], str]) -> str:
    """A unified diff of ``old`` with ``splices`` (sorted, apart) applied: each cluster of
    splices (more than twice ``context`` lines from the next) diffed in its own window, so
    a text changed in many places costs its changed lines (difflib over a whole 12 MB text
    changed everywhere took minutes); ``real``: a window's text as shown."""
    parts: list[str] = []
    line = counted = moved = 0  # the window's first line, counted up to offset `counted`
    for group in _clusters(old, splices, context):
        start = lines_before(old, group[0][0], context)
        end = lines_after(old, group[-1][1], context)
        window = old[start:end]
        new = apply(window, [(a - start, b - start, piece) for a, b, piece in group])
        line, counted = line + old.count("\n", counted, start), start
        text = hunks(real(window), real(new), line, name, context, line + moved)
        parts.append(text.split("\n", 2)[2] if parts and text else text)
        moved += new.count("\n") - window.count("\n")
    return "".join(parts)


def _clusters(old: str, splices: list[tuple[int, int, str]],
              context: int) -> list[list[tuple[int, int, str]]]:
    groups: list[list[tuple[int, int, str]]] = []
    for splice in splices:
        if groups and old.count("\n", groups[-1][-1][1], splice[0]) <= 2 * context + 1:
            groups[-1].append(splice)
        else:
            groups.append([splice])
    return groups


def window_diff(old: str, new: str, name: str, context: int = 3) -> str:
    """A unified diff of two texts, worked out on the lines between their common head and
    tail only (a one-value edit of a big file diffs a few lines)."""
    if old == new:
        return ""
    head = _common(min(len(old), len(new)), lambda n: old[:n] == new[:n])
    room = min(len(old), len(new)) - head
    tail = _common(room, lambda n: old[len(old) - n :] == new[len(new) - n :])
    start = lines_before(old, head, context)
    old_end = lines_after(old, len(old) - tail, context)
    new_end = lines_after(new, len(new) - tail, context)
    return hunks(old[start:old_end], new[start:new_end], old.count("\n", 0, start), name,
                  context)


def _common(high: int, same: Callable[[int], bool]) -> int:
    """The largest n in [0, high] with ``same(n)`` (a binary search over slices)."""
    low = 0
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _shift_hunk(line: str, offset: int, new_offset: int) -> str:
    if not line.startswith("@@"):
        return line
    return re.sub(r"([-+])(\d+)", lambda m: m.group(1) + str(
        int(m.group(2)) + (offset if m.group(1) == "-" else new_offset)), line, count=2)

