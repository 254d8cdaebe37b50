"""The number literals of a JSON text that jq 1.8.2 prints otherwise than the fast path
prints their double (``1e-05`` as ``0.00001``, ``1.50``, ``1E+2``, ``-0.00``), found beside
the facts of :mod:`.numbers` and written as jq writes them (its decNumber text, which
Python's ``Decimal`` writes alike: the General Decimal Arithmetic's to-scientific-string).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from decimal import Decimal

from jqmagic.core.jqlang.numbers import _CLASSES, _RUNS, MAX_EXACT, format_float

_JSON_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_ODD_ENDING = re.compile(rb"\.[01]+0(?![01])")  # in classes: 1.50, -0.00 (not 12.0)
"""The float literals whose text jq may print otherwise than the fast path prints their
double are found by what :func:`facts_of` finds (an exponent, a fraction ending in 0 but
``.0``, below 1e-4, 16 digits); any other fraction (``3.25``, ``-0.5``) is the shortest
text of its double, and ``12.0`` or ``-0.0`` is printed as written."""
MAX_ODD = 4096  # distinct candidate literals learnt at most (else: not known)
MAX_SEARCHES = 32  # doubles whose plain text is looked for in the text at most


class OddTexts:
    """What :func:`odd_texts` learnt: ``texts`` (see :attr:`Literals.odd_texts`) and
    whether a long fraction literal is there (one that is not its double's shortest
    text: ``0.1000000000000000000001``)."""

    __slots__ = ("texts", "long_fraction")

    def __init__(self, texts: dict, long_fraction: bool):
        self.texts, self.long_fraction = texts, long_fraction

    def dumps(self) -> bytes:
        """The texts as JSON (a side process sends them): [key, text] pairs."""
        pairs = [[k if type(k) is str else repr(k), t] for k, t in self.texts.items()]
        return json.dumps([self.long_fraction, pairs]).encode()

    @classmethod
    def loads(cls, data: bytes) -> OddTexts:
        long_fraction, pairs = json.loads(data)
        return cls({k if k in ("0.0", "-0.0") else float(k): t for k, t in pairs},
                   long_fraction)


def held_text(value: float) -> str:
    """The text the fast path prints for a float literal (a whole one below 2^53 as
    Python writes it, ``12.0``; others as jq prints their double)."""
    if value.is_integer() and abs(value) < MAX_EXACT:
        return repr(value)
    return format_float(value)


def odd_texts(chunks: Callable[[], Iterable[bytes]], raw: bool = False) -> OddTexts | None:
    """The odd literals of a text without its strings (``chunks`` gives it, and again
    where a double's plain text must be looked for; ``raw``: with its strings, whose
    digits then count as literals, see ``Literals.raw``); None when there are too many or
    a literal is not finite as a double."""
    tokens: set[bytes] = set()
    for chunk in chunks():
        if not raw and chunk.count(b'"') != 2 * chunk.count(b'""'):
            return None  # a text given with its strings: their digits are no literals
        tokens |= candidates(chunk)
        if len(tokens) > MAX_ODD:
            return None
    learnt = texts_of(tokens)
    if learnt is None:
        return None
    searches = plain_searches(learnt, lambda plain: bool(candidates(plain)))
    if len(searches) > MAX_SEARCHES:
        return None
    for key, plain in searches.items():  # the double written plainly too (0.1 beside 0.10)
        if any(written(chunk, plain) for chunk in chunks()):
            learnt.texts[key] = None
    return learnt


def texts_of(tokens: Iterable[bytes]) -> OddTexts | None:
    """The odd texts of distinct candidate literals (:func:`candidates`), by double, before
    any double's plain text is looked for (:func:`plain_searches`); None where a literal is
    not finite as a double."""
    by_key: dict = {}
    long_fraction = False
    for token in tokens:
        value = float(token)
        if not math.isfinite(value):
            return None
        if _long_token(token) and token.decode() != repr(value):
            long_fraction = True
        by_key.setdefault(value if value else ("-0.0" if token.startswith(b"-") else "0.0"),
                          set()).add(str(Decimal(token.decode())))
    texts: dict = {}
    for key, seen in by_key.items():
        plain = held_text(key) if type(key) is float else key
        if seen != {plain}:
            texts[key] = seen.pop() if len(seen) == 1 else None
    return OddTexts(texts, long_fraction)


def plain_searches(learnt: OddTexts, seen: Callable[[bytes], bool]) -> dict:
    """The plain texts (as the fast path prints the double) to look for in the text, by
    key, of the doubles ``learnt`` gives a text: one written plainly too (``0.1`` beside
    ``0.10``) is written two ways. ``seen(plain)``: such a literal would be among the
    learnt tokens already (its text was compared there)."""
    searches = {key: (held_text(key) if type(key) is float else key).encode()
                for key, text in learnt.texts.items() if text is not None}
    return {key: plain for key, plain in searches.items() if not seen(plain)}


def candidates(chunk: bytes) -> set[bytes]:
    """The distinct number literals of ``chunk`` that may be odd: its :func:`suspects` but
    the integers orjson holds exactly (64 bits)."""
    return {token for token in suspects(chunk) if b"." in token or b"e" in token or
            b"E" in token or not -2**63 <= int(token) < 2**64}


def suspects(chunk: bytes) -> set[bytes]:
    """The distinct number literals of ``chunk`` where :func:`facts_of` finds its long and
    odd facts (substring searches on the classes: a regular expression trying every
    position costs 20x more). Any other literal prints as its double does."""
    classes = chunk.translate(_CLASSES)
    starts: list[int] = []
    for marker in (b"0e", b"1e", b".0000"):
        at = classes.find(marker)
        while at >= 0:
            starts.append(at)
            at = classes.find(marker, at + len(marker))
    starts += [m.start() for m in _ODD_ENDING.finditer(classes)]
    runs, long = classes.translate(_RUNS), b"0" * 16
    at = runs.find(long)
    while at >= 0:  # 16 digits or points in a row: a long literal's
        starts.append(at)
        at = runs.find(long, runs.find(b" ", at) if b" " in runs[at:at + 64] else at + 16)
    found: set[bytes] = set()
    for at in starts:  # a literal lies between separators (classes' spaces)
        right = classes.find(b" ", at)
        token = chunk[classes.rfind(b" ", 0, at) + 1:right if right >= 0 else len(chunk)]
        if token not in found and _JSON_NUMBER.fullmatch(token) is not None:
            found.add(token)  # (not digits of a string, where the text has its strings)
    return found


def written(chunk: bytes, text: bytes) -> bool:
    """Whether ``text`` is a whole number literal somewhere in ``chunk``."""
    at = chunk.find(text)
    while at >= 0:
        end = at + len(text)
        if (at == 0 or chunk[at - 1] not in _LITERAL_BYTES) and \
                (end == len(chunk) or chunk[end] not in _LITERAL_BYTES):
            return True
        at = chunk.find(text, at + 1)
    return False


_LITERAL_BYTES = frozenset(b"0123456789.eE+-")


def _long_token(token: bytes) -> bool:
    """16 digits or more in a number literal, or an exponent of three digits."""
    mantissa, _, exponent = token.lower().partition(b"e")
    digits = mantissa.replace(b"-", b"").replace(b".", b"").lstrip(b"0")
    return len(digits) >= 16 or len(exponent.lstrip(b"+-")) >= 3
