"""The documents scan (``streaming/_docscan.c``) against jq 1.8.2's own parser: a file it
vouches for is one jq parses without error, into as many documents, with no key repeated
in the objects down to the depth asked; what it cannot vouch for it says where."""

from __future__ import annotations

import random
import subprocess

import pytest

from jqmagic.core.query.streaming import documents
from tests.cli import dropin

_docscan = pytest.importorskip("jqmagic.core.query.streaming._docscan",
                               reason="the documents scan was not built: no compiler")


def _jq_documents(path) -> int | None:
    """How many documents jq 1.8.2 reads in the file, None when it fails to parse it."""
    done = subprocess.run([str(dropin.ORACLE), "-c", "0", str(path)], capture_output=True,
                          timeout=30)
    return None if done.returncode else len(done.stdout.split())


@pytest.mark.parametrize(("text", "vouched", "count", "kind"), [
    ("", True, 0, "-"),
    ("[1, 2]\n", True, 1, "a"),
    ('\ufeff{"a": [true, false, null, -0.5e-3, "\\u00e9\\ud83d\\ude00"]}', True, 1, "o"),
    ('[1] {"a": 2}\n"x" 3 4', True, 5, "a"),
    ("[1][2]", True, 2, "a"),
    ('"\\udc00" "\\u00e9"', True, 2, "s"),
    ('["\\ud800"]', False, 0, "a"),  # jq: an unpaired high surrogate escape
    ('["\\ud800\\u0041"]', False, 0, "a"),
    ("[nan]", False, 0, "a"),  # jq's leniencies: not vouched for
    ("[01]", False, 0, "a"),
    ("[1.]", False, 0, "a"),
    ('["a\tb"]', False, 0, "a"),  # a raw control character: jq refuses it
    ("[1, 2", False, 0, "a"),
    ("[1,]", False, 0, "a"),
    ('{"a" 1}', False, 0, "o"),
    ("1[2]", False, 0, "n"),  # jq's own reading of what follows a number: not copied
    ("truex", False, 0, "l"),
    ("[" * 5000 + "]" * 5000, False, 0, "a"),  # deeper than the scan follows
    ("[1" + "0" * 400 + "]", False, 0, "a"),
])
def test_what_the_scan_vouches_for(tmp_path, text, vouched, count, kind):
    path = tmp_path / "f.json"
    path.write_text(text, encoding="utf-8")
    got = _docscan.scan(str(path), 0)
    assert (got[0], got[2]) == (vouched, kind)
    assert (got[4] == -1) == vouched
    assert not vouched or got[1] == count
    if vouched and dropin.ORACLE.exists():
        assert _jq_documents(path) == count


def _value(rnd: random.Random, depth: int = 0) -> str:
    if depth > 3 or rnd.random() < 0.4:
        return rnd.choice(["1", "-0", "1.5e3", "0.25", "true", "false", "null", '"é\\n"',
                           '"\\ud83d\\ude00"', '"\\ud800"', "100000000000000000001", "1E1000",
                           '"x\xff"'])
    space = rnd.choice(["", " ", "\n", "\r\n"])
    items = [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    if rnd.random() < 0.5:
        return "[" + space + ("," + space).join(items) + "]"
    return "{" + ",".join(f'"k{i}"{space}:{space}{v}' for i, v in enumerate(items)) + "}"


@dropin.needs_oracle
def test_a_file_the_scan_vouches_for_jq_parses_alike(tmp_path):
    rnd = random.Random(53)
    path = tmp_path / "f.json"
    vouched = 0
    for _ in range(150):
        text = rnd.choice(["", " ", "\n"]).join(_value(rnd) for _ in range(rnd.randint(1, 3)))
        if rnd.random() < 0.3 and text:  # damage
            at = rnd.randrange(len(text))
            text = text[:at] + rnd.choice(["", ",", "]", "x", '"', "\x01", "nan"]) + text[at + 1:]
        path.write_bytes(text.encode("utf-8").replace("ÿ".encode(), b"\xff"))
        ok, count, _, biggest, odd_at, _ = _docscan.scan(str(path), 0)
        if ok:
            vouched += 1
            assert _jq_documents(path) == count, text
            assert 0 < biggest <= len(text.encode()) or count == 0
        else:
            assert 0 <= odd_at <= path.stat().st_size
    assert vouched > 40  # the draws do reach the vouched side


@pytest.mark.parametrize(("text", "depth", "repeated_at"), [
    ('{"a": 1, "b": {"a": 1, "a": 2}, "a": 3}', 1, 34),  # the document's own keys
    ('{"a": 1, "b": {"a": 1, "a": 2}, "a": 3}', 2, 25),  # and those one down
    ('{"a": 1, "b": {"a": 1, "a": 2}, "a": 3}', 0, None),
    ('[{"a": 1, "b": 2}, {"a": 1, "b": 2}]', 2, None),  # each object its own keys
    ('[{"a": 1}, {"b": {"c": 1, "c": 2}}]', 2, None),  # deeper: libjq parses elements
    ('{"a": 1, "\\u0061": 2}', 1, 16),  # the same key, escaped
    ('{"a\\n": 1, "a\\t": 2, "a\\"": 3, "a\\/": 4}', 1, None),
    ('{"\\u00e9": 1, "\u00e9": 2}', 1, 7),  # not compared here: not vouched for
    ('{"é": 1}', 1, 2),
    ("{" + ", ".join(f'"k{i}": {i}' for i in range(5000)) + ', "k0": 0}', 1, 72784),
])
def test_a_repeated_key_where_the_walk_goes(tmp_path, text, depth, repeated_at):
    path = tmp_path / "f.json"
    path.write_text(text, encoding="utf-8")
    vouched, count, kind, _, odd_at, said_at = _docscan.scan(str(path), depth)
    assert (vouched, count, odd_at) == (True, 1, -1)  # the scan goes on to the end
    assert said_at == (-1 if repeated_at is None else repeated_at)
    path.write_text(f"{text}\n{text} [1]", encoding="utf-8")  # the first said, all counted
    assert _docscan.scan(str(path), depth)[1:] == \
        (3, kind, len(text.encode()), -1, said_at)


def test_without_the_scan_big_files_stream_as_before(tmp_path, monkeypatch):
    path = tmp_path / "f.json"
    path.write_text("[1] [2]")
    assert not documents.of_files([str(path)], 1).streams
    monkeypatch.setattr(documents, "_scan", lambda: None)
    assert documents.of_files([str(path)], 1) is None
    assert documents.of_files([str(path), str(path)], 1) is None
