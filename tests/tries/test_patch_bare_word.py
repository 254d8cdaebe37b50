"""A patch VALUE given as a bare word ("always", not JSON text) is told how to write it as
a JSON string, by the tool and on the command line; other broken JSON keeps the general
hint."""

from __future__ import annotations

import json

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.plan import parse_json
from jqmagic.tools import call


@pytest.mark.parametrize(("word", "said"), [("always", '"always"'),
                                            ("hello world", '"hello world"'),
                                            ("dark-mode", '"dark-mode"')])
def test_a_bare_word_is_shown_as_a_json_string(word, said):
    with pytest.raises(JqMagicError) as caught:
        parse_json(word, "VALUE")
    assert caught.value.code == "INVALID_JSON" and said in caught.value.hint


@pytest.mark.parametrize("text", ["[1,", "{a: 1}", "'x'", "1.2.3", " "])
def test_other_broken_json_keeps_the_general_hint(text):
    with pytest.raises(JqMagicError) as caught:
        parse_json(text, "VALUE")
    assert caught.value.hint.startswith("Write JSON")


def test_the_tool_says_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.json").write_text('{"a": {"b": 1}}\n')
    said = call("json_patch", {"filePath": "p.json", "operation": "set", "path": "/a/b",
                               "value": "always"})
    assert not said["success"] and '"always"' in said["hint"], said
    assert json.loads((tmp_path / "p.json").read_text()) == {"a": {"b": 1}}
