"""A program holding a NUL character is refused on every face: libjq reads a C string,
so '.a\\u0000 | length' ran as '.a' and answered [1, 2] without a word (jq refuses a
program file with NUL bytes; its command line cannot be given one)."""

from __future__ import annotations

import pytest

import jqmagic
import jqmagic.tools as tools
from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import patch

PROGRAM = ".a\0 | length"


def _refused(run) -> JqMagicError:
    with pytest.raises(JqMagicError) as refused:
        run()
    assert refused.value.code == "INVALID_QUERY" and "NUL" in refused.value.message
    assert "character 3" in refused.value.message and "\\u0000" in refused.value.hint
    return refused.value


@pytest.mark.parametrize("timeout", [None, 10])
def test_query(timeout):
    _refused(lambda: jqmagic.query(PROGRAM, text='{"a": [1, 2]}', timeout=timeout))


def test_explain():
    _refused(lambda: jqmagic.explain(PROGRAM, text='{"a": [1, 2]}'))


def test_patch_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "d.json"
    path.write_bytes(b'{"a": [1, 2]}\n')
    _refused(lambda: patch(path, jq=".a\0 | .b = 2"))
    assert path.read_bytes() == b'{"a": [1, 2]}\n'


def test_the_jq_tool():
    out = tools.call("jq", {"query": PROGRAM, "input": '{"a": [1, 2]}'})
    assert out["success"] is False and out["error_code"] == "INVALID_QUERY"
    assert "NUL" in out["error"]
