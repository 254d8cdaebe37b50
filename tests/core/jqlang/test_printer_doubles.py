"""The printer's quick route for values holding doubles (orjson's text, with jq's text
swapped in only where they may differ) gives exactly the careful route's text."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.jqlang.printer import Printer

DOUBLES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=1e-6, max_value=2e-4), st.floats(min_value=9e15, max_value=2e16),
    st.integers(-2**60, 2**60).map(float), st.sampled_from([0.0, -0.0, 1e-5, 1e16, 5.0]))
STRINGS = st.sampled_from(["1.5e3", '"x": 2.5', "0.00001", "a\\b\"c", "ü\x7f", "-0.0", ""])
VALUES = st.recursive(
    st.one_of(DOUBLES, STRINGS, st.integers(-10**6, 10**6), st.none(), st.booleans()),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(STRINGS, inner, max_size=4)), max_leaves=12)
LAYOUTS = [{}, {"compact": True}, {"indent": 4}, {"sort_keys": True}, {"tab": True}]


def _text(printer: Printer, value, careful: bool) -> str:
    try:
        return printer._precise(value) if careful else printer.text(value)
    except NotMine:
        return "declined"


@pytest.mark.parametrize("facts", [(), ("whole",), ("zero",), ("whole", "zero")])
@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@settings(max_examples=300, deadline=None)
@given(value=VALUES)
def test_quick_text_is_the_careful_text(facts, layout, value):
    printer = Printer(Literals.known(frozenset(facts)), **layout)
    quick = _text(printer, value, careful=False)
    if quick != "declined":  # the quick route may decline more often, never differ
        assert quick == _text(printer, value, careful=True)


def test_doubles_where_orjson_and_jq_differ():
    printer = Printer(Literals.known(frozenset()), compact=True)
    for value, jq in [(3e-05, "3e-05"), (9062688667688708.0, "9062688667688708"),
                      (1e16, "1e+16"), (-0.0, "-0"), (1.5, "1.5"),
                      (12.0, "12.0"), (math.pi, "3.141592653589793")]:
        assert printer.text({"v": [value]}) == printer._precise({"v": [value]}), value
        assert jq in printer.text({"v": [value]})
