"""The fast path keeps --timeout inside its loops and builtins: a runaway program ends in
TIMEOUT soon after the deadline, and the builtins that add up many values stay linear."""

from __future__ import annotations

import json
import time

import pytest

from jqmagic import JqMagicError
from tests.core.jqlang.oracle import fast, libjq

RUNAWAY = [
    "[range(1000000000)] | length",
    "reduce range(1000000000) as $i (0; . + 1)",
    "[limit(1000000000; repeat(1))] | add",
    "0 | until(false; . + 1)",
    "0 | [recurse(. + 1)] | length",
    "last(range(1000000000))",
    "[.[] as $a | .[] as $b | .] | add | length",
    "[range(1000000000) | tostring] | join(\",\")",
    "[range(1000000000)] | sort",
    "[range(1000000000) | [.]] | add | length",
    "[limit(1000000000; repeat(\"ab\"))] | add | length",
    "null | [path(recurse(.; true))] | length",
]


@pytest.mark.parametrize("program", RUNAWAY)
def test_a_runaway_program_ends_in_timeout(program):
    document = json.dumps(list(range(3000)))
    started = time.monotonic()
    with pytest.raises(JqMagicError) as caught:
        fast(program, document, timeout=0.2)
    elapsed = time.monotonic() - started
    assert caught.value.code == "TIMEOUT"
    assert elapsed < 5, f"{program} stopped after {elapsed:.1f} s"


def test_adding_many_arrays_and_strings_is_linear():
    """jq adds pairwise (copying Python lists, 2e9 item copies here); the fast path
    joins once: 2,000 arrays of 1,000 items and 100,000 strings take well under 2 s."""
    document = json.dumps(list(range(1000)))
    for program in ("[range(2000) as $i | .] | add | length",
                    "[range(100000) | tostring] | add | length"):
        started = time.monotonic()
        got = fast(program, document, timeout=20)
        assert got is not None and time.monotonic() - started < 2
        assert got == libjq(program, document)
