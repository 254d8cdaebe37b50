"""A JSON Lines file's first read (doccache.get): whole values at any size whose values fit
the budget where the C pass decodes lines (a later question reads no file again), the
chains asked alone past doccache.WIDEN_BELOW without it (msgspec's widened decoding costs
more than the extension passes it saves), and jq's answers either way."""

from __future__ import annotations

import json

import pytest

from jqmagic.core.query import doccache, projected
from tests.core.query.test_linesshared import _answer


@pytest.mark.parametrize("in_c", [True, False])
def test_a_file_past_widen_below_is_read_whole_in_c(tmp_path, monkeypatch, in_c):
    if in_c and projected.C_LINES is None:
        pytest.skip("the _jvbuild extension is not built")
    if not in_c:
        monkeypatch.setattr(projected, "C_LINES", None)
    monkeypatch.setattr(projected, "WIDE_FROM", 0)
    monkeypatch.setattr(doccache, "WIDEN_BELOW", 1000)
    path = tmp_path / "log.jsonl"
    rows = [{"kind": ["a", "b"][i % 2], "n": [-0.0, 1.0, 1e-05][i % 3], "u": {"x": i}}
            for i in range(3000)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    doccache.documents.clear()
    try:
        assert _answer("[inputs | .n] | add", str(path)) == ["1000.0099999999819"]
        doc = doccache.documents.get(str(path), "jsonl", chains=frozenset({("n",)}))
        assert (doc.chains is None) == in_c
        assert _answer("[inputs | .u.x] | max", str(path)) == ["2999"]
    finally:
        doccache.documents.clear()
