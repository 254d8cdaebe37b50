"""A JSONC file's parse error shows the user's own line (not the text blanked of comments
and trailing commas that libjq read), on every path, with a hint for a comment left open."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources.formats import parse_json

JQMAGIC = Path(sys.executable).with_name("jqmagic")


@pytest.mark.parametrize("timeout", [[], ["--timeout", "20"]], ids=["here", "worker"])
def test_the_error_shows_the_users_line(tmp_path, timeout):
    """libjq read '{"a": 1, }' (the second comma blanked as a trailing one) and the excerpt
    showed that text, which is not in the file; Python's parse of it found nothing."""
    (tmp_path / "f.jsonc").write_text('{"a": 1,,}\n')
    done = subprocess.run([str(JQMAGIC), "query", *timeout, "-c", ".", "f.jsonc"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and done.stdout == ""
    assert '{"a": 1,,}' in done.stderr and '{"a": 1, }' not in done.stderr
    assert "f.jsonc, line 1, column 10" in done.stderr


@pytest.mark.parametrize("text, hint", [
    ('{"a": 1 /* open\n', "A /* comment is not closed"),
    ('{"a": 1} /\n', "A lone / starts no comment"),
])
def test_a_comment_left_open_is_hinted(text, hint):
    with pytest.raises(JqMagicError) as failed:
        parse_json(text, "f.jsonc", "jsonc")
    assert failed.value.code == "INVALID_JSON" and failed.value.hint.startswith(hint)
    assert text.rstrip() in failed.value.detail


def test_plain_json_keeps_its_hint():
    with pytest.raises(JqMagicError) as failed:
        parse_json('{"a": 1 /* c */}', "f.json")
    assert "read it with" in failed.value.hint
