"""--explain gives the plain run's answer on jq 1.8.2's own suite (every case whose
program libjq compiles and whose input it reads), split into stages where jqlang parses."""

from __future__ import annotations

import pytest

from jqmagic.core.explain.run import explain_values
from jqmagic.core.explain.values import Owned
from jqmagic.core.query import libjq, libjqinput
from tests.conformance.jq_suite import SUITE, read_cases

pytestmark = pytest.mark.skipif(not (SUITE / "jq.test").exists(),
                                reason="jq's suite is not in ../shared/suites/jq")


def test_staged_answers_equal_the_plain_run_on_jq_test():
    explained = split = 0
    differing = []
    for case in read_cases(SUITE / "jq.test"):
        if case.fail:
            continue
        try:
            values = [Owned(v) for v in libjqinput.parse_text(case.input)]
            data = explain_values(case.program, values)
        except (libjq.InputError, libjq.CompileError):
            continue  # not a program --explain accepts (jq rejects it too)
        explained += 1
        split += data["split"]
        if not data["same_as_plain"]:
            differing.append(case.id)
    assert differing == []
    assert explained > 500 and split > 0.95 * explained
