"""jq 1.8.2's semantics on Python values: types, truth, order, arithmetic, paths.

Values are what orjson reads: None, bool, int, float, str, list, dict. A jq error raises
:class:`JqError` (its message is libjq's business); anything the fast path cannot
reproduce exactly (integers past 2^53 in arithmetic, non-integer indices, ...) raises
:class:`NotMine`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from jqmagic.core.jqlang.boundinputs import Hollow, Stream
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import cannot_index, cannot_iterate, type_error, type_error2
from jqmagic.core.jqlang.numbers import MAX_EXACT, note, noted_text
from jqmagic.core.jqlang.oddtexts import held_text
from jqmagic.core.jqlang.runtime import check, chunked, state

NUMBER = (int, float)
_TYPE_NAMES = {type(None): "null", bool: "boolean", int: "number", float: "number",
               str: "string", list: "array", dict: "object"}


def type_name(v: Any) -> str:
    return _TYPE_NAMES[type(v)]


def truthy(v: Any) -> bool:
    return not (v is None or v is False)


def _exact(v: int) -> int:
    if -MAX_EXACT <= v <= MAX_EXACT:
        return v
    raise NotMine("integer beyond 2^53")


def _number(v: int | float) -> int | float:
    """A number about to be compared (two long literals jq compares as decimals)."""
    if type(v) is int:
        return v if -MAX_EXACT <= v <= MAX_EXACT else _long_int(v)
    state.floats_compared = True
    return v


def _long_int(v: int) -> int:
    """An integer past 2^53 about to be compared, exactly: it is a literal (a computed
    number there is a double), and jq compares two literals as decimals. Against a
    computed double jq compares doubles, which agrees with the exact order unless the
    double is the integer's own rounding: 2^53 for 2^53 + 1 (an int the fast path may
    have computed), or a computed double past 2^53 (:func:`computed` and this refuse each
    other), or a float literal past 2^53 (written with an exponent or 16 digits: odd)."""
    if abs(v) == MAX_EXACT + 1 or state.big_computed:
        raise NotMine("an integer past 2^53 beside a double that may be its rounding")
    if not state.big_compared:
        texts = state.literals.odd_texts if state.literals is not None else None
        if texts is None or any(type(k) is float and abs(k) >= MAX_EXACT for k in texts):
            raise NotMine("an integer past 2^53 beside float literals past 2^53")
        state.big_compared = True
    return v


def operand(v: int | float) -> int | float:
    """A number about to take part in arithmetic, which jq does in doubles: an int past
    2^53 as its double (jq reads a long literal's double as Python does: rounded
    correctly); a float is the double jq computes with, whatever its literal's digits
    (jq's strtod and Python's float both round correctly)."""
    if type(v) is int and not -MAX_EXACT <= v <= MAX_EXACT:
        return _double(v)
    return v


def _double(v: int) -> float:
    try:
        return float(v)
    except OverflowError:
        raise NotMine("an integer past the doubles") from None


def _ints(a: int, b: int, op) -> int | float:
    """``a op b`` of two ints as jq computes it: exact below 2^53, else in doubles."""
    if -MAX_EXACT <= a <= MAX_EXACT and -MAX_EXACT <= b <= MAX_EXACT:
        result = op(a, b)
        if -MAX_EXACT <= result <= MAX_EXACT:
            return result
    return computed(op(_double(a), _double(b)))


def sort_key(v: Any) -> tuple:
    """A key ordering values as jq does: null < false < true < numbers < strings < arrays
    < objects; arrays element-wise; objects by their sorted keys, then values."""
    t = type(v)
    if t is str:
        return (4, v)
    if t is int or t is float:
        return (3, _number(v))
    if v is None:
        return (0,)
    if t is bool:
        return (2,) if v else (1,)
    if state.sliced:
        # libjq 1.8.2 takes two slices of one array with the same length for the same
        # value ([1,2,3] | .[1:] == .[:2] is true); the fast path does not track slices.
        raise NotMine("comparing containers after an array slice")
    if t is list:
        return (5, tuple(map(sort_key, v)))
    keys = sorted(v)
    return (6, tuple(keys), tuple(sort_key(v[k]) for k in keys))


def equal(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is str and tb is str:
        return a == b
    if (ta is int or ta is float) and (tb is int or tb is float):
        return _number(a) == _number(b)
    return sort_key(a) == sort_key(b)


def less(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return _number(a) < _number(b)
    if ta is str and tb is str:
        return a < b
    return sort_key(a) < sort_key(b)


def compare_with(op: str, constant: Any):
    """``x OP constant`` as a function of ``x``, fast for numbers and strings."""
    number = {"==": float.__eq__, "!=": float.__ne__, "<": float.__lt__, ">": float.__gt__,
              "<=": float.__le__, ">=": float.__ge__}[op]
    kind = type(constant)
    general = COMPARISONS[op]
    if kind is not list and kind is not dict:  # a container on the left loses on its type
        general = _against_scalar(number.__name__, constant, general)
    if kind is int or kind is float:
        c = float(_number(constant))

        def test(x):
            t = type(x)
            if t is int and -MAX_EXACT <= x <= MAX_EXACT:
                return number(float(x), c)
            if t is float:
                state.floats_compared = True
                return number(x, c)
            return general(x, constant)

        return test
    if kind is str:
        strings = getattr(str, number.__name__)
        return lambda x: strings(x, constant) if type(x) is str else general(x, constant)
    return lambda x: general(x, constant)


def _against_scalar(name: str, constant: Any, general):
    """``x OP constant`` for a scalar constant, deciding containers by their type alone
    (no slice can be the constant, so the slice caution of sort_key does not apply)."""
    key, compare = sort_key(constant), getattr(tuple, name)

    def test(x, constant=constant):
        t = type(x)
        if t is list or t is dict:
            return compare((5,) if t is list else (6,), key)
        return general(x, constant)

    return test


COMPARISONS = {
    "==": equal,
    "!=": lambda a, b: not equal(a, b),
    "<": less,
    ">": lambda a, b: less(b, a),
    "<=": lambda a, b: not less(b, a),
    ">=": lambda a, b: not less(a, b),
}


# ---------------------------------------------------------------- arithmetic


def computed(x: float) -> int | float:
    """A computed double as the fast path holds it: whole values below 2^53 as ints (jq
    prints them without a fraction; a float such as 12.0 is kept for literals), -0.0 as is."""
    if x.is_integer():
        if -MAX_EXACT < x < MAX_EXACT:
            return int(x) if x or math.copysign(1.0, x) > 0 else note(x)  # -0.0: noted
    elif x - x != 0.0:  # an infinity or NaN
        raise NotMine("non-finite result")
    if not -MAX_EXACT < x < MAX_EXACT:
        if state.big_compared:
            raise NotMine("a double past 2^53 beside integers compared exactly")
        state.big_computed = True
    literals = state.literals
    texts = literals.odd_texts if literals is not None else None
    return note(x) if texts and x in texts else x


def _numbers(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    return (ta is int or ta is float) and (tb is int or tb is float)


def add(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)  # two floats first (a log's sums), no call on the way
    if ta is float and tb is float:
        return computed(a + b)
    if _numbers(a, b):
        if ta is int and tb is int:
            return _ints(a, b, operator.add)
        return computed(operand(a) + operand(b))
    if a is None:
        return b
    if b is None:
        return a
    if ta is tb and ta in (str, list):
        return a + b
    if ta is dict and tb is dict:
        return {**a, **b}
    raise type_error2(a, b, "cannot be added")


def add_numbers(numbers: Iterable[int | float]) -> int | float | None:
    """``add`` folded over numbers (nulls left out before) as jq folds them, in doubles,
    without a call per item: the sum of a column of a big file."""
    numbers = iter(numbers)
    first = next(numbers, None)
    if first is None:
        return None
    second = next(numbers, None)
    if second is None:  # null + x is x: a lone number is kept as written (12.0, 1E+2)
        return first
    total = float(operand(first))
    for x in chain((second,), numbers):
        if type(x) is not float and not -MAX_EXACT <= x <= MAX_EXACT:
            x = _double(x)
        total += x
    return computed(total)


def subtract(a: Any, b: Any) -> Any:
    if _numbers(a, b):
        if type(a) is int and type(b) is int:
            return _ints(a, b, operator.sub)
        return computed(operand(a) - operand(b))
    if type(a) is list and type(b) is list:
        drop = {sort_key(x) for x in b}
        return [x for x in a if sort_key(x) not in drop]
    raise type_error2(a, b, "cannot be subtracted")


def multiply(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is float and tb is float:
        return computed(a * b)
    if _numbers(a, b):
        if ta is int and tb is int:
            # jq multiplies doubles: 0 * -3 is -0, which jq prints as -0
            return _ints(a, b, operator.mul) if a and b else computed(_double(a) * _double(b))
        return computed(operand(a) * operand(b))
    if type(a) is dict and type(b) is dict:
        return _deep_merge(a, b)
    if type(a) is str and type(b) in NUMBER or type(b) is str and type(a) in NUMBER:
        return _repeat(*((a, b) if type(a) is str else (b, a)))
    raise type_error2(a, b, "cannot be multiplied")


def _repeat(text: str, times: int | float) -> Any:
    """jq 1.8.2's ``jv_string_repeat``: negative counts give null, fractions truncate."""
    if times < 0 or times != times:
        return None
    count = int(min(times, 2**31 - 1))
    if len(text) * count > 1 << 26:
        raise NotMine("a repeated string past 64 MB")
    return text * count


def _deep_merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for key, value in b.items():
        old = out.get(key)
        out[key] = (_deep_merge(old, value) if type(old) is dict and type(value) is dict
                    else value)
    return out


def divide(a: Any, b: Any) -> Any:
    if _numbers(a, b):
        if operand(b) == 0:
            raise type_error2(a, b, "cannot be divided because the divisor is zero")
        return computed(operand(a) / operand(b))
    if type(a) is str and type(b) is str:
        if not a:
            return []
        return list(a) if not b else a.split(b)
    raise type_error2(a, b, "cannot be divided")


def modulo(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        if b == 0:
            raise type_error2(a, b, "cannot be divided (remainder) because the divisor is zero")
        r = abs(_exact(a)) % abs(_exact(b))
        return -r if a < 0 else r
    if _numbers(a, b):
        raise NotMine("remainder of a fraction")
    raise type_error2(a, b, "cannot be divided (remainder)")


ARITHMETIC = {"+": add, "-": subtract, "*": multiply, "/": divide, "%": modulo}


def negate(a: Any) -> Any:
    """``-a``: jq 1.8.2 negates a literal's digits (``-(1.0)`` is ``-1.0``, ``-(-0.0)``
    is ``0.0``, ``-(1e-05)`` ``-0.00001``) and a computed double as a double."""
    t = type(a)
    if t is int:
        if a == 0:  # jq prints -0 for a computed zero but 0 for a literal one
            raise NotMine("negative zero")
        return -a  # past 2^53 a literal: its digits negated
    if t is not float:
        raise type_error(a, "cannot be negated")
    noted, text = noted_text(a)
    if a == 0:
        if noted and text is None:  # -(-0) computed: 0
            if state.literals.negative_zero:
                raise NotMine("a zero whose sign an input's -0 may decide")
            return 0
        texts = state.literals.odd_texts
        if texts is None or "0.0" in texts or "-0.0" in texts:
            raise NotMine("the negation of a zero literal written otherwise")
        return 0.0  # a literal's 0 - x: 0.0
    result = -a
    if noted:  # a literal's text negated (as jq does: its sign), or computed
        return note(result, None if text is None else _negated(text))
    texts = state.literals.odd_texts
    if texts and (a in texts or result in texts):
        text = texts.get(a, held_text(a))
        if text is None:
            raise NotMine("the negation of a literal written two ways")
        return note(result, _negated(text))  # a computed a prints alike (not odd: not noted)
    return result


def negate_literal(a: Any) -> Any:
    """``-a`` of a literal (:class:`.syntax.LiteralNeg`): jq negates its digits, and
    ``-(0)`` is ``0`` (of ``-0`` too: 0 - -0)."""
    return 0 if type(a) is int and a == 0 else negate(a)


def _negated(text: str) -> str:
    return text[1:] if text.startswith("-") else "-" + text


# ---------------------------------------------------------------- paths


def field(v: Any, name: str) -> Any:
    if type(v) is dict:
        return v.get(name)
    if v is None:
        return None
    raise cannot_index(v, name)


def index(v: Any, k: Any) -> Any:
    tv, tk = type(v), type(k)
    if tk is str:
        return field(v, k)
    if tk is int or tk is float:
        if tv is list:
            if tk is float:
                if not math.isfinite(k):
                    raise NotMine("index by a non-finite number")
                k = int(k)  # jq casts the double to an int
            if k < 0:
                k += len(v)
            return v[k] if 0 <= k < len(v) else None
        if v is None:
            return None
    elif tk is list and tv is list:
        return _array_indexes(v, k)
    elif tk is dict:
        raise NotMine("index of this kind")
    raise cannot_index(v, k)


def _array_indexes(v: list, part: list) -> list[int]:
    """``.[[...]]``: where ``part`` starts in ``v`` (jq's ``jv_array_indexes``; none for an
    empty ``part``)."""
    if not part:
        return []
    first, rest = part[0], len(part)
    return [i for i in range(len(v) - rest + 1)
            if equal(v[i], first) and all(equal(v[i + k], y) for k, y in enumerate(part))]


def slice_bounds(length: int, start: Any, end: Any) -> tuple[int, int]:
    """jq's ``parse_slice``: the start rounded down, the end up, both clamped."""
    for bound in (start, end):
        if bound is not None and type(bound) is not int and type(bound) is not float:
            raise NotMine("a slice bound that is not a number")
        if type(bound) is float and not math.isfinite(bound):
            raise NotMine("a slice bound that is not finite")
    if type(start) is not float and type(end) is not float:
        first, last, _ = slice(start, end).indices(length)
        return first, max(first, last)
    begin = 0 if start is None else start
    if begin < 0:
        begin = max(begin + length, 0)
    first = int(min(begin, length))
    stop = length if end is None else end
    if stop < 0:
        stop += length
        if stop < 0:
            stop = first
    last = min(int(stop), length)
    if last < length and last < stop:
        last += 1
    return first, max(last, first)


def slice_of(v: Any, start: Any, stop: Any) -> Any:
    if v is None:
        return None
    if type(v) is list or type(v) is str:
        first, last = slice_bounds(len(v), start, stop)
        if type(v) is list:
            state.sliced = True
        return v[first:last]
    raise cannot_index(v, {"start": start, "end": stop})


def iterate(v: Any) -> Iterator[Any]:
    t = type(v)
    if t is list:
        return chunked(v)
    if t is dict:
        return chunked(list(v.values()))
    if t is Stream:
        return v.take()
    if t is Hollow:
        return chunked(v.rows())
    raise cannot_iterate(v)


def recurse(v: Any) -> Iterator[Any]:
    """``..``: the value, then everything inside it, depth first."""
    stack = [v]
    count = 0
    while stack:
        item = stack.pop()
        yield item
        t = type(item)
        if t is list:
            stack.extend(reversed(item))
        elif t is dict:
            stack.extend(reversed(list(item.values())))
        count += 1
        if count % 4096 == 0:
            check()


def length(v: Any) -> Any:
    t = type(v)
    if t is str or t is list or t is dict:
        return len(v)
    if v is None:
        return 0
    if t is int or t is float:  # jq 1.8.2 negates a negative literal's digits: -0.0 too
        return negate(v) if v < 0 or (t is float and math.copysign(1.0, v) < 0) else v
    raise type_error(v, "has no length")
