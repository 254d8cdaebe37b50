"""Result texts in one piece, as libjq's batches and the worker's chunks carry them.

A :class:`Texts` holds either a list of texts or, as C dumped them, every text's UTF-8
followed by a newline (how a printer of one result a line writes them) with each text's
length: a batch of a million small results is then two objects, and the texts are cut out
of it only when asked for.
"""

from __future__ import annotations

import array
import itertools
from typing import TypeVar

_T = TypeVar("_T", bound="Texts")


class Texts:
    """Result texts, in order: :attr:`texts` the list, :meth:`lines` the piece."""

    __slots__ = ("_texts", "_sizes", "_lines")

    def __init__(self, texts: list[bytes]) -> None:
        self._texts: list[bytes] | None = texts
        self._sizes: array.array | None = None
        self._lines: bytes | None = None

    @classmethod
    def of_lines(cls: type[_T], lines: bytes, sizes: array.array | bytes) -> _T:
        """Texts each followed by a newline in ``lines``; ``sizes`` their lengths (or those
        as bytes: native 8-byte integers)."""
        if not isinstance(sizes, array.array):
            sizes, data = array.array("Q"), sizes
            sizes.frombytes(data)
        made = cls([])
        made._texts, made._sizes, made._lines = None, sizes, lines
        return made

    @classmethod
    def joined(cls: type[_T], parts: list[Texts]) -> _T:
        """The texts of ``parts``, in order, as one."""
        if len(parts) == 1 and parts[0]._texts is not None:
            return cls(parts[0]._texts)
        sizes = array.array("Q")
        for part in parts:
            sizes.extend(part.sizes())
        return cls.of_lines(b"".join(part.lines() for part in parts), sizes)

    @property
    def texts(self) -> list[bytes]:
        if self._texts is None:
            lines = self._lines
            ends = list(itertools.accumulate(size + 1 for size in self._sizes))
            self._texts = [lines[start:end - 1]
                           for start, end in zip([0, *ends], ends, strict=False)]
        return self._texts

    def __len__(self) -> int:
        return len(self._texts if self._texts is not None else self._sizes)

    def sizes(self) -> array.array:
        if self._sizes is None:
            self._sizes = array.array("Q", map(len, self._texts))
        return self._sizes

    def lines(self) -> bytes:
        """Every text followed by a newline, in one piece."""
        if self._lines is None:
            self._lines = b"\n".join(self._texts) + b"\n" if self._texts else b""
        return self._lines

    def size(self) -> int:
        """The texts' bytes (no newline counted)."""
        if self._lines is not None:
            return len(self._lines) - len(self)
        return sum(map(len, self._texts))

    def last(self) -> bytes | None:
        if self._texts is not None:
            return self._texts[-1] if self._texts else None
        return self._lines[-1 - self._sizes[-1]:-1] if self._sizes else None
