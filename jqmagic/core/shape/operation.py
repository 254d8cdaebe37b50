"""shape(): the shape of a source, read and shaped in the worker (a Python value's shaped
here). The worker runs :func:`~jqmagic.core.shape.infer.shape_here`; this module sits above
both, so the shape code never knows the supervisor."""

from __future__ import annotations

import os
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Formats, Source
from jqmagic.core.pointers import parse_pointer
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.shape.infer import FORMATS, STREAM_THRESHOLD, ShapeResult, shape_here
from jqmagic.core.words import term


def shape(source: Any = None, *, path: str = "", depth: int = 2, format: str = "shape",
          stats: bool = False, stream: bool | None = None,
          stream_threshold: int = STREAM_THRESHOLD, file: str | os.PathLike | list | None = None,
          text: str | bytes | None = None, value: Any = ..., exec: str | None = None,
          payload: str | None = None, jsonl: bool | None = None, yaml: bool | None = None,
          jsonc: bool | None = None, value_given: bool = False) -> ShapeResult:
    """The shape of a document (or of the subtree at JSON Pointer ``path``).

    Args:
        source: a path, glob, JSON text or Python value, or a :class:`Source`, as for
            ``query``; or name the kind with one of ``file``, ``text``, ``value`` (``None``
            is JSON null), ``exec`` (a shell command's output) or ``payload`` (a stored
            result's id).
        path: a JSON Pointer to the part to describe ("": the whole document).
        depth: levels of ``children`` / element templates (format ``shape`` only).
        format: ``shape``, ``jqschema`` (the gh-aw filter) or ``jsonschema`` (2020-12).
        stats: add per-path ``profiles`` (format ``shape``): counts, distinct, min/max, samples.
        stream: read a file in one streaming pass; default when it is over ``stream_threshold``.
        jsonl, yaml, jsonc: force a format (True) or refuse it (False); default: by the
            file's suffix.
        value_given: ignored (once needed to pass ``value=None``).

    >>> shape(value={"users": [{"id": 1}, {"id": 2, "email": None}]}).value["children"]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'users': {'type': 'array', 'arrayLength': 2, 'elementType': 'object',
     'elementTemplate': {'id': 'number', 'email': 'null'}, 'availableKeys': ['id', 'email'],
     'keyPresence': {'id': 2, 'email': 1}}}
    """
    if format not in FORMATS:
        raise JqMagicError("INVALID_ARGUMENT", f"unknown shape format {format!r}",
                           f"Use one of: {', '.join(FORMATS)}.")
    if stats and format != "shape":
        raise JqMagicError("INVALID_ARGUMENT", f"stats come with format 'shape', not {format!r}",
                           f"Drop {term('stats')}, or use {term('format', 'shape')}.")
    if not isinstance(depth, int) or depth < 0:
        raise JqMagicError("INVALID_ARGUMENT", f"depth must be a whole number >= 0, not {depth!r}",
                           "Use e.g. depth=2.")
    parse_pointer(path)  # a bad pointer is said before any file is read
    given = {"file": file, "text": text, "exec": exec, "payload": payload}
    if value is not ...:
        given["value"] = value
    named = Source.of(source, formats=Formats(jsonl=jsonl, yaml=yaml, jsonc=jsonc),
                      null_input=None, **given)
    options = {"path": path, "depth": depth, "format": format, "stats": stats,
               "stream": stream, "stream_threshold": stream_threshold}
    if named.kind == "value":  # already in this process's memory: shaped here
        return shape_here(named, **options)
    # Reading and shaping a file, a command's output or a payload happens in the worker:
    # a document too big for memory costs the worker (TOO_LARGE), never this process.
    return shared_worker().call("shape", None, source=named.to_wire(), **options)
