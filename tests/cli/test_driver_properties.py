"""The driver never breaks: whatever reaches `query()` or `jqmagic query` (strings with NULs
and lone surrogates, arguments of any type, options in any order), the answer is a result
or a coded error, never a traceback or a dead worker; and jq's own options, in any order,
print what the jq 1.8.2 command line prints, with its exit status and stderr."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jqmagic
from jqmagic.core.errors import JqMagicError
from tests.cli import dropin

EXAMPLES = int(os.environ.get("JQ_DROPIN_EXAMPLES", 150))  # more while developing
# Text as Python holds it: NULs, control characters, lone surrogates, astral characters.
ODD_TEXT = st.text(st.characters(codec=None, blacklist_categories=()), max_size=12) | \
    st.sampled_from(["a\x00bc", "\ud800", "x\udfff", "\U0001f600", ""])
ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ODD_TEXT | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ODD_TEXT, inner, max_size=3)
    | st.sets(st.integers(), max_size=2) | st.tuples(inner),
    max_leaves=6)
PROGRAMS = st.sampled_from([".", ".a", "error(.)", "$x", "halt_error", "[.[]?]", "tojson",
                            "stderr", "debug", "input", "@base64d", "ltrimstr(\"a\")"])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(program=PROGRAMS | ODD_TEXT | st.integers() | st.none() | st.binary(max_size=4),
       text=ODD_TEXT | st.binary(max_size=6) | st.none(),
       value=ANY_VALUE,
       args=st.dictionaries(ODD_TEXT | st.integers(), ANY_VALUE, max_size=2) | ANY_VALUE)
def test_query_answers_or_says_why(program, text, value, args):
    source = {"text": text} if text is not None else {"value": value}
    try:
        result = jqmagic.query(program, args=args, **source)
    except JqMagicError as exc:
        assert exc.code and exc.message  # coded, with a message
        return
    assert isinstance(result.text, str)
    assert jqmagic.query(".", value=1).text == "1"  # the worker lives on


# jq's own options and their values, to be shuffled.
JQ_OPTIONS = [["-n"], ["-r"], ["-c"], ["-s"], ["-j"], ["-a"], ["-S"], ["-e"], ["--tab"],
              ["--seq"], ["-C"], ["-M"], ["--raw-output0"], ["--indent", "1"],
              ["--indent", "0"], ["--arg", "x", "1"], ["--argjson", "x", "[2]"],
              ["--arg", "y", "é"], ["--stream"], ["-R"], ["--arg", "x", "-c"],
              ["--indent", "-1"], ["--indent", "7"], ["--indent", "8"], ["--indent", "-c"],
              ["--argjson", "z", "1.50"], ["--arg", "z", "--tab"], ["--jsonargs", "1.0", "-0"],
              ["--argjson", "n", "nan"], ["--argjson", "n", "01"], ["--jsonargs", ".5", "1."],
              ["--slurpfile", "s", "@nums.json"], ["--rawfile", "x", "@two.json"]]
JQ_PROGRAMS = [".", "[., $x]", "$ARGS", ".[]?", "tostring", "input", "[inputs]",
               "\"a\\u0000b\"", "empty", "null, false", "$__loc__", "error(\"boom\")",
               "-.", "{a: 1, b: [\"é\", 2.50]}", "halt_error(3)", "$ARGS.named", ".b",
               "halt_error(-1)", "halt_error(300)", "[input_filename, input_line_number]",
               ".[0]?, error"]
INPUTS = ['{"a": [1, "x"]}', "1 2 3", '"s"', "[]", "", "{", 'null "\\ud800"',
          'true {"b":1}', '{"b":1} true', "1.50 100000000000000000001"]
# Files the command lines name ("@name"): values that run into the next file, a BOM
# opening a later one, a missing one, a folder.
FILES = {"one": "1", "two.json": "1\n2\n", "nums.json": "1 3.10\n", "bom.json": '\ufeff{"b":2}',
         "open.json": '{"a":', "close.json": "1}", "true": "true"}
FILE_WORDS = ["@one", "@two.json", "@nums.json", "@bom.json", "@open.json", "@close.json",
              "@true", "-"]
# An unreadable file comes alone: jq reads one value past it and stops (main.c's loop
# checks the reader's errors), and a bad file before it is status 5, after it 2; jqmagic
# reports it first and reads the others (README: differences).
UNREADABLE = ["@missing.json", "@"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return dropin.files_in(tmp_path_factory.mktemp("files"), FILES)


@dropin.needs_oracle
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(options=st.lists(st.sampled_from(JQ_OPTIONS), max_size=4),
       program=st.sampled_from(JQ_PROGRAMS), stdin=st.sampled_from(INPUTS),
       at=st.integers(0, 4), files=st.lists(st.sampled_from(FILE_WORDS), max_size=3),
       unreadable=st.lists(st.sampled_from(UNREADABLE), max_size=1), data=st.data(),
       worker=st.booleans())
def test_options_in_any_order_as_jq(options, program, stdin, at, files, unreadable, data,
                                    worker, folder):
    """Both ways: in this process (jq's main.c in C) and in the worker (``--timeout``),
    which reads and prints as the other does (an unreadable file aside: README)."""
    words = [word for option in options for word in option]
    at = min(at, len(options))
    before = [w for option in options[:at] for w in option]
    after = [w for option in options[at:] for w in option]
    argv = [*before, program, *after]
    if "--jsonargs" not in words:
        # (after --jsonargs they would be JSON arguments; --seq -s with no file read at
        # all is jq's "abandoned text" and no output, jqmagic's [])
        argv += unreadable if unreadable and "--seq" not in words else files
    if data.draw(st.booleans()) and "--args" not in words and "--jsonargs" not in words:
        argv += ["--args", "p", "q"]
    argv = [str(folder / w[1:]) if w.startswith("@") else w for w in argv]
    if worker and any(str(folder / w[1:]) in argv for w in UNREADABLE):
        worker = False  # reported first, the others read (README: differences)
    expected = dropin.jq(argv, stdin, {"NO_COLOR": ""})
    got = dropin.jqmagic((["--timeout", "30"] if worker else []) + argv, stdin,
                         {"NO_COLOR": ""})
    assert (got.stdout, got.status) == (expected.stdout, expected.status), \
        (argv, worker, got.stderr)
    dropin.assert_stderr_as_jq(got, expected, worker)
