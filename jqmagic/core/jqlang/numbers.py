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
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator

from jqmagic.core.jqlang.errors import NotMine

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


def number_text(v: int | float, literals) -> str:
    """jq's text for a number the fast path holds, given what ``literals`` (a
    :class:`Literals`) says the inputs may hold; NotMine where it cannot tell.

    Computed whole doubles are held as ints (see ``values.computed``), so a whole float
    below 2^53 is a literal such as ``12.0``, which jq prints as written.
    """
    if type(v) is int:
        if v == 0 and literals.negative_zero:
            raise NotMine("a -0 literal may be printed")
        return str(v)
    if literals.odd_floats:
        raise NotMine("a number literal may print differently")
    text = repr(v)
    if "e" not in text and not v.is_integer():  # 1e-4 <= |v| < 1e16: jq prints it alike
        return text
    if v.is_integer() and abs(v) < MAX_EXACT:
        if v == 0 and math.copysign(1.0, v) < 0:
            if literals.whole_floats:
                raise NotMine("-0.0 may be a literal or computed")
            return "-0"
        return text
    return format_float(v)


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

_CHUNK = 16 * 2**20
_FILE_CHUNK = 2**20  # read back in small pieces: streamed inputs stay small in memory
_OVERLAP = 64


def _table(mapping: dict[bytes, bytes]) -> bytes:
    table = bytearray(b" " * 256)
    for chars, to in mapping.items():
        for c in chars:
            table[c] = to[0]
    return bytes(table)


_DIGITS = _table({b"0123456789.": b"0"})
_EXPONENTS = _table({b"0123456789": b"0", b"eE": b"e", b"+-": b"+"})
_NEGATIVE_ZERO = re.compile(rb"-0(?![0-9.eE])")
_FRACTION = re.compile(rb"\.[0-9]+")


class Literals:
    """Lazy, conservative facts about the number literals of one JSON text.

    ``chunks`` gives the text again (in pieces) each time a fact is first needed. Digits
    inside strings count as literals too, which only makes the answers more cautious.
    """

    def __init__(self, chunks: Callable[[], Iterable[bytes]]):
        self._chunks = chunks
        self._facts: dict[str, bool] = {}
        self._lock = threading.Lock()  # the worker may settle facts while it waits
        self.settled = False

    @classmethod
    def of_text(cls, data: bytes) -> Literals:
        return cls(lambda: (data[i:i + _CHUNK + _OVERLAP] for i in range(0, len(data), _CHUNK)))

    @classmethod
    def of_file(cls, path: str, stamp: tuple[int, int]) -> Literals:
        """Facts read from the file again when needed; NotMine if it changed meanwhile."""
        return cls(lambda: _file_chunks(path, stamp))

    def settle(self) -> Literals:
        """Establish every fact now, in one pass over the text, and let go of the text."""
        with self._lock:
            open_facts = {name: test for name, test in _TESTS.items()
                          if name not in self._facts}
            found = set()
            if open_facts:
                for chunk in self._chunks():
                    found |= {name for name, test in open_facts.items()
                              if name not in found and test(chunk)}
                    if len(found) == len(open_facts):
                        break
            self._facts.update({name: name in found for name in open_facts})
            self._chunks, self.settled = (lambda: ()), True
        return self

    def _fact(self, name: str, test: Callable[[bytes], bool]) -> bool:
        with self._lock:
            if name not in self._facts:
                self._facts[name] = any(test(chunk) for chunk in self._chunks())
            return self._facts[name]

    @property
    def long(self) -> bool:
        """A literal may have 15 or more digits: comparing it as a double may be wrong."""
        return self._fact("long", _long)

    def learn_long(self, data: bytes) -> Literals:
        """Establish :attr:`long` from the text at hand (cheaper than reading it again)."""
        self._facts["long"] = any(map(_long, Literals.of_text(data)._chunks()))
        return self

    @property
    def odd_floats(self) -> bool:
        """A fractional literal may print differently from its double whatever its value
        (1.50, 1e2, 0.00001): no float can be printed."""
        return self.long or self._fact("odd", _odd_floats)

    @property
    def whole_floats(self) -> bool:
        """A literal such as ``12.0`` (as Python, JavaScript and pandas write whole floats)
        may be there: jq prints it as written, a computed 12.0 as ``12``, so a whole float
        cannot be printed; other floats print alike either way."""
        return self._fact("whole", _whole_floats)

    @property
    def negative_zero(self) -> bool:
        """A ``-0`` literal may be there (jq prints it as ``-0``, Python reads it as 0);
        a ``-0`` inside a string (``"item-0"``) does not count."""
        return self._fact("zero", _negative_zero)


def file_stamp(st: os.stat_result) -> tuple[int, int]:
    """What identifies one version of a file: its size and modification time."""
    return st.st_size, st.st_mtime_ns


def _file_chunks(path: str, stamp: tuple[int, int]) -> Iterator[bytes]:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise NotMine(f"{path} cannot be read again") from exc
    with handle:
        if file_stamp(os.fstat(handle.fileno())) != stamp:
            raise NotMine(f"{path} changed")
        tail = b""
        while chunk := handle.read(_FILE_CHUNK):
            yield tail + chunk
            tail = chunk[-_OVERLAP:]


def _long(chunk: bytes) -> bool:
    """Digits enough (16) or an exponent at a double's limits (3 digits, as in 1e-400 or
    6e-324) that two literals may compare apart in jq and alike as doubles."""
    if b"0" * 16 in chunk.translate(_DIGITS):
        return True
    exponents = chunk.translate(_EXPONENTS)
    return b"e000" in exponents or b"e+000" in exponents


def _odd_floats(chunk: bytes) -> bool:
    exponents = chunk.translate(_EXPONENTS)
    if b"0e0" in exponents or b"0e+0" in exponents:
        return True
    fractions = set(_FRACTION.findall(chunk)) - {b".0"}  # whole floats: see whole_floats
    return any(f.endswith(b"0") or f.startswith(b".0000") for f in fractions)


def _whole_floats(chunk: bytes) -> bool:
    return b".0" in set(_FRACTION.findall(chunk))


def _negative_zero(chunk: bytes) -> bool:
    """A ``-0`` after ``[ , :`` or a space (inside a string, as in "item-0", it is text)."""
    return any(m.start() == 0 or chunk[m.start() - 1] in b"[,: \t\r\n"
               for m in _NEGATIVE_ZERO.finditer(chunk))


_TESTS = {"long": _long, "odd": _odd_floats, "whole": _whole_floats, "zero": _negative_zero}
