"""jq 1.8.2's own test suite, run through jqmagic's query core.

Every case must pass except those listed, with a reason, in jq_known_failures.txt; a
listed case that starts passing fails the run (strict xfail), so the list only shrinks.
"""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError
from jqmagic.core.query import query
from tests.conformance.jq_suite import SUITE, all_cases, known_failures

if not SUITE.is_dir():
    pytest.skip(f"jq suite not found at {SUITE} (it lives beside the project in "
                "../shared/suites/jq)", allow_module_level=True)

MODULES = [str(SUITE / "modules")]
KNOWN = known_failures()
CASES = all_cases()


def _params():
    for case in CASES:
        marks = []
        if case.id in KNOWN:
            marks.append(pytest.mark.xfail(reason=KNOWN[case.id], strict=True))
        yield pytest.param(case, id=case.id, marks=marks)


def _values(texts: list[str]) -> list:
    """Parse expected lines with jq itself, so jq's literals (nan, big numbers) are read alike."""
    if not texts:
        return []
    return query(".", text="\n".join(texts), passthrough=True, compact=True,
                 library_paths=MODULES).values


@pytest.mark.parametrize("case", list(_params()))
def test_case(case):
    if case.fail:
        with pytest.raises(JqMagicError) as info:
            query(case.program, null_input=True, library_paths=MODULES)
        assert info.value.code == "INVALID_QUERY"
        return
    try:
        values = query(case.program, text=case.input, passthrough=True, compact=True,
                       library_paths=MODULES, timeout=20).values
    except JqMagicError as exc:
        # jq's harness ends a case's stream at an uncaught error: what came before counts.
        assert exc.code == "QUERY_ERROR", exc.render()
        values = exc.result.values
    assert values == _values(case.expected)


def test_known_failures_are_real_cases():
    ids = {case.id for case in CASES}
    assert set(KNOWN) <= ids, sorted(set(KNOWN) - ids)


def test_suite_is_complete():
    assert len(CASES) > 850
