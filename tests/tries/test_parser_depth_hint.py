"""A program nested past jq's parser stack ("memory exhausted", bison's YYMAXDEPTH) is
hinted as that, not as a syntax slip ("quote keys with special characters")."""

from __future__ import annotations

import pytest

import jqmagic
from jqmagic.core.query.failures import compile_error


def test_the_hint_says_the_nesting():
    error = compile_error("jq: error: memory exhausted at <top-level>, line 1, column 9:",
                          ". as $x | " * 3)
    assert error.code == "INVALID_QUERY" and "nests deeper" in error.hint


@pytest.mark.parametrize("program", [". as $x | " * 20000 + ".", "[" * 20000 + "]" * 20000])
def test_a_deep_program_hears_it(program):
    with pytest.raises(jqmagic.JqMagicError) as caught:
        jqmagic.query(program, text="1")
    assert "memory exhausted" in caught.value.message
    assert "nests deeper" in caught.value.hint and "quote keys" not in caught.value.hint
