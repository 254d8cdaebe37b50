"""The driver never breaks: whatever reaches `query()` or `jqmagic query` (strings with NULs
and lone surrogates, arguments of any type, options in any order), the answer is a result
or a coded error, never a traceback or a dead worker; and jq's own options, in any order,
print what the jq 1.8.2 command line prints, with its exit status."""

from __future__ import annotations

import os

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
              ["--arg", "y", "é"], ["--stream"], ["-R"]]
JQ_PROGRAMS = [".", "[., $x]", "$ARGS", ".[]?", "tostring", "input", "[inputs]",
               "\"a\\u0000b\"", "empty", "null, false", "$__loc__", "error(\"boom\")",
               "-.", "{a: 1, b: [\"é\", 2.50]}", "halt_error(3)"]
INPUTS = ['{"a": [1, "x"]}', "1 2 3", '"s"', "[]", "", "{", 'null "\\ud800"']


@dropin.needs_oracle
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(options=st.lists(st.sampled_from(JQ_OPTIONS), max_size=4),
       program=st.sampled_from(JQ_PROGRAMS), stdin=st.sampled_from(INPUTS),
       at=st.integers(0, 4), data=st.data())
def test_options_in_any_order_as_jq(options, program, stdin, at, data):
    words = [word for option in options for word in option]
    at = min(at, len(options))
    before = [w for option in options[:at] for w in option]
    after = [w for option in options[at:] for w in option]
    argv = [*before, program, *after]
    if data.draw(st.booleans()) and "--args" not in words:
        argv += ["--args", "p", "q"]
    expected = dropin.jq(argv, stdin, {"NO_COLOR": ""})
    got = dropin.jqmagic(argv, stdin, {"NO_COLOR": ""})
    assert (got.stdout, got.status) == (expected.stdout, expected.status), \
        (argv, got.stderr)
