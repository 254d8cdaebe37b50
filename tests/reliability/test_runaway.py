"""Runaway jq programs stop at their timeout (TIMEOUT) or at a kernel interrupt, and every
face stays usable afterwards; the supervision costs little on small queries."""

from __future__ import annotations

import json
import statistics
import time

import pytest

from jqmagic import query
from tests.reliability.faces import cli, core, magic

RUNAWAY = ["[repeat(1)]", "last(range(1e18))", "def f: f; f", "[limit(1e9; repeat(1))] | length"]
TIMEOUT = 1.0
LATE = 1.0  # how long past its timeout a program may take to stop


@pytest.mark.parametrize("program", RUNAWAY)
def test_a_runaway_program_stops_at_its_timeout(program):
    started = time.perf_counter()
    code, error = core(query, program, null_input=True, timeout=TIMEOUT)
    elapsed = time.perf_counter() - started
    assert code == "TIMEOUT" and "--timeout" in error.hint
    assert TIMEOUT <= elapsed < TIMEOUT + LATE
    assert query(".a + 1", text='{"a": 41}').values == [42]
    assert query("[range(3)] | length", null_input=True).values == [3]


@pytest.mark.parametrize("program", RUNAWAY)
def test_runaway_programs_through_the_faces(ip, program):
    assert cli("query", "-n", "--timeout", str(TIMEOUT), program)[0] == "TIMEOUT"
    assert cli("query", "-n", "-c", "[1, 2]")[1].strip() == "[1,2]"
    assert magic(ip, "jq", f"-n '{program}' --timeout {TIMEOUT}")[0] == "TIMEOUT"
    assert magic(ip, "jq", "-n '[1, 2] | add'")[1].values == [3]


def test_the_timeout_setting_is_the_default(ip):
    ip.run_line_magic("config", "JqMagic.timeout = 1.0")
    try:
        started = time.perf_counter()
        assert magic(ip, "jq", "-n 'last(range(1e18))'")[0] == "TIMEOUT"
        assert time.perf_counter() - started < TIMEOUT + LATE
    finally:
        ip.run_line_magic("config", "JqMagic.timeout = 30.0")


def test_the_supervised_worker_costs_little_on_small_queries():
    """Median time of a small query through the worker against libjq in process."""
    import jq

    text = '{"users": [{"name": "a", "age": 3}, {"name": "b", "age": 5}]}'
    program = "[.users[] | select(.age > 4) | .name]"
    compiled = jq.compile(program)
    core(query, program, text=text)  # the worker is started once per process

    def median(call) -> float:
        times = []
        for _ in range(200):
            started = time.perf_counter()
            call()
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    supervised = median(lambda: query(program, text=text))
    in_process = median(lambda: compiled.input_text(text).all())
    assert query(program, text=text).values == [compiled.input_text(text).all()][0]
    assert supervised < 0.05, (supervised, in_process)  # well under a notebook's blink


def run_notebook(cells: list[str], interrupt_after: float) -> list[dict]:
    """Run cells in a real IPython kernel (nbclient); a cell holding ``range(1e18)`` or
    ``def f`` is interrupted (SIGINT, the stop button) after ``interrupt_after`` seconds."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    runaway = ("range(1e18)", "def f", "repeat")
    NotebookClient(notebook, allow_errors=True, interrupt_on_timeout=True,
                   timeout_func=lambda cell: interrupt_after if any(
                       r in cell.source for r in runaway) else 120).execute()
    return notebook.cells


def shown(cell) -> str:
    return "\n".join(o.get("text") or o.get("evalue", "") + o.get("ename", "")
                     or str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)


def seconds(cell) -> float:
    from datetime import datetime

    times = cell.metadata.execution
    start, end = (datetime.fromisoformat(times[k].replace("Z", "+00:00"))
                  for k in ("iopub.execute_input", "shell.execute_reply"))
    return (end - start).total_seconds()


def test_a_kernel_interrupt_stops_runaway_programs_and_the_kernel_goes_on():
    cells = run_notebook(["%load_ext jqmagic", "%jq -n '1' --timeout 60",
                          "%jq -n 'last(range(1e18))' --timeout 120",
                          "%jq -n '[1, 2] | add'",
                          "%jq -n 'def f: f; f' --timeout 120",
                          "%jq -n '[repeat(1)]' --timeout 1",
                          "print(sum(range(4)))", "%jq -n '{a: 1} | .a'"], interrupt_after=3)
    for runaway in (cells[2], cells[4]):
        assert "INTERRUPTED" in shown(runaway) or "KeyboardInterrupt" in shown(runaway)
        assert "Traceback" not in shown(runaway)
        assert seconds(runaway) < 3 + 5  # stopped soon after the interrupt
    assert "TIMEOUT" in shown(cells[5]) and seconds(cells[5]) < 1 + LATE + 1
    assert [shown(c).strip() for c in (cells[3], cells[6], cells[7])] == ["3", "6", "1"]


def test_a_memory_blow_up_and_a_huge_file_end_in_too_large_and_the_kernel_goes_on(tmp_path):
    """In a real kernel: the query that killed kernels (a 1.4 MB file printed 40,000 times
    over) and a file bigger than the worker's memory cap each cost the worker, not the
    kernel, which answers the next query. (`[.[] | F] | length` alone now streams in
    bounded memory: the array is used twice over to need it whole.)"""
    mid = tmp_path / "mid.json"
    mid.write_text(json.dumps([{"k": i, "s": "x" * 20} for i in range(40_000)]))
    huge = tmp_path / "huge.json"
    huge.write_text("[" + ",".join(['{"a": [1, 2, 3], "b": "yyyyyyyy"}'] * 2_000_000) + "]")
    cells = run_notebook([
        "%load_ext jqmagic",
        "from jqmagic.core.settings import settings; settings.worker_memory = 2**30\n"
        "from jqmagic.core.query.supervisor import shared_worker; shared_worker().stop()",
        f"%jq '[.[] as $x | .]' {mid}", f"%jq 'length' {mid}",
        f"%jq '[.[] | [., ., ., .]] | [.[], .[]] | length' {huge} --timeout 120",
        "%jq -n '[1, 2] | add'"], interrupt_after=120)
    for blow_up in (cells[2], cells[4]):
        assert "TOO_LARGE" in shown(blow_up) and "Traceback" not in shown(blow_up)
    assert [shown(c).strip() for c in (cells[3], cells[5])] == ["40000", "3"]
