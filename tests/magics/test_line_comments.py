"""A magic's line is read as a shell reads it: a ``#`` that starts a word outside quotes
ends it; one inside a word (a URL's fragment) or in quotes (a jq comment) stays."""

from __future__ import annotations

import pytest

from jqmagic.notebook.magics import _uncommented


@pytest.mark.parametrize("line, kept", [
    (".a data  # the a of data", ".a data  "),
    ("# nothing", ""),
    (".a https://x.org/a.json#part", ".a https://x.org/a.json#part"),
    ("'.a # jq comment\n' data # mine", "'.a # jq comment\n' data "),
    ('".a" "#x" y', '".a" "#x" y'),
    ('"a\\" # b" # c', '"a\\" # b" '),
    ("a\\ #b", "a\\ #b"),
    ("'it\\' # c", "'it\\' "),
])
def test_a_comment_ends_the_line_as_in_a_shell(line, kept):
    assert _uncommented(line) == kept


def test_a_commented_line_runs(ip):
    ip.user_ns["data"] = {"a": 1}
    assert ip.run_line_magic("jq", ".a data  # the a of data").values == [1]
