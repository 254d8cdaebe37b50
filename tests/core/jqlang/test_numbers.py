"""jqlang.numbers: number texts as jq 1.8.2 prints them (libjq in process as the oracle),
program literals kept only where jq prints them as we would, and the literal facts of a
JSON text (conservative: without a fact, jq prints the text's values as we do)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import FACTS, Literals, _as_jq_prints, facts_of
from jqmagic.core.jqlang.numbers import MAX_EXACT, format_float, literal_number, number_text
from jqmagic.core.jqlang.printer import Printer, tojson
from jqmagic.core.jqlang.runtime import start
from jqmagic.core.jqlang.state import state
from tests.core.jqlang.oracle import fast, jq_texts, libjq

NO_FACTS = Literals.known(frozenset())


@pytest.mark.parametrize("literal", [
    "0.1", "1.5", "100", "1e-05", "0.0001", "1e15", "1e16", "1e17", "123456789012345680000",
    "1.7976931348623157e308", "5e-324", "2.5e-310", "-0", "-0.0", "0.30000000000000004",
    "9007199254740993", "1.50", "1E+2", "3.0",
])
def test_a_computed_double_prints_as_jq_prints_it(literal):
    """``. * 1`` makes jq compute the double of the input literal X."""
    assert [format_float(float(literal))] == jq_texts(". * 1", literal)


def test_an_infinite_double_is_declined():
    """jq prints 1e1000 as 1.7976931348623157e+308 (DBL_MAX); Python holds inf."""
    assert jq_texts(". * 1", "1e1000") == ["1.7976931348623157e+308"]
    with pytest.raises(NotMine):
        format_float(float("1e1000"))


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_finite_double_prints_as_jq_prints_it(x):
    assert [format_float(x)] == jq_texts(". * 1", repr(x))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.integers(-MAX_EXACT, MAX_EXACT),
                 st.floats(allow_nan=False, allow_infinity=False).filter(
                     lambda x: not x.is_integer() or abs(x) >= MAX_EXACT)))
def test_number_text_of_a_computed_value_is_jqs(v):
    """Computed whole doubles below 2^53 are held as ints (values.computed)."""
    assert [number_text(v, NO_FACTS)] == jq_texts(". * 1", repr(v))


@pytest.mark.parametrize("text", ["1", "0", "1.5", "0.1", "100", "12345.678", "9007199254740992"])
def test_a_program_literal_kept_prints_as_jq_prints_it(text):
    assert [number_text(literal_number(text), NO_FACTS)] == jq_texts(text)


@pytest.mark.parametrize(("text", "printed"), [
    ("1.50", "1.50"), ("1E+2", "1E+2"), ("1e2", "1E+2"), ("12.0", "12.0"), ("1.0", "1.0"),
    ("0.00001", "0.00001"), ("1e1000", "1E+1000"), ("010", "10"),
    ("9007199254740993", "9007199254740993"),  # printed alike, but compared as a decimal
])
def test_a_program_literal_jq_keeps_as_written_is_declined(text, printed):
    assert jq_texts(text) == [printed]
    with pytest.raises(NotMine):
        literal_number(text)


@pytest.mark.parametrize(("text", "facts"), [
    ("[1, 2.5, 3]", set()),
    ("1.50", {"odd"}),
    ("1E+2", {"odd"}),
    ("0.00001", {"odd"}),
    ("[12.0]", {"whole"}),
    ("[-0]", {"zero"}),
    ('{"a":-0}', {"zero"}),
    ("-0", {"zero"}),
    ('"item-0"', set()),
    ("[1]-0", {"zero"}),
    ("{}-0", {"zero"}),
    ('"a"-0', {"zero"}),
    ("12345678901234567", {"long"}),
    ("1e-400", {"long", "odd"}),
])
def test_facts_of_a_text(text, facts):
    assert facts_of(text.encode()) == facts


_LITERALS = st.sampled_from(["0", "-0", "1", "-1", "1.5", "1.50", "12.0", "-0.0", "1E+2",
                             "1e2", "0.1", "100", "12345678901234567", "2.5e-3", "7"])
_VALUES = st.recursive(
    _LITERALS | st.sampled_from(['"s"', "null", "true", '"-0"', '"x-0"']),
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]")
    | st.lists(inner, max_size=2).map(
        lambda xs: "{" + ",".join(f'"k{i}":{x}' for i, x in enumerate(xs)) + "}"),
    max_leaves=6)


def _values(text: str) -> list:
    decoder, out, i = json.JSONDecoder(), [], 0
    while (i := len(text) - len(text[i:].lstrip())) < len(text):
        value, i = decoder.raw_decode(text, i)
        out.append(value)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(_VALUES | st.sampled_from(["-0", "-0.0", "12.0"]), min_size=1, max_size=4),
       st.sampled_from(["", " ", "\n"]))
def test_without_a_fact_jq_prints_a_text_as_we_do(values, gap):
    """Values run together (``[1]-0`` on standard input) included."""
    text = values[0]
    for value in values[1:]:  # run together only after a value's end (jq: 1-0 is 1 - 0)
        text += (gap if text[-1] in ']}"' else " ") + value
    if facts_of(text.encode()):
        return
    printer = Printer(NO_FACTS, compact=True)
    assert [printer.text(v) for v in _values(text)] == jq_texts(".", text)


def test_literals_learn_their_facts_once_from_chunks():
    calls = []

    def chunks():
        calls.append(1)
        return iter([b"[1.50,", b" -0]"])

    literals = Literals(chunks)
    assert not literals.settled
    assert literals.odd_floats and literals.negative_zero and not literals.whole_floats
    assert literals.settled and calls == [1]


def test_when_nobody_said_every_fact_holds():
    """``runtime.start`` without literals: anything may be there (no AttributeError from
    a printer or an error text reading the facts)."""
    start(None)
    assert state.literals.facts == frozenset(FACTS)
    assert tojson("%9F%8E") == '"%9F%8E"'  # digits and E in a string: no number to print
    with pytest.raises(NotMine):
        number_text(0.5, state.literals)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='0123456789.eE-+"\\\n /u', max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(alphabet='0-."\\e1', max_size=4), inner, max_size=4),
    max_leaves=12)


def _blank_strings(value):
    if isinstance(value, str):
        return ""
    if isinstance(value, list):
        return [_blank_strings(x) for x in value]
    if isinstance(value, dict):
        return {f"k{i}": _blank_strings(x) for i, x in enumerate(value.values())}
    return value


@settings(max_examples=400, deadline=None)
@given(value=_JSON_VALUES, indent=st.sampled_from([None, 1]))
def test_a_texts_facts_leave_its_strings_out(value, indent):
    """Digits, quotes and backslashes inside strings are not literals: the facts of a text
    are those of the same text with every string blank."""
    text = json.dumps(value, indent=indent).encode()
    blank = json.dumps(_blank_strings(value), indent=indent).encode()
    assert Literals.of_text(text).facts == Literals.of_text(blank).facts


@pytest.mark.parametrize("text", [b'["1.50', b'"x" "1.50 "y"', b'["1.50"]\n"1.50'])
def test_a_text_whose_quotes_do_not_pair_counts_every_digit(text):
    """Not JSON text: the lines whose quotes do not pair are read as they are (cautious)."""
    assert "odd" in Literals.of_text(text).facts


_WRITTEN = st.floats(allow_nan=False, allow_infinity=False).map(repr) | st.sampled_from(
    ["0.30000000000000004", "7.123456789012345", "1e-05", "1e+16", "5e-324", "0.0001",
     "1.7976931348623157e+308", "-2.2250738585072014e-308", "1234567890123456", "12.0",
     "1E-05", "1e16", "0.10000000000000000001", "1.50", "12345678901234567", "0.00001",
     "-0", "-0.0", "100", "3", "9007199254740992.0", "123456789012345.5"])
"""Number literals: most as Python, JavaScript and orjson write doubles, some not."""


@settings(max_examples=300, deadline=None)
@given(st.lists(_WRITTEN, min_size=1, max_size=5),
       st.sampled_from([".", "sort", "[.[] | . * 3]", "add", "min", "unique", "map(tostring)",
                        "[.[] | . == 0.30000000000000004]", "[.[] | . < 1e-05]",
                        "[.[] | floor]", "group_by(.) | map(length)"]))
def test_literals_written_as_their_doubles_answer_as_libjq(numbers, program):
    """A text whose long or exponent literals are each written as jq prints its double
    (the facts leave them out): the fast path answers as libjq 1.8.2, or declines."""
    text = "[" + ", ".join(numbers) + "]"
    got = fast(program, text, compact=True)
    if got is not None:
        assert got == libjq(program, text, compact=True)


JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def _prints_alike(token: str) -> bool:
    """The rule, literal by literal: an integer of up to 15 digits, a whole float (12.0),
    or a fraction without an exponent written as Python's repr writes its double."""
    if "e" in token or "E" in token:
        return False
    if "." not in token or re.fullmatch(r"-?[0-9]+\.0", token):
        return len(token.split(".")[0].lstrip("-")) <= 15
    value = float(token)
    return 1e-4 <= abs(value) < 1e16 and repr(value) == token


json_numbers = st.one_of(
    st.integers(-10**20, 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr).filter(lambda t: "n" not in t),
    *(st.decimals(min_value=-10**6, max_value=10**6, places=places).map(lambda d: format(d, "f"))
      for places in (2, 6, 17)),
    st.sampled_from(["1.50", "0.00001", "1e2", "1E+2", "12.0", "-0.0", "0.30000000000000004",
                     "123456789012345678", "9007199254740993", "0.1000000000000000055511"]))


@settings(max_examples=500, deadline=None)
@given(st.lists(json_numbers, min_size=1, max_size=30))
def test_a_text_prints_as_its_doubles_exactly_when_each_literal_does(tokens):
    """``_as_jq_prints`` looks only at the literals where the facts are found: it agrees
    with the rule applied to every literal of the text."""
    tokens = [t for t in tokens if JSON_NUMBER.fullmatch(t)]
    if not tokens:
        return
    text = ("[" + ",".join(tokens) + "]").encode()
    assert _as_jq_prints(text) == all(_prints_alike(t) for t in tokens), text
