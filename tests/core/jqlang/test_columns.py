"""Columns of the lists the cache holds (:mod:`jqmagic.core.jqlang.columns`) and the memos
of string builtins answer exactly as the fused loops do field by field: the same outputs,
and the same errors where the loops raise them."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import JqError, columns, compile_subset, fuseexpr, runtime
from jqmagic.core.query import document, fastpath
from jqmagic.core.query.doccache import DocumentCache
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from tests.core.jqlang.oracle import _Texts, libjq
from tests.core.jqlang.test_fused import programs
from tests.core.jqlang.test_properties import documents


def _answer(program: str, value, with_columns: bool) -> str | None:
    """The fast path's text for ``program`` over the Python ``value`` (its lists owned,
    with room for every column, so that its loops read them when ``with_columns``: the
    second time it is asked); None when it declines."""
    fastpath._VALUES.clear()
    columns.forget_all()
    saved, own = columns.MIN_ITEMS, columns.own
    columns.MIN_ITEMS = 0 if with_columns else 1 << 62
    columns.own = lambda values, budget: own(values, 1 << 30)
    try:
        request = QueryRequest(program, SourceSpec("value", value, {}),
                               RunSpec(timeout=20, cache=False), args={"x": 1},
                               layout={"indent": 0, "compact": True, "sort_keys": False,
                                       "tab": False})
        answers = []
        for _ in range(2 if with_columns else 1):  # the question that parsed it reads items
            sink = _Texts()
            answers.append("\n".join(sink.texts) if fastpath.answer(request, sink) else None)
        return answers[-1]
    finally:
        columns.MIN_ITEMS, columns.own = saved, own
        fastpath._VALUES.clear()
        columns.forget_all()


_fields = st.dictionaries(st.sampled_from(["a", "b", "c"]), st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["s", "1", "Zo"]),
    st.lists(st.integers(0, 2), max_size=2)), max_size=3)
rows = st.lists(st.one_of(
    st.dictionaries(st.sampled_from(["a", "b", "c"]), st.one_of(_fields, st.integers(0, 3),
                                                                st.none()), max_size=3),
    st.none(), st.just("s"), st.just(1)), max_size=12)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs, document=documents)
def test_loops_over_columns_answer_as_loops_over_items(program, document):
    value = json.loads(document)
    assert _answer(program, value, True) == _answer(program, value, False)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs, value=rows)
def test_loops_over_columns_of_rows_answer_as_loops_over_items(program, value):
    """Lists of objects, of objects in them, and of nulls and scalars among them (where a
    chain is an error): the shapes whose loops read columns."""
    assert _answer(program, value, True) == _answer(program, value, False)


EVENTS = [{"type": "Push", "actor": {"login": "Zoe"}, "n": 1},
          {"type": "Watch", "actor": None, "n": 2.5},
          {"type": "Push", "actor": {"login": "ann"}},
          {"type": 3, "actor": {"login": "zoe"}, "n": "7"}]


@pytest.mark.parametrize("program", [
    "[.[] | select(.type == \"Push\") | .actor.login]",
    "reduce .[] as $e ({}; .[$e.type | tostring] += 1)",
    "[.[] | .actor.login | ascii_downcase? // \"-\"]",
    "[.[] | (.n // 0) + 1, .actor.login]",  # "7" + 1: an error
    "[.[] | (.n // 0 | tostring), .actor.login]",
    "[.[] as $e | $e.actor.login, $e.type]",
    "[.[] | \"\\(.type) by \\(.actor.login)\"]",
    "[.[] | .actor.login | select(. != null) | ascii_downcase | startswith(\"zo\")]",
])
def test_columns_answer_as_libjq(program):
    expected = libjq(program, json.dumps(EVENTS * 300), compact=True).text
    got = _answer(program, EVENTS * 300, True)  # an error is libjq's to report
    assert got == (None if expected.startswith("error") else expected)


@pytest.mark.parametrize("program", [
    "[.[] | .actor.login]", "[.[] | select(.n > 1) | .actor.login]",
    "reduce .[] as $e (0; . + ($e.actor.login | length))",
])
def test_an_item_whose_chain_fails_raises_the_loops_error(program):
    message = 'Cannot index string with string ("login")'  # jq 1.8.2's words
    rows = EVENTS * 400 + [{"actor": "text", "n": 9}] + EVENTS
    columns.own(rows, 1 << 30)
    try:
        runtime.start(None)
        under_a_select = compile_subset("[.[] | select(.n) | .actor.login]")
        for _ in range(2):  # read on some items, then asked again: built, with UNREAD
            with pytest.raises(JqError):
                list(under_a_select.run(rows, {}))
        assert ("actor", "login") in columns._OWNED[id(rows)].columns
        with pytest.raises(JqError) as raised:  # from the column, read by the loop there
            list(compile_subset(program).run(rows, {}))
        assert message in raised.value.value
    finally:
        columns.forget(rows)


def test_columns_stay_within_their_budget_and_leave_with_the_list():
    rows = EVENTS * 400
    columns.own(rows, budget=8 * len(rows) * 2)  # room for two columns
    try:
        runtime.start(None)
        for program, expected in [
                ("[.[] | .type]", [r["type"] for r in rows]),
                ("[.[] | .n]", [r.get("n") for r in rows]),
                ("[.[] | .actor.login]", [(r["actor"] or {}).get("login") for r in rows])]:
            for _ in range(3):  # read, built, copied (the third over the budget: read)
                assert list(compile_subset(program).run(rows, {})) == [expected]
        assert sorted(columns._OWNED[id(rows)].columns) == [("n",), ("type",)]
    finally:
        columns.forget(rows)
    assert id(rows) not in columns._OWNED


def test_a_document_the_cache_drops_takes_its_columns_along(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EVENTS * 400))
    cache = DocumentCache()
    doc = cache.get(str(path), "jsonl")
    assert id(doc.values) in columns._OWNED
    cache.clear()
    assert id(doc.values) not in columns._OWNED


def test_remembered_answers_are_the_builtins_past_the_memos_room(monkeypatch):
    monkeypatch.setattr(fuseexpr, "MEMO_CAP", 3)
    rows = [{"w": f"W{i % 7}"} for i in range(3000)]
    columns.own(rows, 1 << 30)
    try:
        assert columns.repeats(rows, ("w",))  # so ascii_downcase goes through a memo
        runtime.start(None)
        program = compile_subset('[.[] | .w | ascii_downcase | startswith("w1")]')
        for _ in range(2):
            assert list(program.run(rows, {})) == [[r["w"] == "W1" for r in rows]]
    finally:
        columns.forget(rows)


def test_only_strings_that_repeat_are_remembered():
    rows = [{"kind": f"k{i % 9}", "id": f"id-{i}"} for i in range(3000)]
    columns.own(rows, 1 << 30)
    try:
        assert columns.repeats(rows, ("kind",)) and not columns.repeats(rows, ("id",))
        assert not columns.repeats(list(rows), ("kind",))  # a list not owned: no memo
    finally:
        columns.forget(rows)


def test_the_lists_a_cached_object_holds_have_columns(tmp_path, monkeypatch):
    monkeypatch.setattr(document, "COLUMNS_SHARE", 1)  # a small file: room for a column
    path = tmp_path / "orders.json"
    path.write_text(json.dumps({"orders": EVENTS * 400, "name": "x", "few": [1, 2]}))
    cache = DocumentCache()
    doc = cache.get(str(path), "json")
    orders = doc.values[0]["orders"]
    try:
        assert id(orders) in columns._OWNED and id(doc.values[0]["few"]) not in columns._OWNED
        runtime.start(None)
        for _ in range(2):  # asked again: built
            assert list(compile_subset("[.orders[] | .type] | length").run(
                doc.values[0], {})) == [len(orders)]
        assert columns._OWNED[id(orders)].columns == {("type",): [e["type"] for e in orders]}
    finally:
        cache.clear()


def test_chains_that_start_alike_are_read_through_their_first_name():
    rows = [{"p": {"a": 1, "b": "x"}}, {"p": None}, {"q": 3}] * 400
    columns.own(rows, 1 << 30)
    try:
        runtime.start(None)
        program = compile_subset("[.[] | select(.q == null) | {a: .p.a, b: .p.b}]")
        for _ in range(2):  # read under a select: asked again, built
            assert list(program.run(rows, {})) == [
                [{"a": 1, "b": "x"}, {"a": None, "b": None}] * 400]
        store = columns._OWNED[id(rows)]
        assert set(store.columns) == {("q",), ("p",), ("p", "a"), ("p", "b")}  # .p once
    finally:
        columns.forget(rows)


def test_a_chain_gets_its_column_when_a_loop_reads_it_again():
    rows = [{"kind": "Service", "spec": {"ports": [1]}}, {"kind": "Pod"}] * 600
    columns.own(rows, 1 << 30)
    try:
        runtime.start(None)
        program = compile_subset('[.[] | select(.kind == "Service") | .spec.ports[]] | add')
        store = columns._OWNED[id(rows)]
        assert list(program.run(rows, {})) == [600]
        assert set(store.columns) == {("kind",)}  # recorded; .spec.ports on some items
        assert list(program.run(rows, {})) == [600]
        assert set(store.columns) == {("kind",), ("spec", "ports")}
        assert list(program.run(rows, {})) == [600]
    finally:
        columns.forget(rows)


def test_a_chain_read_once_an_item_is_recorded_by_the_first_loop():
    rows = [{"t": f"k{i % 3}", "n": i} for i in range(2000)]
    columns.own(rows, 1 << 30)
    try:
        runtime.start(None)
        store = columns._OWNED[id(rows)]
        assert list(compile_subset("reduce .[] as $r ({}; .[$r.t] += 1)").run(rows, {})) == \
            [{"k0": 667, "k1": 667, "k2": 666}]
        assert store.columns == {("t",): [r["t"] for r in rows]}  # as the loop read them
        program = compile_subset("[.[] | select(.n > 1997) | .t]")
        assert list(program.run(rows, {})) == [["k0", "k1"]]
        assert set(store.columns) == {("t",)}  # .t's column: that loop recorded nothing
        assert list(program.run(rows, {})) == [["k0", "k1"]]
        assert set(store.columns) == {("t",), ("n",)}  # .n asked again: built
    finally:
        columns.forget(rows)


def test_a_chain_read_on_some_items_is_not_recorded():
    rows = [{"a": i % 2 == 0, "b": i} for i in range(2000)]
    columns.own(rows, 1 << 30)
    try:
        runtime.start(None)
        program = compile_subset("[.[] | select(.a) | .b] | length")
        assert list(program.run(rows, {})) == [1000]
        assert set(columns._OWNED[id(rows)].columns) == {("a",)}  # .b: under the select
    finally:
        columns.forget(rows)


def test_a_loop_that_fails_records_nothing():
    rows = [{"t": f"a{i}"} for i in range(1500)] + [{"t": [1]}] + [{"t": "b"}] * 10
    columns.own(rows, 1 << 30)  # no string repeats: no answer of a column (.vector)
    try:
        runtime.start(None)
        with pytest.raises(JqError):
            list(compile_subset("[.[] | .t | ascii_downcase]").run(rows, {}))
        assert not columns._OWNED[id(rows)].columns
    finally:
        columns.forget(rows)


@settings(max_examples=300, deadline=None)
@given(values=st.lists(documents.map(json.loads), max_size=12),
       chain=st.sampled_from([("a",), ("a", "b"), ("b", "a", "c")]))
def test_a_chain_read_a_name_at_a_time_is_the_chain_read_per_item(values, chain):
    """read_chain's route in C (a name at a time, nulls on the way read as null, another
    value on the way sending it to the one-pass reader) gives what the one-pass reader
    gives, UNREAD where the chain is an error."""
    expected = columns._reader(len(chain))(iter(values), *chain)
    found = columns.read_chain(values, chain)
    assert [x is columns.UNREAD for x in found] == [x is columns.UNREAD for x in expected]
    assert json.dumps([None if x is columns.UNREAD else x for x in found]) == \
        json.dumps([None if x is columns.UNREAD else x for x in expected])


@pytest.mark.skipif(columns.C_READ is None, reason="the _jvbuild extension is not built")
@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.one_of(documents.map(json.loads), rows), max_size=12),
       chain=st.sampled_from([("a",), ("a", "b"), ("b", "a", "c"), ()]),
       share=st.booleans())
def test_a_chain_read_in_c_is_the_chain_read_per_item(values, chain, share):
    """_jvbuild.chain_column: the one-pass reader's values, the kinds met as bits, and
    with ``share`` each string the first one equal to it."""
    expected = columns._reader(len(chain))(iter(values), *chain)
    found, bits = columns.C_READ(values, chain, columns.UNREAD, share)
    assert [x is columns.UNREAD for x in found] == [x is columns.UNREAD for x in expected]
    assert json.dumps([None if x is columns.UNREAD else x for x in found]) == \
        json.dumps([None if x is columns.UNREAD else x for x in expected])
    assert frozenset(kind for bit, kind in columns._KINDS if bits & bit) == \
        frozenset(map(type, expected)) and not bits & columns._OTHER
    if share:
        first: dict = {}
        assert all(first.setdefault(x, x) is x for x in found if type(x) is str)


@pytest.mark.skipif(columns.C_READ is None, reason="the _jvbuild extension is not built")
def test_a_column_built_in_c_knows_its_kinds_and_shares_repeated_strings():
    rows = [{"k": "Push" + "Event"[:n % 2], "u": {"n": n}} for n in range(5000)]
    columns.own(rows, 1 << 30)
    try:
        assert columns.column(rows, ("k",)) == [r["k"] for r in rows]
        assert columns._OWNED[id(rows)].kinds[("k",)] == frozenset({str})
        assert rows[1]["k"] is not rows[3]["k"]
        assert columns.shared(rows, ("k",))[1] is columns.shared(rows, ("k",))[3]
        assert columns.column(rows, ("u", "n")) == list(range(5000))
        assert ("u", "n") not in columns._OWNED[id(rows)].shared  # ints: nothing shared
    finally:
        columns.forget(rows)


OBJECTS = ["[.[] | {a, n: .b.c}]", '[.[] | {"k": .c, a: .a.b, k: .b}] | sort_by(.k)',
           "[.[] | {c}] | length", "[.[] | {a: .b.a.c}]", "[.[] | .a[]?]", "[.[] | .b.c[]]",
           "[.[] | try .c[]]", "[.[] | .b.a[]?] | length", "[.[] | .a[]? | . + 1]",
           "[.[] | .b.c[]? | {n: .}] | length", "[.[] | .c[]? | select(. > 0), $x]"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=st.sampled_from(OBJECTS), value=rows)
def test_objects_and_lists_made_from_columns_are_libjqs(program, value):
    """``[ITEMS[] | {k: .a.b, ...}]`` made from whole columns (:func:`.vector._objects`,
    in C where the extension is built), ``[ITEMS[] | .a.b[]?]`` joined from them, sort_by's
    keys read in C: libjq's answer, or a decline (an item whose chain fails sends the
    question to the loop, which raises jq's error: the fast path declines it)."""
    got = _answer(program, value, True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got == libjq(program, json.dumps(value), {"x": 1}, compact=True).text


def test_objects_of_whole_columns_are_made_in_one_call(monkeypatch):
    made = []
    real = columns.objects
    monkeypatch.setattr(columns, "objects", lambda keys, found: made.append(keys) or
                        real(keys, found))
    rows = [{"id": f"e{n}", "geo": {"lat": n / 8} if n % 3 else None} for n in range(3000)]
    assert _answer("[.[] | {id, lat: .geo.lat}] | .[-2:]", rows, True) == \
        '[{"id":"e2998","lat":374.75},{"id":"e2999","lat":374.875}]'
    assert made and made[-1] == ("id", "lat")


def test_a_columns_lists_are_joined_in_one_call(monkeypatch):
    joined, saved = [], columns.joined

    def joining(lists, chains=()):
        joined.append(True)
        return saved(lists, chains)

    monkeypatch.setattr(columns, "joined", joining)
    rows = [{"tags": ["a", "b"][:n % 3] if n % 4 else None} for n in range(3000)]
    assert _answer("[.[] | .tags[]?] | length", rows, True) == \
        str(sum(len(r["tags"] or ()) for r in rows))
    assert joined
    joined.clear()
    assert _answer('[.[] | .tags[]? | select(. == "b") | ascii_upcase] | unique', rows,
                   True) == '["B"]'
    assert joined  # the rest of the stream over the joined lists


@pytest.mark.parametrize("program", [
    "[.[] | {id, lat: .geo.lat}] | sort_by(.lat) | .[-2:]", "[.[] | .k] | unique",
    '[.[] | select(.k == "PushE")] | length', "[.[] | .tags[]?] | length",
    "[.[] | .geo.lat] | sort | .[:2]", "[.[] | .geo] | min_by(.lat)"])
def test_without_the_extension_columns_answer_alike(monkeypatch, program):
    """A plain install without a C compiler has no ``_jvbuild``: columns are read, their
    kinds learnt, their strings shared and objects made in Python, to the same answers."""
    rows = [{"id": f"e{n}", "k": "Push" + "E" * (n % 2), "tags": ["a"] if n % 3 else None,
             "geo": {"lat": n / 8 - 100} if n % 5 else None} for n in range(3000)]
    with_c = _answer(program, rows, True)
    monkeypatch.setattr(columns, "C_READ", None)
    monkeypatch.setattr(columns, "C_OBJECTS", None)
    assert with_c is not None and _answer(program, rows, True) == with_c
