"""The outermost loop of a fused function (:mod:`.fuse`) over a list that may have
columns (:mod:`.columns`): the field chains its body reads, written as column reads, and
the two loops it becomes, over the items with their columns or over the items alone (the
latter recording the chains its statements read whole)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Loop:
    """The outermost loop of a function, over ``items``: the field chains its body reads
    on ``item`` (or a name holding it) come from the items' columns (:mod:`.columns`)
    when the items have them; else the same body reads them itself."""

    items: str
    item: str
    optional: bool  # X[]?: nothing when the items are neither an array nor an object
    names: set[str] = field(default_factory=set)
    chains: dict[tuple[str, ...], str] = field(default_factory=dict)
    reads: dict[str, tuple[str, ...]] = field(default_factory=dict)  # expression -> chain
    plain: dict[str, str] = field(default_factory=dict)  # expression -> without a column
    held: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> chain it holds
    repeats: dict[str, tuple[str, ...]] = field(default_factory=dict)  # flag -> its chain

    def hold(self, name: str, value: str) -> None:
        """``name`` holds ``value``: the chain it reads too, when it is one."""
        chain = self.chain_of(value)
        if chain is not None:
            self.held[name] = chain

    def chain_of(self, value: str) -> tuple[str, ...] | None:
        return self.reads.get(value) or self.held.get(value)

    def read(self, value: str, names: list[str], plain: str, src: Any) -> str:
        """``value.names...`` (whose own expression is ``plain``) from its column: of the
        item, or of a name holding a chain of it (``.user | .name``: ``.user.name``)."""
        if not names:
            return plain
        if value == self.item or value in self.names:
            chain = tuple(names)
        elif value in self.held:
            chain = self.held[value] + tuple(names)
        else:
            return plain
        column = self.chains.get(chain)
        if column is None:
            column = self.chains[chain] = src.temp()
        read = f"({column} if {column} is not _UNREAD else {plain})"
        self.reads[read], self.plain[read] = chain, plain
        return read

    @property
    def header(self) -> str:
        return self._header(self.item, f"_iterate({self.items})")

    def _header(self, names: str, source: str, depth: int = 1) -> str:
        if self.optional:
            source = f"({source} if type({self.items}) is list or type({self.items}) is " \
                     "dict else ())"
        return f"{'    ' * depth}for {names} in {source}:"

    def zip_columns(self, lines: list[str], src: Any) -> None:
        """Two loops: over the items and their columns, when ``_zipped`` finds them,
        else over the items alone, each chain read as it is; there the chains read in
        the body's own statements are recorded as they are read (their columns, at no
        cost of their own: see :func:`_recording`)."""
        if not self.chains:
            return
        at = lines.index(self.header)
        end = next((i for i in range(at + 1, len(lines)) if not lines[i].startswith(" " * 8)),
                   len(lines))
        body = lines[at + 1:end]
        recording = _recording(body, self.reads)
        plain, start, finish = [], [], []
        for number, line in enumerate(body):
            before = []
            for read in recording.get(number, ()):
                chain, values, held = self.reads[read], src.temp(), src.temp()
                start.append(f"        {values} = []")
                finish.append(f"        _recorded({self.items}, {chain!r}, {values})")
                before += [f"        {held} = {read}", f"        {values}.append({held})"]
                line = line.replace(read, held, 1)
            for out in [*before, line]:
                for read, text in self.plain.items():
                    out = out.replace(read, text)
                plain.append(out)
        recorded = tuple(self.reads[read] for reads in recording.values() for read in reads)
        zipped = src.temp()
        lines[at:end] = [
            *(f"    {flag} = _repeats({self.items}, {chain!r})"
              for flag, chain in self.repeats.items()),
            f"    {zipped} = _zipped({self.items}, {tuple(self.chains)!r}, {recorded!r})",
            f"    if {zipped} is None:", *start,
            self._header(self.item, f"_iterate({self.items})", 2),
            *("    " + line for line in plain), *finish, "    else:",
            self._header(", ".join([self.item, *self.chains.values()]), zipped, 2),
            *("    " + line for line in body)]


_CONTROL = ("if ", "for ", "else", "elif ", "while ", "try", "with ")


def _recording(body: list[str], reads: dict[str, tuple[str, ...]]) -> dict[int, list[str]]:
    """The reads to record, by the number of their line: a read that is the whole value
    of a statement of the body itself (``x = READ``, ``append(READ)``) before any of its
    control flow, the first of each chain. Such a statement runs once an item, so the
    values are recorded in the items' order (:func:`.columns.recorded` counts them too).
    A read inside an expression is not: keeping it there costs about what a pass to build
    its column costs, and that pass waits until a loop asks for the chain again."""
    found: dict[int, list[str]] = {}
    chains: set[tuple[str, ...]] = set()
    for number, line in enumerate(body):
        statement = line.strip()
        if line.startswith(" " * 9) or statement.startswith(_CONTROL):
            break
        for read, chain in reads.items():
            if chain not in chains and (statement.endswith(f" = {read}") or
                                        statement == f"append({read})"):
                chains.add(chain)
                found[number] = [read]
                break
    return found
