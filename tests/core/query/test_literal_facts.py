"""A document's literal facts are learnt in one pass (all four at once), for a big file in
a side process while the worker parses it, and agree with the facts' definitions."""

from __future__ import annotations

import json
import re

import pytest

from jqmagic.core.jqlang.literals import FACTS, Literals, facts_of
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
    assert doc.literals.settled
    assert set(doc.literals.facts) == {"whole"} == \
        set(Literals.of_text(path.read_bytes()).facts)
    assert set(FACTS) >= set(doc.literals.facts)
