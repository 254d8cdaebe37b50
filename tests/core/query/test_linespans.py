"""JSON Lines held as spans (``linespans``, ``_linespans.h``): a question's rows written
again with only the members it reads and decoded as any line is, so every read of its
chains (errors included) is the whole value's; lines the pass is unsure of are refused
(the file is read as before); answers over a file held so are libjq 1.8.2's."""

from __future__ import annotations

import io
import json
import random
from unittest import mock

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic import query
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.query import doccache, linespans, projected
from jqmagic.core.settings import settings as jqsettings
from tests.core.jqlang.oracle import jq_texts
from tests.core.query.inline import inline_worker
from tests.core.query.test_linesshared import _answer

pytestmark = pytest.mark.skipif(linespans.C_SPANS is None or projected.C_LINES is None,
                                reason="the _jvbuild extension is not built")

NAMES = ["a", "b", "é", "c d"]
KEYS = [json.dumps(n, ensure_ascii=False) for n in NAMES] + [r'"\u0061"', '"b"']
SCALARS = ["1", "-0.0", "1.0", "1e-05", "9007199254740993", "null", "true", '"x"', '"é"',
           r'"\u00e9"', r'"\ud83d\ude00"', "[]", "[1, {\"a\": 2}]", "{}"]


@st.composite
def values(draw, depth: int = 0) -> str:
    if depth < 2 and draw(st.integers(0, 2)) == 0:
        members = draw(st.lists(st.tuples(st.sampled_from(KEYS), values(depth + 1)),
                                max_size=4))
        space = draw(st.sampled_from(["", " "]))
        return "{" + f",{space}".join(f"{k}:{space}{v}" for k, v in members) + "}"
    return draw(st.sampled_from(SCALARS))


@st.composite
def lines(draw) -> str:
    if draw(st.integers(0, 7)) == 0:
        return draw(st.sampled_from(["", "  ", "\r", "[1]", '"a"', "null", " {} ", "5"]))
    members = draw(st.lists(st.tuples(st.sampled_from(KEYS), values()), max_size=5))
    lead, tail = draw(st.sampled_from(["", " ", "\t"])), draw(st.sampled_from(["", " ", "\r"]))
    gap = st.sampled_from(["", " ", "\t ", " \r"])  # where a member's end is found back
    return lead + "{" + ",".join(f"{draw(gap)}{k}{draw(gap)}:{draw(gap)}{v}{draw(gap)}"
                                 for k, v in members) + "}" + tail


CHAINS = st.frozensets(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(tuple),
                       max_size=4)


def text_of(spans, handle, chains, block, threads):
    """The rows' text, its pieces joined."""
    return b"".join(spans.pieces(handle, chains, block, threads))


def _read(value, chain):
    """``.a.b...`` as jq reads it: the value, or where it fails and on what."""
    for name in chain:
        if value is None:
            continue
        if type(value) is not dict:
            return ("error", name, value)
        value = value.get(name)
    return ("ok", value)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines(), max_size=30), CHAINS, st.integers(1, 64), st.integers(1, 4),
       st.integers(1, 8))
def test_every_chain_reads_as_on_the_whole_value(texts, chains, block, threads, piece):
    data = "\n".join(texts).encode()
    whole = [orjson.loads(line) for line in data.split(b"\n") if line.strip()]
    spans = linespans.read(data)
    assert spans.count == len(whole) and spans.newlines == data.count(b"\n")
    with mock.patch.object(linespans, "PART_ROWS", piece):  # pieces of `piece` rows
        text = text_of(spans, io.BytesIO(data), chains, block, threads)
    assert text == text_of(spans, io.BytesIO(data), chains, block, 1), "pieces differ from one"
    rows = [orjson.loads(line) for line in bytes(text).split(b"\n") if line]
    assert len(rows) == len(whole)
    for row, value in zip(rows, whole, strict=True):
        for chain in chains | spans.held(chains):
            assert _read(row, chain) == _read(value, chain), (chain, row, value)


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_pieces_written_by_threads_make_the_rows_one_piece_makes(tmp_path, threads):
    """Rows cut in pieces, each written by a thread reading the file at its offset (after
    a byte order mark too) and decoded as it comes, make the text, the rows and the
    columns one piece makes."""
    rng = random.Random(threads)
    lines = [json.dumps({"id": i, "user": {"name": rng.choice(["é", "bo", "x"]), "n": i},
                         "big": ["x" * rng.randrange(200)] * rng.randrange(3)})
             if rng.randrange(9) else rng.choice(["", "[1]", " 5 "]) for i in range(3000)]
    data = linespans.BOM + "\n".join(lines).encode()
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    spans = linespans.read(memoryview(data)[3:], 3)
    chains = frozenset({("user", "name"), ("id",)})
    with open(path, "rb") as handle:
        one = text_of(spans, handle, chains, 4096, 1)
        values, made = linespans.rows(spans, handle, chains)
        with mock.patch.object(linespans, "PART_ROWS", 100):  # 16 pieces
            assert len(list(spans.pieces(handle, chains, 4096, threads))) == linespans.PIECES
            split = text_of(spans, handle, chains, 4096, threads)
            pieced, pieced_made = linespans.rows(spans, handle, chains)
    assert split == one == text_of(spans, io.BytesIO(data), chains, 1 << 20, 1)
    assert bytes(one).count(b"\n") == spans.count
    assert pieced == values and dict(pieced_made) == dict(made)
    assert pieced_made.kinds == made.kinds
    assert set(pieced_made.distinct) <= set(made.distinct)
    assert all(pieced_made.distinct[c] >= made.distinct[c] for c in pieced_made.distinct)


@pytest.mark.parametrize("line", [
    b'{"a": "\xff"}', b'"\\ud800"', b'{"a": "\\udc00x"}', b"1 2", b'{"a": 01}', b"NaN",
    b"[1,]", b'{"a" 1}', b'{"a": "\x01"}', b'"\xed\xa0\x80"', b"[" * 600 + b"]" * 600,
    b'{"a": 1}{"b": 2}', b"-", b"1.", b".5", b"tru"])
def test_a_line_the_pass_is_unsure_of_is_refused(line):
    with pytest.raises(NotMine):
        linespans.read(b'{"a": 1}\n' + line + b"\n")


def _budget_for_spans(monkeypatch, path) -> None:
    """A budget the file's whole values are over and its text and spans within."""
    size = path.stat().st_size
    monkeypatch.setattr(jqsettings, "doc_cache_bytes", int(size * 1.5))
    assert doccache.documents.as_spans(size, "jsonl")


EVENTS = [{"id": f"e{i}", "kind": ["buy", "zoë", "é", "Buy"][i % 4],
           "n": [-0.0, 1.0, 1e-05, 3, None, 2.5][i % 6],
           "user": {"name": ["Straße", "σ", "an"][i % 3],
                    "id": i if i % 50 else 9007199254740993 + i} if i % 7 else "gone",
           **({"tags": ["a", "ß"][: i % 3]} if i % 2 else {})} for i in range(3000)]
PROGRAMS = [
    "[inputs | .kind] | group_by(.) | map({k: .[0], n: length})",
    '[inputs | select(.kind == "buy")] | length',
    "[inputs | .n // 0] | add",
    "[inputs | .n] | max",
    '[inputs | select(.user.name? | test("S"; "i"))] | length',
    "[inputs | {id, n}] | sort_by(.n) | .[-3:]",
    "[inputs | .user.name?] | unique",
    "reduce inputs as $e ({}; .[$e.kind] += ($e.n // 0))",
    "[inputs | .tags[]?] | group_by(.) | map(length)",
    '[inputs | select(.ok)] | length',
    "[inputs | .user.id?] | add",
]


def test_answers_over_a_file_held_as_spans_are_libjqs(tmp_path, monkeypatch):
    lines = [json.dumps(e, ensure_ascii=i % 2 == 0) for i, e in enumerate(EVENTS)]
    lines[5:5] = ["", "null", " {} ", '{"kind": "buy", "kind": "zoë"}', r'{"\u006b\u0069nd": "é"}']
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n")
    doccache.documents.clear()
    whole = {program: _answered(program, path) for program in PROGRAMS}
    assert sum(answer is not None for answer in whole.values()) >= 9  # the rest: libjq's
    _budget_for_spans(monkeypatch, path)
    pieces = linespans.LineSpans.pieces  # many blocks, lines across their edges
    monkeypatch.setattr(linespans.LineSpans, "pieces",
                        lambda self, handle, chains: pieces(self, handle, chains, 4096, 2))
    monkeypatch.setattr(linespans, "PART_ROWS", 500)  # pieces written by two threads
    doccache.documents.clear()
    try:
        for program in PROGRAMS:
            expected = jq_texts(program.replace("inputs", ".[]"),
                                json.dumps([orjson.loads(line) for line in lines if line]))
            answer = _answered(program, path)
            assert answer == whole[program] and answer in (None, expected), program
            held = doccache.documents._entries  # noqa: SLF001 - what the cache keeps
            assert [doc.spans is not None for _, doc in held.values()] in ([True], []), program
    finally:
        doccache.documents.clear()


def _answered(program: str, path) -> list[str] | None:
    """The fast path's answer, or None where it leaves the question to libjq."""
    try:
        return _answer(program, str(path))
    except AssertionError:
        return None


@pytest.fixture
def held_log(tmp_path, monkeypatch):
    """EVENTS as a JSON Lines file the budget has it held as spans."""
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EVENTS))
    _budget_for_spans(monkeypatch, path)
    doccache.documents.clear()
    yield path
    doccache.documents.clear()


def test_a_question_on_whole_values_reads_them_as_they_come(held_log):
    assert _answer("[inputs | .kind] | unique | length", str(held_log)) == ["4"]
    before = list(doccache.documents._entries.values())  # noqa: SLF001
    whole = "[inputs | to_entries | length] | add"
    assert _answer(whole, str(held_log)) == jq_texts(
        whole.replace("inputs", ".[]"), json.dumps(EVENTS))
    assert list(doccache.documents._entries.values()) == before  # nothing whole kept


def test_a_file_changed_between_questions_is_read_again(held_log):
    assert _answer("[inputs | .kind] | length", str(held_log)) == ["3000"]
    edited = EVENTS[:2000] + [{"kind": "new", "n": 1}]
    held_log.write_text("".join(json.dumps(e) + "\n" for e in edited))
    assert _answer("[inputs | .n // 0] | add", str(held_log)) == jq_texts(
        "[.[] | .n // 0] | add", json.dumps(edited))
    assert _answer("[inputs | .kind] | length", str(held_log)) == ["2001"]


def test_a_file_with_a_line_the_pass_refuses_is_left_to_libjq(tmp_path, monkeypatch):
    """Its values are over the budget and the spans' pass refuses a line (nested past 512:
    orjson reads it): the fast path keeps nothing and libjq reads the file as jq does."""
    path = tmp_path / "log.jsonl"
    deep = b"[" * 600 + b"]" * 600
    path.write_bytes(b"".join(json.dumps(e).encode() + b"\n" for e in EVENTS) +
                     b'{"kind": "x", "deep": ' + deep + b"}\n")
    _budget_for_spans(monkeypatch, path)
    doccache.documents.clear()
    try:
        assert _answered("[inputs | .kind] | length", path) is None
        assert doccache.documents._entries == {}  # noqa: SLF001
        with inline_worker(monkeypatch):
            answer = query("[inputs | .kind] | length", str(path), null_input=True)
        assert answer.text == "3001" and answer.engine == "libjq"
    finally:
        doccache.documents.clear()


@pytest.mark.parametrize("share", [-1, 10 ** 6])  # never kept, always kept
def test_the_last_rows_kept_as_spares_answer_questions_back(held_log, monkeypatch,
                                                                  share):
    monkeypatch.setattr(linespans, "SPARE_SHARE", share)
    made = []
    rows = linespans.rows
    monkeypatch.setattr(linespans, "rows", lambda spans, handle, chains, *hollow: (
        made.append(chains), rows(spans, handle, chains, *hollow))[1])
    kinds, names = "[inputs | .kind] | unique | length", "[inputs | .user.name?] | unique"
    tags = "[inputs | .tags[]?] | unique"
    expected = [jq_texts(program.replace("inputs", ".[]"), json.dumps(EVENTS))
                for program in (names, tags)]
    for _ in range(2):  # three sets of rows, each made once while they are small
        assert _answer(kinds, str(held_log)) == ["4"]
        assert _answer(names, str(held_log)) == expected[0]
        assert _answer(tags, str(held_log)) == expected[1]
    assert len(made) == (3 if share > 0 else 6)
    (_, doc), = doccache.documents._entries.values()  # noqa: SLF001
    assert len(doc.spares) == (2 if share > 0 else 0) and doc not in doc.spares


def test_items_moved_into_places_of_none_leave_their_list_empty():
    values, piece = [None] * 4, [{"a": 1}, "x"]
    held = piece[0]
    linespans.C_MOVE(values, 2, piece)
    assert values == [None, None, {"a": 1}, "x"] and values[2] is held and piece == []
    with pytest.raises(ValueError, match="do not fit"):
        linespans.C_MOVE(values, 3, [1, 2])
    with pytest.raises(ValueError, match="not all None"):
        linespans.C_MOVE(values, 1, [1, 2])
    assert values == [None, None, {"a": 1}, "x"]


def test_spares_within_their_share_leave_a_big_set_out_and_keep_smaller_ones():
    sizes = [30, 80, 20, 40, 10]  # the newest first
    spares = [doccache.Document([], None, 0, rows_resident=size) for size in sizes]
    kept = doccache._within(spares, 100)  # noqa: SLF001
    assert [spare.rows_resident for spare in kept] == [30, 20, 40, 10]
    assert doccache._within(spares, 5) == []  # noqa: SLF001
