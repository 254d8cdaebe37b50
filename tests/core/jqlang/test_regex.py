"""The fast path's regular expressions against libjq's Oniguruma: generated patterns from
pieces of both syntaxes (some only Oniguruma knows) on generated subjects, through every
regex builtin; each answer equals libjq's or the fast path declines."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.core.jqlang.oracle import fast, libjq

PIECES = ["a", "b", "é", ".", "\\d", "\\w", "\\s", "\\b", "\\W", "[ab]", "[^a]", "[]a]", "[a-c]",
          "^", "$", "\\.", "\\\\", "\\n", "\\h", "\\p{L}", "[[:alpha:]]", "\\A", "\\z", "\\Z",
          "(?i)", "(?#c)", "\\1", "\\k<x>", "\\x41", "\\u0041", " ", "-", "0", "9"]
QUANTIFIERS = ["", "", "*", "+", "?", "{2}", "{1,2}", "*?", "+?", "??", "++", "{,2}"]
pieces = st.tuples(st.sampled_from(PIECES), st.sampled_from(QUANTIFIERS)).map("".join)
patterns = st.recursive(
    st.lists(pieces, min_size=0, max_size=4).map("".join),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["(", "(?:", "(?<x>", "(?=", "(?!", "(?<=", "(?>"]),
                  inner, st.sampled_from(QUANTIFIERS)).map(lambda p: f"{p[0]}{p[1]}){p[2]}"),
        st.tuples(inner, inner).map("|".join),
        st.tuples(inner, inner).map("".join)),
    max_leaves=4)
subjects = st.text(alphabet="abAB é0 9.\n\t-_\\]ſK", max_size=8)
flags = st.sampled_from([None, "g", "i", "gi", "n", "gn", "x", "s", "l", "p"])
CALLS = ["test($re)", "test($re; $f)", "[match($re; $f)]", "[capture($re; $f)]",
         "[scan($re)]", "[scan($re; $f)]", "split($re; $f)", "[splits($re)]",
         'sub($re; "<\\(.)>")', 'gsub($re; "[\\(.x // "-")]"; $f)', '[match($re; "g").offset]']


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=patterns, subject=subjects, flag=flags, call=st.sampled_from(CALLS))
def test_regex_builtins_equal_libjq_or_decline(pattern, subject, flag, call):
    args = {"re": pattern, "f": flag}
    text = json.dumps(subject)
    got = fast(call, text, args, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got == libjq(call, text, args, compact=True)
