"""A regular expression that backtracks without end ends alike on both engines: the fast
path leaves repeated groups to libjq, whose Oniguruma stops at its retry limit."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.regex import regex
from jqmagic.core.settings import settings


@pytest.mark.parametrize("pattern", ["(a+)+$", "(a|aa)*b", "(x*)*y", "(?:a{1,3})+!",
                                     "a?" * 30 + "a" * 30])
def test_repeated_groups_are_libjqs(pattern):
    with pytest.raises(NotMine):
        regex(pattern)


@pytest.mark.parametrize("pattern", ["(ab)+", "^a+$", "a|b", "(a)(b)?", "[a-z]{2,}",
                                     r"^\d{4}-\d{2}-\d{2}T\d+:\d+:\d+Z?$", "(?:x)?y"])
def test_other_patterns_stay_on_the_fast_path(pattern):
    assert regex(pattern) is not None


@pytest.mark.parametrize("fast", [True, False])
def test_a_runaway_pattern_is_the_same_error_on_either_engine(monkeypatch, fast):
    monkeypatch.setattr(settings, "fast_path", fast)
    with pytest.raises(JqMagicError) as info:
        query('test("(a+)+$")', value="a" * 40 + "!", timeout=20)
    assert info.value.code == "QUERY_ERROR" and "retry-limit-in-match" in info.value.message
