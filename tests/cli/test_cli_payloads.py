"""``jqmagic payloads``: the payload store listed (id, bytes, when), and ``--clear``
removing every payload (issue 42)."""

from __future__ import annotations

import contextlib
import io
import os

from jqmagic.cli import main
from jqmagic.core import payloads


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["payloads", *argv])
    return status, out.getvalue(), err.getvalue()


def test_list_then_clear(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path))
    kept = [payloads.store("[1]\n"), payloads.store("x" * 5000)]
    os.utime(kept[0].path, (1_700_000_000, 1_700_000_000))  # oldest first, whatever the clock
    (tmp_path / "notes.txt").write_text("not a payload")  # only payloads are listed or removed
    status, out, err = run()
    lines = out.splitlines()
    assert status == 0 and [line.split()[0] for line in lines] == [r.id for r in kept]
    assert lines[1].split()[1] == "5,000"
    assert err.startswith(f"2 payloads, 5,004 bytes, in {tmp_path};")
    assert "jqmagic payloads --clear" in err
    assert run("--clear") == (0, f"Removed 2 payloads, 5,004 bytes, from {tmp_path}.\n", "")
    assert payloads.entries() == [] and (tmp_path / "notes.txt").exists()
    assert run()[1:] == ("", f"0 payloads, 0 bytes, in {tmp_path}; the oldest are pruned "
                             "past 1,073,741,824 bytes (JQMAGIC_PAYLOAD_BUDGET). jqmagic "
                             "payloads --clear removes them all.\n")
