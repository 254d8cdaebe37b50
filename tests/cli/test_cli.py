"""Golden runs of the ``jqmagic query`` command: arguments and stdin in, text out."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.cli.terminal import on_terminal


def jqmagic(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jqmagic", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data.json"
    path.write_text(json.dumps({"items": [{"id": i, "name": f"n{i}"} for i in range(150)]}))
    return path


def test_compact_output_one_value_per_line(data):
    run = jqmagic("query", "-c", ".items[:2][]", str(data))
    assert run.returncode == 0
    assert run.stdout == '{"id":0,"name":"n0"}\n{"id":1,"name":"n1"}\n'


def test_stdin_raw_and_big_integers():
    run = jqmagic("query", "-r", ".name, .id", stdin='{"name": "café", "id": 1234567890123456789}')
    assert run.stdout == "café\n1234567890123456789\n"


def test_args_and_null_input():
    run = jqmagic("query", "-n", "-c", "[$a, $b]", "--arg", "a", "x", "--argjson", "b", "[1]")
    assert run.stdout == '["x",[1]]\n'


def test_a_pipe_gets_every_result_and_no_extra_line(data):
    run = jqmagic("query", ".items[].id", str(data))
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.splitlines() == [str(i) for i in range(150)]


def test_a_terminal_gets_a_bounded_view_with_the_bound_on_stderr(data):
    run = on_terminal("query", ".items[].id", str(data))
    assert run.returncode == 0
    assert len(run.stdout.splitlines()) == 100
    assert run.stderr.startswith("Truncated. Showing 100 of 150 results.")
    everything = on_terminal("query", "--all", ".items[].id", str(data))
    assert len(everything.stdout.splitlines()) == 150 and everything.stderr == ""
    lifted = on_terminal("query", ".items[].id", str(data), env={"JQMAGIC_ALL": "1"})
    assert len(lifted.stdout.splitlines()) == 150


def test_no_results_is_said_on_a_terminal_and_silent_in_a_pipe(data):
    run = on_terminal("query", ".items[] | select(.id > 1000)", str(data))
    assert (run.returncode, run.stdout) == (0, "")
    assert run.stderr.startswith("Query returned no results")
    piped = jqmagic("query", ".items[] | select(.id > 1000)", str(data))
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, "", "")


def test_errors_are_a_code_a_line_and_a_hint(data):
    run = jqmagic("query", ".items[", str(data))
    assert run.returncode == 3  # jq's status for a program that does not compile
    assert run.stderr.startswith("error INVALID_QUERY: Invalid jq program")
    assert "hint: " in run.stderr and "Traceback" not in run.stderr
    missing = jqmagic("query", ".", "nope.json")
    assert missing.returncode == 2  # as jq: the missing file said, the others still read
    assert missing.stderr.startswith("error NOT_FOUND: Could not open file nope.json: ")
    assert "\nhint: " in missing.stderr


def test_results_before_a_runtime_error_are_printed(data):
    run = jqmagic("query", "--input", "[1, \"a\"]", ".[] | . + 1")
    assert run.returncode == 5 and run.stdout == "2\n"  # jq's status for a runtime error
    assert run.stderr.startswith("error QUERY_ERROR: ")


def test_exec_and_yaml():
    run = jqmagic("query", "--yaml", "--exec", "printf 'a: 1\\n---\\na: 2\\n'", ".a")
    assert run.stdout == "1\n2\n"


def test_raw_input_lines():
    run = jqmagic("query", "-R", "-c", "split(\",\")", stdin="a,b\nc\n")
    assert run.stdout == '["a","b"]\n["c"]\n'


def test_payload_source(data):
    from jqmagic import query

    result = query(".items[].id", file=str(data), limit=100)  # a face's bound keeps it all
    run = jqmagic("query", "-s", "-c", "[length, .[-1]]", "--payload", result.payload_id)
    assert run.stdout == "[150,149]\n"
