"""`debug` under -C with --timeout (the worker) dumps as jq 1.8.2: a NaN coloured as jq's
number (its null inside), not as a plain null; -S, -a and --tab the same as jq."""

import pytest

from tests.cli.dropin import jq, jqmagic, needs_oracle

PROGRAM = '{b: "é", a: [nan, -0, 1E400, 1]} | debug | nan | debug | empty'


@needs_oracle
@pytest.mark.parametrize("flags", [["-C"], ["-C", "-S"], ["-C", "-a"], ["-S", "-a"]])
def test_debug_lines_with_timeout_are_jqs(flags):
    args = [*flags, "--timeout", "20", "-n", PROGRAM]
    expected = jq(args[:len(flags)] + ["-n", PROGRAM], "")
    got = jqmagic(args, "")
    assert (got.stdout, got.stderr, got.status) == \
        (expected.stdout, expected.stderr, expected.status)


def test_a_coloured_nan_is_not_a_coloured_null():
    got = jqmagic(["-C", "--timeout", "20", "-n", "nan | debug | empty"], "")
    assert b"\x1b[0;39m\x1b[0;90mnull" in got.stderr  # a number's colour, then null's
