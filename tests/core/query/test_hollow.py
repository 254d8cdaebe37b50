"""JSON Lines held as spans answer a question whose plans read columns alone with no value
made (jqlang/boundinputs.py's Hollow): the answers jq's, the rows made only when a question
reads an item, once, off the question's clock."""

from __future__ import annotations

import json
import time

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.jqlang import runtime
from jqmagic.core.jqlang.boundinputs import Hollow
from jqmagic.core.jqlang.columnsonly import reads_columns
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.parser import parse
from jqmagic.core.query import (
    doccache,
    fastpath,
    inputbind,
    linespans,
    projected,
)
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from tests.core.jqlang.oracle import jq_texts
from tests.core.query.test_linespans import EVENTS, _answered, held_log  # noqa: F401
from tests.core.query.test_linesshared import _answer, _Sink

COLUMNS_ONLY = [
    "[inputs | .kind] | group_by(.) | map({k: .[0], n: length})",
    '[inputs | select(.kind == "buy")] | length',
    '[inputs | select(.id >= "e2")] | length',  # ids do not repeat: counted one by one
    "[inputs | .n] | max",
    "[inputs | .n | tostring] | unique",  # numbers: no table, mapped one by one
    "[inputs | {id, n}] | sort_by(.n) | .[-3:]",
    "reduce inputs as $e ({}; .[$e.kind] += ($e.n // 0))",
    "[inputs | .tags[]?] | group_by(.) | map(length)",
    "[inputs | .tags[]? | . + \"!\"] | unique",
    '[inputs | select(.kind == "buy") | .id] | max',
    '[inputs | select(.id >= "e29") | .kind] | unique',
]


def _doc() -> doccache.Document:
    (_, doc), = doccache.documents._entries.values()  # noqa: SLF001 - what the cache keeps
    return doc


def _expected(program: str) -> list[str]:
    return jq_texts(program.replace("inputs", ".[]"), json.dumps(EVENTS))


@pytest.mark.parametrize("program", COLUMNS_ONLY)
def test_a_question_whose_plans_read_columns_makes_no_row(held_log, program):  # noqa: F811
    assert _answer(program, str(held_log)) == _expected(program)
    doc = _doc()
    assert type(doc.values) is Hollow and not doc.values.made, program
    assert _answer(program, str(held_log)) == _expected(program)  # asked back: the same
    assert not _doc().values.made


def test_a_plan_that_declines_has_the_rows_made_once_and_kept(held_log):  # noqa: F811
    by_id = "reduce inputs as $e ({}; .[$e.id] += 1) | length"  # ids do not repeat: a loop
    assert _answer(by_id, str(held_log)) == _expected(by_id)
    doc = _doc()
    assert type(doc.values) is Hollow and doc.values.made
    rows = doc.values.rows()
    assert _answer(by_id, str(held_log)) == _expected(by_id)
    assert _doc().values.rows() is rows


def test_an_error_on_an_item_is_raised_as_jq_raises_it(held_log):  # noqa: F811
    """``.user`` is a string on some lines: its column is not whole, the loop reads the
    items (made then) and meets the error, and libjq answers (the fast path declines)."""
    program = "[inputs | .user.name] | length"
    assert _answered(program, held_log) is None
    assert _doc().values.made


def test_a_question_on_each_input_reads_the_rows_of_a_hollow_document(held_log):  # noqa: F811
    assert _answer("[inputs | .kind] | length", str(held_log)) == ["3000"]
    request = QueryRequest(".kind", SourceSpec("file", str(held_log), {}),
                           RunSpec(timeout=60), args={},
                           layout={"indent": 2, "compact": True, "sort_keys": False,
                                   "tab": False})
    sink = _Sink()
    assert fastpath.answer(request, sink)
    assert sink.texts == [json.dumps(e["kind"], ensure_ascii=False) for e in EVENTS]


def test_a_question_that_stops_early_reads_the_lines_not_a_hollow_document(held_log):  # noqa: F811
    assert _answer("[inputs | .kind] | length", str(held_log)) == ["3000"]
    chains = frozenset({("kind",)})
    assert not doccache.documents.holds(str(held_log), "jsonl", chains)
    first = 'first(inputs | select(.kind == "zoë")) | .id'
    assert _answer(first, str(held_log)) == _expected(first)
    assert not _doc().values.made


def test_the_file_changed_before_its_rows_are_made_is_not_read(held_log):  # noqa: F811
    st = held_log.stat()
    reopen = doccache._reopen(str(held_log), doccache.version(st), True)  # noqa: SLF001
    reopen().close()
    held_log.write_text(held_log.read_text() + "{}\n")
    with pytest.raises(NotMine):
        reopen()
    assert doccache._reopen(str(held_log), doccache.version(st), False) is None  # noqa: SLF001


def test_rows_made_during_a_run_are_not_the_programs_time():
    def slow() -> list:
        time.sleep(0.3)
        return [1, 2]
    runtime.start(0.2)
    try:
        assert Hollow(2, slow).rows() == [1, 2]
        runtime.check()  # 0.3 s of making rows, a 0.2 s clock: still running
        time.sleep(0.25)
        with pytest.raises(JqMagicError, match="longer than"):
            runtime.check()
    finally:
        runtime.unclocked()


def test_rows_of_another_length_are_refused():
    with pytest.raises(NotMine):
        Hollow(3, lambda: [1, 2]).rows()


@pytest.mark.parametrize(("program", "expected"), [
    ("[inputs | .a.b] | max", True),
    ("[inputs | .a | ascii_downcase] | length", True),
    ("[inputs | .a[]?] | length", True),
    ("[inputs | {k: .a}] | sort_by(.k) | .[:2]", True),
    ("[inputs | select(.a > 1)] | length", True),
    ("reduce inputs as $x ({}; .[$x.k] += 1)", True),
    ("[inputs | select(.a > 1)] | min_by(.b)", False),  # the items themselves
    ("[inputs | select(.a > 1) | .b] | max", True),
    ("[inputs | select(.a > 1) | .b | ascii_downcase] | max", False),
    ("[inputs | {k: .a} | .k]", False),
    ("reduce inputs as $x (0; . + $x.a)", False),
    ("[inputs]", False),
    ("[inputs | .]", False),
    ("first(inputs | .a)", False),
    ("[inputs | .a] | length, ([inputs] | length)", False),  # read twice
])
def test_the_programs_that_read_columns_alone(program, expected):
    bound = inputbind.bind(program, frozenset(), True)
    assert (bound is not None and bound.reads_columns) == expected
    assert not reads_columns(parse(program), inputbind.INPUTS)  # not bound: no $INPUTS


def test_values_let_go_as_they_are_read_leave_the_same_columns():
    text = "".join(json.dumps(e) + "\n" for e in EVENTS).encode()
    chains = frozenset({("kind",), ("user", "name"), ("n",), ("tags",)})
    kept, newlines, made = projected.whole_values(text, chains, share=True)
    gone, newlines_too, made_too = projected.whole_values(text, chains, share=True,
                                                          keep=False)
    assert len(gone) == len(kept) == newlines == newlines_too == len(EVENTS)
    assert set(map(type, gone)) == {type(None)} and type(kept[0]) is dict
    assert made_too == made and made_too.kinds == made.kinds


CUT = "[inputs | {id, n}] | sort_by(.n) | .[-3:]"


def test_a_sorted_cut_over_lines_of_objects_makes_only_its_key(held_log):  # noqa: F811
    assert _answer(CUT, str(held_log)) == _expected(CUT)
    doc = _doc()
    assert doc.chains == frozenset({("n",)}) and not doc.values.made  # no column of .id


def test_a_sorted_cut_over_a_line_that_is_no_object_makes_every_column(tmp_path, monkeypatch):
    from tests.core.query.test_linespans import _budget_for_spans
    path = tmp_path / "log.jsonl"
    lines = [json.dumps(e) for e in EVENTS] + ['"a string"']
    path.write_text("\n".join(lines) + "\n")
    _budget_for_spans(monkeypatch, path)
    doccache.documents.clear()
    try:
        expected = jq_texts("[.[] | {id, n}] | sort_by(.n) | .[-3:]",
                            "[" + ",".join(lines) + "]")
        assert _answered(CUT, path) in (None, expected)  # .id of a string: jq's error
        assert _doc().chains == frozenset({("n",), ("id",)})
    finally:
        doccache.documents.clear()


def test_lines_read_alone_are_the_lines_whole_values():
    text = '\ufeff{"a": 1}\r\n\n  {"b": [1, 2.50]}\n\n[3]\n"x"\n{"c": {"d": -0.0}}'
    data = text.encode()
    spans = linespans.read(memoryview(data)[3:], 3)
    assert spans.count == 5 and not spans.objects
    import io
    places = [4, 0, 2, 4, 1]
    got = spans.lines_at(io.BytesIO(data), places)
    whole = [json.loads(line) for line in text[1:].splitlines() if line.strip()]
    assert got == [whole[p] for p in places]
    assert linespans.read(b'{"a": 1}\n{"b": 2}\n').objects


def test_every_read_of_the_inputs_is_counted_also_a_calls_first_argument():
    from jqmagic.core.jqlang.columnsonly import _mentions
    assert _mentions(parse("first($x[])"), "x") == 1
    assert _mentions(parse("[$x[] | .a] | f($x; 1)"), "x") == 2
