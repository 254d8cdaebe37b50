"""A document's literal facts are learnt in one pass (all four at once), for a big file in
a side process while the worker parses it, and agree with the facts' definitions."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import FACTS, Literals, facts_of, file_stamp
from jqmagic.core.query import doccache, literalfacts

TEXT = json.dumps({"a": [1.50, 12.0, -0.0, 12345678901234567, "item-0"]}).encode()


def test_settle_learns_every_fact_in_one_pass():
    passes: list[int] = []

    def chunks():
        passes.append(1)
        return [TEXT[:20], TEXT[10:]]

    literals = Literals(chunks)
    assert not literals.settled
    assert literals.whole_floats and literals.negative_zero and literals.long
    assert literals.odd_floats and literals.settled
    assert len(passes) == 1  # nothing read again once settled


def _by_definition(text: bytes) -> set[str]:
    """The facts as their docstrings define them, with plain regular expressions."""
    found = set()
    if re.search(rb"[0-9.]{16}|[eE][+-]?[0-9]{3}", text):
        found.add("long")
    fractions = set(re.findall(rb"\.[0-9]+", text))
    if re.search(rb"[0-9.][eE]", text) or any(
            f != b".0" and (f.endswith(b"0") or f.startswith(b".0000")) for f in fractions):
        found.add("odd")
    if b".0" in fractions:
        found.add("whole")
    if re.search(rb"(?:^|(?<=[\[,: \t\r\n]))-0(?![0-9.eE])", text):
        found.add("zero")
    return found


@pytest.mark.parametrize("text", [
    b"[1.5, 2.25]", b"[1.50]", b"[12.0]", b"[12.05]", b"[0.00001]", b"[1e2]", b"[1E+2]",
    b"[-0]", b"[-0.0]", b"[-0e1]", b'["item-0"]', b"[1,-0]", b"-0", b"[12345678901234567]",
    b"[1234567.891234567]", b"[5e-324]", b"[1e-400]", b'{"price": 10, "name": "e1"}',
    b"[0.10, 3]", b"[100.0001]", b"[3.0e5]", b'{"a":-0}', b"[1.0000001]", b"[]",
])
def test_facts_are_the_definitions(text):
    assert set(facts_of(text)) == _by_definition(text)


def test_a_big_file_learns_its_facts_beside_the_parse(tmp_path, monkeypatch):
    monkeypatch.setattr(literalfacts, "scan_beside", True)
    monkeypatch.setattr(literalfacts, "SCAN_BESIDE_FROM", 1)
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"xs": [i + 0.5 for i in range(1000)] + [12.0, -0.0]}))
    doc = doccache.load_file(str(path), "json")
    assert set(doc.literals.facts) == {"whole"} == \
        set(Literals.of_text(path.read_bytes()).facts)
    assert doc.literals.settled and set(FACTS) >= set(doc.literals.facts)


@pytest.mark.parametrize("in_c", [True, False])
def test_the_parse_does_not_wait_for_the_facts(tmp_path, monkeypatch, in_c):
    """A document's facts are learnt when first needed (a question that prints no number
    never waits for them), in C or in a side process alike."""
    monkeypatch.setattr(literalfacts, "scan_beside", True)
    monkeypatch.setattr(literalfacts, "SCAN_BESIDE_FROM", 1)
    if not in_c:
        monkeypatch.setattr(literalfacts, "_jvbuild", None)
    path = tmp_path / "d.json"
    path.write_bytes(b'{"xs": [1.50, 2.5, "v1.50", -0]}')
    doc = doccache.load_file(str(path), "json")
    assert isinstance(doc.literals._text, literalfacts.Pending)  # noqa: SLF001
    assert set(doc.literals.facts) == {"odd", "zero"}
    assert doc.literals.odd_texts == {1.5: "1.50"}


needs_c = pytest.mark.skipif(literalfacts._jvbuild is None,  # noqa: SLF001
                             reason="the _jvbuild extension was not built (no C compiler)")
NUMBERS = ["-0.0", "0.0", "-0", "0", "1.0", "1.00", "1e-05", "0.00001", "1E+2", "1e2", "1.50",
           "1.5", "0.1", "0.10", "9007199254740993", "12345678901234567890", "-1e-05",
           "100000000000000000000000", "-9223372036854775809", "18446744073709551616",
           "18446744073709551615", "1234567890123456", "1234567890123456.0", "12.0",
           "0.30000000000000004", "0.300000000000000040", "0.3000000000000000444",
           "-64.7551803442276", "20.972900", "132.000036", "0.1000000000000000055511151231257827",
           "5e-324", "1e-400", "1.7976931348623157e308", "2.5", "7e-1", "-0.00", "3.0e5",
           "0.00012", "123456789.12345678", "1.0000000000000002", "9999999999999998.0"]
STRINGS = ['"v1.50"', '"-0"', '"a\\"1e5"', '"1.00\\\\"', '"item-0"', '"12.0"', '"ß 0.10"']
texts = st.recursive(
    st.sampled_from(NUMBERS + STRINGS + ["null", "true"]),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(["a", "b", "1.50"]), inner), max_size=3).map(
            lambda kv: "{" + ",".join(f'"{k}":{v}' for k, v in kv) + "}"),
    ),
    max_leaves=10,
)


@needs_c
@settings(max_examples=400, deadline=None)
@given(values=st.lists(texts, min_size=1, max_size=3))
def test_the_c_scan_learns_what_python_learns(values):
    """``scanned`` (C, one pass) gives the facts, the odd texts and the long fractions that
    the Python passes over the text without its strings give, on JSON and JSON Lines."""
    data = "\n".join(values).encode()
    for value in values:
        json.loads(value)  # the generated texts are JSON
    expected = Literals.of_text(data).settle()
    got = literalfacts.scanned(data)
    assert got.facts == expected.facts
    assert got.odd_texts == expected.odd_texts
    assert got.long == expected.long


@needs_c
def test_the_c_scan_skips_strings_and_counts_literals():
    assert literalfacts.scanned(b'{"a": "\\"1.50 -0", "b": [2.5]}').facts == frozenset()
    assert literalfacts.scanned(b'["x\\\\", 1.50]').odd_texts == {1.5: "1.50"}
    learnt = literalfacts.scanned(b"[0.300000000000000040, 0.30000000000000004]")
    assert learnt.odd_texts == {0.30000000000000004: None}  # the double written two ways
    assert literalfacts.scanned(b"[1e400]").odd_texts is None  # not finite as a double


def _read(lines: list[bytes], block: int, settle_after: int, tmp_path) -> None:
    """Lines passed through a ReadSoFar in blocks of ``block`` bytes, its facts learnt
    after ``settle_after`` blocks (as a question that prints its first number)."""
    data = b"".join(lines)
    path = tmp_path / "lines.jsonl"
    path.write_bytes(data)
    read = literalfacts.ReadSoFar(str(path), file_stamp(path.stat()))
    for at, _ in enumerate(read.record(data[i:i + block] for i in range(0, len(data), block))):
        if at + 1 == settle_after:
            read.settle()


@pytest.mark.parametrize("in_c", [True, False])
@pytest.mark.parametrize("later", [b'{"v": 1.50}\n', b'{"v": 0.1}\n', b'{"v": -0}\n',
                                   b'{"v": 1e-05}\n', b'{"v": 0.1000000000000000055511}\n'])
def test_lines_read_after_the_facts_were_learnt_are_checked(tmp_path, monkeypatch, in_c,
                                                              later):
    """A literal the facts learnt did not allow, in a line read after they were learnt
    (in the line then read in part too, and in a last line with no newline), stops the
    answer; lines that hold none go through."""
    if not in_c:
        monkeypatch.setattr(literalfacts, "_jvbuild", None)
    first = [b'{"v": 0.10, "s": "a\\"b 1.50"}\n'] + [b'{"v": 2.5, "s": "x"}\n'] * 40
    _read(first + [b'{"v": 0.10}\n'], 64, 2, tmp_path)  # nothing new: answered
    for before in range(1, 12):  # before, across and after where the facts are learnt
        lines = first[:before] + [later] + first
        learnt_with_it = len(b"".join(lines[:before + 1])) <= 128
        if learnt_with_it:
            _read(lines, 64, 2, tmp_path)
        else:
            with pytest.raises(NotMine):
                _read(lines, 64, 2, tmp_path)
    with pytest.raises(NotMine):
        _read(first + [later.rstrip(b"\n")], 64, 2, tmp_path)
