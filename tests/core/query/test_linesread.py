"""JSON Lines decoded whole in one pass in C with some chains' columns
(``_linesread.h``, :func:`.projected.whole_values`): the same values as the per-line
reader (:func:`.doccache.json_lines` without the extension: orjson a line), down to
their types (1 and 1.0, -0.0, integers past 2^53 and past 64 bits), the same lines
refused, the same blank lines skipped; each column the per-item reader's, with the kinds
met; repeated strings and numbers one object; and jq's answers over a file read so."""

from __future__ import annotations

import json
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import NotMine, columns
from jqmagic.core.query import doccache, projected
from tests.core.jqlang.test_properties import documents

pytestmark = pytest.mark.skipif(projected.C_LINES is None,
                                reason="the _jvbuild extension is not built")

CHAINS = (("a",), ("b",), ("a", "b"), ("a", "c"), ("b", "a"), ("c",))
ODD_LINES = ["", " ", "\t\r", "\x0c", "{}", "[]", '{"a":1}\r', ' {"a" : [ 1 , 2 ] } ',
             '{"a":1,"a":2.0}', "truefalse", "1 2", '{"a":1', "01", "1.", "-", "nul",
             '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00x"', '"\\u00e9\\n\\/"', '"\\x"',
             '"tab\there"', '"\xff"', "18446744073709551615", "18446744073709551616",
             "-9223372036854775808", "-9223372036854775809", "999999999999999999",
             "1e1000", "-1e1000", "1e-400", "0.1e1", "1E+2", "123456789012345678e-3",
             "[" * 70 + "]" * 70, '{"a":' * 70 + "1" + "}" * 70, '"' + "é" * 50 + '"',
             '"' + "x" * 39 + '"', '"' + "x" * 40 + '"']


def _per_line(data: bytes) -> tuple[str, int] | str:
    """The per-line reader's values as a type-exact text (repr tells 1 from 1.0, -0.0 from
    0.0 and keeps the members' order), its newlines; or "refused"."""
    saved = projected.C_LINES
    projected.C_LINES = None
    try:
        values, newlines = doccache.json_lines(data)
    except NotMine:
        return "refused"
    finally:
        projected.C_LINES = saved
    return repr(values), newlines


def _in_c(data: bytes, chains=CHAINS):
    try:
        found = projected.whole_values(data, frozenset(chains))
    except NotMine:
        return "refused", None
    values, newlines, made = found
    return (repr(values), newlines), (values, made)


line_texts = st.one_of(documents, st.sampled_from(ODD_LINES))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line_texts, max_size=8), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_the_values_are_the_per_line_readers(texts, newline, ended):
    data = (newline.join(texts) + (newline if ended else "")).encode("utf-8", "surrogatepass")
    expected = _per_line(data)
    found, held = _in_c(data)
    assert found == expected
    if held is not None:
        values, made = held
        for chain in CHAINS:
            column, bits = columns.C_READ(values, chain, columns.UNREAD, False)
            assert made[chain] == column and [type(v) for v in made[chain]] == \
                [type(v) for v in column]
            assert made.kinds[chain] == bits


@pytest.mark.parametrize("text", ODD_LINES)
def test_each_odd_line_alone_and_among_others(text):
    for data in [text.encode(), f'{{"a":1}}\n{text}\n{{"b":2}}'.encode()]:
        assert _in_c(data)[0] == _per_line(data)


def test_floats_are_rounded_as_orjson_rounds_them():
    """Clinger's fast path where it is exact, Python's strtod elsewhere: the double
    orjson makes of each literal."""
    rng = random.Random(57)
    texts = [repr(rng.uniform(-1e6, 1e6)) for _ in range(2000)]
    texts += [f"{rng.randrange(10 ** 15)}e{rng.randrange(-30, 30)}" for _ in range(2000)]
    texts += [f"-{rng.randrange(10 ** 17)}.{rng.randrange(10 ** 6):06d}" for _ in range(2000)]
    texts += ["0.30000000000000004", "2.2250738585072014e-308", "4.9e-324", "1e22", "1e23",
              "9007199254740993.0", "0.000001", "-0.0", "0e5", "1.7976931348623157e308"]
    data = "\n".join(texts).encode()
    values = projected.whole_values(data, frozenset())[0]
    assert [v.hex() for v in values] == [orjson.loads(t).hex() for t in texts]


def test_repeated_strings_and_numbers_are_one_object_and_unique_ones_are_made_afresh():
    rows = [{"id": f"ev-{i:07d}", "kind": ["buy", "click"][i % 2], "n": [1.0, -0.0][i % 2],
             "user": {"name": "zoë"}} for i in range(5000)]
    data = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()
    values, newlines, made = projected.whole_values(data, frozenset({("kind",), ("id",)}))
    assert values == rows and newlines == 5000
    assert values[0]["kind"] is values[2]["kind"] and values[1]["n"] is values[3]["n"]
    for read in [lambda v: v["kind"], lambda v: v["n"], lambda v: v["user"]["name"]]:
        assert len({id(read(value)) for value in values}) <= 4  # one, but when evicted
    assert made[("kind",)][0] is values[0]["kind"]
    assert len({id(v) for v in made[("id",)]}) == 5000
    assert made.kinds[("kind",)] == 16 and made.kinds[("id",)] == 16


def test_the_chains_a_first_read_makes_columns_of():
    data = b'{"a": 1, "user": {"id": 2, "name": "x"}, "tags": []}\n[1]\n'
    chains = projected.sample_chains(data, frozenset({("geo", "lat")}))
    assert chains == {("geo", "lat"), ("a",), ("user",), ("user", "id"), ("user", "name"),
                      ("tags",)}
    wide = b'{' + b",".join(b'"k%d": {"x": 1}' % i for i in range(40)) + b'}\n'
    assert len(projected.sample_chains(wide, frozenset())) == projected.FIRST_COLUMNS


def test_a_file_read_whole_in_c_gives_jqs_answers_and_its_columns(tmp_path, monkeypatch):
    """The first read of a big file decodes it whole in C (no later pass for another
    member), its sample's chains made columns in the same pass."""
    monkeypatch.setattr(projected, "WIDE_FROM", 0)
    own = columns.own
    monkeypatch.setattr(columns, "own", lambda values, budget: own(values, 1 << 30))
    doccache.documents.clear()
    path = tmp_path / "log.jsonl"
    rows = [{"id": i, "kind": "a" if i % 3 else "b", "geo": {"lat": [-0.0, 1.5][i % 2]}}
            for i in range(3000)]
    rows[2500]["late"] = "x"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    try:
        doc = doccache.documents.get(str(path), "jsonl", chains=frozenset({("kind",)}))
        assert doc.chains is None and doc.values == rows
        store = columns._store(doc.values)
        assert store is not None and {("kind",), ("id",), ("geo",), ("geo", "lat")} <= \
            set(store.columns)
        assert store.kinds[("geo", "lat")] == frozenset({float})
        assert store.columns[("geo", "lat")][:2] == [-0.0, 1.5]
    finally:
        doccache.documents.clear()


def test_without_the_extension_a_file_reads_the_same(tmp_path, monkeypatch):
    """A plain install without a C compiler: the per-line reader, the same values."""
    path = tmp_path / "log.jsonl"
    path.write_text('{"a": 1.0, "b": "é"}\n\n{"a": -0.0}\n')
    in_c = doccache.load_file(str(path), "jsonl")
    monkeypatch.setattr(projected, "C_LINES", None)
    plain = doccache.load_file(str(path), "jsonl")
    assert repr(in_c.values) == repr(plain.values) == "[{'a': 1.0, 'b': 'é'}, {'a': -0.0}]"
    assert plain.made is None and in_c.made[("a",)] == [1.0, -0.0]


def test_a_columns_place_set_as_a_line_is_made_follows_the_lines_value():
    """A one-name chain's place is set as the line's object is made: a line then left to
    orjson (a long integer after the member), a repeated key, a member of an inner object
    or of an array's object, a line without the member: each place the value's own."""
    texts = ['{"a": 5, "b": 18446744073709551615}', '{"b": 1}', '{"a": 1, "a": 2.0}',
             '[{"a": 3}]', '{"c": {"a": 4}}', '{"a": 6, "b": [1, 2', "", '"a"', "null"]
    for cut in range(len(texts)):  # the refused line's place: every later line refused
        data = "\n".join(texts[:cut]).encode()
        found, held = _in_c(data)
        assert found == _per_line(data)
        if held is not None:
            values, made = held
            for chain in CHAINS:
                assert repr(made[chain]) == repr(
                    columns.C_READ(values, chain, columns.UNREAD, False)[0])
