"""-i's program run on the file in the worker (core/patch/ahead.py) while the store is built:
the same bytes and changes as the run on the store's value where both read the file alike,
jq's own reading of the file where they do not (number literals as written, the file's
name), and the run on the value wherever the file is not plain JSON or changed meanwhile."""

from __future__ import annotations

import json
import subprocess

import pytest

from jqmagic.core.patch import ahead, patch
from jqmagic.core.patch.jqdiff import jq_runner
from jqmagic.core.patch.textdoc import TextDoc
from tests.core.patch.test_onepass import ORACLE, PROGRAMS, _document


@pytest.fixture
def taken(monkeypatch):
    """The outcome of each run begun on the file: its outputs, or None (not taken)."""
    seen: list = []
    outputs = ahead.Ahead.outputs

    def spy(self, store):
        got = outputs(self, store)
        seen.append(got)
        return got

    monkeypatch.setattr(ahead.Ahead, "outputs", spy)
    return seen


def _by_value(data: bytes, program: str):
    """The bytes and changes of the run on the store's value (as before ahead.py)."""
    doc = TextDoc(data)
    changes, _ = jq_runner(program)(doc)
    return b"".join(doc.chunks()), changes


@pytest.mark.parametrize("program", PROGRAMS)
def test_same_bytes_as_the_run_on_the_value(program, tmp_path, taken):
    """Random plain documents (odd spacing, CRLF, escapes, -0.0, 1e400, big integers,
    15e-1) x the one-pass programs: the file run ahead writes what the value's run did."""
    compared = 0
    for seed in range(6):
        data, _ = _document(seed * 37 + len(program))
        if not TextDoc(data)._first_wins:
            continue
        path = tmp_path / f"{seed}.json"
        path.write_bytes(data)
        try:
            want = _by_value(data, program)
        except Exception as exc:  # noqa: BLE001 - the same error through the file
            with pytest.raises(type(exc)):
                patch(path, jq=program)
            continue
        taken.clear()
        result = patch(path, jq=program)
        assert taken and taken[0] is not None, (data, program)  # the file's run was used
        assert path.read_bytes() == want[0], (data, program)
        assert list(result.changes) == want[1]
        compared += 1
    assert compared


@pytest.mark.parametrize("name, data", [
    ("comments.json", b'{"a": 1, // a comment\n "b": [1, 2]}\n'),
    ("bom.json", b'\xef\xbb\xbf{"a": 1, "b": [1, 2]}\n'),
    ("repeated.json", b'{"a": 1, "a": 5, "b": [1, 2]}\n'),
    ("latin1.json", b'{"a": 1, "s": "caf\xe9", "b": [1, 2]}\n'),
    ("glob[1].json", b'{"a": 1, "b": [1, 2]}\n'),
])
def test_the_value_s_run_where_the_file_is_not_plain(name, data, tmp_path, taken):
    """Comments, a byte order mark, a repeated key, bytes that are not UTF-8, a name that
    is a glob: the program runs on the store's value, as before (and the file is written:
    a worker that could not parse it does not keep it open)."""
    path = tmp_path / name
    path.write_bytes(data)
    want = _by_value(data, ".a += 1 | .b[0] = 9")
    patch(path, jq=".a += 1 | .b[0] = 9")
    assert path.read_bytes() == want[0] != data
    assert all(got is None for got in taken)
    patch(path, jq=".a += 1")  # again: nothing holds the file
    assert path.read_bytes() != want[0]


def test_the_value_s_run_where_the_file_changed_meanwhile(tmp_path, taken, monkeypatch):
    """The file's stat differs at the answer from its read: the value's run answers."""
    path = tmp_path / "a.json"
    path.write_bytes(b'{"a": 1}\n')
    monkeypatch.setattr(ahead, "_version", lambda _: None)
    patch(path, jq=".a += 1")
    assert path.read_bytes() == b'{"a": 2}\n'
    assert taken == [None]


@pytest.mark.skipif(not ORACLE.exists(), reason="jq 1.8.2 (the oracle) is not in the venv")
@pytest.mark.parametrize("program", [
    ".s = (.n | tostring)", ".s = (.n | tojson)", '.s = "\\(.big)"', ".t = (.p == 0.1)",
    ".f = input_filename", ".m = (.n | . + 0)", ".l = ([.n, .e] | sort)",
])
def test_the_file_read_as_jq_reads_it(program, tmp_path, taken, monkeypatch):
    """Number literals as written (1.50, 1E2, 21 digits) and the file's name: what
    ``jq PROGRAM FILE`` gives (the value's run saw 1.5, 100.0, 0.1, null)."""
    data = (b'{"n": 1.50, "e": 1E2, "p": 0.10000000000000000001,\n'
            b' "big": 100000000000000000001, "s": "", "t": null, "f": null}\n')
    (tmp_path / "lit.json").write_bytes(data)
    monkeypatch.chdir(tmp_path)
    path = "lit.json"  # named as jq is given it (input_filename)
    want = subprocess.run([str(ORACLE), "-c", program, path], capture_output=True,
                          check=True).stdout
    patch(path, jq=program)
    assert taken and taken[0] is not None
    got = subprocess.run([str(ORACLE), "-c", ".", str(path)], capture_output=True,
                         check=True).stdout
    assert json.loads(got) == json.loads(want)
