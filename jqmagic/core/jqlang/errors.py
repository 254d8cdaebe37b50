"""How the fast path stops: "not mine" (libjq decides), a jq error (with the value ``catch``
sees), and ``break`` out of a ``label``; and the two that catch them, ``try`` and ``label``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jqmagic.core.jqlang.state import state


class NotMine(Exception):
    """The program, an input or a value is outside what the fast path reproduces exactly."""


UNWORDED = object()
"""An error value the fast path does not word as libjq would."""


class JqError(Exception):
    """A jq runtime error; ``try`` / ``?`` catch it, anything else hands the query to libjq.

    ``value`` is what ``catch`` receives: given, made on demand by ``make`` (error texts
    cost a preview of the value), or unworded (NotMine once a ``catch`` asks for it)."""

    def __init__(self, value: Any = UNWORDED, make: Callable[[], Any] | None = None):
        _unless_alternatives_wait()
        super().__init__()
        self._value, self._make = value, make

    @property
    def value(self) -> Any:
        if self._make is not None:
            self._value, self._make = self._make(), None
        if self._value is UNWORDED:
            raise NotMine("an error the fast path does not word as libjq")
        return self._value

    def __str__(self) -> str:
        return "jq error"


class Break(Exception):  # noqa: N818 - jq's name for it
    """``break $label``: ends the ``label`` whose run ``label`` names (not an error)."""

    def __init__(self, label: object):
        _unless_alternatives_wait()
        super().__init__()
        self.label = label


def _unless_alternatives_wait() -> None:
    """jq's ``?//`` catches any error raised after it gave an output, until it is resumed
    (an error further down the pipe makes it try its next pattern): NotMine then."""
    if state.alternatives_waiting:
        raise NotMine("an error or break while a ?// destructuring waits")


def tried(body: Callable[[Any, Any], Iterable[Any]],
          handler: Callable[[Any, Any], Iterable[Any]] | None, v: Any, e: Any,
          ) -> Iterator[Any]:
    """``try body catch handler``: the outputs of ``body`` on ``v`` up to its first jq
    error, then ``handler``'s on the error's value (none without a handler); a break
    inside a try is libjq's."""
    try:
        outputs = iter(body(v, e))
        while True:
            try:
                x = next(outputs)
            except StopIteration:
                return
            yield x
    except JqError as exc:
        if handler is None:
            return
        caught = exc.value
    except Break as exc:
        raise NotMine("break inside try") from exc
    yield from handler(caught, e)


def labelled(body: Callable[[Any, Any], Iterable[Any]], key: str,
             ) -> Callable[[Any, Any], Iterator[Any]]:
    """``label $name | body``: ``body`` run with a tag of its own bound at ``key``; a break
    to that tag ends it, any other goes on out."""
    def gen(v: Any, e: Any) -> Iterator[Any]:
        tag = object()
        try:
            yield from body(v, {**e, key: tag})
        except Break as exc:
            if exc.label is not tag:
                raise

    return gen
