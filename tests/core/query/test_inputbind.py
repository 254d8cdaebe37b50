"""JSON Lines, globs and YAML kept like one JSON document; -n with inputs and input_filename
answered by the fast path, every text the jq 1.8.2 command line's."""

from __future__ import annotations

import os
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError, query
from jqmagic.core.query import doccache, fastpath, inputbind, worker
from tests.cli.dropin import ORACLE, needs_oracle
from tests.core.query.inline import inline_worker

LINES = {
    "a.jsonl": '{"id":1,"user":{"name":"Zoë"},"at":"2025-01-02T03:04:05Z","n":1.5}\n'
               '{"id":2,"tags":["x","y"],"n":10}\n\n{"id":3,"user":null}\n',
    "b.jsonl": '[1,2]\n"café"\n{"id":4,"n":-0.25}\n',
    "c.jsonl": '{"id":5}\n7',  # its last value runs into the next file's text
    "0.jsonl": '1\n"x"\n{"k":[1]}\r\n[]\n',
}


@pytest.fixture
def files(tmp_path, monkeypatch):
    for name, text in LINES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    doccache.documents.clear()
    worker.jv_documents.clear()
    with inline_worker(monkeypatch):
        yield tmp_path
    doccache.documents.clear()


@pytest.fixture
def engines(monkeypatch):
    """Whether the fast path answered each query."""
    seen: list[bool] = []
    real = fastpath.answer

    def recording(request, sink):
        seen.append(real(request, sink))
        return seen[-1]

    monkeypatch.setattr(fastpath, "answer", recording)
    return seen


@pytest.fixture
def parsed(monkeypatch):
    """The format of each file the document cache parsed."""
    formats: list[str] = []
    real = doccache.load_file
    monkeypatch.setattr(doccache, "load_file", lambda path, fmt, *rest: (
        formats.append(fmt), real(path, fmt, *rest))[1])
    return formats


CASES = [
    ("-n", "reduce inputs as $x (0; . + 1)", ["a.jsonl"]),
    ("-n", "[inputs | .id?] | add", ["a.jsonl", "b.jsonl"]),
    ("-n", "first(inputs | select(.id? == 2)) | .tags", ["a.jsonl"]),
    ("-n", "[limit(2; inputs)]", ["a.jsonl", "b.jsonl"]),
    ("-n", "[inputs | .user?.name? // empty | ascii_downcase]", ["a.jsonl"]),
    ("-n", "reduce inputs as $e ({}; .[$e | type] += 1)", ["a.jsonl", "b.jsonl"]),
    ("-n", "[inputs] | length, 7", ["*.jsonl"]),
    ("-n", "inputs | objects | \"\\(.id): \\(.n // \"-\")\"", ["a.jsonl", "b.jsonl"]),
    ("-ns", "[inputs]", ["a.jsonl", "b.jsonl"]),
    ("-n", "[foreach inputs as $x (0; . + 1; [., ($x | type)])]", ["a.jsonl", "b.jsonl"]),
    ("-n", "inputs as $x | $x.id?", ["a.jsonl", "b.jsonl"]),
    ("-n", "isempty(inputs)", ["a.jsonl"]),
    ("-n", "any(inputs; .id? == 3)", ["a.jsonl"]),
    ("-n", "try (inputs | error) catch .", ["b.jsonl"]),
    ("-n", "label $out | inputs | if .id? == 2 then ., break $out else empty end",
     ["a.jsonl"]),
    ("-n", "[inputs] | .[1:] | map(.id?)", ["a.jsonl", "b.jsonl"]),
    ("-n", "input", ["b.jsonl"]),
    ("-n", "input | keys", ["a.jsonl"]),
    ("-n", "input as $h | [inputs | type] | [$h, length]", ["b.jsonl", "a.jsonl"]),
    ("-n", "input as $h | reduce inputs as $x (0; . + 1)", ["a.jsonl"]),
    ("-s", "map(.id?)", ["a.jsonl", "b.jsonl"]),
    ("", "[.id?, input_filename]", ["a.jsonl", "b.jsonl"]),
    ("", "input_filename", ["b.jsonl", "c.jsonl"]),
    ("", "select(type == \"object\") | .n", ["*.jsonl"]),
    ("", "[., input_line_number]", ["b.jsonl", "0.jsonl"]),
    ("", "select(input_line_number > 1) | [input_filename, .]", ["0.jsonl", "b.jsonl"]),
]


@needs_oracle
@pytest.mark.parametrize(("flags", "program", "names"), CASES)
def test_same_as_jq(files, engines, flags, program, names):
    expanded = [p.name for n in names for p in sorted(files.glob(n))]
    want = subprocess.run([str(ORACLE), "-c", *([flags] if flags else []), program,
                           *expanded], capture_output=True, text=True, check=True).stdout
    result = query(program, names if len(names) > 1 else names[0], compact=True,
                   null_input="n" in flags, slurp="s" in flags)
    assert (result.text + "\n" if result.text else "") == want
    assert engines == [True]


STREAMED = [(flags, program, names) for flags, program, names in CASES
            if flags == "-n" and "input " not in program and not program.startswith("input")]


@needs_oracle
@pytest.mark.parametrize(("flags", "program", "names"), STREAMED)
def test_inputs_over_the_budget_are_read_as_they_come(files, engines, monkeypatch, flags,
                                                      program, names):
    """Files bigger than the document budget: ``inputs`` reads their lines as they come
    (none kept), still on the fast path, every text jq's."""
    from jqmagic.core.settings import settings as jqmagic_settings

    monkeypatch.setattr(jqmagic_settings, "doc_cache_bytes", 8)
    expanded = [p.name for n in names for p in sorted(files.glob(n))]
    want = subprocess.run([str(ORACLE), "-nc", program, *expanded], capture_output=True,
                          text=True, check=True).stdout
    result = query(program, names if len(names) > 1 else names[0], compact=True,
                   null_input=True)
    assert (result.text + "\n" if result.text else "") == want
    assert engines == [True]
    assert doccache.documents.size == 0  # nothing kept


def test_json_lines_whose_values_would_be_over_the_budget_are_read_as_they_come(
        files, engines, monkeypatch, parsed):
    """A JSON Lines file whose text fits the budget but whose values would not (about 8
    times the text), nor its text and spans (``linespans``: held so where they fit), is
    read line by line, never parsed whole: nothing is kept."""
    from jqmagic.core.settings import settings as jqmagic_settings

    size = (files / "a.jsonl").stat().st_size
    monkeypatch.setattr(jqmagic_settings, "doc_cache_bytes", int(size * 1.1))
    assert query("[inputs | .id?]", "a.jsonl", null_input=True, compact=True).text == \
        "[1,2,3]"
    assert query(".id", "a.jsonl", compact=True).text == "1\n2\n3"
    assert engines == [True, True]
    assert parsed == []
    assert doccache.documents.size == 0


@needs_oracle
def test_the_bound_names_are_not_the_programs(files):
    """``$__jqmagic_inputs`` is jq's undefined variable, not the fast path's inputs."""
    want = subprocess.run([str(ORACLE), "-n", "[$__jqmagic_inputs]", "a.jsonl"],
                          capture_output=True, text=True)
    assert want.returncode == 3
    with pytest.raises(JqMagicError) as caught:
        query("[$__jqmagic_inputs]", "a.jsonl", null_input=True)
    assert "__jqmagic_inputs" in str(caught.value)


@pytest.mark.parametrize(("flags", "program", "names"), [
    ("", "[., input_filename]", ["c.jsonl", "a.jsonl"]),  # 7 is named after a.jsonl
    ("-n", "[inputs] | length, [inputs]", ["a.jsonl"]),  # read twice
    ("-n", "range(2) | [inputs]", ["a.jsonl"]),  # read in a loop
    ("-n", "[input, input]", ["a.jsonl"]),
    ("-n", "first(inputs), input", ["a.jsonl"]),  # input after inputs
    ("-n", "input | [inputs]", ["a.jsonl"]),  # inputs after a pipe: not known to run once
    ("", "input_line_number", ["a.jsonl"]),  # a blank line
    ("-n", "[inputs | input_line_number]", ["b.jsonl"]),  # where inputs has read to
    ("-s", "input_line_number", ["b.jsonl"]),
    ("-n", "def f: inputs; [f]", ["a.jsonl"]),
    ("-s", "[length, input_filename]", ["a.jsonl", "b.jsonl"]),  # the last file's name
    ("-n", "isempty(inputs), any(inputs; .id? == 3)", ["a.jsonl"]),  # the rest, then
])
@needs_oracle
def test_libjq_answers_the_rest(files, engines, flags, program, names):
    want = subprocess.run([str(ORACLE), "-c", *([flags] if flags else []), program, *names],
                          capture_output=True, text=True).stdout
    result = query(program, names if len(names) > 1 else names[0], compact=True,
                   null_input="n" in flags, slurp="s" in flags)
    assert (result.text + "\n" if result.text else "") == want
    assert engines == [False]


def test_json_lines_parsed_once(files, monkeypatch):
    parsed: list[str] = []
    real = doccache.load_file
    monkeypatch.setattr(doccache, "load_file", lambda path, fmt, *rest: (
        parsed.append(os.path.basename(path)), real(path, fmt, *rest))[1])
    # whole inputs first: a question of fewer chains is then answered from them (asked
    # first, it would decode its chains alone: tests/core/query/test_projected.py)
    for program in ("[inputs | tojson] | length", "reduce inputs as $x (0; . + 1)",
                    "[inputs] | length", "first(inputs)"):
        query(program, "*.jsonl", null_input=True)
    query(".", "a.jsonl")
    assert sorted(parsed) == ["0.jsonl", "a.jsonl", "b.jsonl", "c.jsonl"]


def test_a_line_orjson_refuses_goes_to_libjq(files, engines):
    (files / "d.jsonl").write_text('{"a":1}\n{"a":2} {"a":3}\n')
    assert query("[inputs.a]", "d.jsonl", null_input=True, compact=True).text == "[1,2,3]"
    assert engines == [False]


def test_bind_places():
    def reads(text):
        bound = inputbind.bind(text, frozenset(), True)
        return bound is not None and bound.reads_inputs

    assert reads("[inputs | .a] | length")
    assert reads("reduce inputs as $x (0; . + 1) | . * 2")
    assert reads("inputs as $x | $x.a")
    assert reads("first(inputs | select(.a)), 1")
    assert reads("limit(3; inputs)")
    assert reads("any(inputs; .a == 1)")
    assert not reads("[.[] | inputs]")  # after a generator
    assert not reads("reduce range(3) as $i (0; . + ([inputs] | length))")
    assert not reads("limit($n; inputs)")
    assert not reads("def first(f): f, f; first(inputs)")
    assert inputbind.bind("[inputs]", frozenset(), False) is None  # jq runs it per input
    assert inputbind.bind(".input", frozenset(), True) is None  # no reader
    assert reads("input as $h | [inputs]")
    assert not reads("[inputs] as $all | input")


def test_a_changed_file_is_read_again(files):
    assert query("[inputs] | length", "a.jsonl", null_input=True).text == "3"
    (files / "a.jsonl").write_text('{"id":1}\n{"id":2}\n{"id":3}\n{"id":4}\n')
    assert query("[inputs] | length", "a.jsonl", null_input=True).text == "4"


def test_bom_and_crlf(files, engines):
    (files / "w.jsonl").write_bytes(b'\xef\xbb\xbf{"a":1}\r\n{"a":2}\r\n')
    assert query("[inputs.a] | add", "w.jsonl", null_input=True).text == "3"
    assert engines == [True]


def test_over_the_budget_inputs_are_libjqs_unless_json_lines_read_once(files, engines,
                                                                         monkeypatch):
    """Over the budget nothing is kept: JSON Lines read by ``inputs`` once stream through
    the fast path; a lone ``input`` (or YAML, which is parsed whole) is libjq's."""
    from jqmagic.core.settings import settings

    monkeypatch.setattr(settings, "doc_cache_bytes", 10)
    (files / "m.yaml").write_text("a: 1\n---\na: 2\n")
    assert query("reduce inputs as $x (0; . + 1)", "a.jsonl", null_input=True).text == "3"
    assert query("input as $h | [inputs] | length", "a.jsonl", null_input=True).text == "2"
    assert query("[inputs.a] | add", "m.yaml", null_input=True).text == "3"
    assert engines == [True, False, False]
    assert doccache.documents.size == 0


def test_yaml_stream_cached_once(files, engines, parsed):
    (files / "m.yaml").write_text("# a comment\nbase: &b {x: 1}\nk: {<<: *b, y: on}\n---\n"
                                  "k: {x: 2, y: 0o10}\n")  # YAML 1.2: on is text, 0o10 is 8
    assert query("[inputs.k]", "m.yaml", null_input=True, compact=True).text == \
        '[{"x":1,"y":"on"},{"x":2,"y":8}]'
    assert query(".k.y", "m.yaml", compact=True).text == '"on"\n8'
    assert parsed == ["yaml"] and engines == [True, True]


def test_yaml_number_orjson_cannot_write_goes_to_libjq(files, engines):
    (files / "big.yaml").write_text("n: 123456789012345678901234567890\n")
    assert query(".n", "big.yaml").text == "123456789012345678901234567890"
    assert engines == [False]


def test_yaml_facts_from_values(files, engines):
    """Digits in strings (an image digest) are no number literals: the fast path answers."""
    (files / "d.yaml").write_text("image: app@sha256:0e12345678901234567890e0000\nn: 2.5\n")
    assert query("select(.n > 1) | .n", "d.yaml").text == "2.5"
    assert engines == [True]


def test_input_with_no_input_is_libjqs_error(files, engines):
    (files / "empty.jsonl").write_text("")
    with pytest.raises(JqMagicError, match="break"):  # jq 1.8.2 says "break"
        query("input", "empty.jsonl", null_input=True)
    assert engines == [False]


@needs_oracle
@pytest.mark.parametrize(("text", "fast"), [
    ('{"id":"0e12345678901234567890e000","n":2.5}\n{"id":"ab","n":0.5}\n', True),
    ('{"id": "0e12345678901234567890e000", "n": 2.50}\n', True),  # 2.50 printed as written
    ('{"id":"x","n":2.50}\n', True),
    ('{"id":"x","n":2.50}\n{"id":"y","n":2.5}\n', False),  # 2.5 written two ways
])
def test_json_lines_facts_from_values_when_written_back(files, engines, text, fast):
    """Lines orjson writes back byte for byte: digits in strings count for nothing."""
    (files / "h.jsonl").write_text(text)
    program = "[inputs | select(.n > 1) | .n]"
    want = subprocess.run([str(ORACLE), "-nc", program, "h.jsonl"], capture_output=True,
                          text=True, check=True).stdout
    assert query(program, "h.jsonl", null_input=True, compact=True).text + "\n" == want
    assert engines == [fast]


_WRAPS = ["[X]", "first(X)", "reduce X as $x (0; . + 1)", "[limit(2; X)]",
          "[X as $v | $v]", "[X] | length", "try X catch .", "isempty(X)", "[.[]?, X]",
          "(X) // 1", "if true then X else 0 end", "[range(2) | X]", "def f: X; [f]",
          "[foreach X as $x (0; . + 1)]", "[X, X]", "[X | X]", "input as $h | [X]",
          "{a: X}", "[X] | .[0]", "any(X; . == 1)", "[.[]? | X]", "label $l | X"]
_READERS = ["inputs", "input", "(inputs | .id?)", "(input | type)"]


@st.composite
def _reading(draw, depth=2):
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(_READERS))
    return draw(st.sampled_from(_WRAPS)).replace("X", draw(_reading(depth - 1)))


@needs_oracle
@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(program=_reading())
def test_generated_readers_same_as_jq(files, program):
    """Readers in generated places: the fast path answers as jq does, or declines."""
    want = subprocess.run([str(ORACLE), "-nc", program, "a.jsonl", "b.jsonl"],
                          capture_output=True, text=True)
    try:
        got = query(program, ["a.jsonl", "b.jsonl"], null_input=True, compact=True).text
    except JqMagicError:
        assert want.returncode != 0
        return
    assert want.returncode == 0
    assert (got + "\n" if got else "") == want.stdout


@needs_oracle
@pytest.mark.parametrize(("text", "fast"), [
    ('[{"sha":"0e12345678901234567890e000","n":2.5},{"n":0.5}]', True),
    ('[{"sha":"0e12345678901234567890e000","n":2.5},{"n":0.5}]\n', True),
    ('[{"sha": "0e12345678901234567890e000", "n": 2.5}]\n', True),  # strings left out
    ('[{"id": 12345678901234567.5, "n": 2.5}]\n', False),  # a long literal, not orjson's
])
def test_minified_json_facts_from_values(files, engines, text, fast):
    (files / "h.json").write_text(text)
    program = "[.[] | select(.n > 1) | .n]"
    want = subprocess.run([str(ORACLE), "-c", program, "h.json"], capture_output=True,
                          text=True, check=True).stdout
    assert query(program, "h.json", compact=True).text + "\n" == want
    assert engines == [fast]


def test_input_filename_of_yaml_and_jsonc_as_libjq_names_them(files, engines, monkeypatch):
    from jqmagic.core.settings import settings

    (files / "y1.yaml").write_text("a: 1\n---\n2\n")
    (files / "y2.yml").write_text("- x\n")
    (files / "j.jsonc").write_text('// note\n{"b": 3}\n')
    program, names = "[., input_filename]", ["y1.yaml", "y2.yml", "j.jsonc", "a.jsonl"]
    fast = query(program, names, compact=True).text
    monkeypatch.setattr(settings, "fast_path", False)
    slow = query(program, names, compact=True, cache=False)
    assert slow.engine == "libjq" and slow.text == fast
    assert engines[0] is True and '[2,"y1.yaml"]' in fast


@needs_oracle
@pytest.mark.parametrize("cache", [True, False])
@pytest.mark.parametrize("program", ['first(inputs | select(.id == "c"))', "[inputs | .v]",
                                     "[limit(2; inputs | .v)]", "[inputs | .v | -.]",
                                     '[inputs | .s] | map(select(test("STRASSE"; "i")))'])
def test_json_lines_with_odd_literals_are_answered(files, engines, program, cache):
    """-0.0, 1.0 and 1e-05 printed as jq prints them, kept or read as they come (the
    facts of the lines read so far: a first() stops reading where jq does)."""
    (files / "odd.jsonl").write_text(
        '{"id":"a","v":-0.0,"s":"Straße"}\n{"id":"b","v":1e-05,"s":"x"}\n'
        '{"id":"c","v":1.0,"s":"ΣΑΣ"}\n{"id":"d","v":1.50,"s":"strasse"}\n', encoding="utf-8")
    want = subprocess.run([str(ORACLE), "-nc", program, "odd.jsonl"], capture_output=True,
                          text=True, check=True).stdout
    got = query(program, "odd.jsonl", null_input=True, compact=True, cache=cache)
    assert got.text + "\n" == want
    assert engines == [True]


def test_a_file_whose_libjq_parse_is_over_the_budget_is_read_by_libjq_as_jq_does(
        files, monkeypatch):
    """A question the fast path leaves to libjq, over JSON Lines whose parse would be over
    the budget and that the fast path does not hold whole: libjq reads the file itself,
    a value at a time, not parsed whole into the cache and freed after."""
    from jqmagic.core.query import jvcache
    from jqmagic.core.settings import settings as jqmagic_settings

    size = (files / "a.jsonl").stat().st_size
    monkeypatch.setattr(jqmagic_settings, "doc_cache_bytes", size * 2)
    monkeypatch.setattr(jqmagic_settings, "fast_path", False)
    parses = []
    real = jvcache._parse  # noqa: SLF001 - the cache's own parse, recorded
    monkeypatch.setattr(jvcache, "_parse", lambda *a: (parses.append(a), real(*a))[1])
    program = "reduce inputs as $e (0; . + ($e.n? // 0))"
    assert query(program, "a.jsonl", null_input=True).text == "11.5"
    assert parses == [] and worker.jv_documents.size == 0
    monkeypatch.setattr(jqmagic_settings, "doc_cache_bytes", size * 100)
    assert query(program, "a.jsonl", null_input=True).text == "11.5"
    assert len(parses) == 1  # within the budget: parsed into the cache, as before
