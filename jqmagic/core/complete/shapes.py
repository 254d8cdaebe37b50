"""The merged shape completion reads keys from, per source: a file's made by the worker
(as ``shape`` makes it) and kept for that file's version, so the next keystroke on an
unchanged 50 MB file reads nothing; a Python value's made here and kept while it is the
same object of the same length. Until a big JSON file's whole shape is made (in a thread,
by the worker), the shape of its first megabytes answers, marked as partial: a first Tab
never waits for a whole parse.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from jqmagic.core.complete.context import ITEMS, RECURSE, WRAP, Path
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.shape.infer import build
from jqmagic.core.shape.memo import version
from jqmagic.core.shape.node import Node

KEPT = 8  # shapes kept (the most recent ones)
QUICK_FROM = 8 * 2**20  # JSON files from this size answer from their first bytes at first
FIRST_BYTES = 2 * 2**20  # what such a first answer reads
MAX_NODES = 20_000  # nodes a `..` gathers at most
_lock = threading.Lock()
_kept: OrderedDict[tuple, tuple[Node, bool]] = OrderedDict()
_making: set[tuple] = set()  # whole shapes being made in a thread
_first: dict[tuple, Node] = {}  # meanwhile, the shapes of their first bytes


def shape_of(source: Source, timeout: float | None = None) -> tuple[Node | None, bool]:
    """The merged shape of ``source`` and whether it is several inputs (JSON Lines, a glob
    of files: one array of them, each input one of its items); ``None`` for a command or
    a URL (completion never runs one)."""
    if source.kind == "value":
        value = source.spec
        key = ("value", id(value), type(value), _size(value))
        return _kept_or(key, lambda: (build(value), False))
    if source.kind not in ("file", "text", "payload"):
        return None, False
    key, several = _key(source)
    return _kept_or(key, lambda: _whole(_worker_shape(source, timeout), several))


def shape_now(source: Source, timeout: float | None = None, *, first: bool = True
              ) -> tuple[Node | None, bool, bool]:
    """:func:`shape_of` without the wait: a big JSON or JSON Lines file whose whole shape
    is not made yet answers with the shape of its first :data:`FIRST_BYTES` (the third
    item True: partial; None without ``first``, as a cell's warming asks) while the worker
    makes the whole one in a thread."""
    from jqmagic.core.shape.source import open_source

    if source.kind != "file":
        return (*shape_of(source, timeout), False)
    key, several = _key(source)
    with _lock:
        kept = _kept.get(key)
    doc = open_source(source)
    if kept is not None or doc.fmt not in ("json", "jsonl") or doc.size < QUICK_FROM:
        return (*shape_of(source, timeout), False)
    with _lock:
        start = key not in _making
        _making.add(key)
    if start:
        threading.Thread(target=_make_whole, args=(source, key, several, timeout),
                         daemon=True, name="jqmagic-shape").start()
    if not first:
        return None, several, True
    head = _first.get(key)
    if head is None:
        head = _first[key] = _so_far(doc)
    return head, several, True


def _make_whole(source: Source, key: tuple, several: bool, timeout: float | None) -> None:
    try:
        _kept_or(key, lambda: _whole(_worker_shape(source, timeout), several))
    except JqMagicError:
        pass  # the next Tab asks again, and says why then
    finally:
        with _lock:
            _making.discard(key)
            _first.pop(key, None)


def _so_far(doc: Any) -> Node:
    """The merged shape of what the first bytes of ``doc`` hold (the cut value's parts
    read before the cut)."""
    from jqmagic.core.shape import stream
    from jqmagic.core.shape.node import Limits

    node = Node(Limits())
    with doc.open_binary() as handle:
        head = io.BytesIO(handle.read(FIRST_BYTES))
    with contextlib.suppress(JqMagicError, stream.IntegerOverflow):  # the cut: what was
        stream.feed(stream.events(head, lines=doc.lines), node)  # read before it stays
    return node


def _key(source: Source) -> tuple[tuple, bool]:
    """What a shape of ``source`` is kept under (a file's version), and whether it is
    several inputs."""
    from jqmagic.core.shape.source import open_source

    formats = tuple(vars(source.formats).items())
    if source.kind == "text":
        return ("text", hashlib.blake2b(source.spec.encode()).digest(), formats), False
    if source.kind == "payload":
        return ("payload", source.spec), False
    doc = open_source(source)
    files = doc.spec if isinstance(doc.spec, list) else [doc.spec]
    try:
        versions = tuple(version(path, formats) for path in files)
    except OSError as exc:
        raise JqMagicError("NOT_FOUND", f"Cannot read {exc.filename}.",
                           "Check the file's name.") from None
    return versions, doc.fmt in ("jsonl", "many")


def _worker_shape(source: Source, timeout: float | None) -> Any:
    from jqmagic.core.query.supervisor import shared_worker

    return shared_worker().call("shape", timeout, source=source.to_wire(), path="", depth=0)


def _whole(result: Any, several: bool) -> tuple[Node, bool]:
    """A whole shape's node, and whether it is several inputs (as the source's name says,
    or as its text does: a YAML stream of several documents)."""
    return result.node, several or result.several


def _kept_or(key: tuple, make: Any) -> tuple[Node | None, bool]:
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    made = make()
    with _lock:
        _kept[key] = made
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return made


def _size(value: Any) -> int:
    try:
        return len(value)
    except TypeError:
        return -1


def forget() -> None:
    """Drop every kept shape."""
    with _lock:
        _kept.clear()
        _making.clear()
        _first.clear()


def nodes_at(root: Node, path: Path) -> list[Node]:
    """The nodes of the values at ``path`` (several behind ``..`` or an object's
    ``.[]``); none when the path is not known."""
    if path is None or WRAP in path:
        return []
    nodes = [root]
    for step in path:
        found: dict[int, Node] = {}
        for node in nodes:
            for below in _step(node, step):
                found.setdefault(id(below), below)
                if len(found) >= MAX_NODES:
                    break
        nodes = list(found.values())
    return nodes


def _step(node: Node, step: str) -> Iterator[Node]:
    if step == ITEMS:
        if node.items is not None:
            yield node.items
        if node.keys:
            yield from node.keys.values()
        if node.extra is not None:
            yield node.extra
    elif step == RECURSE:
        stack = [node]
        while stack:
            here = stack.pop()
            yield here
            stack.extend(_step(here, ITEMS))
    elif node.keys is not None:
        child = node.keys.get(step)
        if child is not None:
            yield child
        elif node.extra is not None:  # a key past the tracked ones
            yield node.extra
