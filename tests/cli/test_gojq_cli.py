"""Every command line of gojq's suite (args, env, stdin) through `jqmagic query --all` and
through the jq 1.8.2 command line: the same stdout, byte for byte, and the same exit status.

gojq's expected outputs are not used (they are gojq's); the jq 1.8.2 binary built from the
binding's own source (scripts/build_jq_oracle.sh) is the oracle. The few known differences
are listed with their reasons; a listed case that starts to agree fails, so the list stays
true.
"""

from __future__ import annotations

import pytest
import yaml

from tests.cli import dropin
from tests.conformance.gojq_suite import SUITE

KNOWN: dict[str, str] = {}  # case name: why it differs (none today)


def _cases() -> list:
    if not SUITE.exists():
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"gojq's suite is not beside this checkout ({SUITE})"))]
    cases = yaml.safe_load(SUITE.read_text(encoding="utf-8"))
    return [pytest.param(case, id=f"{i}:{case['name']}") for i, case in enumerate(cases)]


@dropin.needs_oracle
@pytest.mark.parametrize("case", _cases())
def test_same_as_jq(case, tmp_path):
    args = [str(a) for a in case.get("args", [])]
    env = dict(item.split("=", 1) for item in case.get("env", []))
    stdin = case.get("input", "")
    expected = dropin.jq(args, stdin, env, cwd=str(SUITE.parent), timeout=5)
    if expected.status == dropin.TIMED_OUT:
        pytest.skip("jq 1.8.2 itself runs this case for over 5 s")
    got = dropin.jqmagic(args, stdin, env)
    same = (got.stdout, got.status) == (expected.stdout, expected.status)
    if case["name"] in KNOWN:
        assert not same, f"agrees with jq now: remove it from KNOWN ({KNOWN[case['name']]})"
    else:
        assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr
