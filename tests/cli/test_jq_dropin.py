"""`jqmagic query` as the jq 1.8.2 command line: golden runs (args, stdin, stdout, exit
status) in the style of gojq's cli/test.yaml. The expected texts are jq 1.8.2's, as libjq
1.8.2 (the oracle the engine tests use) prints them."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.cli import dropin

CASES = [
    # (id, args, stdin, stdout, exit status)
    ("continues after an error", [". + 1"], '1 "x" 3', "2\n4\n", 0),  # the last input's
    ("ends with an error", [". + 1"], '1 "x"', "2\n", 5),
    ("ascii output", ["-ac", "."], '{"a":"é"}', '{"a":"\\u00e9"}\n', 0),
    ("args", ["-nc", "$ARGS", "--args", "a", "b"], "", '{"positional":["a","b"],"named":{}}\n',
     0),
    ("jsonargs", ["-nc", "[$ARGS.positional[] | . + 1]", "--jsonargs", "1", "2"], "",
     "[2,3]\n", 0),
    ("arg named ARGS keeps $ARGS", ["-nc", "$ARGS.named", "--arg", "ARGS", "v"], "",
     '{"ARGS":"v"}\n', 0),
    ("null input reads stdin", ["-nc", "[inputs]"], "1 2", "[1,2]\n", 0),
    ("input after -n", ["-n", "input"], "7 8", "7\n", 0),
    ("raw empty string", ["-r", "."], '""', "\n", 0),
    ("exit status null", ["-e", "."], "null", "null\n", 1),
    ("exit status false last", ["-e", ".[]"], "[1, false]", "1\nfalse\n", 1),
    ("exit status true", ["-e", "."], "true", "true\n", 0),
    ("exit status no output", ["-en", "empty"], "", "", 4),
    ("join output", ["-nj", '"a", "b", 1'], "", "ab1", 0),
    ("seq", ["-n", "--seq", "1, 2"], "", "\x1e1\n\x1e2\n", 0),
    ("raw output0", ["-n", "--raw-output0", '"a", "b"'], "", "a\0b\0", 0),
    ("compile error", ["-n", ".a.["], "", "", 3),
    ("halt_error status", ["-n", '"bye" | halt_error(7)'], "", "", 7),
    ("halt", ["-n", "1, halt, 2"], "", "1\n", 0),
    ("indent over 7", ["--indent", "8", "."], "1", "", 2),
    ("last layout flag wins", ["--indent", "1", "."], '{"a":[1]}', '{\n "a": [\n  1\n ]\n}\n', 0),
    ("tab", ["--tab", "."], '{"a":1}', '{\n\t"a": 1\n}\n', 0),
    ("sort keys", ["-Sc", "."], '{"b":1,"a":2}', '{"a":2,"b":1}\n', 0),
    ("version", ["-V"], "", "jq-1.8.2\n", 0),
    ("colour only when asked", ["-C", "-c", "."], '{"a":1}',
     '\x1b[1;39m{\x1b[0m\x1b[1;34m"a"\x1b[0m\x1b[1;39m:\x1b[0m\x1b[0;39m1\x1b[0m\x1b[1;39m}'
     '\x1b[0m\n', 0),
    ("monochrome", ["-M", "-c", "."], '{"a":1}', '{"a":1}\n', 0),
    ("argjson keeps its literal", ["-n", "--argjson", "x", "1.000000000000000000001",
                                   "$x == 1"], "", "false\n", 0),
    ("nul in an error message", ["-n", 'try error("a\\u0000bc") catch length'], "", "4\n", 0),
    ("bad input json", ["."], "{", "", 5),
    ("options after positionals", [".a", "--compact-output"], '{"a":[1]}', "[1]\n", 0),
    ("lone high surrogate in --argjson", ["-n", "--argjson", "x", '"\\ud800"', "$x"], "", "",
     2),
    ("lone low surrogate in --argjson", ["-nc", "--argjson", "x", '"\\udc00"', "$x|explode"],
     "", "[65533]\n", 0),
    ("lone surrogate in --jsonargs", ["-n", "$ARGS", "--jsonargs", '"\\ud800"'], "", "", 2),
    ("error(null)", ["-n", "error(null)"], "", "", 5),
]


@pytest.mark.parametrize(("args", "stdin", "stdout", "status"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_golden(args, stdin, stdout, status):
    run = dropin.jqmagic(args, stdin)  # in this process: milliseconds, not a second, a case
    assert (run.stdout.decode(), run.status) == (stdout, status), run.stderr.decode()


def test_errors_that_are_not_strings_say_so(env):
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "-n", "error(null)"],
                         capture_output=True, text=True, timeout=60, env=env)
    assert "(not a string): null" in run.stderr  # jq: "jq: error (at ...) (not a string): null"


def test_from_file_and_rawfile_and_slurpfile(env, tmp_path):
    (tmp_path / "prog.jq").write_text("[$text, $all, .]")
    (tmp_path / "t.txt").write_text("hello\n")
    (tmp_path / "v.json").write_text("1 [2]")
    (tmp_path / "in.json").write_text('{"x": 1}')
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "-c", "-f",
                          str(tmp_path / "prog.jq"), str(tmp_path / "in.json"),
                          "--rawfile", "text", str(tmp_path / "t.txt"),
                          "--slurpfile", "all", str(tmp_path / "v.json")],
                         capture_output=True, text=True, timeout=60, env=env)
    assert run.stdout == '["hello\\n",[1,[2]],{"x":1}]\n', run.stderr


def test_binary_is_accepted_as_jq_accepts_it(env):
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "-bc", "."], input="[1]",
                         capture_output=True, text=True, timeout=60, env=env)
    assert (run.stdout, run.returncode) == ("[1]\n", 0)


def test_a_reader_that_goes_away_ends_the_command_quietly(env, tmp_path):
    (tmp_path / "big.json").write_text("[" + ",".join(['{"a": 1}'] * 100_000) + "]")
    with subprocess.Popen([sys.executable, "-m", "jqmagic", "query", "--all", ".[]",
                           str(tmp_path / "big.json")], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env) as run:
        assert run.stdout.readline() == b"{\n"
        run.stdout.close()  # as `| head -1` does
        err = run.stderr.read().decode()
        # as jq: killed by SIGPIPE where it runs in this process (a shell says 141), or
        # exiting with 141 where the worker answered
        assert run.wait(60) in (-signal.SIGPIPE, 141) and "Traceback" not in err, err


def test_in_place_takes_globs_and_says_each_failure_with_its_hint(env, tmp_path):
    for name, text in (("a.json", '{"n": 1}\n'), ("b.json", '{"n": 2}\n'),
                       ("c.json", '{"n": "x"}\n')):
        (tmp_path / name).write_text(text)
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "-i", ".n += 1",
                          str(tmp_path / "*.json")], capture_output=True, text=True,
                         timeout=60, env=env)
    assert run.returncode == 5  # one file failed; the others were edited
    assert [(tmp_path / n).read_text() for n in ("a.json", "b.json", "c.json")] == \
        ['{"n": 2}\n', '{"n": 3}\n', '{"n": "x"}\n']
    assert "c.json: QUERY_ERROR: " in run.stdout and "\nhint: " in run.stdout
