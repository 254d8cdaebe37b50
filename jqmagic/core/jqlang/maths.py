"""jq 1.8.2's libm builtins (``sin``, ``pow``, ``frexp``...) through Python's ``math``, which
calls the same C library; only those whose Python form is the C function itself, and
only finite answers (NaN and infinities are NotMine)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import many
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import type_error
from jqmagic.core.jqlang.state import state
from jqmagic.core.jqlang.table import Table
from jqmagic.core.jqlang.updates import products

BUILTINS = Table()


def _number(x: Any) -> float:
    if type(x) is int or type(x) is float:
        if type(x) is int and abs(x) > 2**53:
            raise NotMine("an integer past 2^53 as a double")
        return float(x)
    raise type_error(x, "number required")


def _result(compute: Callable[[], float]) -> Any:
    try:
        return jv.computed(compute())
    except (ValueError, OverflowError) as exc:  # C gives NaN or an infinity here
        raise NotMine("a libm result that is not finite") from exc


def _trunc(x: float) -> float:
    return math.copysign(float(math.trunc(x)), x)


def _rint(x: float) -> float:
    """C's ``rint`` in the default rounding mode: halves to even, the sign kept."""
    return math.copysign(float(round(x)), x)


def _c_round(x: float) -> float:
    """C's ``round``: halves away from zero."""
    if abs(x) >= 2**52:
        return x
    whole = _trunc(x)
    return whole + math.copysign(1.0, x) if abs(x - whole) >= 0.5 else whole


_ONE = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
    "acos": math.acos, "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh,
    "exp": math.exp, "expm1": math.expm1, "exp2": math.exp2, "log": math.log,
    "log10": math.log10,
    "log2": math.log2, "log1p": math.log1p, "cbrt": math.cbrt, "fabs": math.fabs,
    "trunc": _trunc, "round": _c_round, "rint": _rint, "nearbyint": _rint,
    "significand": lambda x: 2 * math.frexp(x)[0] if x else x,  # -0 kept
    "logb": lambda x: float(math.frexp(x)[1] - 1) if x else -math.inf,
}
def _signs_of_zero(fn: Callable[[float, float], float], sign_of: int):
    """``fn`` whose answer shows the sign of a zero argument (``sign_of``: which one):
    when an input may hold a ``-0`` literal, read as 0, it declines."""
    def call(*args: float) -> float:
        if args[sign_of] == 0 and state.literals.negative_zero:
            raise NotMine("the sign of a zero that may be an input's -0")
        return fn(*args)
    return call


_TWO = {"pow": math.pow, "atan2": _signs_of_zero(math.atan2, 0), "fmod": math.fmod,
        "copysign": _signs_of_zero(math.copysign, 1),
        "remainder": math.remainder, "drem": math.remainder, "hypot": math.hypot,
        "ldexp": lambda x, n: math.ldexp(x, int(n)),
        "scalbln": lambda x, n: math.ldexp(x, int(n))}

for _name, _fn in _ONE.items():
    BUILTINS.unary(_name)(lambda v, fn=_fn: _result(lambda: fn(_number(v))))

for _name, _fn in _TWO.items():
    BUILTINS[(_name, 2)] = lambda a, b, fn=_fn: many(lambda v, e: (
        _result(partial(fn, _number(x), _number(y)))
        for x, y in products([a.gen, b.gen], v, e)))


@BUILTINS.unary("frexp")
def _frexp(v: Any) -> list:
    mantissa, exponent = math.frexp(_number(v))
    return [_result(lambda: mantissa), exponent]


@BUILTINS.unary("modf")
def _modf(v: Any) -> list:
    fraction, whole = math.modf(_number(v))
    return [_result(lambda: fraction), _result(lambda: whole)]
