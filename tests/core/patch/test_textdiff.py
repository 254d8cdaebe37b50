"""A dry run's diff of a text changed in many places (textdiff.spliced_diff): each cluster of
splices diffed in its own window, hunks numbered by the file's lines (``\\n`` only)."""

from __future__ import annotations

import json
import re

from jqmagic.core.patch.textdiff import spliced_diff

_HEADER = re.compile(r"@@ -(\d+),(\d+) \+(\d+),(\d+) @@")


def _checked(old: str, diff: str, new: str) -> int:
    """The hunks' count; each hunk's '-' and ' ' lines are the old text's lines at its
    numbers, its '+' and ' ' lines the new text's."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    count = 0
    for hunk in diff.split("\n@@")[1:]:
        head, *body = ("@@" + hunk).split("\n")
        at_old, _, at_new, _ = map(int, _HEADER.match(head).groups())
        body = [line for line in body if line]
        minus = [line[1:] for line in body if line[0] in " -"]
        plus = [line[1:] for line in body if line[0] in " +"]
        assert old_lines[at_old - 1 : at_old - 1 + len(minus)] == minus
        assert new_lines[at_new - 1 : at_new - 1 + len(plus)] == plus
        count += 1
    return count


def _splices(old: str, every: int) -> tuple[list[tuple[int, int, str]], str]:
    """Every ``every``-th line's value replaced by two lines (the line count moves)."""
    splices, pos = [], 0
    for n, line in enumerate(old.split("\n")):
        if n % every == 3 and line.strip():
            splices.append((pos, pos + len(line), line + "\n  " + '"added": 1,'))
        pos += len(line) + 1
    parts, done = [], 0
    for start, end, piece in splices:
        parts += [old[done:start], piece]
        done = end
    return splices, "".join(parts) + old[done:]


def test_many_clusters_each_its_hunk_numbered_by_the_new_lines_too():
    old = json.dumps({"items": [{"id": n, "name": f"x\u2028{n}"} for n in range(300)]},
                     indent=2, ensure_ascii=False) + "\n"  # a raw U+2028 inside strings
    splices, new = _splices(old, 20)
    diff = spliced_diff(old, splices, "f.json", 3, str)
    assert diff.startswith("--- a/f.json\n+++ b/f.json\n@@")
    assert diff.count("--- a/") == 1
    assert _checked(old, diff, new) == len(splices)  # 20 lines apart: one hunk each


def test_splices_close_together_share_a_hunk():
    old = "".join(f"line {n}\n" for n in range(40))
    splices, new = _splices(old, 6)  # 6 lines between the lines added: contexts touch
    diff = spliced_diff(old, splices, "f", 3, str)
    assert _checked(old, diff, new) == 1


def test_lines_changed_six_apart_share_a_hunk_as_difflib_would():
    old = "".join(f"line {n}\n" for n in range(20))
    at3, at10 = old.index("line 3\n"), old.index("line 10\n")
    splices = [(at3, at3 + 6, "three"), (at10, at10 + 7, "ten")]
    new = old.replace("line 3\n", "three\n").replace("line 10\n", "ten\n")
    assert _checked(old, spliced_diff(old, splices, "f", 3, str), new) == 1
