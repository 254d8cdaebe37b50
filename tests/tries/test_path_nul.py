"""A file name holding a NUL character is INVALID_ARGUMENT on every face, sandbox or not:
read_file and json_patch died with a Python traceback (ValueError: embedded null byte)
and no JSON answer; the jq tool's worker crashed and was restarted."""

from __future__ import annotations

import io
import json

import pytest

import jqmagic
import jqmagic.tools as tools
from jqmagic.core.errors import JqMagicError
from jqmagic.tools.protocol import serve

REQUESTS = [
    ("jq", {"query": ".", "file": "d.json\0x"}),
    ("query_json", {"file_path": "d.json\0", "jq_expression": "."}),
    ("query_yaml", {"file_path": "d.json\0", "yq_expression": "."}),
    ("read_file", {"file_path": "d.json\0"}),
    ("json_inspect", {"filePath": "d.json\0"}),
    ("json_patch", {"filePath": "d.json\0", "operation": "remove", "path": "/a"}),
]


@pytest.mark.parametrize("name, request_", REQUESTS, ids=[r[0] for r in REQUESTS])
@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandbox", "no-sandbox"])
def test_each_tool_answers_in_json(tmp_path, monkeypatch, name, request_, sandboxed):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.json").write_text('{"a": 1}\n')
    out = io.StringIO()
    if sandboxed:
        assert serve(name, io.StringIO(json.dumps(request_)), out, io.StringIO()) == 1
        answer = json.loads(out.getvalue())
    else:
        answer = tools.call(name, request_, no_sandbox=True)
    assert answer["error_code"] == "INVALID_ARGUMENT", answer
    assert "NUL character" in answer["error"] and "\\u0000" in answer["hint"]
    assert (tmp_path / "d.json").read_text() == '{"a": 1}\n'


def test_the_python_api(tmp_path):
    with pytest.raises(JqMagicError) as refused:
        jqmagic.query(".", file=str(tmp_path / "d\0.json"))
    assert refused.value.code == "INVALID_ARGUMENT"
