"""Unified diffs of edited text, worked out on a window of changed lines (a one-value
edit of a big file diffs a few lines): the text stores' previews."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable


def lines_after(text: str, pos: int, count: int) -> int:
    end = pos
    for _ in range(count + 1):
        found = text.find("\n", end)
        if found < 0:
            return len(text)
        end = found + 1
    return end


def hunks(old: str, new: str, offset: int, name: str, context: int) -> str:
    """A unified diff of two windows of text that start at line ``offset`` of the file."""
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 f"a/{name}", f"b/{name}", n=context)
    return "".join(_shift_hunk(line, offset) for line in lines)


def window_diff(old: str, new: str, name: str, context: int = 3) -> str:
    """A unified diff of two texts, worked out on the lines between their common head and
    tail only (a one-value edit of a big file diffs a few lines)."""
    if old == new:
        return ""
    head = _common(min(len(old), len(new)), lambda n: old[:n] == new[:n])
    room = min(len(old), len(new)) - head
    tail = _common(room, lambda n: old[len(old) - n :] == new[len(new) - n :])
    start = old.rfind("\n", 0, head) + 1
    for _ in range(context):
        start = old.rfind("\n", 0, max(start - 1, 0)) + 1
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


def _shift_hunk(line: str, offset: int) -> str:
    if not line.startswith("@@"):
        return line
    return re.sub(
        r"([-+])(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + offset}", line, count=2
    )

