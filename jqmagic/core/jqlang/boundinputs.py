"""What jq's ``inputs`` is bound to where the fast path does not hold them as a list
(:mod:`jqmagic.core.query.inputbind`): inputs read as they come, or held as columns."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.runtime import off_the_clock


class Stream:
    """Inputs read as they come (a big file's JSON Lines, never held whole), bound where
    jq's ``inputs`` was (:mod:`jqmagic.core.query.inputbind`): only ever iterated, once."""

    __slots__ = ("_values",)

    def __init__(self, values: Iterator[Any]):
        self._values: Iterator[Any] | None = values

    def take(self) -> Iterator[Any]:
        values, self._values = self._values, None
        if values is None:
            raise NotMine("inputs read twice")
        return values


class Hollow:
    """Inputs whose columns are held but not the values themselves (a JSON Lines file
    held as spans: :mod:`jqmagic.core.query.linespans`), bound where jq's ``inputs`` was:
    a question whose plans read the columns (:mod:`.vector`) makes no value; anything else
    that reads the items (``.[]``, a fused loop) has them made then, once (``make``)."""

    __slots__ = ("count", "_make", "_rows", "_pick", "objects")

    def __init__(self, count: int, make: Callable[[], list[Any]],
                 pick: Callable[[list[int]], list[Any]] | None = None,
                 objects: bool = False) -> None:
        self.count, self._make, self._rows = count, make, None
        self._pick, self.objects = pick, objects  # objects: every item is an object

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows())

    def rows(self) -> list[Any]:
        """The values themselves, made the first time they are asked for."""
        if self._rows is None:
            with off_the_clock():
                rows = self._make()
            if len(rows) != self.count:
                raise NotMine("the file's lines changed under its version")
            self._rows = rows
        return self._rows

    def lines(self, places: list[int]) -> list[Any]:
        """The whole items at ``places`` alone, read again (``pick``; the rows made hold
        only the members of the chains asked)."""
        if self._pick is None:
            raise NotMine("no way to read a line alone")
        with off_the_clock():
            return self._pick(places)

    @property
    def made(self) -> bool:
        return self._rows is not None


def listed(values: Any) -> Any:
    """``values`` as a list where they are :class:`Hollow` (their rows made)."""
    return values.rows() if type(values) is Hollow else values
