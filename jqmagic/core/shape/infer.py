"""Shape inference: what %inspect shows, in three formats, with optional per-path profiles.

``format="shape"`` extends the JsonInspect contract: arrays give ``arrayLength``, a MERGED
``elementTemplate`` (all elements, several types as ``"null|string"``), ``availableKeys`` and
``keyPresence``; objects give ``keys`` and ``children`` down to ``depth``. ``"jqschema"`` is
exactly the gh-aw jqschema filter; ``"jsonschema"`` is JSON Schema 2020-12. Files bigger than
the stream threshold (or ``stream=True``) are read in one streaming pass.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.errors import too_deep
from jqmagic.core.options import Source
from jqmagic.core.pointers import jq_path, jq_step, parse_pointer, resolve, to_pointer
from jqmagic.core.shape import stream as shapestream
from jqmagic.core.shape import tree
from jqmagic.core.shape.columns import add_all
from jqmagic.core.shape.node import Limits, Node
from jqmagic.core.shape.source import open_source
from jqmagic.core.sources import check_encoding
from jqmagic.core.words import preview, term, type_name

FORMATS = ("shape", "jqschema", "jsonschema")
STREAM_THRESHOLD = 256 * 2**20
MAX_KEYS_SHOWN = 100
MAX_PROFILE_PATHS = 500
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

# The gh-aw jqschema filter: format="jqschema" gives exactly what it gives (tested against
# the jq command line, and the benchmark's reference).
JQSCHEMA_FILTER = """def walk(f):
  . as $in |
  if type == "object" then
    reduce keys[] as $k ({}; . + {($k): ($in[$k] | walk(f))})
  elif type == "array" then
    if length == 0 then [] else [.[0] | walk(f)] end
  else
    type
  end;
walk(.)
"""


@dataclass
class ShapeResult:
    """The shape of a document or subtree, as plain data in ``value``."""

    value: Any
    format: str
    path: str  # JSON Pointer of the inspected value
    jq_path: str
    streamed: bool = False
    node: Node | None = field(default=None, repr=False)  # the merged accumulator
    depth: int = 2
    several: bool = False  # the document is several inputs (lines, YAML documents, files)

    @property
    def text(self) -> str:
        """``value`` as indented JSON."""
        return json.dumps(self.value, indent=2, ensure_ascii=False)

    def __repr__(self) -> str:
        """One line, not the whole shape (a big manifest's JSON Schema is megabytes, printed
        whole by a Python prompt): the format, the path and the start of ``value``."""
        where = repr(self.path) if self.path else "the document"
        return f"<ShapeResult {self.format} of {where}: {preview(self.value, 200)}>"

    def __str__(self) -> str:
        """What ``print`` shows: the text tree a notebook shows (the JSON of the other
        formats), bounded to its lines."""
        return tree.shape_tree(self)


# -- building -----------------------------------------------------------------------------
def build(value: Any, *, stats: bool = False) -> Node:
    """The merged shape of one Python value."""
    root = Node(Limits(stats=stats))
    add_all(root, [value])
    return root


def jq_schema(value: Any) -> Any:
    """The gh-aw jqschema filter in Python: types for values, first elements, sorted keys."""
    t = type(value)
    if t is dict:
        return {k: jq_schema(value[k]) for k in sorted(value)}
    if t is list:
        return [jq_schema(value[0])] if value else []
    return type_name(value)


# -- rendering ----------------------------------------------------------------------------
def describe(node: Node, depth: int, jq: str, mixed: dict[str, str]) -> dict:
    """The ``shape`` description of the (single) value summed up by ``node``."""
    out: dict[str, Any] = {"type": node.type_str()}
    if node.keys is not None:
        keys = list(node.keys)[:MAX_KEYS_SHOWN]
        out["keys"] = keys
        total = len(node.keys) + node.extra_count
        if total > len(keys):
            out["keyCount"] = total
        if depth > 0:
            out["children"] = {k: describe(node.keys[k], depth - 1, jq_step(jq, k), mixed)
                               for k in keys}
    if node.len_max is not None:
        out["arrayLength"] = node.len_max
        items = node.items
        if items is not None and items.count:
            out["elementType"] = items.type_str()
            if len(items.types) > 1:
                out["elementTypes"] = {t: items.types[t] for t in items.type_names()}
            if depth > 0:
                out["elementTemplate"] = template(items, depth, jq_step(jq, None), mixed)
            if items.keys is not None:
                keys = list(items.keys)[:MAX_KEYS_SHOWN]
                out["availableKeys"] = keys
                out["keyPresence"] = {k: items.keys[k].count for k in keys}
                if len(items.keys) + items.extra_count > len(keys):
                    out["keyCount"] = len(items.keys) + (1 if items.extra_count else 0)
    return out


def template(node: Node, depth: int, jq: str, mixed: dict[str, str]) -> Any:
    """The compact merged template of ``node``: type names, dicts and one-element lists.

    Objects nest ``depth + 1`` levels (arrays do not count); a container that also has other
    types renders as the container and is listed in ``mixed`` under its jq path.
    """
    names = node.type_names()
    if "object" in names and depth >= 0:
        if len(names) > 1:
            mixed[jq] = node.type_str()
        keys = node.keys or {}
        out: dict[str, Any] = {k: template(c, depth - 1, jq_step(jq, k), mixed)
                               for k, c in list(keys.items())[:MAX_KEYS_SHOWN]}
        more = len(keys) - MAX_KEYS_SHOWN + (1 if node.extra is not None else 0)
        if more > 0:
            out["…"] = f"{more} more keys"
        return out
    if names == ["array"] or (len(names) > 1 and "array" in names and "object" not in names):
        if len(names) > 1:
            mixed[jq] = node.type_str()
        items = node.items
        return [template(items, depth, jq_step(jq, None), mixed)] if items and items.count else []
    return node.type_str()


def json_schema(node: Node) -> dict:
    """A JSON Schema (2020-12) accepting every value merged into ``node``."""
    types = ["integer" if t == "number" and not node.floats else t for t in node.type_names()]
    out: dict[str, Any] = {}
    if types:
        out["type"] = types[0] if len(types) == 1 else types
    if node.keys is not None:
        out["properties"] = {k: json_schema(c) for k, c in node.keys.items()}
        required = [k for k, c in node.keys.items() if c.count == node.objects]
        if required:
            out["required"] = required
        if node.extra is not None:
            out["additionalProperties"] = json_schema(node.extra)
    if node.items is not None and node.items.count:
        out["items"] = json_schema(node.items)
    return out


def profiles(node: Node, jq: str, limit: int = MAX_PROFILE_PATHS) -> dict[str, dict]:
    """Per jq path below ``node``: count, missing, null, distinct, min/max, lengths, samples."""
    out: dict[str, dict] = {}
    for path, n, parent in node.walk("" if jq == "." else jq):
        if len(out) >= limit:
            out["…"] = {"note": f"more paths not shown (limit {limit}); inspect a sub-path"}
            break
        entry: dict[str, Any] = {"types": n.type_str(), "count": n.count}
        if parent is not None and parent.items is not n and parent.extra is not n:
            entry["missing"] = parent.objects - n.count
        entry["null"] = n.types.get("null", 0)
        if n.len_min is not None:
            entry["minItems"], entry["maxItems"] = n.len_min, n.len_max
        if n.profile is not None and (set(n.types) - {"object", "array", "null"}):
            entry.update(n.profile.to_dict())
        out[path] = entry
    return out


def render(node: Node, fmt: str, depth: int, pointer: str, jq: str, stats: bool) -> Any:
    """``node`` in format ``shape`` or ``jsonschema``."""
    if fmt == "jsonschema":
        return {"$schema": JSON_SCHEMA_DIALECT, **json_schema(node)}
    mixed: dict[str, str] = {}
    out = {"path": pointer, **describe(node, depth, "" if jq == "." else jq, mixed)}
    if mixed:
        out["mixedTypes"] = mixed
    if stats:
        out["profiles"] = profiles(node, jq)
    return out


# -- in this process (the worker's, or a Python value's) --------------------------------
def shape_here(source: dict[str, Any] | Source, *, path: str = "", depth: int = 2,
               format: str = "shape", stats: bool = False, stream: bool | None = None,
               stream_threshold: int = STREAM_THRESHOLD) -> ShapeResult:
    """:func:`~jqmagic.core.shape.operation.shape` in this process (the worker's call, or
    a Python value's shape)."""
    parts = parse_pointer(path)
    doc = open_source(source if isinstance(source, Source) else Source.from_wire(source))
    try:
        if doc.streamable and (stream or (stream is None and doc.size > stream_threshold)):
            return _shape_stream(doc, parts, depth, format, stats)
        return _shape_loaded(doc, parts, depth, format, stats)
    except RecursionError:
        raise too_deep("The document", f"Inspect a deeper part with {term('path')}, or query "
                       f"it with {term('query')}, which reads up to 10,000 levels.") from None


def _shape_loaded(doc: Any, parts: list[str], depth: int, format: str, stats: bool
                  ) -> ShapeResult:
    target, steps = resolve(doc.load(), parts)
    pointer, jq = to_pointer(parts), jq_path(steps)
    several = doc.several and not parts
    if format == "jqschema":
        return ShapeResult(jq_schema(target), format, pointer, jq, depth=depth,
                           several=several)
    node = build(target, stats=stats)
    return ShapeResult(render(node, format, depth, pointer, jq, stats), format, pointer, jq,
                       node=node, depth=depth, several=several)


def _shape_stream(doc: Any, parts: list[str], depth: int, fmt: str, stats: bool
                  ) -> ShapeResult:

    lines, backend = doc.lines, None
    while True:
        try:
            return _stream_once(doc, parts, depth, fmt, stats, lines, backend)
        except shapestream.IntegerOverflow:  # integers past 64 bits: the exact, slower parser
            backend = "python"
        except _MoreValues:  # several top-level values: one array of them, as in memory
            lines = True


class _MoreValues(Exception):
    """The document holds more than one top-level value."""


def _stream_once(doc: Any, parts: list[str], depth: int, fmt: str, stats: bool, lines: bool,
                 backend: str | None) -> ShapeResult:

    pointer, steps = to_pointer(parts), []
    with doc.open_binary() as fh:
        if doc.kind == "file":  # UTF-16/32 said as such, as the whole read says it
            at = fh.tell()  # (past a UTF-8 BOM)
            check_encoding(str(doc.spec), fh.read(4))
            fh.seek(at)
        raw = shapestream.events(fh, lines=lines, backend=backend)
        events = shapestream.subtree(raw, parts, steps)
        jq = jq_path(steps)
        if fmt == "jqschema":
            value = shapestream.jqschema(events)
        else:
            node = Node(Limits(stats=stats))
            shapestream.feed(events, node)
        if not parts and next(raw, None) is not None:
            raise _MoreValues
    if fmt == "jqschema":
        return ShapeResult(value, fmt, pointer, jq, streamed=True, depth=depth)
    return ShapeResult(render(node, fmt, depth, pointer, jq, stats), fmt, pointer, jq,
                       streamed=True, node=node, depth=depth)


__all__ = ["FORMATS", "ShapeResult", "build", "jq_schema", "json_schema", "shape_here"]
