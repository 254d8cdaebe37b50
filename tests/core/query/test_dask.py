"""--dask: a per-input program over several files on a real LocalCluster (two worker
processes) gives, byte for byte and in order, what one worker gives; --reduce gives what
-s over the map's results gives."""

from __future__ import annotations

import json
import sys

import pytest

from jqmagic import JqMagicError, payload, query
from jqmagic.core.query.fanout import cluster as daskrun


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is an optional extra (pip install "
        "'jqmagic[dask]')")
    local = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=":0")
    client = distributed.Client(local)
    yield local.scheduler_address
    daskrun.close(local.scheduler_address)
    client.close()
    local.close()


@pytest.fixture
def logs(tmp_path):
    for f in range(5):
        with open(tmp_path / f"log{f}.jsonl", "w") as out:
            for i in range(200):
                out.write(json.dumps({"f": f, "i": i, "level": "error" if i % 7 == 0 else
                                      "info", "ms": i * 0.5}) + "\n")
    return str(tmp_path / "log*.jsonl")


@pytest.mark.parametrize("program", ['select(.level == "error") | [.f, .i]', ".ms",
                                     'input_filename | split("/") | last'])
def test_the_same_answer_in_the_same_order(cluster, logs, program):
    serial = query(program, logs, compact=True, limit=100)  # a face's bound: the payload too
    spread = query(program, logs, compact=True, dask=cluster, limit=100)
    assert (spread.text, spread.total) == (serial.text, serial.total)
    assert spread.truncated and payload(spread.payload_id) == payload(serial.payload_id)


def test_the_current_client_is_used(cluster, logs):
    assert query(".i", logs, dask="", passthrough=True).values == \
        query(".i", logs, passthrough=True).values


def test_an_error_in_the_middle_keeps_what_came_before(cluster, logs, tmp_path):
    (tmp_path / "log2.jsonl").write_text('{"f": 2, "i": 0}\n{"f": 2, "i": \n')
    with pytest.raises(JqMagicError) as serial:
        query(".i", logs, passthrough=True)
    with pytest.raises(JqMagicError) as spread:
        query(".i", logs, passthrough=True, dask=cluster)
    assert spread.value.code == serial.value.code == "INVALID_JSON"
    assert spread.value.result.values == serial.value.result.values
    assert len(serial.value.result.values) == 401


def test_reduce_is_slurp_over_the_map(cluster, logs):
    mapped = query('select(.level == "error") | {f, ms}', logs, compact=True, passthrough=True)
    expected = query("group_by(.f) | map({f: .[0].f, ms: (map(.ms) | add)})", text=mapped.text,
                     slurp=True, compact=True)
    reduced = query('select(.level == "error") | {f, ms}', logs, compact=True, dask=cluster,
                    reduce="group_by(.f) | map({f: .[0].f, ms: (map(.ms) | add)})")
    assert reduced.text == expected.text and len(reduced.values[0]) == 5


def test_reduce_without_dask_is_refused(logs):
    with pytest.raises(JqMagicError) as info:
        query(".i", logs, reduce="add")
    assert info.value.code == "INVALID_ARGUMENT" and "--dask" in info.value.hint


def test_without_distributed_the_hint_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setattr(daskrun, "_clients", {})
    with pytest.raises(JqMagicError) as info:
        daskrun.client("")
    assert "jqmagic[dask]" in info.value.hint


def test_the_command_line_reads_the_dask_flag():
    from jqmagic.cli import build_parser

    parser, _ = build_parser("query")
    alone = parser.parse_args(["query", ".i", "logs/*.jsonl", "--dask"])
    given = parser.parse_args(["query", "--dask", "tcp://10.0.0.5:8786", ".i", "x.jsonl"])
    assert (alone.dask, alone.filter, given.dask, given.filter) == \
        ("", ".i", "tcp://10.0.0.5:8786", ".i")
    with pytest.raises(JqMagicError) as info:  # a filter is not read as an address
        parser.parse_args(["query", "--dask", ".i", "x.jsonl"])
    assert "is not a scheduler address" in info.value.message


def test_files_named_by_urls_are_read_on_the_workers(cluster, logs, tmp_path):
    pytest.importorskip("fsspec", reason="URLs are read with fsspec (a dask dependency)")
    serial = query(".i", logs, passthrough=True)
    spread = query(".i", f"file://{tmp_path}/log*.jsonl", dask=cluster, passthrough=True)
    assert spread.values == serial.values and spread.total == 1000


def test_the_sandbox_refuses_urls(logs, tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")
    with pytest.raises(JqMagicError) as info:
        query(".i", f"file://{tmp_path}/log*.jsonl", dask="")
    assert info.value.code == "SANDBOX_DENIED"


def test_a_jq_error_in_the_middle_ends_only_its_input_as_serially(cluster, logs, tmp_path):
    with open(tmp_path / "log1.jsonl", "a") as out:
        out.write('{"f": 9, "i": "x"}\n')
    with pytest.raises(JqMagicError) as serial:
        query(".i + 1", logs, passthrough=True)
    with pytest.raises(JqMagicError) as spread:
        query(".i + 1", logs, passthrough=True, dask=cluster)
    assert (spread.value.message, spread.value.result.values) == \
        (serial.value.message, serial.value.result.values)
    assert len(serial.value.result.values) == 1000
