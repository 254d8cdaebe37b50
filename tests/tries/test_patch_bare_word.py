"""A patch VALUE given as a bare word ("always", not JSON text) is told how to write it as
a JSON string, by the tool and on the command line; other broken JSON keeps the general
hint."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.plan import parse_json
from jqmagic.tools import call

JQMAGIC = f"{shlex.quote(sys.executable)} -m jqmagic"


@pytest.mark.parametrize(("word", "said"), [("always", """'"always"'"""),
                                            ("hello world", """'"hello world"'"""),
                                            ("dark-mode", """'"dark-mode"'"""),
                                            ("2.0.0", """'"2.0.0"'"""),  # a version
                                            ("-x", """'"-x"'""")])
def test_a_bare_word_is_shown_as_a_json_string(word, said):
    with pytest.raises(JqMagicError) as caught:
        parse_json(word, "VALUE")
    assert caught.value.code == "INVALID_JSON" and said in caught.value.hint


@pytest.mark.parametrize("text", ["[1,", "{a: 1}", "'x'", " "])
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


def test_the_hint_typed_in_a_shell_sets_the_string(tmp_path):
    """The hint is quoted for a shell: typed as shown, the string is set."""
    (tmp_path / "p.json").write_text('{"a": {"b": 1}}\n')
    refused = subprocess.run(f"{JQMAGIC} patch p.json set /a/b always", shell=True,
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
    shown = re.search(r"double quotes: (.*)\.", json.loads(refused.stdout)["suggestion"])[1]
    done = subprocess.run(f"{JQMAGIC} patch p.json set /a/b {shown}", shell=True,
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads((tmp_path / "p.json").read_text()) == {"a": {"b": "always"}}
