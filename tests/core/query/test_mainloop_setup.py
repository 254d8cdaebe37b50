"""The command line's program set up in C (``_jqmain``, ``_jqprogram.c``) as jq 1.8.2's
main.c sets it up: arguments and ``$ARGS``, debug and stderr output, halts, failures that
stop before the run; each compared with the jq 1.8.2 command line where it prints."""

from __future__ import annotations

import io
import json
import subprocess

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import jqdefs, mainloop
from tests.cli.dropin import ORACLE, needs_oracle

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")


def _run(program: str, **given) -> tuple[int, bytes, bytes, list[JqMagicError]]:
    out, err, said = io.BytesIO(), io.BytesIO(), []
    given.setdefault("null_input", True)
    spec = mainloop.MainRun(program, given.pop("files", []), **given)
    status = mainloop.run(spec, out, err, said.append)
    return status, out.getvalue(), err.getvalue(), said


def _jq(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ORACLE), *args], capture_output=True, timeout=60)


@needs_oracle
def test_named_and_positional_arguments_are_bound_as_jq_binds_them():
    program = "[$x, $y, $ARGS]"
    status, out, _, _ = _run(program, args={"x": "1", "y": jqdefs.RawJson('{"b": [2]}')},
                             positional=[jqdefs.RawJson("3"), "s"], options=0,
                             dump_flags=jqdefs.dump_flags(compact=True))
    expected = _jq("-nc", "--arg", "x", "1", "--argjson", "y", '{"b": [2]}', program,
                   "--jsonargs", "3", '"s"')
    assert (status, out) == (0, expected.stdout)


@needs_oracle
def test_debug_and_stderr_are_written_as_jq_writes_them():
    program = '1, {"a": "é"} | debug | stderr | empty'
    status, out, err, _ = _run(program, dump_flags=jqdefs.dump_flags(compact=True))
    assert (status, out, err) == (0, b"", _jq("-nc", program).stderr)


@needs_oracle
@pytest.mark.parametrize("program", ['{"a": 1} | halt_error', '"bye\\n" | halt_error(3)',
                                     "null | halt_error", "halt"])
def test_a_halt_says_and_exits_as_jq(program):
    status, out, err, _ = _run(program)
    expected = _jq("-n", program)
    assert (status, out, err) == (expected.returncode, expected.stdout, expected.stderr)


def test_a_program_that_does_not_compile_is_invalid_query_with_jqs_words():
    with pytest.raises(JqMagicError) as caught:
        _run("1 +")
    assert caught.value.code == "INVALID_QUERY"
    assert caught.value.exit_code == 3
    assert "syntax error" in caught.value.message
    assert "compile error" not in caught.value.message


@needs_oracle
def test_failures_before_the_run_are_said_and_the_process_lives_on(tmp_path):
    """JSON text libjq does not parse, and a file it cannot open, fail the compile with
    libjq's words, many times over (a value freed twice would crash the process)."""
    for _ in range(200):
        with pytest.raises(JqMagicError, match="invalid JSON text passed to --argjson"):
            _run("$y", args={"y": jqdefs.RawJson("{bad")})
        with pytest.raises(jqdefs.InputError, match="Could not open"):
            _run("$f", args={"f": jqdefs.LoadedFile(str(tmp_path / "absent"), raw=True)})
    (tmp_path / "f").write_bytes(b"a\x00b\xff\n")
    status, out, _, _ = _run("$f", args={"f": jqdefs.LoadedFile(str(tmp_path / "f"), True)})
    expected = _jq("-n", "--rawfile", "f", str(tmp_path / "f"), "$f")
    assert (status, out) == (0, expected.stdout)


def test_unreadable_files_are_said_when_libjq_comes_to_them(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"a": 1}))
    status, out, _, said = _run(".a", files=[str(tmp_path / "absent"), str(good)],
                                null_input=False)
    assert (status, out) == (2, b"1\n")
    assert [error.code for error in said] == ["NOT_FOUND"]
