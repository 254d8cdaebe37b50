"""A JSON Lines file as a store: an array of its lines' documents (as ``%inspect`` shows
it), each line a :class:`TextDoc`; a line no edit touches is written back byte for byte."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.jsonscan import BOM, stream_index, whole_stream
from jqmagic.core.patch.textdiff import window_diff
from jqmagic.core.patch.textdoc import TextDoc


class LinesDoc:
    """JSON Lines held as its lines; ``/N/...`` is inside the document of the N-th line
    (blank lines are not documents)."""

    def __init__(self, data: bytes):
        self.data = data
        self.bom = data.startswith(BOM)
        self._lines = data[3 if self.bom else 0 :].split(b"\n")  # each may end in \r
        self._docs: list[tuple[int, TextDoc]] = []  # (line number, its document)
        for number, line in enumerate(self._lines):
            if line.strip():
                try:
                    self._docs.append((number, TextDoc(line.rstrip(b"\r"))))
                except JqMagicError as exc:
                    raise JqMagicError(exc.code, f"line {number + 1}: {exc.message}",
                                       exc.hint, exc.detail) from None
        self.documents = len(self._docs)

    @property
    def changed(self) -> bool:
        return any(doc.changed for _, doc in self._docs)

    def _doc(self, tokens: list[str]) -> tuple[TextDoc, list[str]]:
        if not tokens:
            raise whole_stream(self.documents, "line", "a JSON Lines file")
        return self._docs[stream_index(tokens, self.documents, "line")][1], tokens[1:]

    def get(self, tokens: list[str]) -> Any:
        if not tokens:
            return [doc.get([]) for _, doc in self._docs]
        doc, rest = self._doc(tokens)
        return doc.get(rest)

    def kind(self, tokens: list[str]) -> str:
        if not tokens:
            return "array"
        doc, rest = self._doc(tokens)
        return doc.kind(rest)

    def verbatim(self, tokens: list[str]) -> Any:
        doc, rest = self._doc(tokens)
        return doc.verbatim(rest)

    def elements(self, tokens: list[str], needles: list[str]) -> Iterator[tuple[int, Any]]:
        if not tokens:
            return enumerate(self.get([]))
        doc, rest = self._doc(tokens)
        return doc.elements(rest, needles)

    def replace(self, tokens: list[str], value: Any) -> None:
        doc, rest = self._doc(tokens)
        doc.replace(rest, value)

    def add(self, tokens: list[str], value: Any) -> int | None:
        doc, rest = self._doc(tokens if len(tokens) > 1 else [])  # no new lines
        return doc.add(rest, value)

    def remove(self, tokens: list[str]) -> None:
        doc, rest = self._doc(tokens if len(tokens) > 1 else [])  # no line removed
        doc.remove(rest)

    def _text(self, number: int, doc: TextDoc | None) -> bytes:
        line = self._lines[number]
        if doc is None or not doc.changed:
            return line
        return b"".join(doc.chunks()) + (b"\r" if line.endswith(b"\r") else b"")

    def chunks(self) -> Iterator[bytes]:
        """The new file content: untouched lines as they were."""
        if self.bom:
            yield BOM
        edited = {number: doc for number, doc in self._docs if doc.changed}
        for number in range(len(self._lines)):
            if number:
                yield b"\n"
            yield self._text(number, edited.get(number))

    def diff(self, name: str, context: int = 3) -> str:
        new = b"".join(self.chunks())
        return window_diff(self.data.decode("utf-8", "replace"),
                           new.decode("utf-8", "replace"), name, context)
