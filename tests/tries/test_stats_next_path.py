"""json_inspect's stats cut to the depth asked name the next call: a deeper ``path`` (the
key holding most of the profiles left out) as ``next_arguments``; following them ends, each
answer within the bound. Under an array's elements no pointer names them: the answer says so
and names no next call (it named none at all, only "inspect a deeper path")."""

from __future__ import annotations

import json

from jqmagic.tools import call, transport


def _document() -> dict:
    """600 members of five records, each a long string of its own (600 profiles of five
    samples: far over one answer), under ``.a``; small neighbours."""
    records = [{f"k{i:03}": f"{r}-{i} " + "y" * 80 for i in range(600)} for r in range(5)]
    return {"b": 1, "a": records, "n": {"deep": {"x": 1}}}


def test_cut_stats_name_a_deeper_path_until_the_elements(tmp_path):
    (tmp_path / "d.json").write_text(json.dumps(_document()))
    request = {"filePath": str(tmp_path / "d.json"), "stats": True, "depth": 1}
    answers = [call("json_inspect", request, allow_root=[str(tmp_path)])]
    while "next_arguments" in answers[-1]:
        assert len(answers) < 5, "no end"
        request = {**request, **answers[-1]["next_arguments"]}
        answers.append(call("json_inspect", request, allow_root=[str(tmp_path)]))
    assert [a.get("next_arguments") for a in answers] == [{"path": "/a"}, None]
    assert all(a["success"] and a["truncated"] for a in answers)
    assert all(transport.wire_size(a) <= transport.limit() for a in answers)
    assert sorted(answers[0]["profiles"]) == [".", ".a", ".b", ".n"]
    assert 'path="/a"' in answers[0]["message"]
    assert sorted(answers[1]["profiles"]) == [".a", ".a[]"]
    assert "array's elements" in answers[1]["message"]


def test_a_key_that_needs_quoting_is_a_pointer(tmp_path):
    document = {"x": 1, "a/b~c": {f"k{i:03}": f"{i} " + "z" * 300 for i in range(600)}}
    (tmp_path / "q.json").write_text(json.dumps(document))
    answer = call("json_inspect", {"filePath": str(tmp_path / "q.json"), "stats": True,
                                   "depth": 0}, allow_root=[str(tmp_path)])
    assert answer["truncated"] and answer["next_arguments"] == {"path": "/a~1b~0c"}
