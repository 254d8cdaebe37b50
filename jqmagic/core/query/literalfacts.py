"""What a file's number literals allow the fast path, learnt beside its parse.

jq 1.8.2 keeps a long literal (``100000000000000000001``, ``1.000000000000000000001``) as
its text; a Python float cannot. The fast path answers only where the literals it meets
print and compare as Python's do (:class:`.literals.Literals`): learnt from the file's text
while this process parses it (:func:`facts_beside`: in C, ``_jvbuild.scan_literals``, in a
thread that lets the GIL go; without the extension, in Python in a forked process), or
from the values themselves where the file holds exactly what orjson writes back
(:class:`WrittenBack`).
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
from jqmagic.core.jqlang.literals import PRINTED_ALIKE, Literals, facts_of, without_strings
from jqmagic.core.jqlang.oddtexts import (
    OddTexts,
    candidates,
    held_text,
    plain_searches,
    texts_of,
    written,
)
from jqmagic.core.query import forked
from jqmagic.core.sources.formats import value_facts

try:
    from jqmagic.core.query import _jvbuild
except ImportError:  # built without a C compiler: the facts are learnt in Python
    _jvbuild = None
if not hasattr(_jvbuild, "scan_literals"):  # an extension built before it had them
    _jvbuild = None

_FACT_BITS = ((1, "long"), (2, "odd"), (4, "whole"), (8, "zero"))  # _literalscan.h's
_MAX_WRITTEN = 64  # plain texts looked for in one pass of _jvbuild.literals_written


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
        return self._facts is not None or (self._text.settled and not self._text.long)

    @property
    def long(self) -> bool:
        return self._text.long and "long" in self.facts

    @property
    def odd_texts(self) -> dict | None:
        return self._text.odd_texts  # the file's own texts, whatever the values say

    @property
    def facts(self) -> frozenset[str]:
        if self._facts is None:
            self._facts = self._text.facts  # a long literal that is no long fraction is
            exact = value_facts(self._values) if "long" in self._facts and \
                self._text.long and self._written_back() else None  # held exactly
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
    """Facts still being learnt by ``learn`` (in a thread started now, when ``beside``;
    else by whoever needs them first): the parse does not wait for them."""

    def __init__(self, learn: Callable[[], Literals], beside: bool = True):
        super().__init__(lambda: ())
        self._learn: Callable[[], Literals] | None = learn
        self._learnt: list[Literals] = []
        self._thread: threading.Thread | None = None
        if beside:
            started = threading.Event()
            self._thread = threading.Thread(target=self._learn_beside, args=(started,),
                                            name="literal-facts", daemon=True)
            self._thread.start()
            started.wait()  # it reaches C (and lets the GIL go) before the parse holds it

    def _learn_beside(self, started: threading.Event) -> None:
        started.set()
        self._learnt.append(self._learn())

    @property
    def settled(self) -> bool:
        return self._facts is not None or (self._thread is not None and
                                           not self._thread.is_alive())

    @property
    def facts(self) -> frozenset[str]:
        if self._facts is None:
            if self._thread is not None:
                self._thread.join()
            elif self._learn is not None:
                self._learnt.append(self._learn())
            if not self._learnt:
                raise NotMine("the literal facts could not be learnt")
            learnt = self._learnt[0]
            self._facts = learnt.facts
            self._texts, self._long_fraction = learnt.odd_texts, learnt._long_fraction  # noqa: SLF001
            self._learn = None  # the text it held is let go
        return self._facts

    def settle(self) -> Literals:
        self.facts  # noqa: B018 - waited for here
        return self


def scanned(data: bytes) -> Literals:
    """The literal facts of a JSON text (or JSON Lines) and its odd literals' texts, exact
    (its strings' digits are no literals), read in C: a pass at a few hundred MB/s that
    lets the GIL go, and one more where a double with an odd text may be written plainly
    too (``0.10`` beside ``0.1``). Needs ``_jvbuild``."""
    bits, unlike, tokens = _jvbuild.scan_literals(data)
    facts = frozenset(name for bit, name in _FACT_BITS if bits & bit)
    if not unlike:  # every literal where they are found prints as its double
        facts -= PRINTED_ALIKE
    if not facts & PRINTED_ALIKE:
        return Literals.known(facts, OddTexts({}, False))
    learnt = texts_of(tokens) if tokens is not None else None
    if learnt is not None:
        searches = plain_searches(learnt, lambda plain: bool(_jvbuild.scan_literals(plain)[2]))
        if len(searches) > _MAX_WRITTEN:
            learnt = None
        elif searches:
            found = _jvbuild.literals_written(data, tuple(searches.values()))
            for key, seen in zip(searches, found, strict=True):
                if seen:
                    learnt.texts[key] = None
    return Literals.known(facts, learnt)


SCAN_BESIDE_FROM = 4 << 20
scan_beside = False
"""Whether a big file's literal facts are learnt in a forked process while this one parses
it (the worker says so: :func:`use_a_spare_core`)."""


def use_a_spare_core() -> None:
    """This process has a core to spare and nothing else running (the worker): learn big
    files' literal facts beside their parse, read big YAML in halves."""
    global scan_beside
    scan_beside = True


def facts_beside(data: bytes) -> Literals:
    """The literal facts of ``data``, learnt while this process parses it (:class:`Pending`:
    whoever needs them first waits).

    In C (:func:`scanned`) in a thread that lets the GIL go, for a text of
    :data:`SCAN_BESIDE_FROM` bytes or more; when first needed, for a smaller one. Without
    the extension, in Python: in a forked process on another core when the text is big
    and :data:`scan_beside` is set; else when first needed (also when the side process
    fails).
    """
    big = len(data) >= SCAN_BESIDE_FROM
    if _jvbuild is not None:
        return Pending(lambda: scanned(data), beside=big)
    literals = Literals.of_text(data)
    if not (scan_beside and big and hasattr(os, "fork")):
        return literals
    raw = Literals.raw(data)  # beside the parse: one pass over the text as it is
    started = forked.beside(lambda writing: _send(writing, raw.settle()))
    if started is None:
        return literals

    def wait() -> Literals:
        answer = forked.answer(started)
        if not answer.endswith(b"."):
            return literals.settle()
        facts, _, texts = answer[:-1].partition(b"\n")
        return Literals.known(frozenset(filter(None, facts.decode().split(","))),
                              OddTexts.loads(texts) if texts else None)

    return Pending(wait)


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
    jq reads only that. Lines read after the facts were learnt are checked as each is
    whole, before the reader parses them: a fact, or an odd literal, not learnt before
    stops the answer (libjq's then). Past :data:`KEEP` bytes the blocks are let go and
    the file is read again when needed."""

    KEEP = 64 << 20

    def __init__(self, path: str, stamp: tuple[int, int]):
        super().__init__(lambda: ())
        self._path, self._stamp = path, stamp
        self._blocks: list[bytes] | None = []
        self._kept = 0
        self._ended = False
        self._rest = b""  # the line read in part, checked once it is whole

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
        if self._facts is not None and self._rest:
            self._check(b"\n")  # the last line, which ends without a newline
        self._ended = True

    def settle(self) -> Literals:
        if self._facts is None:
            if self._blocks is None:
                learnt = Literals.of_lines_file(self._path, self._stamp).settle()
                self._ended = True  # (the whole file: nothing is left to check)
            else:
                data = b"".join(self._blocks)
                self._blocks = None
                whole = len(data) if self._ended else data.rfind(b"\n") + 1
                self._rest = data[whole:]  # a line read in part holds no value yet
                data = data[:whole]
                learnt = scanned(data) if _jvbuild is not None else \
                    Literals.of_text(data).settle()
            self._facts = learnt.facts
            self._texts, self._long_fraction = learnt.odd_texts, learnt._long_fraction  # noqa: SLF001
        return self

    def _check(self, block: bytes) -> None:
        """NotMine when the lines ``block`` makes whole may hold a literal the facts
        learnt did not see."""
        text = self._rest + block
        whole = text.rfind(b"\n") + 1
        text, self._rest = text[:whole], text[whole:]
        if not text:
            return
        if _jvbuild is not None:
            self._check_in_c(text)
            return
        for piece in without_strings(text):  # whole lines: their strings' digits left out
            if facts_of(piece) - self._facts:
                raise NotMine("literals read after their facts were learnt")
            self._check_tokens(candidates(piece))
            for key in self._plain_written():  # a double learnt odd, now written plainly
                if written(piece, (held_text(key) if type(key) is float else key).encode()):
                    raise NotMine("a literal written two ways")

    def _check_in_c(self, text: bytes) -> None:
        learnt = scanned(text)
        if learnt.facts - self._facts:
            raise NotMine("literals read after their facts were learnt")
        later, texts = learnt.odd_texts, self._texts or {}
        if later is None or (learnt._long_fraction and not self._long_fraction):  # noqa: SLF001
            raise NotMine("odd literals read after the facts were learnt")
        if any(texts.get(key, False) not in (text_of, None) for key, text_of in later.items()):
            raise NotMine("an odd literal read after the facts were learnt")
        plains = tuple({(held_text(key) if type(key) is float else key).encode()
                        for key in self._plain_written()})
        for at in range(0, len(plains), _MAX_WRITTEN):
            if any(_jvbuild.literals_written(text, plains[at:at + _MAX_WRITTEN])):
                raise NotMine("a literal written two ways")  # learnt odd, now plainly

    def _check_tokens(self, tokens: Iterable[bytes]) -> None:
        texts = self._texts or {}
        for token in tokens:
            value = float(token)
            key = value if value else ("-0.0" if token.startswith(b"-") else "0.0")
            plain = held_text(value) if value else key
            if texts.get(key, plain) not in (str(Decimal(token.decode())), None):
                raise NotMine("an odd literal read after the facts were learnt")

    def _plain_written(self) -> list:
        """The doubles learnt with an odd text (not written two ways already)."""
        return [key for key, text in (self._texts or {}).items() if text is not None]
