"""JSON Lines decoded for the chains a question reads (:mod:`jqmagic.core.query.projected`,
:mod:`jqmagic.core.jqlang.demand`): the values of those chains are orjson's whole values',
and questions asked in a row over one cached file, their columns on, answer as jq 1.8.2
does (mixed types per key, missing keys, nulls, long numbers, -0, duplicate keys, unicode,
lines that are not objects)."""

from __future__ import annotations

import contextlib
import json
import subprocess
from unittest import mock

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import NotMine, columns
from jqmagic.core.jqlang.demand import chains as chains_read
from jqmagic.core.query import doccache, fastpath, projected
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from tests.cli.dropin import ORACLE, needs_oracle
from tests.core.jqlang.oracle import _Texts
from tests.core.jqlang.test_properties import documents

CHAINS = [(), ("a",), ("b",), ("a", "b"), ("a", "c"), ("b", "a"), ("c", "a", "b")]


def _pruned(value, chains):
    """The reference: ``value`` with only ``chains`` (an object on a chain keeps the
    members the chains go through; a chain's end, or a non-object on the way, whole)."""
    if () in chains or type(value) is not dict:
        return value
    out = {}
    for key, member in value.items():
        below = {chain[1:] for chain in chains if chain and chain[0] == key}
        if below:
            out[key] = _pruned(member, below)
    return out


def _canonical(value, chains):
    """``value`` pruned on ``chains`` with the members of the objects on the chains in
    order (their order is no answer's: only a chain's end is ever read whole)."""
    if () in chains or type(value) is not dict:
        return value
    return {key: _canonical(value[key], {c[1:] for c in chains if c and c[0] == key})
            for key in sorted(value) if any(c and c[0] == key for c in chains)}


objects = st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), documents), max_size=3).map(
    lambda members: "{" + ",".join(f'"{k}":{v}' for k, v in members) + "}")  # keys repeat
lines = st.lists(st.one_of(documents, objects, objects), min_size=1, max_size=12)
chain_sets = st.sets(st.sampled_from(CHAINS[1:]), max_size=3).map(frozenset)


def _orjson(text):
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _REFUSED


_REFUSED = object()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=lines, chains=chain_sets, more=chain_sets)
def test_projected_values_are_orjsons_pruned_and_extended(texts, chains, more):
    """Line by line as orjson reads them, but for what no chain reads: a number out of
    range or a byte that is not UTF-8 there is skipped (jq reads it and answers the same),
    anything else orjson refuses is NotMine. A line that does not fit the projected type
    (a long integer, a deep value) is orjson's whole line."""
    whole = [_orjson(text) for text in texts]
    data = ("\n".join(texts) + "\n").encode()
    try:
        values = projected.decode(data, chains)
    except NotMine:
        assert _REFUSED in whole
        return
    assert len(values) == len(whole)
    read = [i for i, v in enumerate(whole) if v is not _REFUSED]
    assert json.dumps([_canonical(values[i], chains) for i in read]) == \
        json.dumps([_canonical(whole[i], chains) for i in read])
    try:
        held = projected.extend(values, projected.line_blocks(data, 8), chains, more)
    except NotMine:  # a new chain reaches what orjson refuses: the values are unchanged
        assert _REFUSED in whole
        assert json.dumps([_canonical(values[i], chains) for i in read]) == \
            json.dumps([_canonical(whole[i], chains) for i in read])
        return
    assert held == chains | more
    assert json.dumps([_canonical(values[i], held) for i in read]) == \
        json.dumps([_canonical(whole[i], held) for i in read])


@pytest.mark.parametrize("text", [b"truefalse\n", b'{"a":1} {"a":2}\n', b"[1][2]\n",
                                  b'{"a":1}\n{"a":\n2}\n', b"\x0c1\n"])
def test_values_run_together_or_split_over_lines_are_refused(text):
    with pytest.raises(NotMine):
        projected.decode(text, frozenset({("a",)}))


def test_blank_lines_long_integers_and_deep_values_read_as_orjson_reads_them():
    text = (b'\n{"a":{"b":18446744073709551616,"c":[[[[[[[[[[[[[[1]]]]]]]]]]]]]]}}\n  \n'
            b'{"a":9223372036854775808,"z":1}\r\n[1,{"a":2}]\n"s"\n')
    whole = [orjson.loads(line) for line in text.split(b"\n") if line.strip()]
    values = projected.decode(text, frozenset({("a",)}))
    assert json.dumps(values) == json.dumps(whole)  # lines read whole by orjson: 2 of 4
    assert type(values[0]["a"]["b"]) is float  # orjson's reading of a long integer
    assert projected.decode(text, frozenset({("b",)}))[1] == {}  # "a" skipped: it fits


@pytest.mark.parametrize(("program", "null_input", "expected"), [
    ('[inputs | select(.type == "Push")] | length', True, {("type",)}),
    ("reduce inputs as $e ({}; .[$e.type] += 1)", True, {("type",)}),
    ("[inputs | .payload.commits[]? | .message] | length", True, {("payload", "commits")}),
    ('first(inputs | select(.org.login? == "x")) | .id', True, {("org", "login"), ("id",)}),
    ("[inputs | (.p.size // 0) * 2] | add", True, {("p", "size")}),
    ('[inputs] | sort_by(.t) | map(.id)', True, {("t",), ("id",)}),
    ('select(has("a")) | .b', False, {("a",), ("b",)}),
    ("[inputs] | length", True, set()),
    ("first(inputs)", True, None),  # an input printed whole
    ("[inputs | keys]", True, None),
    ("def f: .a; [inputs | f]", True, None),
    (".", False, None),
    ("[inputs] | add", True, None),
])
def test_the_chains_a_program_reads(program, null_input, expected):
    found = chains_read(program, null_input)
    assert (None if found is None else set(found)) == expected


VALUES = ["1", "null", '"s"', "true", "-0"]
SHAPES = [
    "[inputs | select({c} == {v})] | length",
    "reduce inputs as $e ({{}}; .[$e{c} | tostring] += 1)",
    "[inputs | {c}] | unique",
    "[inputs | {c}?]",
    '[inputs | {c} // "none"]',
    "[inputs | {c}[]?]",
    "first(inputs | select({c} != null)) | {d}",
    '[inputs | "\\({c}) \\({d})"]',
    "[inputs | select({c}) | {d}]",
    "[limit(2; inputs | {c})]",
    '[inputs | has("a")]',
    "[inputs | {c} | length]",
    "[inputs | select(any({c}[]?; . == 1))] | length",
    "[inputs | {c} | tojson]",
    "[inputs] | length",
    "[inputs | select({c} == {v})] | map({d})",
    "[inputs] | sort_by({c}) | map({d})",
    "input | {c}",
    "[inputs | {c} | type]",
    "[inputs | ({c} | numbers) * 2]",
]
paths = st.sampled_from([".a", ".b", ".a.b", ".a.c", ".b.a", ".c.a.b", '.["a"]', ".a?.b"])
questions = st.builds(lambda shape, c, d, v: shape.format(c=c, d=d, v=v),
                      st.sampled_from(SHAPES), paths, paths, st.sampled_from(VALUES))


def _fast(program: str, path: str) -> str | None:
    request = QueryRequest(program, SourceSpec("file", path, {}),
                           RunSpec(null_input=True, timeout=20, cache=True), args={},
                           layout={"indent": 2, "compact": True, "sort_keys": False,
                                   "tab": False})
    sink = _Texts()
    return "\n".join(sink.texts) if fastpath.answer(request, sink) else None


def _jq(program: str, path: str) -> str | None:
    done = subprocess.run([str(ORACLE), "-nc", program, path], capture_output=True,
                          text=True, timeout=20)
    return done.stdout.rstrip("\n") if done.returncode == 0 else None


@pytest.fixture
def with_columns():
    """Columns for lists of any length, within room for all of them."""
    saved, own = columns.MIN_ITEMS, columns.own
    columns.MIN_ITEMS = 0
    columns.own = lambda values, budget: own(values, 1 << 30)
    doccache.documents.clear()
    try:
        yield
    finally:
        columns.MIN_ITEMS, columns.own = saved, own
        doccache.documents.clear()


@needs_oracle
@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=lines, asked=st.lists(questions, min_size=1, max_size=3), whole_fits=st.booleans())
def test_questions_in_a_row_over_projected_lines_answer_as_jq(texts, asked, whole_fits,
                                                              tmp_path_factory, with_columns):
    """Each question asked twice (the second reads the columns), the file kept between
    them: decoded for the first question's chains, extended by the chains a later
    question adds, and (when that fits the budget) read whole in the idle time after."""
    path = str(tmp_path_factory.mktemp("lines") / "log.jsonl")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(texts) + "\n")
    doccache.documents.clear()
    with _whole_fits(whole_fits):
        for program in asked:
            expected = _jq(program, path)
            for _ in range(2):
                answer = _fast(program, path)
                if answer is not None:
                    assert answer == expected, program
                doccache.documents.widen_idle(lambda: False)


def _whole_fits(fits: bool):
    """The budget as it is (a small file's whole values fit), or too small for them."""
    return contextlib.nullcontext() if fits else mock.patch.object(
        doccache.documents, "whole_fits", lambda doc: False)


@needs_oracle
def test_a_question_reads_only_its_chains_and_a_later_one_adds_its_own(tmp_path, with_columns):
    path = tmp_path / "log.jsonl"
    rows = [{"type": "Push" if i % 3 else "Watch", "actor": {"login": f"u{i % 7}", "id": i},
             "payload": {"big": list(range(5))}} for i in range(50)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    program = '[inputs | select(.type == "Push")] | length'
    assert _fast(program, str(path)) == _jq(program, str(path)) == "33"
    doc = next(iter(doccache.documents._entries.values()))[1]
    assert doc.chains == {("type",)} and doc.values[0] == {"type": "Watch"}
    program = "[inputs | .actor.login] | unique"
    with _whole_fits(False):  # the whole values over the budget: the new chain alone
        assert _fast(program, str(path)) == _jq(program, str(path))
    assert doc.chains == {("type",), ("actor", "login")}
    assert doc.values[1] == {"type": "Push", "actor": {"login": "u1"}}
    program = "[inputs | keys] | unique"  # whole inputs: the lines parsed whole
    assert _fast(program, str(path)) == _jq(program, str(path))
    assert next(iter(doccache.documents._entries.values()))[1].chains is None


@needs_oracle
def test_idle_time_reads_the_lines_whole_when_they_fit(tmp_path, with_columns):
    """An analyst's next question reads a new chain more often than not: after a second
    question extended the file's values, the worker's idle time reads its lines whole, in
    the same list, and its columns of partial objects go (a column of whole values stays);
    a request arriving stops it with nothing changed."""
    path = tmp_path / "log.jsonl"
    rows = [{"id": i, "type": "Push" if i % 3 else "Watch",
             "actor": {"login": f"u{i % 7}", "id": i, "url": "x"}} for i in range(50)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    program = '[inputs | .actor.login + (.actor.id | tostring) + .type] | length'
    assert _fast(program, str(path)) == "50"  # the chains' columns made as they decode
    doc = next(iter(doccache.documents._entries.values()))[1]
    values = doc.values
    store = columns._store(values)
    assert ("actor", "login") in store.whole and ("type",) in store.whole
    columns.column(values, ("actor",))  # a column of partial objects, as a loop makes it
    assert doc.chains is not None and ("actor",) in store.columns
    assert not doccache.documents.widening
    program = "[inputs | .id] | add"  # a new chain: extended, and the file marked
    assert _fast(program, str(path)) == _jq(program, str(path)) == str(sum(range(50)))
    assert ("id",) in doc.chains and doccache.documents.widening
    doccache.documents.widen_idle(lambda: True)  # a request came: nothing changed
    assert doc.chains is not None and doccache.documents.widening
    doccache.documents.widen_idle(lambda: False)
    assert doc.chains is None and doc.values is values and values == rows
    assert not doccache.documents.widening
    assert ("actor",) not in store.columns and ("type",) in store.columns
    for _ in range(2):  # the objects of .actor read whole now, from a new column
        program = '[inputs | .actor | keys_unsorted | join(",")] | unique'
        assert _fast(program, str(path)) == _jq(program, str(path)) == '["login,id,url"]'


@needs_oracle
def test_a_file_changed_before_idle_time_is_not_read_whole_into_its_old_version(
        tmp_path, with_columns):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps({"a": i, "b": i}) + "\n" for i in range(20)))
    assert _fast("[inputs | .a] | add", str(path)) == "190"
    assert _fast("[inputs | .b] | add", str(path)) == "190"
    doc = next(iter(doccache.documents._entries.values()))[1]
    assert doccache.documents.widening
    path.write_text("".join(json.dumps({"a": 1, "b": 1}) + "\n" for i in range(20)))
    doccache.documents.widen_idle(lambda: False)
    assert doc.chains is not None and not doccache.documents.widening
    assert _fast("[inputs | .a] | add", str(path)) == "20"


@needs_oracle
def test_a_first_question_that_stops_early_reads_lines_as_they_come(tmp_path, with_columns):
    """``first(inputs | ...)`` over a file not held: jq stops at the answer, so do the
    lines read one by one (nothing kept); once the file is held, from the held values."""
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps({"type": t, "id": i}) + "\n"
                            for i, t in enumerate(["a", "b", "c"] * 20)))
    program = 'first(inputs | select(.type == "c")) | .id'
    assert _fast(program, str(path)) == _jq(program, str(path)) == "2"
    assert not doccache.documents._entries
    assert _fast("[inputs | .type] | unique", str(path)) == '["a","b","c"]'
    assert _fast(program, str(path)) == "2" and len(doccache.documents._entries) == 1


@needs_oracle
@pytest.mark.parametrize("text", ['{"id": 7}\n{"id": 8}\n', '{"id": 7}', '[1]\n{"id": 8}\n',
                                  '{"id": 7}\n{"id": \n', "", "\n\n"])
def test_a_lone_input_reads_the_first_line_alone(tmp_path, with_columns, text):
    """``input | .id`` over a file not held reads its first line, as jq does, and keeps
    nothing: a later line that is not JSON is left to libjq; no line at all, to libjq's
    error; a line that is not an object, its error."""
    path = tmp_path / "log.jsonl"
    path.write_text(text)
    program = "input | .id"
    done = subprocess.run([str(ORACLE), "-nc", program, str(path)], capture_output=True,
                          text=True, timeout=20)
    answer = _fast(program, str(path))
    if answer is not None:
        assert done.returncode == 0 and answer == done.stdout.rstrip("\n")
    assert not doccache.documents._entries
    assert (answer is None) == (text in ("", "\n\n", '[1]\n{"id": 8}\n', '{"id": 7}\n{"id": \n'))


@needs_oracle
def test_lines_read_as_they_come_decode_only_their_chains(tmp_path, with_columns):
    """A ``first(...)`` over a file not held reads its lines in blocks decoded for its
    chains alone: across block ends, past blank lines, lines that are not objects, a
    value nested past the projection's depth (orjson's whole line) and a last line with
    no newline, as jq answers."""
    path = tmp_path / "log.jsonl"
    lines = [json.dumps({"type": "a", "id": i, "big": "x" * (i % 50)}) for i in range(3000)]
    lines[1000:1000] = ["", "[1, 2]", '"text"', '{"type": "b", "id": {"deep": [[[[[[1]]]]]]}}']
    path.write_text("\n".join(lines) + '\n{"type": "c", "id": -1}')
    saved = doccache.READ
    doccache.READ = 4096  # many blocks, lines cut at their ends
    try:
        for program in ['first(inputs | select(.type? == "b")) | .id',
                        'first(inputs | select(.type? == "c")) | .id',
                        '[limit(3; inputs | select(.id? > 2990) | .id)]',
                        'first(inputs | select(.type? == "zzz")) | .id']:
            assert _fast(program, str(path)) == _jq(program, str(path)), program
        assert not doccache.documents._entries
    finally:
        doccache.READ = saved



@needs_oracle
@pytest.mark.parametrize("in_c", [True, False])
def test_a_big_files_first_read_decodes_every_member_of_its_first_lines(
        tmp_path, with_columns, monkeypatch, in_c):
    """From WIDE_FROM bytes (while the whole values fit), the first question decodes
    every member its first lines hold: a later question on another member reads no pass
    over the file; a member the sample missed is added as before. With the extension
    the lines are decoded whole in C (every member, the sample's too)."""
    monkeypatch.setattr(projected, "WIDE_FROM", 0)
    if not in_c:
        monkeypatch.setattr(projected, "C_LINES", None)
    elif projected.C_LINES is None:
        pytest.skip("the _jvbuild extension is not built")
    path = tmp_path / "log.jsonl"
    rows = [{"id": i, "type": "Push" if i % 3 else "Watch", "actor": {"login": f"u{i % 7}"},
             "n": -0.0 if i % 5 else 1e-05} for i in range(50)]
    rows[40]["late"] = [1.0]  # past the sample: decoded when asked
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    monkeypatch.setattr(projected, "SAMPLE", len(path.read_bytes()) // 2)
    program = '[inputs | select(.type == "Push")] | length'
    assert _fast(program, str(path)) == _jq(program, str(path)) == "33"
    doc = next(iter(doccache.documents._entries.values()))[1]
    assert doc.chains == (None if in_c else {("id",), ("type",), ("actor",), ("n",)})
    for program in ["[inputs | .actor.login] | unique", "[inputs | .n] | unique",
                    "[inputs | .n] | max", "[inputs | {id, n}] | sort_by(.n) | .[-2:]"]:
        with mock.patch.object(projected, "extend", side_effect=AssertionError("a pass")):
            assert _fast(program, str(path)) == _jq(program, str(path))
    program = "[inputs | .late] | map(select(.))"
    assert _fast(program, str(path)) == _jq(program, str(path)) == "[[1.0]]"
    assert doc.chains is None if in_c else ("late",) in doc.chains


def test_a_member_orjson_refuses_leaves_the_first_read_to_the_chains_asked(
        tmp_path, with_columns, monkeypatch):
    """1e1000 in a member no question asked: the question is answered all the same."""
    monkeypatch.setattr(projected, "WIDE_FROM", 0)
    path = tmp_path / "log.jsonl"
    path.write_text('{"a": 1, "huge": 1}\n{"a": 2, "huge": 1e1000}\n')
    assert _fast("[inputs | .a] | add", str(path)) == "3"
    assert next(iter(doccache.documents._entries.values()))[1].chains == {("a",)}


def test_a_small_files_first_read_decodes_the_chains_asked(tmp_path, with_columns):
    """Under WIDE_FROM a pass is cheap: only the chains asked are decoded."""
    path = tmp_path / "log.jsonl"
    path.write_text('{"a": 1, "b": {"c": 2}}\n{"a": 2, "b": null}\n')
    assert _fast("[inputs | .a] | add", str(path)) == "3"
    assert next(iter(doccache.documents._entries.values()))[1].chains == {("a",)}
