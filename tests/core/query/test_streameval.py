"""Streamed evaluation: a program of a streamable shape over a big JSON file gives, text for
text, what libjq gives on the whole parsed file (the oracle: the fast path off)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from jqmagic import JqMagicError, payload, query
from jqmagic.core import settings as settings_module
from jqmagic.core.query import doccache, libjq, worker
from jqmagic.core.query import request as requests
from jqmagic.core.query.streaming import documents
from jqmagic.core.query.streaming.forms import plan
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import Settings, settings

PROGRAMS = [
    ".items[]", ".items[] | .a", ".items[] | select(.a != null) | .a", ".items[] | keys?",
    "[.items[] | .a] | length", "[.items[] | .a] | add", "[.items[] | .a] | min",
    "[.items[] | .a] | max", "[.items[] | .a] | unique", "[.items[]] | group_by(.a)",
    "[.items[] | .b] | group_by(type) | map(length)", "first(.items[])",
    "first(.items[] | .a) | tojson", "limit(2; .items[] | .b)", "limit(0; .items[])",
    ".items | length", ".meta | length", ".meta", ".items[1]", ".items[1].a", ".meta.z",
    ".items[0] | keys?", ".meta[]", "length", ".nothing[]", ".meta.z.deeper",
    ".items[] | .a | tostring", "[.items[] | .a * 2] | add",
    ".items[] | . as [$x] ?// {a: $x} | $x",
]

# Number spellings whose text libjq keeps (1.50, 1E+2, 64-bit and longer integers).
NUMBERS = st.one_of(
    st.integers(-2**70, 2**70).map(str),
    st.sampled_from(["1.50", "1e2", "1E-7", "0.0000001", "-0.0", "3.000", "1.5e300",
                     "100000000000000000000000000001", "0", "2.5", "-12", "1.0e-7"]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)
SCALARS = st.one_of(NUMBERS, st.text(max_size=8).map(json.dumps),
                    st.sampled_from(["true", "false", "null"]))
KEYS = st.sampled_from(["a", "b", "z", "item", "é", "deeper"])


def _array(items: list[str]) -> str:
    return "[" + ",".join(items) + "]"


def _object(pairs: dict[str, str]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in pairs.items()) + "}"


VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4).map(_array),
    st.dictionaries(KEYS, inner, max_size=4).map(_object)), max_leaves=12)
ITEMS = st.lists(st.one_of(st.dictionaries(KEYS, VALUES, max_size=3).map(_object), VALUES),
                 max_size=6)
DOCUMENTS = st.builds(lambda items, meta: _object({"items": _array(items), "meta": meta}),
                      ITEMS, VALUES)


def _answer(program, path, **options):
    try:
        result = query(program, path, compact=True, passthrough=True, **options)
        return "ok", result.text, result.total, result.engine
    except JqMagicError as exc:
        return "error", exc.code, exc.message, exc.result.text if exc.result else None


@pytest.fixture
def oracle():
    """libjq answers the in-memory runs (the fast path is off)."""
    before = settings.fast_path
    settings.fast_path = False
    yield
    settings.fast_path = before


@pytest.fixture(scope="module")
def engines():
    """The engines the fast runs used: jqlang must have answered some."""
    seen: set = set()
    yield seen
    assert "stream-fast" in seen


@hsettings(max_examples=40, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=DOCUMENTS)
def test_streamed_answers_are_libjqs(tmp_path, oracle, engines, document):
    path = tmp_path / "doc.json"
    path.write_text(document)
    for program in PROGRAMS:
        whole = _answer(program, str(path))
        streamed = _answer(program, str(path), stream_eval=True)  # libjq on each element
        settings.fast_path = True
        fast = _answer(program, str(path), stream_eval=True)  # jqlang where it can
        settings.fast_path = False
        if _vouched(path, program):  # (else read whole: a key the scan cannot compare)
            assert streamed[0] == "error" or streamed[3] == "stream", (program, document)
            assert fast[0] == "error" or fast[3].startswith("stream"), (program, document)
        assert streamed[:3] == fast[:3] == whole[:3], (program, document)
        engines.add(fast[3])


def _vouched(path, program: str) -> bool:
    """Whether the document scan vouches for the file's streaming under ``program``."""
    found = documents.of_file(str(path), len(plan(program).path) + 1)
    return found is None or found.streams


@pytest.fixture
def big(tmp_path):
    """A file over a document budget made small for the test."""
    before = settings.doc_cache_bytes
    settings.doc_cache_bytes = 10_000
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"rows": [{"id": i, "ok": i % 3 == 0, "v": i / 4}
                                         for i in range(2000)]}))
    yield str(path)
    settings.doc_cache_bytes = before


def test_a_file_over_the_budget_streams_by_itself(big, oracle):
    result = query("[.rows[] | select(.ok)] | length", big)
    assert result.engine.startswith("stream")
    settings.doc_cache_bytes = 1 << 30
    assert query("[.rows[] | select(.ok)] | length", big).values == result.values == [667]


def test_a_program_that_needs_the_whole_file_is_too_large(big):
    with pytest.raises(JqMagicError) as caught:
        query(".rows | map(.v) | add", big)
    assert caught.value.code == "TOO_LARGE"
    assert "[.items[] | select(.ok)] | length" in caught.value.hint


def test_bounds_and_payload_as_in_memory(big, oracle):
    streamed = query(".rows[] | .id", big, limit=5)
    assert streamed.engine.startswith("stream") and streamed.truncated
    settings.doc_cache_bytes = 1 << 30
    whole = query(".rows[] | .id", big, limit=5)
    assert (streamed.text, streamed.total) == (whole.text, whole.total)
    assert payload(streamed.payload_id) == payload(whole.payload_id)


def test_an_error_in_the_middle_keeps_what_came_before(big, oracle):
    program = '.rows[] | if .id == 5 then error("row 5") else .id end'
    streamed = _answer(program, big)
    settings.doc_cache_bytes = 1 << 30
    assert streamed == _answer(program, big)
    assert streamed[:2] == ("error", "QUERY_ERROR") and streamed[3] == "0\n1\n2\n3\n4"


def test_minus_zero_streams_as_libjq_reads_it(tmp_path, oracle):
    path = tmp_path / "z.json"
    path.write_text('[1, -0, 2]')  # runs of elements are libjq's own text (ijson read 0)
    result = query(".[]", str(path), stream_eval=True, compact=True)
    assert result.text == "1\n-0\n2" and result.engine.startswith("stream")


def test_stream_eval_refuses_a_program_that_cannot_stream(tmp_path):
    path = tmp_path / "s.json"
    path.write_text("[1, 2]")
    with pytest.raises(JqMagicError) as caught:
        query("map(. + 1)", str(path), stream_eval=True)
    assert caught.value.code == "INVALID_ARGUMENT"


@pytest.mark.parametrize("program", [".[] as $x | $x", "reduce .[] as $x (0; . + $x)",
                                     "[inputs]", "map(.a)", ".", ".[]?", "def f: .; .[] | f",
                                     "limit(-1; .[])", ".[-1]"])
def test_shapes_that_do_not_stream(program):
    assert plan(program) is None


def test_inputs_over_big_json_lines_read_one_value_at_a_time(tmp_path, oracle, monkeypatch):
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps({"i": i, "v": i / 8}) + "\n" for i in range(3000)))
    program = "[inputs | select(.i % 7 == 0) | .v] | add"
    whole = query(program, str(path), null_input=True)
    monkeypatch.setattr(settings, "doc_cache_bytes", 10_000)
    assert query(program, str(path), null_input=True).values == whole.values
    assert query(".i", str(path), limit=3).total == 3000  # not parsed whole, not refused


@pytest.fixture(scope="module")
def long_pass(tmp_path_factory):
    """A pass of seconds (600k elements): far over a 1 s timeout, each stretch far under."""
    path = tmp_path_factory.mktemp("long") / "long.json"
    path.write_text(json.dumps([{"v": i, "pad": "x" * 40} for i in range(600_000)]))
    return str(path)


@pytest.mark.parametrize("fast", [True, False])
def test_a_pass_longer_than_the_timeout_goes_on_while_it_reads(long_pass, fast, monkeypatch):
    monkeypatch.setattr(settings, "fast_path", fast)
    result = query("[.[] | select(.v % 1000 == 0)] | length", long_pass, stream_eval=True,
                   timeout=1.0)  # the pass takes seconds, each stretch of it far less
    assert result.values == [600] and result.engine.startswith("stream")


def test_a_runaway_program_on_one_element_is_stopped(long_pass):
    with pytest.raises(JqMagicError) as caught:
        query(".[] | [limit(100000000; repeat(1))] | length", long_pass, stream_eval=True,
              timeout=0.5)
    assert caught.value.code == "TIMEOUT"


def test_several_files_fail_each_on_its_own_as_in_memory(tmp_path, oracle):
    for name in "ab":
        (tmp_path / f"{name}.json").write_text(json.dumps([1, 2, "x", 3]))

    def reply(**options):  # the worker's reply itself (query() adds a shape hint after)
        request = requests.build(".[] | . + 1", str(tmp_path / "*.json"), None,
                                 {"compact": True, **options})
        end, texts = shared_worker().request(requests.for_worker(request, None), 30)
        return end.error["message"], end.total, texts, end.engine

    whole, streamed = reply(), reply(stream_eval=True)
    assert streamed[:3] == whole[:3] and streamed[3] == "stream" != whole[3]
    assert "1 more input failed" in whole[0] and whole[1] == 4


def test_yaml_over_the_budget_says_which_formats_stream(tmp_path, monkeypatch):
    path = tmp_path / "big.yaml"
    path.write_text("items:\n" + "".join(f"  - {i}\n" for i in range(500)))
    monkeypatch.setattr(settings, "doc_cache_bytes", 100)
    with pytest.raises(JqMagicError) as caught:
        query(".items[]", str(path))
    assert caught.value.code == "TOO_LARGE" and "only JSON and JSON Lines" in \
        caught.value.message


@pytest.fixture
def small_memory(monkeypatch, tmp_path):
    """A 100 KB JSON file under the document budget, in a worker whose memory could not
    hold it parsed (about 850 KB): answered in this process (worker.execute), where the
    worker's memory is the test's to set."""
    monkeypatch.setattr(doccache, "worker_memory", lambda: 0)
    monkeypatch.setattr(settings, "worker_memory", 1_000_000)  # a whole parse: 500 KB
    for name in ("HOME", "JQMAGIC_PAYLOAD_DIR"):  # worker.execute takes the caller's as
        monkeypatch.setenv(name, os.environ.get(name, ""))  # its process's own: put back
        if not os.environ[name]:
            monkeypatch.delenv(name)
    monkeypatch.chdir(os.getcwd())
    path = tmp_path / "rows.json"
    path.write_text(json.dumps({"rows": [{"id": i, "ok": i % 3 == 0} for i in range(4000)]}))
    assert path.stat().st_size < settings.doc_cache_bytes
    return str(path)


def _in_process(program: str, path: str):
    request = requests.for_worker(requests.build(program, path, None, {"passthrough": True}),
                                  None)
    return worker.execute(libjq.ProgramCache(), request)


def test_a_file_whose_parse_would_not_fit_in_memory_streams(small_memory, oracle):
    assert not doccache.fits_whole(os.path.getsize(small_memory), "json")
    end = _in_process("[.rows[] | select(.ok)] | length", small_memory)
    assert end.engine.startswith("stream") and end.error is None
    assert query("[.rows[] | select(.ok)] | length", small_memory).values == [1334]


def test_a_program_that_needs_it_whole_is_too_large_for_memory_not_the_budget(small_memory):
    end = _in_process(".rows | map(.id) | add", small_memory)
    assert end.error["code"] == "TOO_LARGE"
    assert "over half the worker's memory (0.0 GB)" in end.error["message"]
    assert "budget" not in end.error["hint"]


def test_the_default_budget_is_a_quarter_of_memory_and_at_least_1_gib(monkeypatch):
    monkeypatch.setattr(settings_module, "physical_memory", lambda: 24 << 30)
    assert Settings().doc_cache_bytes == 6 << 30
    monkeypatch.setattr(settings_module, "physical_memory", lambda: 2 << 30)
    assert Settings().doc_cache_bytes == 1 << 30


@pytest.mark.parametrize(("limit", "expected"), [
    ("2147483648\n", 2 << 30),  # a container of 2 GiB (Binder): its limit, not the host's
    ("max\n", None),  # cgroup v2 without a limit: the machine's memory
    ("9223372036854771712\n", None),  # cgroup v1 without a limit
])
def test_memory_is_the_containers_when_it_sets_a_lower_limit(tmp_path, monkeypatch, limit,
                                                              expected):
    path = tmp_path / "memory.max"
    path.write_text(limit)
    monkeypatch.setattr(settings_module, "_CGROUP_LIMITS", (str(tmp_path / "none"), str(path)))
    machine = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    settings_module.physical_memory.cache_clear()  # read once a process: read again
    try:
        assert settings_module.physical_memory() == (expected or machine)
    finally:
        settings_module.physical_memory.cache_clear()
