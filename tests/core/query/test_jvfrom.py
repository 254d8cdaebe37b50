"""A question the fast path declines over a file it holds starts from the values it holds,
made into libjq's in C (:mod:`jqmagic.core.query.jvfrom`): no second parse, and the jvs
print, compare and compute as libjq's own parse of the text, or are not made."""

from __future__ import annotations

import json
import os

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic import query
from jqmagic.core.jqlang.numbers import Literals
from jqmagic.core.query import fastpath, jvfrom, libjq, worker
from jqmagic.core.settings import settings as jq_settings
from tests.core.jqlang.test_properties import documents
from tests.core.query.inline import inline_worker

pytestmark = pytest.mark.skipif(jvfrom._jvbuild is None,  # noqa: SLF001
                                reason="_jvbuild.c was not compiled (no C compiler)")

DECLINED = ["[.[] | (.s | ascii_downcase), (.f | exp10)]", "[.[] | .f | exp10] | add",
            "[.[] | .n | gamma]"]  # programs jqlang leaves to libjq


def _dump(value) -> str:
    return libjq._dump(libjq._lib.jv_copy(value))  # noqa: SLF001 - consumes its argument


@settings(max_examples=300, deadline=None)
@given(st.lists(documents, min_size=1, max_size=4))
def test_made_values_are_libjqs_parse_where_the_literals_allow(texts):
    """Every value made prints as libjq's parse of the text prints it, whenever the text's
    literal facts say it is exact; a value that cannot be made exactly is refused."""
    text = "\n".join(texts).encode()
    try:
        held = [orjson.loads(t) for t in texts]
    except orjson.JSONDecodeError:
        return
    if not jvfrom.exact(Literals.of_text(text)):
        return
    parsed = libjq.parse_text(text)
    made = jvfrom.values(held)
    try:
        if made is not None:
            assert [_dump(v) for v in made] == [_dump(v) for v in parsed]
    finally:
        libjq.free_values(parsed)
        if made:
            libjq.free_values(made)


def test_values_that_are_not_exact_are_refused():
    assert jvfrom.values([2 ** 60]) is None  # libjq keeps a long literal's text
    assert jvfrom.values(["\ud800"]) is None  # not UTF-8
    assert jvfrom.values([{1: 2}]) is None
    assert jvfrom.exact(Literals.of_text(b"[1.50]")) is False  # jq prints 1.50 as written
    assert jvfrom.exact(Literals.of_text(b"[-0.0]")) is False
    assert jvfrom.exact(Literals.of_text(b'[1, 2.5, "x"]')) is True


@pytest.fixture
def parses(monkeypatch):
    """libjq's parses of files for its cache, counted, in this process's worker code."""
    worker.jv_documents.clear()
    fastpath.documents.clear()
    seen: list[str] = []
    real = libjq.parse_inputs

    def counting(files):
        seen.extend(os.path.basename(f) for f in files)
        return real(files)

    monkeypatch.setattr(libjq, "parse_inputs", counting)
    with inline_worker(monkeypatch):
        yield seen
    worker.jv_documents.clear()
    fastpath.documents.clear()


def _libjq_alone(program: str, path: str, **options) -> str:
    saved, jq_settings.fast_path = jq_settings.fast_path, False
    try:
        worker.jv_documents.clear()
        fastpath.documents.clear()  # nothing held: libjq parses the file itself
        return query(program, path, **options).text
    finally:
        jq_settings.fast_path = saved
        worker.jv_documents.clear()


@pytest.mark.parametrize("program", DECLINED)
def test_a_declined_question_over_a_held_file_is_not_parsed_again(tmp_path, parses, program):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps([{"n": k, "s": f"é{k}", "f": k / 4 + 0.125, "t": [True, None]}
                                for k in range(1, 300)]))
    assert query("length", str(path)).values == [299]  # the fast path holds it now
    got = query(program, str(path)).text
    assert parses == []
    assert got == _libjq_alone(program, str(path))
    assert parses == ["doc.json"]  # libjq's own parse, for the reference


def test_json_lines_held_whole_feed_a_declined_inputs_question(tmp_path, parses):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps({"n": k, "tags": ["a", "ß"][: k % 3]}) + "\n"
                            for k in range(200)))
    assert query("[inputs | tojson] | length", str(path), null_input=True).values == [200]
    program = "[inputs | .n | gamma] | add"
    got = query(program, str(path), null_input=True).text
    assert parses == []
    assert got == _libjq_alone(program, str(path), null_input=True)


def test_a_file_with_literals_jq_keeps_is_parsed_by_libjq(tmp_path, parses):
    path = tmp_path / "odd.json"
    path.write_text('[{"n": 1.50}, {"n": 12.0}, {"n": -0.0}]')
    assert query("length", str(path)).values == [3]
    got = query("[.[] | .n | (gamma | empty), .]", str(path), compact=True).text
    assert parses == ["odd.json"]
    assert got == "[1.50,12.0,-0.0]"  # as written: jq keeps the literals it read
