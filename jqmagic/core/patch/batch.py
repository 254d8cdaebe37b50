"""A diff's steps applied to a JSON / JSONC text as one batch: each step is located against
the text as read and its splice left pending, so the new text is built once (one pass over
the sorted splices), not once a step; the bytes are those the steps make one by one.

A step is made against the text as read only where that text still tells it what it reads:

* a value replaced, or an array's element removed that has a next one (``cut_with_next``),
  when no pending splice touches the value, its line's indentation (nor a new line between
  them), nor what the removal cuts; the arrays on its path had no element removed at or
  before its index (an -i's array steps come last index first);
* any other step inside a small container (the parent of its place, its indentation
  included): made in a :meth:`TextDoc.part` of that container's text, with the steps that
  follow it there; the part's text is spliced back whole.

Anything else is made on the text with every pending splice applied (as before, a step at
a time). A part whose steps fail, or whose text before the container changed, is made
again that way, so the error and the bytes are the one-by-one ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.cuts import cut_with_next
from jqmagic.core.patch.jsonscan import _HWS, _INDEX, _starts_line
from jqmagic.core.patch.onepass import one_pass
from jqmagic.core.patch.plan import Change, Store
from jqmagic.core.patch.steps import insert_at, remove_at, set_at
from jqmagic.core.patch.textdoc import TextDoc
from jqmagic.core.patch.yamltext import YamlDoc

Step = tuple[str, list[str], Any]  # ("set" | "insert" | "remove", tokens, value)
STEPS: dict[str, Callable[[Store, list[str], Any], Change]] = {
    "set": set_at, "insert": insert_at,
    "remove": lambda store, tokens, _: remove_at(store, tokens)}
_PART = 1 << 16  # a part's container: at most this many characters (or an eighth of the text)


def apply_steps(store: Store, steps: list[Step]) -> list[Change]:
    """Make ``steps`` on ``store`` in order; their changes."""
    if isinstance(store, YamlDoc):
        with store.batching():
            return [STEPS[op](store, tokens, value) for op, tokens, value in steps]
    if not isinstance(store, TextDoc):
        return [STEPS[op](store, tokens, value) for op, tokens, value in steps]
    changes = one_pass(store, steps)
    if changes is not None:
        return changes
    batch = _Batch(store)
    changes = [batch.step(op, tokens, value) for op, tokens, value in steps]
    batch.close()
    return changes


class _Batch:
    """The steps of one diff on one :class:`TextDoc`."""

    def __init__(self, doc: TextDoc):
        self.doc = doc
        self.removed: dict[int, int] = {}  # array's opening -> least index removed, pending
        self.part: _Part | None = None

    def step(self, op: str, tokens: list[str], value: Any) -> Change:
        part = self.part
        if part is not None and len(tokens) > len(part.at) and tokens[: len(part.at)] == part.at:
            return part.step(op, tokens, value)
        self.close()
        doc = self.doc
        with doc.deferring():
            direct = self._direct(op, tokens)
            if direct:
                change = STEPS[op](doc, tokens, value)
                if op == "remove":
                    self._removed(tokens)
                return change
            self.part = self._open(tokens[:-1])
        if self.part is not None:
            return self.part.step(op, tokens, value)
        return self._at_once(op, tokens, value)

    def close(self) -> None:
        """Splice the open part's text back (or make its steps again, one by one)."""
        part, self.part = self.part, None
        if part is None or not part.doc.changed:
            return
        new = part.doc.text
        if not new.startswith(part.head):
            self.redo(part)
            return
        with self.doc.deferring():
            self.doc.splice([(part.start, part.end, new[len(part.head) :])])

    def redo(self, part: _Part) -> None:
        """A part's steps made again on the whole text, every pending splice applied."""
        self.part = None
        for op, tokens, value in part.steps:
            self._at_once(op, tokens, value)

    def _at_once(self, op: str, tokens: list[str], value: Any) -> Change:
        """A step made on the text with every pending splice applied (its own too, after)."""
        try:
            return STEPS[op](self.doc, tokens, value)
        finally:
            self.doc.text  # noqa: B018 - the text as read is the text again
            self.removed.clear()

    # ------------------------------------------------------------------ what may be read

    def _direct(self, op: str, tokens: list[str]) -> bool:
        """Whether the step can be made against the text as read (see the module's doc)."""
        if not tokens or op == "insert" or not self._path_clear(tokens):
            return False
        try:
            return self._set_clear(tokens) if op == "set" else self._cut_clear(tokens)
        except JqMagicError:  # not there as read: one by one, to add it or to say why not
            return False

    def _set_clear(self, tokens: list[str]) -> bool:
        found, text = self.doc.locate(tokens), self.doc.text
        return self._line_clear(text, found.start) and not self.doc.pending.touched(
            found.start, found.end)

    def _cut_clear(self, tokens: list[str]) -> bool:
        doc, text = self.doc, self.doc.text
        parent = doc.locate(tokens[:-1])
        if text[parent.start] != "[" or not _INDEX.fullmatch(tokens[-1]):
            return False
        index = int(tokens[-1])
        known = doc._walk(text, parent.start, index + 1)
        if len(known) < index + 2:
            return False  # the last element: its cut takes the comma before it
        start, end, _ = cut_with_next(text, known[index])
        if text[end - 1] != "\n":  # the cut read the character after it
            end += 1
        return self._line_clear(text, start) and not doc.pending.touched(start, end - 1)

    def _removed(self, tokens: list[str]) -> None:
        opening = self.doc.locate(tokens[:-1]).start
        index = int(tokens[-1])
        self.removed[opening] = min(index, self.removed.get(opening, index))

    def _path_clear(self, tokens: list[str]) -> bool:
        """Whether no array on the path has an element removed (pending) at or before the
        index the path takes: the index still names the element as read."""
        if not self.removed:
            return True
        for depth in range(len(tokens)):
            try:
                opening = self.doc.locate(tokens[:depth]).start
            except JqMagicError:
                return True  # the rest is not there to be read
            least = self.removed.get(opening)
            if least is not None and (not _INDEX.fullmatch(tokens[depth])
                                      or int(tokens[depth]) >= least):
                return False
        return True

    def _line_clear(self, text: str, pos: int) -> bool:
        """Whether the line holding ``pos`` still starts, and is indented, as read up to
        ``pos``: no pending splice touches its newline and indentation, nor writes a new
        line between its start and ``pos``."""
        line = text.rfind("\n", 0, pos)
        indent = _HWS.match(text, line + 1, pos).end()
        pending = self.doc.pending
        return not pending.touched(line, indent) and not pending.new_line_in(line, pos)

    def _open(self, at: list[str]) -> _Part | None:
        """A part for the container at ``at`` when it is small and its text as read."""
        doc, text = self.doc, self.doc.text
        if not at or not self._path_clear(at):
            return None
        try:
            found = doc.locate(at)
        except JqMagicError:
            return None
        if (text[found.start] not in "{[" or not self._line_clear(text, found.start)
                or found.end - found.start > max(_PART, len(text) // 8)
                or doc.pending.touched(found.start, found.end)):
            return None
        line = text.rfind("\n", 0, found.start) + 1
        indent = text[line : _HWS.match(text, line, found.start).end()]
        # what the steps read of the line before the container: its indentation, and
        # whether something else stands there
        head = indent if _starts_line(text, found.start) else indent + "\x00"
        excerpt = head + text[found.start : found.end]
        return _Part(self, at, found.start, found.end, head,
                     TextDoc.part(excerpt, len(head), doc, found.multiline))


class _Part:
    """Steps inside one container, made on its own text."""

    def __init__(self, batch: _Batch, at: list[str], start: int, end: int, head: str,
                 doc: TextDoc):
        self.batch, self.at, self.start, self.end, self.head = batch, at, start, end, head
        self.doc = doc
        self.steps: list[Step] = []
        self.store = _Within(doc, len(at))

    def step(self, op: str, tokens: list[str], value: Any) -> Change:
        self.steps.append((op, tokens, value))
        try:
            return STEPS[op](self.store, tokens, value)
        except JqMagicError:
            self.batch.redo(self)  # raises the one-by-one error
            raise


class _Within:
    """A part's document seen with the whole document's pointers."""

    def __init__(self, doc: TextDoc, depth: int):
        self.doc, self.depth = doc, depth

    def _inner(self, tokens: list[str]) -> list[str]:
        if len(tokens) < self.depth:
            raise AssertionError("a step of a part reads outside it")  # pragma: no cover
        return tokens[self.depth :]

    def get(self, tokens: list[str]) -> Any:
        return self.doc.get(self._inner(tokens))

    def kind(self, tokens: list[str]) -> str:
        return self.doc.kind(self._inner(tokens))

    def replace(self, tokens: list[str], value: Any) -> None:
        self.doc.replace(self._inner(tokens), value)

    def add(self, tokens: list[str], value: Any) -> int | None:
        return self.doc.add(self._inner(tokens), value)

    def remove(self, tokens: list[str]) -> None:
        self.doc.remove(self._inner(tokens))
