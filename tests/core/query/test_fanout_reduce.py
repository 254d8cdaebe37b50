"""--reduce's partial reductions: for each reducer with a plan, the combination of the
partials of any cut of the results (in order) is the reducer's answer on them all, text for
text, or a failure (so the caller asks for every result); reducers without a plan have
none. Run with the core's own query (libjq's answer where the fast path declines)."""

from __future__ import annotations

import json
import random

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.query.fanout import reduce

RECORDS = [{"kind": k, "v": v, "ms": ms, "tag": t} for k, v, ms, t in zip(
    "abcabbacca" * 3, range(-7, 23), [1.5, 2, 0.25] * 10, [None, "x", "y"] * 10, strict=True)]

# (reducer, the map's program): each reducer's own family of cases
CASES = [
    ("add", ".v"), ("add", ".ms"), ("add", ".kind"), ("add", "[.v]"), ("add", "{(.kind): .v}"),
    ("add", ".tag"), ("add", "if .v > 3 then .v else .kind end"), ("add", "empty"),
    ("add", ".v * 1e15"), ("add", "100000000000000000001"), ("add", "1.0"),
    ("length", "."), ("length", "select(.v > 100)"),
    ("min", ".v"), ("max", ".v"), ("min", ".ms"), ("max", ".ms"), ("min", "select(.v > 99)"),
    ("min", ".tag"), ("max", "[.kind, .v]"),
    ("min_by(.ms)", "{v, ms}"), ("max_by(.ms)", "{v, ms}"), ("max_by(.kind)", "{kind, v}"),
    ("group_by(.kind) | map({kind: .[0].kind, n: length})", "{kind, v}"),
    ("group_by(.) | map({key: .[0], value: length}) | from_entries", ".kind"),
    ("group_by(.tag) | map([first.v, length, .[0].kind])", "."),
    ("group_by(.kind) | map(map(.v) | add)", "{kind, v}"),
    ("group_by(.kind)", "{kind, v}"), ("group_by(.kind) | map(last)", "{kind, v}"),
    ("group_by(.kind) | map(.[1])", "{kind, v}"),
    ("group_by(.ms) | map(length) | add", "."),
]


def _texts(mapper: str) -> list[bytes]:
    text = "\n".join(json.dumps(r) for r in RECORDS)
    return [t.encode() for t in query(mapper, text=text, compact=True).text.split("\n")
            if t]


def _run(program: str, texts: list[bytes]) -> str:
    return query(program, text=reduce.texts_as_array(texts), compact=True).text


@pytest.mark.parametrize(("reducer", "mapper"), CASES)
def test_partials_combine_to_the_reducers_answer(reducer, mapper):
    plan = reduce.plan(reducer)
    assert plan is not None
    texts = _texts(mapper)
    try:
        whole = _run(reducer, texts)
    except JqMagicError as exc:  # the partials must not answer where the reducer fails
        whole = exc.code
    rng = random.Random(reducer + mapper)
    for _ in range(4):
        cuts = sorted(rng.choices(range(len(texts) + 1), k=rng.randint(0, 4)))
        pieces = [texts[a:b] for a, b in zip([0, *cuts], [*cuts, len(texts)], strict=True)]
        try:
            partials = [_run(plan.partial, piece).encode() for piece in pieces]
            combined = _run(plan.combine, partials)
        except JqMagicError:
            continue  # inexact or a type error: the caller asks for every result
        assert combined == whole


def test_inexact_sums_have_no_partials():
    for mapper in (".ms", ".v * 1e15", "100000000000000000001"):
        plan = reduce.plan("add")
        with pytest.raises(JqMagicError):
            _run(plan.partial, _texts(mapper))


@pytest.mark.parametrize("reducer", ["sort", "map(.v) | add", "unique", ".[0]", "first",
                                     "if length > 1 then add else 0 end",
                                     "[.[] | .v] | add", "reduce .[] as $x (0; . + $x)",
                                     "add(.[])", "group_by(.k), 1", "max_by(.a; .b)",
                                     "group_by(.k)[0]", "group_by(.k) | map(. as $g | length)",
                                     "group_by(.k) | map(if . then length end)"])
def test_reducers_without_a_plan(reducer):
    assert reduce.plan(reducer) is None


@pytest.mark.parametrize("reducer", ["group_by(.k) | map(.[1])", "group_by(.k) | map(last)",
                                     "group_by(.k) | map(.[0:2])"])
def test_groups_read_past_their_ends_cross_whole(reducer):
    assert reduce.plan(reducer).partial == "group_by(.k) | map([(.[0] | .k), .])"


class _Recording:
    """A worker that answers as the shared one and keeps the programs it was asked."""

    def __init__(self):
        from jqmagic.core.query.supervisor import shared_worker

        self.worker, self.programs = shared_worker(), []

    def request(self, message, seconds):
        self.programs.append((message.program, message.run.slurp))
        return self.worker.request(message, seconds)


@pytest.mark.parametrize(("mapper", "asked"), [
    (".v", 1),  # one run under -s: no result crosses
    ("input_filename", 2),  # where its input is: the map, then the partial on its results
    ("if .v > 3 then .v else .kind end", 3)])  # -s fails (a string and a number): the
#   map, then the partial on its results, which fails too: every result
def test_a_partition_reduces_in_one_run_where_the_map_allows(tmp_path, mapper, asked):
    from dataclasses import replace

    from jqmagic.core.query.request import build, for_worker

    path = tmp_path / "part.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n")
    the_map = reduce.mapped(build(mapper, [str(path)], None, {"reduce": "add"}))
    partial = for_worker(reduce.on_texts(the_map, reduce.plan("add").partial, []), None)
    worker = _Recording()
    got = reduce.part(worker, replace(for_worker(the_map, None), keep=None), partial, 30)
    assert len(worker.programs) == asked
    assert worker.programs[0][1] == (mapper != "input_filename")  # the first under -s
    whole = query(mapper, str(path), compact=True).text.split("\n")
    assert got.partial == (asked < 3)
    assert got.texts == ([query(reduce.plan("add").partial, text=reduce.texts_as_array(
        [t.encode() for t in whole]), compact=True).text.encode()] if asked < 3 else
        [t.encode() for t in whole])
