"""A JSON file with bytes that are not UTF-8 is shaped as jq reads it (each invalid
sequence one U+FFFD, cut as jq cuts it): %inspect, json_inspect and Tab refused it
("not UTF-8 text") while %jq and jq read it."""

from __future__ import annotations

import json

import pytest

import jqmagic
from jqmagic.core.settings import settings

KEYS = [b"a\xff", b"\xf0\x9f\xe2", b"\xed\xa0\x80x", b"\xe0\x80\xaf", b"ok\xc3\xa9", b"\xc3"]


@pytest.fixture
def libjq():
    """libjq reads the file (the fast path off): the oracle."""
    before, settings.fast_path = settings.fast_path, False
    yield
    settings.fast_path = before


def test_keys_and_values_as_jq_reads_them(tmp_path, libjq):
    path = tmp_path / "bad.json"
    path.write_bytes(b"{" + b",".join(b'"%s": ["v\xff%d"]' % (k, i) for i, k in
                                      enumerate(KEYS)) + b"}\n")
    jq_keys = json.loads(jqmagic.query("keys_unsorted", file=path, compact=True).text)
    shaped = jqmagic.shape(file=str(path))
    assert shaped.value["keys"] == jq_keys
    assert len(set(jq_keys)) == 4  # jq reads several keys as the same one
    lines = tmp_path / "bad.jsonl"
    lines.write_bytes(b'{"k\xff": 1}\n{"k\xf0\x9f": 2}\n')
    assert jqmagic.shape(file=str(lines)).value["availableKeys"] == ["k\ufffd"]
