"""Bad words and odd files on `jqmagic query`, both ways (in this process's C loop, and
the worker's with `--timeout`), against jq 1.8.2: bytes in words passed as bytes, files
read by libjq's own reader, closed or full standard streams, a failed write said as jq
says it. Never a traceback (issues 52 and 55)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from jqmagic.core.query import failures, mainloop
from tests.cli import dropin

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")
BOTH_WAYS = [[], [b"--timeout", b"30"]]  # in this process; in the worker
WAY_IDS = ["here", "worker"]


def _jqmagic(argv: list[bytes], stdin: bytes = b"", cwd=None,
             **streams) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable.encode(), b"-m", b"jqmagic", b"query", *argv],
                          input=stdin if not streams else None, capture_output=not streams,
                          cwd=cwd, timeout=120, **streams)


def _oracle(argv: list[bytes], stdin: bytes = b"", cwd=None,
            **streams) -> subprocess.CompletedProcess:
    return subprocess.run([bytes(dropin.ORACLE), *argv], input=stdin if not streams else None,
                          capture_output=not streams, cwd=cwd, timeout=60, **streams)


def _same(argv: list[bytes], way: list[bytes], stdin: bytes = b"", cwd=None) -> bytes:
    """Asserts jq's stdout and exit status, no traceback; jqmagic's stderr."""
    expected, got = _oracle(argv, stdin, cwd), _jqmagic(way + argv, stdin, cwd)
    assert b"Traceback" not in got.stderr, got.stderr.decode(errors="replace")
    assert (got.stdout, got.returncode) == (expected.stdout, expected.returncode), \
        (argv, got.stderr)
    return got.stderr


# --------------------------------------------------------------- words with invalid UTF-8

BAD_WORDS = [
    [b"-n", b'"\xff\xe2\x82"'],  # the program
    [b"-n", b"--arg", b"x", b"\xff\xe2\x82y", b"$x"],
    [b"-n", b"--arg", b"\xff", b"1", b"$ARGS"],  # a name
    [b"-n", b"$ARGS", b"--args", b"a\xffb"],
    [b"-n", b"$ARGS", b"--jsonargs", b'"\xff\xe2\x82"'],
    [b"-n", b"--argjson", b"x", b'"\xe2\x82"', b"$x"],
    [b"-n", b'"a\xff" | test("\xff")'],
    [b".", b"--jsonargs", b"\xff"],  # no JSON: jq's usage error
    [b".\xff"],  # no program
]


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("argv", BAD_WORDS, ids=[repr(a)[:40] for a in BAD_WORDS])
def test_words_with_invalid_utf8_reach_libjq_as_bytes(argv, way):
    _same(argv, way)


def test_the_python_api_takes_lone_surrogates_without_a_traceback():
    import jqmagic

    (value,) = jqmagic.query('"\ud800"', null_input=True).values
    assert value and set(value) == {"\ufffd"}  # replaced, as libjq replaces bad text
    (value,) = jqmagic.query("$x", null_input=True, args={"x": "a\udcff"}).values
    assert value.startswith("a\ufffd")


# ------------------------------------------------------- files read by libjq's own reader

FILES = {"nul.txt": b"a\0b\n", "bom.json": b'\xef\xbb\xbf{"a":1}', "bad.txt": b"x\xffy\xe2\x82z",
         "minus.json": b"2-1", "tf.json": b"truefalse", "zero.json": b"01",
         "inf.json": b"infinity", "bom.jq": b"\xef\xbb\xbf.a", "nul.jq": b".a\0",
         "sub/m.jq": b"def f: 42;", "sub/p.jq": b'include "m" {search: "./"}; f'}
FILE_LINES = [
    [b"-n", b"--rawfile", b"r", b"nul.txt", b"$r"],  # NUL kept (was taken for UTF-16)
    [b"-n", b"--rawfile", b"r", b"bom.json", b"$r | length"],  # BOM kept: 9
    [b"-n", b"--rawfile", b"r", b"bad.txt", b"$r"],  # U+FFFD as jq cuts them
    [b"-n", b"--slurpfile", b"r", b"minus.json", b"$r"],  # jq's parser: an error
    [b"-n", b"--slurpfile", b"r", b"tf.json", b"$r"],
    [b"-nc", b"--slurpfile", b"r", b"zero.json", b"$r"],
    [b"-n", b"--rawfile", b"r", b"/dev/null", b"$r"],  # read as empty
    [b"-n", b"--slurpfile", b"r", b"/dev/null", b"$r"],
    [b"-n", b"-f", b"/dev/null"],
    [b"-f", b"bom.jq", b"bom.json"],  # a BOM in a program: jq's compile error
    [b"-n", b"-f", b"nul.jq"],  # NUL in a program: jq's status 2
    [b"-n", b"--slurpfile", b"r", b"missing", b"$r"],
    [b"-n", b"--rawfile", b"r", b"sub", b"$r"],  # a folder
    [b"-n", b"--rawfile", b"r", b"nul.txt", b"--arg", b"r", b"2", b"$ARGS"],  # first wins
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("odd")
    for name, data in FILES.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_bytes(data)
    return root


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("argv", FILE_LINES, ids=[b" ".join(a).decode(errors="replace")[:50]
                                                   for a in FILE_LINES])
def test_option_files_are_read_as_jq_reads_them(argv, way, folder):
    _same(argv, way, cwd=folder)


@dropin.needs_oracle
def test_a_slurped_infinity_is_jqs_number_here(folder):
    """In this process the file's value is bound by libjq itself; the worker gets its
    JSON text (README: differences)."""
    _same([b"-n", b"--slurpfile", b"r", b"inf.json", b"$r"], [], cwd=folder)


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
def test_modules_are_searched_from_the_program_files_folder(folder, way):
    _same([b"-n", b"-f", b"sub/p.jq"], way, cwd=folder)
    _same([b"-n", b"-f", b"p.jq"], way, cwd=folder / "sub")
    _same([b"-n", b"-L", b"sub", b'import "m" as m; m::f'], way, cwd=folder)


def test_library_paths_are_made_absolute(folder, monkeypatch):
    from jqmagic.cli import commands, jqcli

    monkeypatch.chdir(folder)
    parser = commands.build_parser("query")[1]["query"]
    args = jqcli.parse(parser, ["-L", "sub", "-L", "nowhere", "."])
    assert args.library_paths == [str(folder / "sub"), "nowhere"]  # jq_realpath's


# ---------------------------------------------------- standard streams: closed, full, gone

@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("argv", [[b"."], [b"-n", b"1, error(\"x\")"], [b"-n", b"empty"],
                                  [b"--version"], [b"-e", b"-n", b"null"]])
def test_a_full_disk_is_said_as_jq_says_it(argv, way, tmp_path):
    data = tmp_path / "a.json"
    data.write_text('{"a": [1, 2]}')
    argv = argv + [bytes(data)] if argv == [b"."] else argv
    with open("/dev/full", "wb") as full:
        expected = _oracle(argv, stdout=full, stderr=subprocess.PIPE)
        got = _jqmagic(way + argv, stdout=full, stderr=subprocess.PIPE)
    assert got.returncode == expected.returncode
    last = b"jq: error: writing output failed: No space left on device\n"
    if expected.stderr.endswith(last):
        assert got.stderr.endswith(last) and got.stderr.count(last) == 1, got.stderr
    else:  # nothing written (empty): nothing failed
        assert last not in got.stderr
    assert b"Traceback" not in got.stderr


def _closed(fd: int):
    return lambda: os.close(fd)


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize(("argv", "fd"), [([b"-n", b"1"], 1), ([b"-n", b"empty"], 1),
                                          ([b"."], 0), ([b"-n", b"1"], 0)])
def test_a_closed_standard_stream_is_jqs_one_line_and_status(argv, fd, way):
    expected = subprocess.run([bytes(dropin.ORACLE), *argv], capture_output=fd != 1,
                              stderr=subprocess.PIPE if fd == 1 else None,
                              preexec_fn=_closed(fd), timeout=60)
    got = subprocess.run([sys.executable.encode(), b"-m", b"jqmagic", b"query", *way, *argv],
                         capture_output=fd != 1, stderr=subprocess.PIPE if fd == 1 else None,
                         preexec_fn=_closed(fd), timeout=120)
    assert b"Traceback" not in got.stderr and b"Fatal" not in got.stderr, got.stderr
    assert (got.stdout, got.returncode) == (expected.stdout, expected.returncode)
    if fd == 1:  # the same line, said once
        assert got.stderr == expected.stderr
    elif expected.returncode:
        assert got.stderr.count(b"\n") <= 2  # one line (and a hint on the worker's way)


def test_a_closed_pipe_ends_quietly(tmp_path):
    data = tmp_path / "a.json"
    data.write_text("[" + ",".join(["1"] * 200_000) + "]")
    for way in BOTH_WAYS:
        run = subprocess.Popen([sys.executable, "-m", "jqmagic", "query", *map(bytes.decode, way),
                                ".[]", str(data)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        run.stdout.read(10)
        run.stdout.close()
        assert run.wait(60) in (-13, 141)  # SIGPIPE, as jq (or its status)
        assert run.stderr.read() == b""
        run.stderr.close()


# ----------------------------------------------------------- bounded work on odd inputs

def test_the_spot_of_a_parse_error_is_read_from_a_bounded_window(tmp_path, monkeypatch):
    path = tmp_path / "long.json"
    with open(path, "wb") as out:  # a 30 MB line, the error at its end
        out.write(b'{"a": 1}\n[' + b"1," * 15_000_000 + b"x]\n")
    import tracemalloc

    tracemalloc.start()
    text, line, column = failures._read_line_window(str(path), 2, 30_000_002)  # noqa: SLF001
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1 << 20  # not the line (30 MB)
    assert text.startswith('{"a": 1}\n...') and text.endswith("1,x]")
    assert text.splitlines()[line - 1][column - 1] == "x"
    monkeypatch.setattr(failures, "PRECISE_ERROR_BYTES", 0)  # libjq's place, not Python's
    from jqmagic.core.sources.prepare import Prepared

    error = failures.input_error(f"Invalid literal at line 2, column 30000003 (at {path}:2)",
                                 Prepared(files=[str(path)]))
    assert "line 2, column 30000003" in error.message
    assert error.detail.splitlines()[0].startswith("    ...1,1,")
    assert error.detail.splitlines()[0].endswith("1,x]")
    many = tmp_path / "many.json"  # the place on a late line: no list of every line before
    many.write_text("[\n" + "1,\n" * 100 + "  x]\n")
    error = failures.input_error(f"Invalid literal at line 102, column 4 (at {many}:102)",
                                 Prepared(files=[str(many)]))
    assert "line 102, column 4" in error.message
    assert error.detail.splitlines() == ["      x]", "       ^"]


def test_named_arguments_are_bound_in_linear_time():
    from jqmagic.cli import jqcli

    parser = _parser()

    def split(n: int) -> float:
        argv = [w for i in range(n) for w in ("--arg", f"k{i}", "v")] + ["."]
        started = time.process_time()  # this process's CPU: others' load does not count
        args = jqcli.parse(parser, argv)
        assert len(args.bindings) == n
        return time.process_time() - started

    small, big = min(split(3_000) for _ in range(5)), min(split(30_000) for _ in range(5))
    assert big < 40 * small  # linear: 10x the words, not 100x the time


def _parser():
    from jqmagic.cli import commands

    return commands.build_parser("query")[1]["query"]


@dropin.needs_oracle
def test_deep_results_are_given_as_jq_prints_them():
    import jqmagic

    program = "reduce range(3000) as $i (0; [.])"
    expected = _oracle([b"-n", program.encode()])
    result = jqmagic.query(program, null_input=True)
    assert result.text + "\n" == expected.stdout.decode()
    depth, value = 0, result.values[0]
    while isinstance(value, list):
        depth, value = depth + 1, value[0]
    assert depth == 3000


# ------------------------------------------------------------ file operands: literal names

@pytest.fixture(scope="module")
def odd_names(tmp_path_factory):
    root = tmp_path_factory.mktemp("names")
    (root / "g").mkdir()
    for name, text in {"g/[a].json": '"bracket"', "g/a.json": '"a"', "~t.json": '"tilde"',
                       "g/*.json": '"star"'}.items():
        (root / name).write_text(text)
    return root


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("names", [[b"g/[a].json"], [b"~t.json"], [b"g/*.json"],
                                   [b"g/[b].json"], [b"g/[a].json", b"g/a.json"]])
def test_a_file_of_that_very_name_is_read_as_named(names, way, odd_names):
    _same([b"."] + names, way, cwd=odd_names)


@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
def test_a_glob_no_file_is_named_after_is_expanded(way, odd_names):
    """jqmagic's addition (README: differences): jq would say it cannot open g/?.json."""
    got = _jqmagic(way + [b"-c", b"[inputs]", b"g/?.json"], cwd=odd_names)
    assert (got.stdout, got.returncode) == (b'["a"]\n', 0)


# ------------------------------------------------------------- jq's remaining options

@dropin.needs_oracle
@pytest.mark.parametrize("argv", [[b"-n", b"--debug-dump-disasm", b"[1, 2] | .[] + 1"],
                                  [b"-n", b"--debug-trace", b"1 + 1"],
                                  [b"-c", b"--debug-trace=all", b".[]"],
                                  [b"-n", b"--debug-trace", b"--arg", b"x", b"y", b"$x"]])
def test_debug_options_print_what_jq_prints(argv):
    _same(argv, [], stdin=b"[1, 2]")


@dropin.needs_oracle
def test_build_configuration_and_help_answer_at_once():
    for argv in ([b"--build-configuration", b"--nope"], [b"-h", b"--nope"], [b"-nh"]):
        got, expected = _jqmagic(argv), _oracle(argv)
        assert (got.returncode, got.stderr) == (expected.returncode, b"")
    usage = _jqmagic([b"-h"]).stdout.decode()
    jq_usage = _oracle([b"-h"]).stdout.decode().replace("\tjq [options]",
                                                         "\tjqmagic query [options]")
    assert usage.startswith(jq_usage)
    assert "--timeout" in usage[len(jq_usage):] and "--slurp" not in usage[len(jq_usage):]
    said = _jqmagic([b"-n", b"$JQ_BUILD_CONFIGURATION"]).stdout
    assert said.startswith(b'"') and b"oniguruma" in said


@dropin.needs_oracle
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("colors", [b"garbage:x", b"4;31", b""])
def test_bad_jq_colors_are_said_as_jq_says_them(colors, way):
    env = {**os.environ, "JQ_COLORS": colors.decode()}
    got = subprocess.run([sys.executable, "-m", "jqmagic", "query", *map(bytes.decode, way),
                          "-n", "1"], capture_output=True, env=env, timeout=120)
    expected = subprocess.run([dropin.ORACLE, "-n", "1"], capture_output=True, env=env,
                              timeout=60)
    assert (got.stdout, got.returncode, got.stderr) == \
        (expected.stdout, expected.returncode, expected.stderr)


@dropin.needs_oracle
@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="no /proc (not Linux)")
@pytest.mark.parametrize("way", BOTH_WAYS, ids=WAY_IDS)
@pytest.mark.parametrize("order", ["first", "last"])
def test_a_file_that_opens_but_cannot_be_read_is_said_after_the_others(order, way,
                                                                       tmp_path):
    data = tmp_path / "a.json"
    data.write_text('{"a": 1}')
    files = [b"/proc/self/mem", bytes(data)]
    stderr = _same([b"."] + (files if order == "first" else files[::-1]), way)
    assert stderr  # said, in one line and a hint at most
