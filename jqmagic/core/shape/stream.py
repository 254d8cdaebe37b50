"""Shape inference over a JSON (or JSON Lines) file in one streaming pass with ijson.

Memory stays bounded by the shape (distinct paths, capped keys), never by the file: events
from ijson's C backend feed the same :class:`~jqmagic.core.shapenode.Node` accumulator as
the in-memory walk, so both paths give identical shapes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from jqmagic.core.errors import JqMagicError
from jqmagic.core.pointers import bad_index, index_of, missing_key, not_container, to_pointer
from jqmagic.core.shape.node import Node
from jqmagic.core.words import term

Event = tuple[str, Any]
_SCALAR_TYPES = {"string": "string", "number": "number", "boolean": "boolean", "null": "null"}
_KEYS_REMEMBERED = 1000


class _GrowingReader:
    """Chunks that double while no event comes out: yajl rescans a token that spans chunks
    from its start, so a 100 MB string read in 64 KB chunks would cost minutes."""

    BASE, MOST = 64 * 1024, 64 * 2**20

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self.size = self.BASE
        self.quiet_reads = 0  # reads since the last event

    def read(self, n: int = -1) -> bytes:
        if n == 0:  # ijson probes the type of the stream
            return self.stream.read(0)
        self.quiet_reads += 1
        self.size = min(self.size * 2, self.MOST) if self.quiet_reads > 2 else self.BASE
        return self.stream.read(self.size)


class IntegerOverflow(Exception):
    """The C parser met an integer beyond 64 bits; read again with ijson's Python backend."""


def events(stream: BinaryIO, *, lines: bool = False, backend: str | None = None
           ) -> Iterator[Event]:
    """ijson's basic events of ``stream`` (floats, not Decimals); INVALID_JSON on bad input.

    With ``lines`` (JSON Lines) the values are wrapped as the elements of one array.
    ``backend`` names an ijson backend (default: the fastest, yajl2_c).
    """
    import ijson

    parser = ijson if backend is None else ijson.get_backend(backend)
    try:
        if lines:
            yield ("start_array", None)
        reader = _GrowingReader(stream)
        # several values are allowed so that shape can notice them and read them as lines
        for event in parser.basic_parse(reader, use_float=True, multiple_values=True):
            reader.quiet_reads = 0
            yield event
        if lines:
            yield ("end_array", None)
    except ijson.JSONError as exc:
        if "integer overflow" in str(exc):
            raise IntegerOverflow from exc
        raise JqMagicError("INVALID_JSON", f"the document does not parse as JSON: {exc}",
                           "Check the file with `jq . FILE`; for JSON Lines use "
                           f"{term('jsonl')}.") from exc


def _skip(first: str, it: Iterator[Event]) -> None:
    """Consume the rest of a value that began with event ``first``."""
    for _ in _value((first, None), it):
        pass


def _value(first: Event, it: Iterator[Event]) -> Iterator[Event]:
    """The events of one value that began with ``first``."""
    yield first
    if first[0] != "start_map" and first[0] != "start_array":
        return
    depth = 1
    for event in it:
        yield event
        ev = event[0]
        if ev == "start_map" or ev == "start_array":
            depth += 1
        elif ev == "end_map" or ev == "end_array":
            depth -= 1
            if depth == 0:
                return


def subtree(stream: Iterable[Event], parts: list[str], steps: list | None = None
            ) -> Iterator[Event]:
    """The events of the value at pointer ``parts``; NOT_FOUND (saying what exists) if absent.

    The keys and int indices walked are appended to ``steps``.
    """
    steps = [] if steps is None else steps
    it = iter(stream)
    pointer = to_pointer(parts)
    first = next(it)
    for n, token in enumerate(parts):
        parent = to_pointer(parts[:n])
        ev = first[0]
        if ev == "start_map":
            keys: list[str] = []
            for nkeys, (ev, val) in enumerate(it):  # one iteration per member
                if ev == "end_map":
                    raise missing_key(pointer, parent, token, keys, nkeys)
                if val == token:
                    steps.append(token)
                    break
                if nkeys < _KEYS_REMEMBERED:
                    keys.append(val)
                ev, _ = next(it)
                _skip(ev, it)
            first = next(it)
        elif ev == "start_array":
            idx = index_of(token)
            for length, event in enumerate(it):  # one iteration per element
                if event[0] == "end_array":
                    raise bad_index(pointer, parent, token, length)
                if length == idx:
                    steps.append(idx)
                    first = event
                    break
                _skip(event[0], it)
        else:
            raise not_container(pointer, parent, token, _SCALAR_TYPES[ev])
    return _value(first, it)


def feed(stream: Iterable[Event], root: Node) -> None:
    """Merge the value whose events are ``stream`` into ``root``."""
    frames: list[list] = []  # [node, items node or None (a map), elements so far]
    node = root
    for ev, val in stream:
        if ev == "map_key":
            node = frames[-1][0].child(val)
            continue
        if ev == "start_map":
            node.see_object()
            frames.append([node, None, 0])
            continue
        if ev == "start_array":
            node.see_array()
            items = node.items_node()
            frames.append([node, items, 0])
            node = items
            continue
        if ev == "end_map":
            frames.pop()
        elif ev == "end_array":
            done = frames.pop()
            done[0].array_length(done[2])
        else:
            node.see_scalar(val)
        if frames:
            top = frames[-1]
            if top[1] is not None:
                top[2] += 1
                node = top[1]


def jqschema(stream: Iterable[Event]) -> Any:
    """What the gh-aw jqschema filter gives for the (first) value of ``stream``."""
    it = iter(stream)
    return _jqschema(next(it), it)


def _jqschema(first: Event, it: Iterator[Event]) -> Any:
    ev = first[0]
    if ev == "start_map":
        out = {}
        for ev, key in it:
            if ev == "end_map":
                return {k: out[k] for k in sorted(out)}
            out[key] = _jqschema(next(it), it)
    if ev == "start_array":
        event = next(it)
        if event[0] == "end_array":
            return []
        schema = [_jqschema(event, it)]
        for ev, _ in it:
            if ev == "end_array":
                return schema
            _skip(ev, it)
    return _SCALAR_TYPES[ev]
