"""The worker's path (`--timeout`, the Python API) reads and prints as jq 1.8.2's command
line (issue 55): `$ENV` is the caller's environment, `--slurpfile`'s infinities print as
jq's, `--raw-output0`'s NUL ends only its input's results, a file that fails to read is
status 2, and -f's folder is the program's origin on the streaming pass too; and in this
process a file that cannot be opened is said when jq comes to it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import jqmagic
from jqmagic.core.query import mainloop, query
from tests.cli import dropin

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")
BOTH_WAYS = [[], ["--timeout", "30"]]  # in this process; in the worker
WAY_IDS = ["here", "worker"]
OWN = 'env | with_entries(select(.key | test("^JQMAGIC_WORKER|^JQMAGIC_PAYLOAD|^TMPDIR$")))'


def _run(argv: list[str], stdin: bytes = b"", env: dict | None = None):
    return subprocess.run([sys.executable, "-m", "jqmagic", "query", *argv], input=stdin,
                          capture_output=True, timeout=120, env=env)


@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("tmpdir", [None, "/tmp"])
def test_env_is_the_callers_environment(way, tmpdir):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JQMAGIC_WORKER", "JQMAGIC_PAYLOAD")) and k != "TMPDIR"}
    if tmpdir:
        env["TMPDIR"] = tmpdir
    expected = f'{{"TMPDIR":"{tmpdir}"}}\n' if tmpdir else "{}\n"
    for program in (OWN, OWN.replace("env |", "$ENV |")):
        got = _run([*way, "-nc", program], env=env)
        assert got.stdout.decode() == expected, got.stderr


def test_the_python_apis_env_is_this_processs():
    for program in (OWN, OWN.replace("env |", "$ENV |")):
        shown = {k: v for k, v in os.environ.items()
                 if k.startswith(("JQMAGIC_WORKER", "JQMAGIC_PAYLOAD")) or k == "TMPDIR"}
        assert jqmagic.query(program, value=None).values == [shown]


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
def test_slurpfile_infinities_print_as_jqs(way, tmp_path):
    data = tmp_path / "inf.json"
    data.write_text('infinity -infinity "1.7976931348623157e+308" 1.7976931348623157e+308 '
                    "[nan, -infinity]")
    for program in ("$s", "$s[0] + 1", "$s | tojson", "$ARGS"):
        argv = ["-nc", "--slurpfile", "s", str(data), program]
        expected, got = dropin.jq(argv, ""), _run(way + argv)
        assert (got.stdout, got.returncode) == (expected.stdout, expected.status)


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("program", [".[]?, .", "# a comment \\", "def f: .; f",
                                     'import "nope" as n; .', "1 +"])
def test_raw_output0s_nul_ends_only_its_inputs_results(program, way):
    stdin = b'["a", "b\\u0000c", "d"] "x\\u0000" ["e"] "f"'
    argv = ["--raw-output0", program]
    expected, got = dropin.jq(argv, stdin), _run(way + argv, stdin)
    assert (got.stdout, got.returncode) == (expected.stdout, expected.status), got.stderr
    assert b"Traceback" not in got.stderr


@dropin.needs_oracle
@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="no /proc (not Linux)")
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("program", ["input", "[inputs]", "input, error"])
def test_input_over_a_file_that_fails_to_read_is_status_2(program, way, tmp_path):
    data = tmp_path / "a.json"
    data.write_text("1")
    for files in (["/proc/self/mem"], ["/proc/self/mem", str(data)]):
        argv = ["-nc", program, *files]
        expected, got = dropin.jq(argv, ""), _run(way + argv)
        assert (got.stdout, got.returncode) == (expected.stdout, expected.status)


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
def test_a_missing_file_is_said_when_jq_comes_to_it(tmp_path, way):
    """jq reads the files before it, says it, reads one value past it and stops: status 2
    (the worker's libjq reads the files as named, as jq does)."""
    data, more = tmp_path / "a.json", tmp_path / "b.json"
    data.write_text('{"a": 1}')
    more.write_text('{"a": 2} {"a": 3}\n[4]')
    broken = tmp_path / "broken.json"
    broken.write_text('{"a": 5} {"a": ')  # read on into the next file, as one stream
    for argv in (['(. | stderr), error("x")', str(data), "missing.json", str(data)],
                 ["-n", "input, input", "missing.json", str(data)],
                 ["-n", "[inputs] | halt_error", str(data), "missing.json"],
                 ["-c", ".a", str(data), "missing.json", str(more), str(data)],
                 ["-c", ".a", "missing.json", "gone.json", str(more)],
                 ["-c", ".a", str(more), "missing.json"], ["-c", ".a", "missing.json"],
                 ["-c", "-s", "map(.a?)", str(data), "missing.json", str(more)],
                 ["-c", ".[]?", str(more), "missing.json", str(more)],
                 ["-e", ".a", str(data), "missing.json", str(more)],
                 ["-R", ".", str(more), "missing.json", str(more)],
                 ["-c", ".a", str(data), str(broken), "missing.json", str(more)]):
        expected, got = dropin.jq(argv, ""), dropin.jqmagic(way + argv, "")
        assert (got.stdout, got.status) == (expected.stdout, expected.status), argv
        dropin.assert_stderr_as_jq(got, expected)


def test_the_streaming_pass_takes_the_program_files_origin(tmp_path):
    data = tmp_path / "a.json"
    data.write_text("[1, 2]")
    origin = str(tmp_path / "lib")
    for stream_eval in (True, False):
        got = query(".[] | get_prog_origin", file=str(data), stream_eval=stream_eval,
                    program_origin=origin)
        assert got.values == [origin, origin]
