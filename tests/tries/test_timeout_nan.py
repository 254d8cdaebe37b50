"""A NaN timeout is refused: no comparison holds for NaN, so it meant no limit at all in
the Python API (a runaway ran for ever; the command line and the tools refuse it already)."""

from __future__ import annotations

import math

import pytest

import jqmagic
from jqmagic.core.errors import JqMagicError


def test_a_nan_timeout_is_refused():
    with pytest.raises(JqMagicError) as refused:
        jqmagic.query(".", value=1, timeout=math.nan)
    assert refused.value.code == "INVALID_ARGUMENT" and "NaN" in refused.value.raw_message


@pytest.mark.parametrize("limit", [0, -1, 5])
def test_other_limits_still_answer(limit):
    assert jqmagic.query(".", value=1, timeout=limit).text == "1"
