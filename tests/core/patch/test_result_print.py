"""``print(jqmagic.patch(...))`` shows what a person reads (the summary, bounded), and the
repr is one short line, however many values the edit wrote (it was the dataclass's repr:
every change and the whole diff)."""

from __future__ import annotations

import json

import jqmagic
from jqmagic.core.patch import result


def test_print_shows_the_summary_and_repr_one_line(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"a": 1}\n')
    done = jqmagic.patch(str(path), "set", "/a", 2, dry_run=True)
    assert str(done) == done.summary() and str(done).startswith("set /a: 1 -> 2\n")
    assert repr(done) == "<PatchResult set: 1 value to write (a dry run)>"
    again = jqmagic.patch(str(path), "set", "/a", 1)
    assert repr(again) == "<PatchResult set: 1 value written, nothing changed>"


def test_a_big_edit_prints_within_the_bound(tmp_path):
    path = tmp_path / "items.json"
    path.write_text(json.dumps({"items": [{"v": i} for i in range(3000)]}))
    done = jqmagic.patch(str(path), jq=".items |= map(.v += 1)", dry_run=True)
    printed, whole = str(done), done.summary()
    assert len(whole) > result.PRINTED_CHARS >= len(printed) - 80
    shown, said = printed.rsplit("\n", 1)
    assert whole.startswith(shown + "\n") and "more characters: .summary() has them" in said
    assert len(repr(done)) < 80
