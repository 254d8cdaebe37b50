"""A first read's strings one object for each distinct text of a member (``_linesscalar.h``
lines_own, :attr:`.columns.Made.distinct`): a column of such a member is shared as made,
its share pass skipped (:func:`.columns.adopted`); the values stay orjson's, and a read
that cannot vouch for it (a line orjson read, a member past its distinct strings, a
member's site taken over) claims nothing."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jqmagic
from jqmagic.core.jqlang import columns
from jqmagic.core.query import doccache, fastpath, projected
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from tests.core.jqlang.oracle import jq_texts

pytestmark = pytest.mark.skipif(projected.C_LINES is None,
                                reason="the _jvbuild extension is not built")

CHAINS = frozenset({("k",), ("u", "k"), ("t",), ("n",)})
WORDS = ["buy", "é", r"\u00e9", r"a\"b", r"\ud83d\ude00", "x" * 300, "Σ", "", "buy "]
cells = st.one_of(st.sampled_from([f'"{w}"' for w in WORDS]),
                  st.sampled_from(["1", "1.0", "-0.0", "null", "true", "9007199254740993",
                                   "18446744073709551616", "1e1000", "[]", '["buy", "é"]',
                                   '{"k": "buy"}']))


@st.composite
def lines(draw) -> str:
    members = draw(st.lists(st.tuples(st.sampled_from(["k", "u", "t", "n", "o"]), cells),
                            max_size=5))
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["", "[1]", '"buy"', '{"k": 1', "1 2"]))
    return "{" + ", ".join(f'"{name}": {cell}' for name, cell in members) + "}"


def _one_object_each(column: list) -> bool:
    first: dict = {}
    return all(first.setdefault(v, v) is v for v in column if type(v) is str)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines(), max_size=40))
def test_a_shared_column_holds_one_object_each_and_the_values_are_orjsons(texts):
    data = "\n".join(texts).encode()
    try:
        values, _, made = projected.whole_values(data, CHAINS)
    except jqmagic.core.jqlang.NotMine:
        return
    saved, projected.C_LINES = projected.C_LINES, None
    try:
        assert repr(doccache.json_lines(data)[0]) == repr(values)
    finally:
        projected.C_LINES = saved
    for chain, distinct in made.distinct.items():
        column = made[chain]
        assert _one_object_each(column), chain
        assert len({v for v in column if type(v) is str}) <= distinct


def test_equal_texts_written_two_ways_are_one_object():
    data = b'{"k": "\\u00e9"}\n{"k": "\xc3\xa9"}\n{"k": "a\\/b"}\n{"k": "a/b"}\n'
    values, _, made = projected.whole_values(data, frozenset({("k",)}))
    assert made.distinct[("k",)] == 2
    assert values[0]["k"] is values[1]["k"] == "é" and values[2]["k"] is values[3]["k"]


def test_what_cannot_be_vouched_for_is_not_claimed():
    many = "".join(json.dumps({"k": f"v{i}", "c": "same"}) + "\n" for i in range(1100))
    made = projected.whole_values(many.encode(), frozenset({("k",), ("c",)}))[2]
    assert ("k",) not in made.distinct and made.distinct[("c",)] == 1  # past 1024 strings
    fallen = b'{"c": "x"}\n{"c": "x", "n": 18446744073709551616}\n'
    assert projected.whole_values(fallen, frozenset({("c",)}))[2].distinct == {}
    keys = "".join(json.dumps({f"m{i}": 1, "c": "x"}) + "\n" for i in range(2000))
    assert projected.whole_values(keys.encode(), frozenset({("c",)}))[2].distinct == {}


class _Sink:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, data: bytes) -> None:
        self.texts.append(data.decode())

    def add_many(self, texts: list[bytes]) -> None:
        self.texts.extend(t.decode() for t in texts)

    def hold(self) -> None:
        pass

    release = hold

    def waited(self) -> float:
        return 0.0

    def restart(self) -> None:
        self.texts.clear()


def _answer(program: str, path: str) -> list[str]:
    """The fast path's texts of a ``-n`` program over the file, in process."""
    request = QueryRequest(program, SourceSpec("file", path, {}),
                           RunSpec(null_input=True, timeout=60), args={},
                           layout={"indent": 2, "compact": True, "sort_keys": False,
                                   "tab": False})
    sink = _Sink()
    assert fastpath.answer(request, sink), program
    return sink.texts


def test_a_shared_column_skips_its_share_pass_and_answers_as_jq(tmp_path, monkeypatch):
    monkeypatch.setattr(projected, "WIDE_FROM", 0)
    own = columns.own
    monkeypatch.setattr(columns, "own", lambda values, budget: own(values, 1 << 30))
    shares = []
    read = columns.C_READ
    monkeypatch.setattr(columns, "C_READ", lambda v, c, u, share: (
        shares.append(share), read(v, c, u, share))[1])
    path = tmp_path / "log.jsonl"
    kinds = ["buy", "zoë", "\u00e9", "Buy", 'b"y']
    rows = [{"kind": kinds[i % 5], "n": i % 7 - 3.5} for i in range(4000)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    doccache.documents.clear()
    try:
        for program in ["[inputs | .kind] | group_by(.) | map({k: .[0], n: length})",
                        "[inputs | .kind] | unique | length",
                        "reduce inputs as $e ({}; .[$e.kind] += $e.n)"]:
            slurped = program.replace("inputs", ".[]")
            assert _answer(program, str(path)) == jq_texts(slurped, json.dumps(rows))
        store = columns._store(doccache.documents.get(str(path), "jsonl").values)
        assert ("kind",) in store.shared and store.repeating[("kind",)]
        assert True not in shares  # no share pass
    finally:
        doccache.documents.clear()


def test_keys_foreseen_from_the_last_object_are_read_as_written():
    """lines_key: each member's key is foreseen from the object before; a key that only
    starts the same, another order, a repeated key, an escaped or non-ASCII key and more
    members than are foreseen each read as orjson reads them."""
    keys = ["a", "ab", r"a\u0062", "é", r"a\"", "b", "", "A"] + [f"k{i}" for i in range(40)]
    rows = []
    for i in range(300):
        picked = [keys[(i * 7 + j * (i % 5 + 1)) % len(keys)] for j in range(i % 45)]
        rows.append("{" + ", ".join(f'"{k}": {j}' for j, k in enumerate(picked)) + "}")
        rows.append('{"a": {"ab": 1, "a": [{"b": 2}, {"a": 3}]}, "a": 4}')
    data = "\n".join(rows).encode()
    values = projected.whole_values(data, frozenset({("a",), ("ab",)}))[0]
    assert repr(values) == repr([orjson.loads(row) for row in rows])


_NUMBER = st.sampled_from(["-0.0", "1.0", "1e-05", "9007199254740993", "0", "-3", "2.5"])
_KIND = st.sampled_from(['"buy"', '"zoë"', r'"\u00e9"', '"é"', '"Buy"', "null", "1", "1.0",
                         "true", '["buy"]'])
_ROW = st.one_of(
    st.builds(lambda k, n, miss: "{" + ", ".join(
        [f'"kind": {k}'] * (not miss) + [f'"n": {n}']) + "}", _KIND, _NUMBER | st.just("null"),
        st.booleans()),
    st.sampled_from(['"text"', "null", "[1]", '{"kind": {"a": 1}}']))
PROGRAMS = ["[inputs | .kind] | group_by(.) | map({k: .[0], n: length})",
            "[inputs | .kind] | unique | length",
            '[inputs | select(.kind == "buy")] | length',
            "reduce inputs as $e ({}; .[$e.kind] += ($e.n // 0))"]


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(_ROW, min_size=1, max_size=6), st.integers(1, 400))
def test_answers_over_shared_columns_are_libjqs(tmp_path, monkeypatch, sample, times):
    """Rows with -0.0, 1.0, 1e-05, 2^53+1, nulls, missing members, rows where the chain is
    an error, equal strings written two ways: the fast path over a first read's shared
    columns prints libjq 1.8.2's answer (or declines where it would err)."""
    monkeypatch.setattr(projected, "WIDE_FROM", 0)
    monkeypatch.setattr(columns, "MIN_ITEMS", 0)
    own = columns.own
    monkeypatch.setattr(columns, "own", lambda values, budget: own(values, 1 << 30))
    path = tmp_path / "rows.jsonl"
    lines = sample * times
    path.write_text("\n".join(lines) + "\n")
    text = "[" + ",".join(lines) + "]"
    for program in PROGRAMS:
        doccache.documents.clear()
        expected = jq_texts(program.replace("inputs", ".[]"), text)
        try:
            found = _answer(program, str(path))
        except AssertionError:  # declined: libjq answers (an error here)
            assert expected[-1].startswith("error"), program
            continue
        assert found == expected, program
        store = columns._store(doccache.documents.get(str(path), "jsonl").values)
        if any('"kind"' in line for line in sample):  # a member met, no line orjson's
            assert ("kind",) in store.shared
    doccache.documents.clear()


def test_rows_sharing_their_keys_are_the_lines_objects():
    """_linesrows.h: the top-level objects made by shape share their keys; every shape
    (other orders, missing and repeated keys, keys naming a class's slots, more members
    than are shared, more shapes than are remembered) reads as orjson reads it, and a row
    changed later leaves the others as they were."""
    names = ["id", "kind", "__dict__", "__class__", "é", "a b", ""]
    lines = []
    for i in range(600):
        keys = [names[(i + j * (1 + i % 3)) % len(names)] for j in range(i % 9)]
        keys += [f"m{j}" for j in range(i % 40 if i % 7 == 0 else 0)]
        keys += [f"s{i % 80}"]
        lines.append("{" + ", ".join(f'"{k}": [{j}]' for j, k in enumerate(keys)) + "}")
    lines.append(lines[0])  # the same shape as the first row
    data = "\n".join(lines).encode()
    values = projected.whole_values(data, frozenset({("id",)}))[0]
    expected = [orjson.loads(line) for line in lines]
    assert values == expected and [list(v) for v in values] == [list(v) for v in expected]
    values[0]["new"] = 1
    del values[0]["s0"]
    assert values[-1] == expected[-1] and list(values[0]) == ["new"]


def test_equal_short_lines_are_one_value_unless_lines_seldom_repeat():
    """``share``: equal short lines are one value; after a window of lines that seldom
    repeat (every line an id of its own) lines are not looked up for fifteen windows (each
    kept value cost a cache miss a line), then again."""
    window = 65536
    unique = [b'{"i":%d}' % i for i in range(window)]
    text = b"\n".join(unique + [b'{"k":1}'] * (16 * window + 2)) + b"\n"
    values, newlines, _ = projected.whole_values(text, (), share=True)
    assert newlines == 17 * window + 2
    assert values == [orjson.loads(line) for line in text.splitlines()]
    resting = values[window:16 * window]
    assert resting[0] is not resting[1], "looked up while resting"
    assert values[-1] is values[-2] is values[16 * window + 1], "not looked up again"
    unshared = projected.whole_values(text, (), share=False)[0]
    assert unshared[-1] is not unshared[-2]
