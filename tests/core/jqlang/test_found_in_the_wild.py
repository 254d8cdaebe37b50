"""Programs where the fast path once answered differently from libjq 1.8.2, found on
material nobody here wrote: each must now answer exactly as libjq does, or decline."""

from __future__ import annotations

import pytest

from tests.core.jqlang.oracle import fast, libjq

CASES = [
    # `?` covers only the last postfix step, applied to each output of what precedes it
    ("[.[].a?]", '[1,{"a":2},3,{"a":4}]'),
    ("[.[] | .a?]", '[1,{"a":2}]'),
    (".a.b?", "[1]"),
    ("[.a.b?]", "[1]"),
    ("[.a?.b]", "[1]"),
    ("[.[].a?.b]", '[1,{"a":{"b":3}}]'),
    ("[.a[]?]", '{"a":5}'),
    ("[.[]?]", "3"),
    ("[.a[0]?, .b[1:]?]", '{"a":{"x":1},"b":[1,2]}'),
    ('[.[] | .[.k]?]', '[{"k":"k"},[1],{"k":0}]'),
    ("[..?]", "1"),
    ("[(.[] | .a)?]", '[1,{"a":2}]'),
    # negative zero from multiplication of integers
    (".a * .b", '{"a":0,"b":-3}'),
    (". * -1", "0"),
    ("0 * -1", "null"),
    ("[.[] * 0]", "[-2, 2, 0]"),
    # literals that round to the same double, or past a double's range
    (".[0] == .[1]", "[5e-324, 6e-324]"),
    (". == 0", "1e-400"),
    ("[.[] | . < 1]", "[1e-400, 1E+400]"),
    # floats as Python, JavaScript and pandas write them (12.0): literals print as written
    (".[0]", "[12.0, 3.5]"),
    (".[1]", "[12.0, 3.5]"),
    ("[.[] | . * 2]", "[1.5, 2.0]"),
    ("[.[] | select(. > 2)]", "[1.25, 2.0, 3.0, 2.5]"),
    (".a", '{"a": 52.37, "b": 3.0}'),
    ("map(.q) | add", '[{"q": 1.0}, {"q": 2.0}]'),
    ("[.[] | . / 3]", "[1.0, 7.5]"),
    # syntax jq 1.8.2 refuses
    (".a.[1:]", '{"a":[1,2,3]}'),
    (".a.[:2]", '{"a":[1,2,3]}'),
    (".a.[0]", '{"a":[1,2,3]}'),
]


@pytest.mark.parametrize(("program", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_fast_path_answers_as_libjq_or_declines(program, text):
    got = fast(program, text)
    if got is not None:
        assert got == libjq(program, text)
