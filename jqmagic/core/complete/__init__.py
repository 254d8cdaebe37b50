"""Completion of a jq program from the data it will read: what may come next at a cursor
(keys at that path from the source's merged shape, with type and presence; builtins with
their arity; ``$names``; ``@formats``), and a SOURCE word's files and variables. No face
in here: the magics, a browser's jq box and a terminal ask the same.

>>> done = complete(".users[0].na", value={"users": [{"name": "a"}, {"id": 2}]})
>>> [(o.text, o.type) for o in done.offers], done.start
([('.name', 'string, in 1 of 2')], 9)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from jqmagic.core.complete import offers
from jqmagic.core.complete.context import ITEMS, Path, read
from jqmagic.core.complete.offers import Offer
from jqmagic.core.complete.shapes import FIRST_BYTES, forget, nodes_at, shape_now
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Formats, Source
from jqmagic.core.shape.node import Node

TIMEOUT = 60.0  # seconds the first shape of a file may take in the worker
SO_FAR = (f"keys so far: from the file's first {FIRST_BYTES // 2**20} MB (its whole shape "
          "is being made; the next Tab has them all)")


@dataclass
class Completions:
    """The offers for the text from ``start`` to ``end`` (the cursor), which each
    replaces; ``note`` says why the data gave none (a source that cannot be read) or
    that its keys are so far a big file's first megabytes'; ``program``: the cursor is
    in a jq program (not a SOURCE word)."""

    start: int
    end: int
    offers: list[Offer] = field(default_factory=list)
    note: str = ""
    program: bool = False

    @property
    def texts(self) -> list[str]:
        """The offers' texts."""
        return [offer.text for offer in self.offers]


def complete(program: str, cursor: int | None = None, source: Any = None, *,
             value: Any = ..., names: dict[str, str] | None = None,
             namespace: dict[str, Any] | None = None, slurp: bool = False,
             null_input: bool = False, jsonl: bool | None = None, yaml: bool | None = None,
             jsonc: bool | None = None, timeout: float | None = TIMEOUT,
             shape: Node | None = None, **given: Any) -> Completions:
    """What may come at ``cursor`` (default: the end) of ``program`` run on a source
    (``source`` or one keyword of file, text, value, payload, exec, url, as for
    ``query``; a command or a URL is never run: no keys then).

    Args:
        names: ``$names`` given to the program (``--arg`` and the like), each with how.
        namespace: the user's variables: an unbound ``$name`` is looked up there.
        slurp, null_input: as jq's ``-s`` and ``-n`` read the input.
        shape: the input's merged shape when the caller holds it already (a browser's
            tree, at the node its jq box runs on): read instead of a source.
    """
    end = len(program) if cursor is None else cursor
    here = read(program, end, null_input)
    out = Completions(here.start, end, program=True)
    if here.kind in ("key", "qkey", "qindex", "objkey", "qobjkey", "term"):
        if value is not ...:
            given["value"] = value
        if shape is not None:
            nodes = nodes_at(shape, here.path)
        else:
            nodes, out.note = _nodes(here.path, source, given, slurp,
                                     Formats(jsonl=jsonl, yaml=yaml, jsonc=jsonc), timeout)
        form = {"key": "field", "qkey": "field", "term": "field", "objkey": "member",
                "qobjkey": "quoted", "qindex": "quoted"}[here.kind]
        out.offers = offers.keys(nodes, here.prefix, form)
        if out.note == SO_FAR:  # counts of the first megabytes only: said on each
            out.offers = [replace(o, type=f"{o.type} (so far)") for o in out.offers]
        if here.kind in ("key", "term") and not here.prefix:
            out.offers += offers.iterate(nodes)
    if here.kind in ("name", "term"):
        out.offers += offers.builtins(here.prefix)
    elif here.kind == "var":
        out.offers = offers.variables(here.prefix, here.bound, names or {}, namespace)
    elif here.kind == "format":
        out.offers = offers.formats(here.prefix)
    return out


def complete_source(word: str, namespace: dict[str, Any] | None = None) -> Completions:
    """What a SOURCE word being typed may become: a variable, a folder, a file."""
    return Completions(0, len(word), offers.source_words(word, namespace))


def _nodes(path: Path, source: Any, given: dict[str, Any], slurp: bool, formats: Formats,
           timeout: float | None) -> tuple[list, str]:
    """The shape nodes at ``path`` of the named source, and a note when it has none."""
    if path is None or (source is None and not given):
        return [], ""
    try:
        root, several, partial = shape_now(Source.of(source, formats=formats, **given),
                                           timeout)
    except JqMagicError as exc:
        return [], exc.message
    if root is None:
        return [], "a command's or a URL's data is read only when the program runs"
    note = SO_FAR if partial else ""
    if several and not slurp:  # each input is one item of the array they make
        path = (ITEMS, *path)
    elif slurp and not several:  # the input is an array of the one document
        if not path or path[0] != ITEMS:
            return [], note
        path = path[1:]
    return nodes_at(root, path), note


__all__ = ["Completions", "Offer", "complete", "complete_source", "forget"]
