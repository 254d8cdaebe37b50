"""A question the fast path declines over a file it holds starts from the values it holds,
made into libjq's in C (:mod:`jqmagic.core.query.jvfrom`): no second parse, and the jvs
print, compare and compute as libjq's own parse of the text, or are not made."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic import query
from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.query import fastpath, jvfrom, libjq, libjqinput, worker
from jqmagic.core.settings import settings as jq_settings
from tests.core.jqlang.test_properties import documents

pytestmark = pytest.mark.skipif(jvfrom._jvbuild is None,  # noqa: SLF001
                                reason="_jvbuild.c was not compiled (no C compiler)")

DECLINED = ["[.[] | (.s | ascii_downcase), (.f | exp10)]", "[.[] | .f | exp10] | add",
            "[.[] | .n | gamma]"]  # programs jqlang leaves to libjq


def _dump(value) -> str:
    return libjq._dump(libjq._lib.jv_copy(value))  # noqa: SLF001 - consumes its argument


numbers = st.sampled_from(["1.50", "12.0", "1e2", "1E+2", "0.00001", "1e-05", "-0.0", "0.0",
                           "0.10", "0.1", "100000000000000000001", "3.25", "-7", "2.50e3",
                           "9007199254740993", "123456789.123456789", "0", "-0", "1.0e0"])
odd_documents = st.lists(st.one_of(numbers, documents), min_size=1, max_size=6).map(
    lambda items: "[" + ",".join(items) + "]")


def _made_alike(texts: list[str]) -> bool | None:
    """Whether the values made of ``texts`` print as libjq's parse of them (None: refused)."""
    text = "\n".join(texts).encode()
    try:
        held = [orjson.loads(t) for t in texts]
    except orjson.JSONDecodeError:
        return None
    literals = Literals.of_text(text)
    if (odd := jvfrom.odd_texts(literals)) is None:
        return None
    parsed = libjqinput.parse_text(text)
    made = jvfrom.values(held, odd)
    try:
        return None if made is None else [_dump(v) for v in made] == [_dump(v) for v in parsed]
    finally:
        libjqinput.free_values(parsed)
        if made:
            libjqinput.free_values(made)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(documents, odd_documents), min_size=1, max_size=4))
def test_made_values_are_libjqs_parse_where_the_literals_allow(texts):
    """Every value made prints as libjq's parse of the text prints it (literals kept as
    jq keeps them: 1.50, 1E+2, 12.0, long integers), or is refused."""
    assert _made_alike(texts) in (True, None)


def test_odd_literals_are_kept_as_jq_keeps_them():
    for text in ("[1.50, 2, 1e2, 12.0, 100000000000000000001, 0.00001]", "[3.25, 0.0]"):
        assert _made_alike([text]) is True, text


def test_values_that_are_not_exact_are_refused():
    assert jvfrom.values(["\ud800"], {}) is None  # not UTF-8
    assert jvfrom.values([{1: 2}], {}) is None
    assert jvfrom.values([0.1], {0.1: None}) is None  # 0.1 and 0.10 in the inputs
    assert jvfrom.odd_texts(Literals.of_text(b"[-0, 1]")) is None  # orjson reads -0 as 0
    assert jvfrom.odd_texts(Literals.of_text(b'[1, 2.5, "x"]')) == {}
    assert jvfrom.odd_texts(Literals.of_text(b"[1.50]")) == {1.5: "1.50"}


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


def test_literals_jq_keeps_are_kept_and_a_minus_zero_integer_is_parsed(tmp_path, parses):
    path = tmp_path / "odd.json"
    path.write_text('[{"n": 1.50}, {"n": 12.0}, {"n": 1e2}, {"n": 100000000000000000001}]')
    assert query("length", str(path)).values == [4]
    program = "[.[] | .n | (gamma | empty), .]"
    got = query(program, str(path), compact=True).text
    assert parses == []
    assert got == _libjq_alone(program, str(path), compact=True)
    assert got == "[1.50,12.0,1E+2,100000000000000000001]"  # jq 1.8.2 keeps the literals
    parses.clear()  # the reference's own parse
    path.write_text('[{"n": -0}, {"n": 0}]')
    assert query("length", str(path)).values == [2]
    got = query(program, str(path), compact=True).text
    assert parses == ["odd.json"]  # -0 and 0 are both 0 in orjson's values: libjq parses
    assert got == "[-0,0]"
