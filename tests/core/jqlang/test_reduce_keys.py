"""A keyed count whose key has a default (``.[$e.a // "none"] += 1``) is updated in place by
the fused reduce, as ``.[$e.a] += 1`` is, and so is one piped through a filter of its own
input (``.[$e.a // "none" | tostring]``); each answers as libjq does over rows of mixed
types (a missing key, null, false, numbers, objects where the key is an error)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import fusereduce
from jqmagic.core.jqlang.parser import parse
from tests.core.jqlang.oracle import fast, libjq
from tests.core.jqlang.test_columns import rows

PROGRAMS = ['reduce .[] as $e ({}; .[$e.a // "none"] += 1)',
            'reduce .[]? as $e ({}; .[$e.a.b // $k] += 2)',
            'reduce .[] as $e (null; .[$e.c // "x"] -= 1)',
            'reduce .[] as $e (0; . + ($e.a // 1))',
            'reduce .[] as $e ({}; .[$e.a // "none" | tostring] += 1)',
            'reduce .[] as $e ({}; .[$e.a | ascii_downcase] += 1)',
            'reduce .[] as $e ({}; .[$e.a.b | tojson | length | tostring] *= 2)',
            'reduce .[] as $e ({}; .[$e.c // $k | type] += 1)',
            'reduce .[] as $e ({}; .[$e.a | ascii_downcase? // "x"] += 1)',  # no expression:
            'reduce .[] as $e ({}; .[$e.a.b | ascii_upcase?] -= 1)']  # the key's closure


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=rows, program=st.sampled_from(PROGRAMS))
def test_keys_with_a_default_answer_as_libjq_or_decline(value, program):
    text, args = json.dumps(value), {"k": "k"}
    got = fast(program, text, args, compact=True)
    if got is not None:
        assert got.text == libjq(program, text, args, compact=True).text


def test_a_count_keyed_with_a_default_is_updated_in_place():
    """Not by the closure, which copies the object for every row (28k rows of distinct
    keys took 3 s, jq 0.2 s); a key that reads the input, or a default that may give
    several values, is still the closure's."""
    def keyed(program: str) -> bool:
        return fusereduce._keyed_update(parse(program).update) is not None
    assert all(keyed(program) for program in PROGRAMS if "({}" in program or "(null" in program)
    assert not keyed('reduce .[] as $e ({}; .[$e.a // .b] += 1)')
    assert not keyed('reduce .[] as $e ({}; .[$e.a // empty] += 1)')
    assert not keyed('reduce .[] as $e ({}; .[$e.a | input] += 1)')  # reads the inputs
    assert not keyed('reduce .[] as $e ({}; .[$e.a | tostring, "x"] += 1)')  # two keys
