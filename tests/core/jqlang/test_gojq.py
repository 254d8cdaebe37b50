"""gojq's command-line cases through the fast path: every case it answers equals libjq 1.8.2's
answer (gojq's own expected texts are not used: they are gojq's)."""

from __future__ import annotations

import pytest

from tests.conformance.gojq_suite import SUITE, all_cases
from tests.core.jqlang.oracle import fast, libjq

if not SUITE.is_file():
    pytest.skip(f"gojq cases not found at {SUITE}", allow_module_level=True)

CASES = [case for case in all_cases() if case.program is not None]


def _options(case) -> dict:
    return {"compact": case.has("-c", "--compact-output"),
            "null_input": case.has("-n", "--null-input"), "slurp": case.has("-s", "--slurp"),
            "sort_keys": case.has("-S", "--sort-keys"),
            "tab": case.has("--tab")}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_fast_path_equals_libjq(case):
    options = _options(case)
    got = fast(case.program, case.input, **options)
    if got is None:
        return  # declined: libjq answers
    assert got == libjq(case.program, case.input, **options)


def test_fast_path_answers_a_good_part_of_the_cases():
    """The comparison above is not vacuous: 147 cases at first, 266 with def, try/catch,
    paths, assignment, destructuring and label, 297 with streams, dates and libm, 303
    with fromjson and recurse(f), 370 with texts of several values and multi-valued
    slice bounds."""
    answered = [c for c in CASES if fast(c.program, c.input, **_options(c)) is not None]
    assert len(answered) >= 370, len(answered)
