"""--dask: a per-input program over several files on a real LocalCluster (two worker
processes) gives, byte for byte and in order, what one worker gives; --reduce (on the
cluster or with --parallel, from partial reductions or from every result) gives what -s
over the map's results gives; the command line reads a scheduler's address as Dask's own
tools write it."""

from __future__ import annotations

import glob
import socket
import sys
import time

import pytest

from jqmagic import JqMagicError, payload, query
from jqmagic.core.query import protocol
from jqmagic.core.query.fanout import cluster as daskrun
from jqmagic.core.query.fanout import reduce


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
def logs(write_logs):
    return write_logs(200)


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


@pytest.mark.parametrize(("mapper", "reducer"), [
    (".i", "add"), (".ms", "add"), (".level", "length"), ("{f, ms}", "max_by(.ms)"),
    (".level", "group_by(.) | map({key: .[0], value: length}) | from_entries"),
    ("{f, i}", "group_by(.i % 3) | map(length)"), ("[.f, .ms]", "sort | .[-1]"),
    ('input_filename | split("/") | last', "group_by(.) | map([.[0], length])"),
    ("# a comment ends the map's line\n.i", "add"), ("def twice: . * 2; .i | twice", "max")])
def test_reduce_with_or_without_partials_is_slurp_over_the_map(cluster, logs, mapper,
                                                              reducer):
    mapped = query(mapper, logs, compact=True, passthrough=True)
    expected = query(reducer, text=mapped.text, slurp=True, compact=True).text
    assert query(mapper, logs, compact=True, dask=cluster, reduce=reducer).text == expected
    assert query(mapper, logs, compact=True, parallel=2, reduce=reducer).text == expected


def test_a_reducer_that_fails_on_the_combination_fails_as_over_every_result(cluster, logs,
                                                                            tmp_path):
    with open(tmp_path / "log3.jsonl", "a") as out:  # a string among the numbers
        out.write('{"f": 3, "i": "x"}\n')
    mapped = query(".i", logs, compact=True, passthrough=True)
    with pytest.raises(JqMagicError) as serial:
        query("add", text=mapped.text, slurp=True)
    for fanout in ({"dask": cluster}, {"parallel": 2}):
        with pytest.raises(JqMagicError) as spread:
            query(".i", logs, reduce="add", **fanout)
        assert spread.value.message == serial.value.message


def test_reduce_without_a_fanout_is_refused(logs):
    with pytest.raises(JqMagicError) as info:
        query(".i", logs, reduce="add")
    assert info.value.code == "INVALID_ARGUMENT" and "--dask" in info.value.hint
    assert "--parallel" in info.value.hint


def test_a_batch_crosses_as_one_object_and_gives_the_same_texts():
    texts = [b"1", b"", "\u00e9".encode(), b'{"a":\n  [1]\n}'] * 3
    batch = daskrun.Batch.of(reduce.Part(protocol.End(total=12), texts, False))
    assert isinstance(batch.data, bytes) and batch.part().texts == texts


def test_a_scheduler_that_does_not_answer_is_said_plainly():
    pytest.importorskip("distributed", reason="dask.distributed is an optional extra")
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{sock.getsockname()[1]}"
    started = time.monotonic()
    with pytest.raises(JqMagicError) as info:
        daskrun.client(address)
    assert info.value.code == "NETWORK_ERROR" and address in info.value.message
    assert time.monotonic() - started < 15


def test_without_distributed_the_hint_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setattr(daskrun, "_clients", {})
    with pytest.raises(JqMagicError) as info:
        daskrun.client("")
    assert "jqmagic[dask]" in info.value.hint


@pytest.mark.parametrize(("words", "address", "program", "files"), [
    (["--dask", "tcp://10.0.0.5:8786", ".i", "x.jsonl"], "tcp://10.0.0.5:8786", ".i",
     ["x.jsonl"]),
    (["--dask=tcp://10.0.0.5:8786", ".i", "x.jsonl"], "tcp://10.0.0.5:8786", ".i", ["x.jsonl"]),
    (["-c", "--dask", "10.0.0.5:8786", ".i"], "10.0.0.5:8786", ".i", []),
    (["--dask", "tcp://[::1]:8786", ".i"], "tcp://[::1]:8786", ".i", []),
    (["--dask", ".i", "x.jsonl"], "", ".i", ["x.jsonl"]),
    ([".i", "--dask", "x.jsonl"], "", ".i", ["x.jsonl"]),
    ([".i", "x.jsonl", "--dask"], "", ".i", ["x.jsonl"]),
])
def test_the_command_line_reads_an_address_as_dask_users_write_it(words, address, program,
                                                                  files):
    from jqmagic.cli.commands import build_parser
    from jqmagic.cli.jqcli import parse

    args = parse(build_parser("query")[1]["query"], words)
    assert (args.dask, args.filter, args.files) == (address, program, files)


def test_the_command_line_with_a_scheduler_gives_the_serial_bytes(cluster, logs, capsysbinary):
    from jqmagic.cli import main

    runs = []
    for words in ([], ["--dask", cluster], [f"--dask={cluster}"]):
        main(["query", "--all", "-c", *words, 'select(.level == "error") | .i',
              *sorted(glob.glob(logs))])
        runs.append(capsysbinary.readouterr().out)
    assert runs[0].count(b"\n") == 145 and runs[1] == runs[0] and runs[2] == runs[0]


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


def test_a_task_the_cluster_fails_is_said_in_one_line(cluster):
    broken = protocol.QueryRequest(".", protocol.SourceSpec("file", None, {}))
    with pytest.raises(JqMagicError) as info:  # None[0] raises on the worker
        daskrun._gathered(daskrun.client(cluster), [broken], None, 5)
    assert info.value.code == "NETWORK_ERROR" and "TypeError" in info.value.message
