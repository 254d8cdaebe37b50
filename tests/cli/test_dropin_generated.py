"""Generated command lines: jq's options in any order and combination, programs from a small
grammar (the fast path's exactness terms, programs that write on stderr, halt, fail, read
``input``), over standard input and files, run both ways (in this process's C loop and in
the worker, with ``--timeout``) against the jq 1.8.2 command line: the same stdout, exit
status and stderr (issue 55; what the worker's stderr may differ in: dropin)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.query import mainloop
from tests.cli import dropin
from tests.core.jqlang import exactness

EXAMPLES = int(os.environ.get("JQ_DROPIN_EXAMPLES", 80))
pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")

# Words that say something on stderr, stop the run, or read the inputs.
SAID = ["debug", 'debug("m")', "stderr", "(tostring | stderr)", '("s\\n" | stderr)',
        "error", 'error("x")', "error(null)", "halt_error", "halt_error(1)",
        '("bye\\n" | halt_error(0))', "halt", "input", "[inputs]", "first(inputs)",
        "try input catch .", "input_filename", "input_line_number", "$__loc__",
        "getpath([\"a\", 0])", "ltrimstr(1)", "@base64d", "[splits(\"a\")]", "tojson",
        "(label $f | 1, break $f)", "$x", "$ARGS", "[limit(2; inputs)]", ".[]", ".a",
        "{a: .}", '"é\\u0000"', "nan", "[.[]?] | add", "-."]
SHAPES = ["{} | {}", "{}, {}", "try {} catch .", "[{}]", "{} // {}", "({})?",
          "reduce ({}) as $v (0; . + 1)", "if {} then {} else empty end", "{} as $y | {}"]
OPTIONS = [["-n"], ["-r"], ["-c"], ["-s"], ["-j"], ["-a"], ["-S"], ["-e"], ["--tab"],
           ["--seq"], ["-C"], ["--raw-output0"], ["--indent", "3"], ["-R"], ["--stream"],
           ["--stream-errors"], ["--unbuffered"], ["-cr"], ["-nc"], ["-rj"], ["-sR"],
           ["--arg", "x", "v"], ["--argjson", "x", "{\"a\": [1, 2.50]}"],
           ["--slurpfile", "x", "@two.json"], ["--rawfile", "x", "@bad.json"],
           ["--args"], ["--jsonargs"], ["-L", "@lib"], ["--exit-status"], ["-M"]]
INPUTS = ['{"a": [1, "x"]}', "1 2 3", '"s"', "[]", "", "{", 'null "\\ud800"', "nan 1",
          '{"a":1}\n{"a":2}\n', '[1, [2, {"a": 3}]]', "\x1e1\n\x1e{\n\x1e2\n", '"a\\u0000b"']
FILES = {"one.json": "1", "two.json": "1\n2\n", "bad.json": "[1, }", "obj.json": '{"a": 1}',
         "lib/m.jq": "def f: 1;"}
FILE_WORDS = ["@one.json", "@two.json", "@bad.json", "@obj.json", "-", "@missing.json",
              "@lib"]
UNOPENED = ("missing.json", "lib")  # the worker says these first (README: differences)


def _program(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth >= 2 or roll < 0.35:
        return rng.choice(SAID)
    if roll < 0.5:
        return exactness.program(rng, 1)
    shape = rng.choice(SHAPES)
    return shape.format(*(_program(rng, depth + 1) for _ in range(shape.count("{}"))))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("generated")
    (root / "lib").mkdir()
    return dropin.files_in(root, FILES)


@dropin.needs_oracle
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(options=st.lists(st.sampled_from(OPTIONS), max_size=4), rng=st.randoms(),
       stdin=st.sampled_from(INPUTS), files=st.lists(st.sampled_from(FILE_WORDS), max_size=2),
       worker=st.booleans(), words=st.lists(st.sampled_from(["p", "1", "[2]"]), max_size=2))
def test_generated_command_lines_as_jq(options, rng, stdin, files, worker, words, folder):
    program = _program(rng)
    flat = [word for option in options for word in option]
    ends = [w for w in flat if w in ("--args", "--jsonargs")][-1:]  # the last one counts
    argv = [w for w in flat if w not in ("--args", "--jsonargs")] + [program] + \
        ([*ends, *words] if ends else files)  # after it, words are its arguments
    argv = [str(folder / w[1:]) if w.startswith("@") else w for w in argv]
    if "$x" in program and "x" not in flat:
        argv = ["--arg", "x", "1", *argv]
    if worker and any(w.endswith(UNOPENED) for w in argv):
        worker = False
    expected = dropin.jq(argv, stdin, {"NO_COLOR": ""})
    if expected.status == dropin.TIMED_OUT:
        return
    got = dropin.jqmagic((["--timeout", "30"] if worker else []) + argv, stdin,
                         {"NO_COLOR": ""})
    assert b"Traceback" not in got.stderr, got.stderr
    assert (got.stdout, got.status) == (expected.stdout, expected.status), \
        (argv, worker, got.stderr, expected.stderr)
    dropin.assert_stderr_as_jq(got, expected, worker)
