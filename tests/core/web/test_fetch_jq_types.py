"""fetch's jq reads the answer's bytes whatever their type says, as jq reads a file: a JSON
file served as text/plain (raw.githubusercontent.com serves every file so) and JSON Lines
(application/x-ndjson, or several values under application/json) were refused ("A jq
filter needs a JSON response", or Python's "Extra data"). HTML is still refused, and text
that is no JSON is PARSE_ERROR naming the URL."""

from __future__ import annotations

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web.fetch import fetch

LINES = b'{"a": 1.50}\n{"a": 2}\n'


@pytest.mark.parametrize(("body", "ctype", "shown"), [
    (b'{"version": "2.0", "n": 1.50}\n', "text/plain; charset=utf-8", '"2.0"\n1.50'),
    (LINES, "application/x-ndjson", "1.50\n2"),
    (LINES, "application/json", "1.50\n2"),
    (LINES, "text/plain", "1.50\n2"),
])
def test_jq_reads_the_bytes_whatever_their_type(web, body, ctype, shown):
    program = ".version, .n" if b"version" in body else ".a"
    result = fetch(web.add("/f", body, ctype), jq=program, private_addresses=True)
    assert result.content == shown


def test_text_that_is_no_json_is_said_with_its_url(web):
    url = web.add("/notes.txt", b"just words\n", "text/plain")
    with pytest.raises(JqMagicError) as caught:
        fetch(url, jq=".a", private_addresses=True)
    assert caught.value.code == "PARSE_ERROR" and url in caught.value.message
    assert "text/plain" in caught.value.message
