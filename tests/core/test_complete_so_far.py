"""Tab on a big file answers at once: keys from its first bytes, marked "so far", while the
worker makes the whole shape (issue 56: the first Tabs on a 51 MB file waited 20 s)."""

from __future__ import annotations

import json
import threading

from jqmagic.core.complete import complete, forget, shapes


def test_a_big_file_answers_from_its_first_bytes_until_its_whole_shape_is_made(
        tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    rows = [{"id": i, "name": f"n{i}"} for i in range(2_000)] + [{"late": True}]
    path.write_text(json.dumps({"rows": rows}))
    monkeypatch.setattr(shapes, "QUICK_FROM", 1_000)
    monkeypatch.setattr(shapes, "FIRST_BYTES", 4_000)
    release, asked = threading.Event(), []
    made = shapes._worker_shape

    def slow_whole(source, timeout):
        asked.append(source.spec)
        release.wait(30)
        return made(source, timeout)

    monkeypatch.setattr(shapes, "_worker_shape", slow_whole)
    forget()
    try:
        first = complete(".rows[0].", file=str(path))
        assert first.texts == [".id", ".name"]  # ".late" is past the first bytes
        assert all(o.type.endswith("(so far)") for o in first.offers)
        assert first.note.startswith("keys so far")
        assert complete(".rows[0].", file=str(path)).texts == [".id", ".name"]
        assert len(asked) == 1  # one whole shape asked for, however many Tabs
        release.set()
        for thread in threading.enumerate():
            if thread.name == "jqmagic-shape":
                thread.join(30)
        whole = complete(".rows[0].", file=str(path))
        assert whole.texts == [".id", ".name", ".late"] and whole.note == ""
        assert whole.offers[0].type == "number, in 2,000 of 2,001"
    finally:
        release.set()
        forget()


def test_a_small_file_answers_whole_at_once(tmp_path):
    path = tmp_path / "small.json"
    path.write_text(json.dumps({"a": {"b": 1}}))
    forget()
    done = complete(".a.", file=str(path))
    assert done.texts == [".b"] and done.offers[0].type == "number, in all 1"
