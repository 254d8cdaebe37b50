"""What the number literals of a JSON text allow the fast path: the facts (long, odd, whole,
zero) learnt in one pass over its bytes, the odd literals' texts (:mod:`.oddtexts`), kept
with a document as :class:`Literals`."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.numbers import _CLASSES, _FRACTION_TEXTS, _RUNS
from jqmagic.core.jqlang.oddtexts import OddTexts, odd_texts

_CHUNK = 16 * 2**20
_FILE_CHUNK = 2**20  # read back in small pieces: streamed inputs stay small in memory
_OVERLAP = 64


_WHOLE = re.compile(rb"\.0(?![01])")
_ENDS_IN_ZERO = re.compile(rb"\.[01]+0(?![01])")
_NEGATIVE_ZERO = re.compile(rb" -0(?![01.e])")
_NEGATIVE_ZERO_FIRST = re.compile(rb"-0(?![01.e])")


def facts_of(chunk: bytes) -> frozenset[str]:
    """Which facts hold somewhere in ``chunk``, in one pass of two translations and
    substring searches (a regular expression over every position would be 10x slower).

    - ``long``: 16 digits (or points) in a row, or an exponent of 3 digits (1e-400,
      6e-324): two literals may compare apart in jq and alike as doubles;
    - ``odd``: an exponent, or a fraction ending in 0 or starting .0000 (1.50, 1e2,
      0.00001), which jq prints as written and Python otherwise;
    - ``whole``: a fraction of exactly ``.0`` (12.0);
    - ``zero``: a ``-0`` after ``[ , :``, a space or a value's end ``] } "`` (in "item-0"
      it is text; in "-0" it counts, which is only more cautious).
    """
    classes = chunk.translate(_CLASSES)
    runs = classes.translate(_RUNS)
    found = set()
    if b"0" * 16 in runs or b"e000" in runs or b"e-000" in runs:
        found.add("long")
    if b"0e" in runs or b".0000" in classes or _ENDS_IN_ZERO.search(classes):
        found.add("odd")
    if _WHOLE.search(classes):
        found.add("whole")
    if _NEGATIVE_ZERO.search(classes) or _NEGATIVE_ZERO_FIRST.match(classes):
        found.add("zero")
    return frozenset(found)


def _facts_in(chunks: Iterable[bytes], exact: bool = False) -> frozenset[str]:
    """The facts of every chunk; ``exact``: chunks of a text without its strings, where a
    long or odd literal that prints as jq prints its double does not count
    (:func:`_as_jq_prints`)."""
    found: set[str] = set()
    for chunk in chunks:
        facts = facts_of(chunk)
        if exact and facts & PRINTED_ALIKE and _as_jq_prints(chunk):
            facts -= PRINTED_ALIKE
        found |= facts
        if len(found) == len(FACTS):
            break
    return frozenset(found)


PRINTED_ALIKE = frozenset({"long", "odd"})
"""The facts a text loses where every literal they are found in prints as its double."""
_WHOLE_LITERAL = re.compile(rb"-?[0-9]+\.0")


def _as_jq_prints(chunk: bytes) -> bool:
    """Whether every number literal of ``chunk`` (a text without strings) prints, compares
    and computes as its double does: an integer of up to 15 digits, a whole float such as
    ``12.0`` (the ``whole`` fact's), or a fraction written without an exponent as Python's
    repr writes its double (``0.30000000000000004``: as Python, JavaScript and orjson
    write it; jq prints an exponent literal its own way, ``1E+16``). Only the literals
    where the facts are found can be otherwise (:func:`oddtexts.suspects`): any other has
    at most 15 digits and points, no exponent and no 0 ending a fraction."""
    from jqmagic.core.jqlang.oddtexts import suspects

    for token in suspects(chunk):
        if b"e" in token or b"E" in token:
            return False
        if b"." not in token or _WHOLE_LITERAL.fullmatch(token):  # an integer, or 12.0
            if len(token.split(b".")[0].lstrip(b"-")) > 15:
                return False
        else:
            value = float(token)
            if not 1e-4 <= abs(value) < 1e16 or repr(value).encode() != token:
                return False
    return True


_BLOCK = 2**20


def without_strings(data: bytes) -> Iterator[bytes]:
    """A JSON text in blocks for :func:`facts_of`, the contents of its strings left out
    (digits in "v1.50" or an image digest are not literals). A block ends at a newline,
    which a JSON string cannot hold raw; a block whose quotes do not pair (not JSON text),
    or a line past :data:`_CHUNK`, is given as it is, in overlapping pieces (cautious)."""
    at, size = 0, len(data)
    while at < size:
        end = data.find(b"\n", min(at + _BLOCK, size - 1))
        end = size if end < 0 else end + 1
        if end - at > _CHUNK:  # a line past _CHUNK: the rest as it is
            yield from (data[i:i + _CHUNK + _OVERLAP] for i in range(at, size, _CHUNK))
            return
        raw = data[at:end]
        at = end
        text = raw.replace(b"\\\\", b"__").replace(b'\\"', b"__") if b"\\" in raw else raw
        parts = text.split(b'"')
        yield b'""'.join(parts[::2]) if len(parts) % 2 else raw


class Literals:
    """Lazy, conservative facts about the number literals of one JSON text.

    ``chunks`` gives the text (in pieces); the first fact needed learns them all in one
    pass (:func:`facts_of`), after which the text is let go. Digits inside strings count
    as literals too where the text is read back from a file, which only makes the answers
    more cautious.
    """

    def __init__(self, chunks: Callable[[], Iterable[bytes]],
                 exact: Callable[[], Iterable[bytes]] | None = None):
        self._chunks = chunks
        self._exact = exact  # the text without its strings: read when the chunks found facts
        self._facts: frozenset[str] | None = None
        self._texts: dict | None = None  # odd_texts, learnt with the facts
        self._raw = False  # odd_texts learnt from the text with its strings (see raw)
        self._long_fraction = True

    @classmethod
    def raw(cls, data: bytes) -> Literals:
        """The facts and odd texts of a JSON text read as it is, its strings' digits
        counted as literals (one pass, no stripping: for a side process racing a parse).
        Only more cautious, never wrong: a string's ``1.50`` adds a text no literal uses,
        or makes a double written two ways; a literal's plain text is looked for in the
        whole text (:func:`.oddtexts.odd_texts`)."""
        literals = cls(lambda: (data[i:i + _CHUNK + _OVERLAP] for i in range(0, len(data),
                                                                              _CHUNK)))
        literals._raw = True
        return literals

    @classmethod
    def of_text(cls, data: bytes) -> Literals:
        """The facts of a JSON text; where the whole text shows some, they are learnt
        again without its strings (:func:`without_strings`: three times slower)."""
        return cls(lambda: (data[i:i + _CHUNK + _OVERLAP] for i in range(0, len(data), _CHUNK)),
                   lambda: without_strings(data))

    @classmethod
    def of_file(cls, path: str, stamp: tuple[int, int]) -> Literals:
        """Facts read from the file again when needed; NotMine if it changed meanwhile."""
        return cls(lambda: _file_chunks(path, stamp))

    @classmethod
    def of_lines_file(cls, path: str, stamp: tuple[int, int]) -> Literals:
        """:meth:`of_file` of JSON Lines, read again without their strings where the
        facts show odd or long literals (their texts are then learnt too)."""
        return cls(lambda: _file_chunks(path, stamp), lambda: (
            piece for block in _line_blocks(path, stamp) for piece in without_strings(block)))

    @classmethod
    def known(cls, facts: frozenset[str], texts: OddTexts | None = None) -> Literals:
        """Facts learnt elsewhere (a parse's side process), with the odd literals' texts
        when they were learnt too."""
        literals = cls(lambda: ())
        literals._facts = facts
        if texts is not None:
            literals._texts, literals._long_fraction = texts.texts, texts.long_fraction
        return literals

    @property
    def settled(self) -> bool:
        return self._facts is not None

    @property
    def facts(self) -> frozenset[str]:
        """The names of :data:`FACTS` that hold (learnt now if need be)."""
        return self._facts if self._facts is not None else self.settle()._facts

    def settle(self) -> Literals:
        """Learn every fact now, in one pass over the text (two when some show and the text
        can be read without its strings), and let go of the text."""
        if self._facts is None:
            pieces: list[bytes] | None = None  # the text without strings, read once
            if self._raw:
                pieces = list(self._chunks())
                found = _facts_in(pieces)
            else:
                found = _facts_in(self._chunks())
                if found and self._exact is not None:
                    pieces = list(self._exact())
                    found = _facts_in(pieces, exact=True)
            if not found & PRINTED_ALIKE:
                self._texts, self._long_fraction = {}, False
            elif pieces is not None:
                self.learnt_texts(odd_texts(lambda: pieces, raw=self._raw))
            self._facts, self._chunks, self._exact = found, (lambda: ()), None
        return self

    def learnt_texts(self, texts: OddTexts | None) -> None:
        """Take the odd literals' texts learnt from this text (None: unknown)."""
        if texts is not None:
            self._texts, self._long_fraction = texts.texts, texts.long_fraction

    @property
    def odd_texts(self) -> dict | None:
        """The texts jq prints for the literals of these inputs whose double the fast path
        would print otherwise (``1e-05`` -> ``0.00001``, ``1.50``, ``1E+2``), by double
        (a zero by ``"0.0"`` or ``"-0.0"``); None as a text: the double is written two ways
        (``0.1`` and ``0.10``). None: not known (no float literal may be printed where
        the facts show odd or long ones)."""
        self.facts  # noqa: B018 - learnt with the facts
        return self._texts

    @property
    def fraction_texts(self) -> dict[float, str]:
        """Texts of fractional doubles printed before, when these inputs print them as
        Python does (else an empty dict, never filled)."""
        facts = self.facts
        return {} if "odd" in facts or "long" in facts else _FRACTION_TEXTS

    def _fact(self, name: str) -> bool:
        return name in self.facts

    @property
    def long(self) -> bool:
        """A fraction literal may have 16 or more digits (or an exponent of three):
        comparing it as a double may be wrong. Long integers are held exactly (see
        ``values.compare_key``); where the odd texts are unknown, any long literal counts."""
        return self._fact("long") and (self._texts is None or self._long_fraction)

    @property
    def odd_floats(self) -> bool:
        """A fractional literal may print differently from its double whatever its value
        (1.50, 1e2, 0.00001): no float can be printed."""
        return self._fact("long") or self._fact("odd")

    @property
    def whole_floats(self) -> bool:
        """A literal such as ``12.0`` (as Python, JavaScript and pandas write whole floats)
        may be there: jq prints it as written, a computed 12.0 as ``12``, so a whole float
        cannot be printed; other floats print alike either way."""
        return self._fact("whole")

    @property
    def negative_zero(self) -> bool:
        """A ``-0`` literal may be there (jq prints it as ``-0``, Python reads it as 0);
        a ``-0`` inside a string (``"item-0"``) does not count."""
        return self._fact("zero")


FACTS = ("long", "odd", "whole", "zero")


def file_stamp(st: os.stat_result) -> tuple[int, int]:
    """What identifies one version of a file: its size and modification time."""
    return st.st_size, st.st_mtime_ns


def _line_blocks(path: str, stamp: tuple[int, int]) -> Iterator[bytes]:
    """A file's text in blocks that end at a newline (the last one: at the end)."""
    rest = b""
    for chunk in _file_chunks(path, stamp, overlap=False):
        block = rest + chunk
        end = block.rfind(b"\n") + 1
        rest = block[end:]
        if end:
            yield block[:end]
    if rest:
        yield rest


def _file_chunks(path: str, stamp: tuple[int, int], overlap: bool = True) -> Iterator[bytes]:
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
            tail = chunk[-_OVERLAP:] if overlap else b""
