"""What a file's number literals allow the fast path, learnt beside its parse.

jq 1.8.2 keeps a long literal (``100000000000000000001``, ``1.000000000000000000001``) as
its text; a Python float cannot. The fast path answers only where the literals it meets
print and compare as Python's do (:class:`.literals.Literals`): learnt from the file's text
in a forked process while this one parses it (:func:`facts_beside`), or from the values
themselves where the file holds exactly what orjson writes back (:class:`WrittenBack`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any

import orjson

from jqmagic.core import sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import Literals, facts_of
from jqmagic.core.jqlang.oddtexts import OddTexts, candidates, held_text, written
from jqmagic.core.query import forked
from jqmagic.core.sources.formats import value_facts


class WrittenBack(Literals):
    """The literal facts of JSON Lines or minified JSON that orjson writes back byte for
    byte (as a JavaScript or Python service writes them): where the text shows a long
    literal, the values' own facts, exact (a float's 17 digits are not long); else the
    text's (its strings left out, :meth:`Literals.of_text`). Learnt when first needed,
    from the file read again (a file changed since keeps the text's facts)."""

    def __init__(self, text: Literals, values: list[Any], path: str, size: int,
                 single: bool):
        super().__init__(lambda: ())
        self._text, self._values, self._path, self._size = text, values, path, size
        self._single = single  # one JSON value, its last newline optional

    @property
    def settled(self) -> bool:  # what the text lacks, the values lack too
        return self._facts is not None or (self._text.settled and
                                           "long" not in self._text.facts)

    @property
    def long(self) -> bool:
        return self._text.long and "long" in self.facts

    @property
    def odd_texts(self) -> dict | None:
        return self._text.odd_texts  # the file's own texts, whatever the values say

    @property
    def facts(self) -> frozenset[str]:
        if self._facts is None:
            self._facts = self._text.facts
            exact = value_facts(self._values) if "long" in self._facts and \
                self._written_back() else None
            if exact is not None:
                self._facts = exact
            self._values = []
        return self._facts

    def settle(self) -> Literals:
        self.facts  # noqa: B018 - learnt on first use
        return self

    def _written_back(self) -> bool:
        """Whether the file holds exactly orjson's lines of the values (compared a batch
        at a time: the whole text is never held twice)."""
        dumps, values = orjson.dumps, self._values
        try:
            with open(sources.open_file(self._path), "rb") as handle:
                if self._single:
                    text = dumps(values[0])
                    return handle.read(self._size + 1) in (text, text + b"\n")
                for at in range(0, len(values), 4096):
                    lines = b"\n".join(map(dumps, values[at:at + 4096])) + b"\n"
                    if handle.read(len(lines)) != lines:
                        return False
                return handle.read(1) == b"" and handle.tell() == self._size
        except (OSError, JqMagicError):
            return False


class Pending(Literals):
    """Facts still being learnt (by a side process, or by a thread here): the parse does
    not wait for them; whoever needs them first does."""

    def __init__(self, learn: Callable[[], Literals]):
        super().__init__(lambda: ())
        self._learnt: list[Literals] = []
        self._thread = threading.Thread(target=lambda: self._learnt.append(learn()),
                                        name="literal-facts", daemon=True)
        self._thread.start()

    @property
    def settled(self) -> bool:
        return self._facts is not None or not self._thread.is_alive()

    @property
    def facts(self) -> frozenset[str]:
        if self._facts is None:
            self._thread.join()
            if not self._learnt:
                raise NotMine("the literal facts could not be learnt")
            learnt = self._learnt[0]
            self._facts = learnt.facts
            self._texts, self._long_fraction = learnt.odd_texts, learnt._long_fraction  # noqa: SLF001
        return self._facts

    def settle(self) -> Literals:
        self.facts  # noqa: B018 - waited for here
        return self


SCAN_BESIDE_FROM = 4 << 20
scan_beside = False
"""Whether a big file's literal facts are learnt in a forked process while this one parses
it (the worker says so: :func:`use_a_spare_core`)."""


def use_a_spare_core() -> None:
    """This process has a core to spare and nothing else running (the worker): learn big
    files' literal facts beside their parse, read big YAML in halves."""
    global scan_beside
    scan_beside = True


def facts_beside(data: bytes) -> Callable[[], Literals]:
    """Start learning the literal facts of ``data``; the function returned waits for them.

    In a forked process on another core while this one parses, when the text is big and
    :data:`scan_beside` is set (a quarter of the first question on a 43 MB file); here,
    after the parse, otherwise or when the side process fails.
    """
    literals = Literals.of_text(data)
    if not (scan_beside and len(data) >= SCAN_BESIDE_FROM and hasattr(os, "fork")):
        return literals.settle
    raw = Literals.raw(data)  # beside the parse: one pass over the text as it is
    started = forked.beside(lambda writing: _send(writing, raw.settle()))
    if started is None:
        return literals.settle

    def wait() -> Literals:
        answer = forked.answer(started)
        if not answer.endswith(b"."):
            return literals.settle()
        facts, _, texts = answer[:-1].partition(b"\n")
        return Literals.known(frozenset(filter(None, facts.decode().split(","))),
                              OddTexts.loads(texts) if texts else None)

    return wait


def _send(writing: int, literals: Literals) -> None:
    """The facts learnt in a side process, and the odd literals' texts when known, sent
    back: ``facts,...\ntexts.`` (written whole: a pipe takes a long write in pieces)."""
    data = ",".join(sorted(literals.facts)).encode()
    texts = literals.odd_texts
    if texts is not None:
        data += b"\n" + OddTexts(texts, literals._long_fraction).dumps()  # noqa: SLF001
    data += b"."
    while data:
        data = data[os.write(writing, data):]


class ReadSoFar(Literals):
    """The literal facts of the JSON Lines a reader has read so far (``record`` passes its
    blocks through): a question that stops at an early line learns only what it read, as
    jq reads only that. Blocks read after the facts were learnt are checked as they come:
    a fact, or an odd literal, not learnt before stops the answer (libjq's then). Past
    :data:`KEEP` bytes the blocks are let go and the file is read again when needed."""

    KEEP = 64 << 20

    def __init__(self, path: str, stamp: tuple[int, int]):
        super().__init__(lambda: ())
        self._path, self._stamp = path, stamp
        self._blocks: list[bytes] | None = []
        self._kept = 0
        self._ended = False
        self._tail = b""

    def record(self, blocks: Iterable[bytes]) -> Iterator[bytes]:
        """``blocks`` as they are read, noted."""
        for block in blocks:
            if self._facts is not None:
                self._check(block)
            elif self._blocks is not None:
                self._blocks.append(block)
                self._kept += len(block)
                if self._kept > self.KEEP:
                    self._blocks = None
            yield block
        self._ended = True

    def settle(self) -> Literals:
        if self._facts is None:
            if self._blocks is None:
                learnt = Literals.of_lines_file(self._path, self._stamp).settle()
            else:
                data = b"".join(self._blocks)
                self._blocks = None
                if not self._ended:  # a line read in part holds no value yet
                    data = data[:data.rfind(b"\n") + 1]
                self._tail = data[-64:]
                learnt = Literals.of_text(data).settle()
            self._facts = learnt.facts
            self._texts, self._long_fraction = learnt.odd_texts, learnt._long_fraction  # noqa: SLF001
        return self

    def _check(self, block: bytes) -> None:
        """NotMine when ``block`` (with the end of the text before it: a literal may be cut
        in two) may hold a literal the facts learnt did not see."""
        text, self._tail = self._tail + block, block[-64:]
        if facts_of(text) - self._facts:
            raise NotMine("literals read after their facts were learnt")
        texts = self._texts or {}
        for token in candidates(text):
            value = float(token)
            key = value if value else ("-0.0" if token.startswith(b"-") else "0.0")
            plain = held_text(value) if value else key
            if texts.get(key, plain) != str(Decimal(token.decode())):
                raise NotMine("an odd literal read after the facts were learnt")
        for key in texts:  # a double learnt odd, now written plainly too
            if written(text, (held_text(key) if type(key) is float else key).encode()):
                raise NotMine("a literal written two ways")
