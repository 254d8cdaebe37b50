"""Per-path profiles are taken a level at a time (the 500 of argo-cd's manifest were all
under .[].spec, and .[].rules, .[].data ... had none), and json_inspect's stats answer over
one answer keeps the profiles down to its depth: it was not sent at all (a payload and a
preview), advising a lower depth that changed nothing."""

from __future__ import annotations

import json

from jqmagic import shape
from jqmagic.tools import call


def _document() -> dict:
    wide = {f"k{i:03}": {"text": f"{i} " + "x" * 150, "n": i} for i in range(400)}
    return {"a": wide, "b": {"c": 1}, "z": "last"}


def _records() -> list:
    """Five records of 600 members, each a long string of its own: 600 profiles of five
    samples each, far over one answer."""
    return [{f"k{i:03}": f"{r}-{i} " + "y" * 80 for i in range(600)} for r in range(5)]


def test_the_shallow_paths_come_first(tmp_path):
    (tmp_path / "d.json").write_text(json.dumps(_document()))
    profiles = shape(file=str(tmp_path / "d.json"), stats=True).value["profiles"]
    assert list(profiles)[:5] == [".", ".a", ".b", ".z", ".a.k000"]
    assert ".b.c" in profiles and "…" in profiles


def test_a_stats_answer_over_the_bound_keeps_its_depth(tmp_path):
    (tmp_path / "r.json").write_text(json.dumps(_records()))
    answer = call("json_inspect", {"filePath": str(tmp_path / "r.json"), "stats": True,
                                   "depth": 1},
                  allow_root=[str(tmp_path)])
    assert answer["success"] and answer["truncated"] and "payload_id" not in answer
    assert sorted(answer["profiles"]) == [".", ".[]"]
    assert "down to depth 1" in answer["message"]
    assert len(json.dumps(answer).encode()) < 100_000
