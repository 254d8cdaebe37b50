"""Numbers as jq 1.8.2 prints them, and which literals of a JSON text it would print as written.

jq prints a computed double the way its ``jvp_dtoa_fmt`` does (shortest digits, exponent
form below 1e-4 or past 15 + digits places, a two-digit signed exponent). A number read
from JSON text or written in a program keeps its literal and is printed as written
(``1.50``, ``1E+2``, ``-0``) and compared exactly (as decimals). The fast path holds
doubles, so it answers only where the two agree: :class:`Literals` finds out, lazily and
conservatively, whether a text holds literals for which they could differ.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.state import state

if TYPE_CHECKING:
    pass

MAX_EXACT = 2**53
"""Integers up to this magnitude are exact as doubles: jq and Python agree on them."""


def format_float(x: float) -> str:
    """jq's text for a computed double.

    >>> [format_float(v) for v in (2.0, 0.1, 1e15, 1e16, 1e-05, 0.0001, 1.5e300)]
    ['2', '0.1', '1000000000000000', '1e+16', '1e-05', '0.0001', '1.5e+300']
    """
    if not math.isfinite(x):
        raise NotMine("non-finite number")
    text = repr(x)
    sign = "-" if text[0] == "-" else ""
    mantissa, _, exponent = text.lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    significant = (whole + fraction).lstrip("0")
    if not significant.strip("0"):
        return sign + "0"
    decpt = len(significant) + int(exponent or 0) - len(fraction)
    digits = significant.rstrip("0")
    if decpt <= -4 or decpt > len(digits) + 15:
        head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        exp = decpt - 1
        return f"{sign}{head}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    if decpt >= len(digits):
        return sign + digits + "0" * (decpt - len(digits))
    return f"{sign}{digits[:decpt]}.{digits[decpt:]}"


_FRACTION_TEXTS: dict[float, str] = {}
"""Texts of fractional doubles already printed: a column of prices repeats a few thousand
values, and ``repr`` of a double takes 0.4 µs, a lookup 0.04 µs (no zero is kept: -0.0 == 0.0)."""
_REMEMBERED = 1 << 16


def number_text(v: int | float, literals) -> str:
    """jq's text for a number the fast path holds, given what ``literals`` (a
    :class:`Literals`) says the inputs may hold; NotMine where it cannot tell.

    Computed whole doubles are held as ints (see ``values.computed``), so a whole float
    below 2^53 is a literal such as ``12.0``, which jq prints as written; a double whose
    text its value cannot tell (computed where a literal of the inputs holds the same
    double, ``-0.0`` or ``1e-05``; a literal's negation) is noted where it is made
    (:func:`note`), and any other is a literal, printed as its text in the inputs
    (:attr:`Literals.odd_texts`) where that is not Python's.
    """
    facts = literals.facts
    if type(v) is int:
        if v == 0 and "zero" in facts:
            raise NotMine("a -0 literal may be printed")
        return str(v)
    noted = state.held.get(id(v)) if state.held else None
    if noted is not None and noted[1] is not None:
        return noted[1]
    computed = noted is not None
    odd = literals.odd_texts
    if odd is None:
        if "odd" in facts or "long" in facts:
            raise NotMine("a number literal may print differently")
    elif odd and not computed:
        text = odd.get(v if v else _zero_key(v), _PLAIN)
        if text is not _PLAIN:
            if text is None:
                raise NotMine("a double written two ways in the inputs")
            return text
    text = _FRACTION_TEXTS.get(v)
    if text is not None:
        return text
    text = repr(v)
    if "e" not in text and not v.is_integer():  # 1e-4 <= |v| < 1e16: jq prints it alike
        if len(_FRACTION_TEXTS) < _REMEMBERED:
            _FRACTION_TEXTS[v] = text
        return text
    if v.is_integer() and abs(v) < MAX_EXACT:
        if v == 0 and math.copysign(1.0, v) < 0:
            if not computed:
                return text  # a -0.0 literal, printed as written
            if "zero" in facts:  # its sign may come from an input's -0 read as 0
                raise NotMine("a zero whose sign an input's -0 may decide")
            return "-0"
        return text
    return format_float(v)


_PLAIN = object()


def _zero_key(v: float) -> str:
    """The key of a zero in :attr:`Literals.odd_texts` (-0.0 == 0.0 as a float key)."""
    return "-0.0" if math.copysign(1.0, v) < 0 else "0.0"


def note(v: float, text: str | None = None) -> float:
    """``v``, noted for this run as computed (``text`` None) or as a literal printed as
    ``text`` (kept: its id stays its own)."""
    state.held[id(v)] = (v, text)
    return v


def noted_text(v: float) -> tuple[bool, str | None]:
    """Whether ``v`` was noted, and its text if it is a literal's."""
    noted = state.held.get(id(v))
    return (False, None) if noted is None else (True, noted[1])


def literal_number(text: str) -> int | float:
    """The value of a number literal in a program, when jq prints it as we would."""
    if text.isdigit():
        value = int(text)
        if str(value) == text and value <= MAX_EXACT:
            return value
        raise NotMine(f"number literal {text}")
    value = float(text)
    if _plain(value) == text:
        return value
    raise NotMine(f"number literal {text}")


def _plain(value: float) -> str | None:
    """``repr(value)`` when jq prints that same text for both the literal and the double."""
    text = repr(value)
    if "e" in text or not math.isfinite(value) or format_float(value) != text:
        return None
    return text


def canonical_json_number(value: int | float) -> bool:
    """Whether ``json.dumps(value)`` is what jq would print for it (a named argument)."""
    if isinstance(value, float):
        return _plain(value) is not None
    return abs(value) <= MAX_EXACT


# ---------------------------------------------------------------- literals of a text


def _table(mapping: dict[bytes, bytes], other: bytes) -> bytes:
    table = bytearray(other * 256)
    for chars, to in mapping.items():
        for c in chars:
            table[c] = to[0]
    return bytes(table)


_CLASSES = _table({b"0": b"0", b"123456789": b"1", b".": b".", b"eE": b"e", b"+-": b"-",
                   b'[,: \t\r\n]}"': b" "}, b"x")
"""A text reduced to what the facts read: 0, another digit, ., e, a sign, a separator
(a value's end too: values run together on standard input, as ``[1]-0``)."""
_RUNS = _table({b"01.": b"0", b"e": b"e", b"-": b"-"}, b" ")
"""The classes with every digit and point alike: runs of digits, exponents."""
