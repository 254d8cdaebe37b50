"""``jqmagic.query(".", b'{"a": 1}')``: bytes are text read as a file's bytes would be
(JSON, JSON Lines, YAML when forced; a BOM dropped, bad UTF-8 replaced as jq replaces it),
not one string value (it answered "{\\"a\\":1}"), and a bytearray is no longer refused."""

from __future__ import annotations

import io
import subprocess

import pytest

import jqmagic
from jqmagic.core.options import Source
from tests.cli.dropin import ORACLE


@pytest.mark.parametrize("data, yaml, expected", [
    (b'{"a": 1}', None, '{"a":1}'),
    (b'{"a":1}\n{"a":2}\n', None, '{"a":1}\n{"a":2}'),
    (b"a: 1\n---\na: [2]\n", True, '{"a":1}\n{"a":[2]}'),
    (b'\xef\xbb\xbf{"a":1}', None, '{"a":1}'),
    (b'"\xff"', None, '"\ufffd"'),
])
def test_bytes_are_a_files_text(data, yaml, expected):
    for source in (data, bytearray(data), memoryview(data)):
        assert jqmagic.query(".", source, compact=True, yaml=yaml).text == expected
    assert Source.of(data).kind == "text"
    if not yaml and ORACLE.exists():  # the same bytes through jq 1.8.2 itself
        jq = subprocess.run([str(ORACLE), "-c", "."], input=data, capture_output=True, check=True)
        assert jq.stdout.decode().rstrip("\n") == expected


def test_a_bytes_variable_in_a_magic_is_a_files_text(ip):
    """``%jq .a data`` where ``data = response.content``: JSON read from the bytes (it was
    one string, so '.a' failed with "Cannot index string")."""
    ip.user_ns["data"] = b'{"a": 1}\n{"a": 2}'
    ip.user_ns["conf"] = bytearray(b"a: 3\n")
    assert ip.run_line_magic("jq", "-c .a data").text == "1\n2"
    assert ip.run_line_magic("jq", "-c .a --var data").text == "1\n2"
    assert ip.run_line_magic("jq", "-c .a conf --yaml").text == "3"
    ip.user_ns["plain"] = '{"a": 1}'  # a str variable stays a string value
    assert ip.run_line_magic("jq", "-c . plain").text == '"{\\"a\\": 1}"'


def test_an_open_file_is_read_from_where_it_stands(tmp_path):
    path = tmp_path / "lines.json"
    path.write_bytes(b'{"a":1}\n{"a":2}\n')
    for mode in ("r", "rb"):
        with open(path, mode) as handle:
            assert jqmagic.query(".a", handle).values == [1, 2]
    with open(path, "rb") as handle:
        handle.readline()  # json.load reads on from here too
        assert jqmagic.query(".a", handle).values == [2]
    assert jqmagic.query(".[0]", io.StringIO("[5]")).values == [5]
