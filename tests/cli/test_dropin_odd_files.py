"""Generated command lines over odd files (NUL bytes, BOMs, UTF-16, invalid UTF-8, names
with a glob's characters, modules) and odd standard inputs, run both ways (in this
process's C loop and in the worker, with `--timeout`) against the jq 1.8.2 command line:
the same stdout, exit status and stderr (issue 55)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.query import mainloop
from tests.cli import dropin

EXAMPLES = int(os.environ.get("JQ_DROPIN_EXAMPLES", 60))
pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")

FILES = {
    "nulmid.json": b'{"a":"x\0y"}',  # a NUL inside a string
    "nulend.json": b"[1,2]\0",  # a NUL after the value
    "nul.txt": b"a\0b\n",
    "bom.json": b'\xef\xbb\xbf{"a":[1,"\xc3\xa9"]}',
    "bad.json": b'["x\xffy", "\xe2\x82"]',  # invalid UTF-8 in strings
    "bad.txt": b"x\xffy\xe2\x82z\n",
    "[a].json": b'"bracket"',  # names with a glob's characters, literal as jq reads them
    "a.json": b'"a"',
    "*.json": b'"star"',
    "~t.json": b'"tilde"',
    "nums.json": b"1 2.50 100000000000000000001",
    "two.json": b'{"a":1}\n{"a":2}\n',
    "nulfirst.json": b'\0{"a":1}',  # NUL near the start: no UTF-16 guessed, libjq's parse
    "utf16.json": b'{\0"\0a\0"\0:\x001\0}\0',
    "bom16.json": b"\xff\xfe1\0",
    "lib/m.jq": b'def f: "from m"; def g($x): [$x, .];',
    "lib/d.json": b'{"d": 1}',
}
DATA = ["nulmid.json", "nulend.json", "nul.txt", "bom.json", "bad.json", "bad.txt", "[a].json",
        "*.json", "~t.json", "nums.json", "two.json", "missing.json", "nulfirst.json",
        "utf16.json", "bom16.json", "-"]
STDIN = [b'\xef\xbb\xbf{"a":[1,"\xc3\xa9"]}', b"1\0 2", b"\0\0\0", b'{\0"\0a\0"\0}\0',
         b"x\xffy", b""]
PROGRAMS = [".", "-c .", "-r .", "[., input_filename]", "-s .", "-R .", "-Rs .", "-n [inputs]",
            "length", "-j .", "-a .", 'import "m" as m; m::f', 'import "m" as m; m::g(1)',
            'import "d" as $d; $d', 'include "m"; f', "$x", "$r", "$s", "$ARGS",
            "tostring", "-e .a", "--seq .", "--stream -c ."]
BINDINGS = [[], ["--arg", "x", "é\udcff"], ["--rawfile", "r", "@nul.txt"],
            ["--rawfile", "r", "@bom.json"], ["--rawfile", "r", "@bad.txt"],
            ["--slurpfile", "s", "@nums.json"], ["--slurpfile", "s", "@bom.json"],
            ["--slurpfile", "s", "@bad.txt"], ["--rawfile", "r", "/dev/null"],
            ["--slurpfile", "s", "/dev/null"], ["--argjson", "x", '"\udce2\udc82"']]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("oddfiles")
    for name, data in FILES.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_bytes(data)
    return root


def _word(word: str, folder) -> str:
    return str(folder / word[1:]) if word.startswith("@") else word


@dropin.needs_oracle
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(program=st.sampled_from(PROGRAMS), binding=st.sampled_from(BINDINGS),
       files=st.lists(st.sampled_from(DATA), max_size=3), library=st.booleans(),
       worker=st.booleans(), stdin=st.sampled_from(STDIN))
def test_odd_files_both_ways_as_jq(program, binding, files, library, worker, stdin, folder):
    if worker and "missing.json" in files:  # README, differences: reported first there
        files = [f for f in files if f != "missing.json"]
    *options, text = program.split(" ", 1) if program.startswith("-") else [program]
    argv = [*options, *(["-L", str(folder / "lib")] if library else []),
            *[_word(w, folder) for w in binding], text,
            *[f if f == "-" else str(folder / f) for f in files]]
    expected = dropin.jq(argv, stdin, {"NO_COLOR": ""})
    got = dropin.jqmagic((["--timeout", "30"] if worker else []) + argv, stdin,
                         {"NO_COLOR": ""})
    assert b"Traceback" not in got.stderr
    assert (got.stdout, got.status) == (expected.stdout, expected.status), \
        (argv, worker, got.stderr)
    dropin.assert_stderr_as_jq(got, expected, worker)


@dropin.needs_oracle
def test_a_program_files_modules_are_searched_from_its_folder(folder):
    """-f's file's folder is the program's origin (jq's PROGRAM_ORIGIN): a relative
    ``search`` finds modules beside it."""
    program = folder / "lib" / "p.jq"
    program.write_text('include "m" {search: "./"}; f')
    expected = dropin.jq(["-n", "-f", str(program)], "")
    got = dropin.jqmagic(["-n", "-f", str(program)], "")
    assert (got.stdout, got.status) == (expected.stdout, expected.status) == (b'"from m"\n', 0)
