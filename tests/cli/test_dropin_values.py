"""Issue 42's classes of answers against the jq 1.8.2 command line (stdout, exit status, and
jq's own error line), on both engines: a ``$name`` bound from a pipe inside a fused loop,
``reduce`` with several inits, ``-e`` judged by the value (not by its coloured text), and
libjq's label counter in a process that answers many command lines."""

from __future__ import annotations

import re

import pytest

from jqmagic.core.settings import settings
from tests.cli import dropin

CASES = [
    (["-nc", "[(1|2) as $y | .]"], ""),
    (["-c", 'map(("x"|ascii_upcase) as $y | $y, {a: .})'], "[1]"),
    (["-c", "[.[] | (.a | tostring) as $y | [$y, .]]"], '[{"a": 1}, {"a": [2]}]'),
    (["-c", "reduce .[] as $x (0, 10; . + $x)"], "[1,2]"),
    (["-c", "reduce .[]? as $x (0, 10; . + $x)"], "[1,2]"),
    (["-c", "[foreach .[] as $x (0, 10; . + $x)]"], "[1,2]"),
    (["-e", "-C", "."], "null"),
    (["-e", "-C", "."], "false"),
    (["-e", "-C", ".[]"], "[1, null]"),
    (["-n", "-e", "-C", "nan"], ""),
    (["-n", "-e", "-C", "[nan][0]"], ""),
    (["-r", "-e", "."], '"null"'),
    (["-r", "-e", "."], '"false"'),
    (["-e", "."], "null"),
    (["-n", "-e", "nan"], ""),
    (["-n", "-e", "nan, null"], ""),
    (["-n", "-e", "null, nan"], ""),
    (["-e", ".[]"], "[false, 1]"),
    (["-nc", "label $a | try break $a catch ."], ""),
    (["-c", "label $a | try break $a catch ."], "1 2"),
]


@pytest.fixture(params=[True, False], ids=["fast path on", "off"])
def engine(request):
    saved, settings.fast_path = settings.fast_path, request.param
    try:
        yield
    finally:
        settings.fast_path = saved


@dropin.needs_oracle
@pytest.mark.parametrize("route", [[], ["--timeout", "60"]], ids=["here", "worker"])
@pytest.mark.parametrize("argv, stdin", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_answers_as_jq(argv, stdin, route, engine):
    """In this process (libjq as main.c drives it) and in the worker (--timeout: the fast
    path, or libjq)."""
    expected = dropin.jq(argv, stdin)
    for _ in range(2):  # a second run in the same process answers the same
        got = dropin.jqmagic(route + argv, stdin)
        assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr
        for line in expected.stderr.decode().splitlines():  # jq's error, in its words
            assert re.sub(r"^jq: error \(at [^)]*\): ", "", line) in got.stderr.decode()
