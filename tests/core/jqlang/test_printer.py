"""jqlang.printer: the text jq 1.8.2 prints for a value, in every layout the fast path
prints (libjq in process as the oracle), or NotMine where the inputs' literals could make
it differ."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.jqlang.printer import Printer, fresh_value, tojson
from jqmagic.core.jqlang.runtime import start
from tests.core.jqlang.oracle import jq_texts

LAYOUTS = [{"compact": True}, {"indent": 2}, {"indent": 1}, {"indent": 4}, {"indent": 7},
           {"indent": 9}, {"tab": True}, {"compact": True, "sort_keys": True},
           {"indent": 2, "sort_keys": True}, {"tab": True, "sort_keys": True}]
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6) | st.sampled_from(
    ["\x7f", "\u2028", "é", "\U0001f600", "\x00\x1f", "<&>", "\\\"/"])
_NUMBERS = st.integers(-2**60, 2**60) | st.floats(allow_nan=False, allow_infinity=False) | \
    st.sampled_from([0, -0.0, 0.0, 12.0, 1.5, 1e-05, 1e16, 2**64, -(2**70)])
JSON = st.recursive(
    st.none() | st.booleans() | _NUMBERS | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12)


def ours(text: str, **layout) -> str:
    """What the fast path prints for the value of ``text`` (read as it reads inputs)."""
    literals = Literals.of_text(text.encode())
    start(None, literals)
    return Printer(literals, **layout).text(json.loads(text))


@pytest.mark.parametrize("layout", LAYOUTS, ids=[json.dumps(x) for x in LAYOUTS])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=JSON)
def test_printed_as_jq_prints_it(layout, value):
    text = json.dumps(value, ensure_ascii=False)
    try:
        got = ours(text, **layout)
    except NotMine:
        return
    assert [got] == jq_texts(".", text, **layout)


def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind < 4:
        return rng.choice([None, True, "é\x7f", rng.randint(-10**6, 10**6),
                           rng.randint(0, 999) / 8, 0])
    if kind < 6:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {f"k{i}": _random_json(rng, depth + 1) for i in range(rng.randrange(4))}


def test_the_comparison_above_is_not_vacuous():
    """Most documents of plain numbers are answered (and as jq answers)."""
    rng, answered = random.Random(7), 0
    for _ in range(200):
        text = json.dumps(_random_json(rng))
        try:
            got = ours(text, indent=2)
        except NotMine:
            continue
        answered += 1
        assert [got] == jq_texts(".", text, indent=2)
    assert answered > 150, answered


@pytest.mark.parametrize(("text", "layout"), [
    ('{"b":[1,{"a":null}],"a":"x"}', {"indent": 3}),
    ('[[],{},[[]],""]', {"indent": 2}),
    ('{"k":"\\u007f\\u0000"}', {"compact": True}),
    ("[1,2.5,-3,0.001]", {"tab": True}),
    ("[12.0,1.5]", {"compact": True}),  # a whole float held is a literal: printed as written
    ('{"b":1,"a":{"d":2,"c":3}}', {"indent": 2, "sort_keys": True}),
    ("123456789012345678901234567890", {"compact": True}),
])
def test_layouts(text, layout):
    assert [ours(text, **layout)] == jq_texts(".", text, **layout)


@pytest.mark.parametrize("text", ["[-0]", "[0.1, 0.10]", "[1.0, 1.00]", "[-0.0, -0.00]"])
def test_a_value_whose_literal_jq_keeps_is_declined(text):
    """jq prints these literals as written; parsed, the fast path cannot tell (-0 is read
    as 0; a double written two ways in the text)."""
    with pytest.raises(NotMine):
        ours(text)


@pytest.mark.parametrize("text", ["[1.50]", "[1E+2]", "[1, -0.0]", "[12345678901234567.5]",
                                  '{"a": 1e-05, "b": [1.0, 0.00001, 1e-7, 0.0]}',
                                  "[100000000000000000000000, -9223372036854775809]"])
def test_a_literal_jq_keeps_is_printed_as_written(text):
    """The text's odd literals are learnt with its facts: each double printed as its
    literal is written (jq's decNumber text of it)."""
    assert [ours(text, compact=True)] == jq_texts(".", text)


def test_tojson_is_jqs_compact_text():
    start(None, Literals.known(frozenset()))
    value = {"a": [1, 2.5, None, "é\x7f"], "b": {}}
    assert [json.dumps(tojson(value), ensure_ascii=False)] == jq_texts("tojson", json.dumps(value))


def test_fresh_value_reads_the_printed_text_back():
    value = [1.0, {"a": 2}]
    fresh = fresh_value(value, "[1,{\"a\":2}]")
    assert fresh == [1, {"a": 2}] and type(fresh[0]) is int and fresh is not value


def test_a_run_told_nothing_of_its_literals_still_prints():
    """suggest's runs start with no literal facts (anything may be there): an error
    message's preview of a value printed through them."""
    start(1.0)
    assert tojson({"a": [1, "x"]}) == '{"a":[1,"x"]}'
