"""Which kind of source a bare argument names: a file or glob, JSON text, or a value."""

from __future__ import annotations

import glob
import itertools
import json
import os
from pathlib import Path
from typing import Any

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources.globwalk import bounded_glob
from jqmagic.core.words import term


def _fixed_part(path: str) -> str:
    """The folder a glob walks from: its parts before the first wildcard."""
    parts = Path(path).parts
    fixed = list(itertools.takewhile(lambda part: not glob.has_magic(part), parts))
    return os.path.join(*fixed) if fixed else "."


def classify(source: Any) -> tuple[str, Any]:
    """Say which kind of source a positional ``source`` is: file, text or value.

    Strings are paths (or globs) when such files exist, JSON text when they parse as
    JSON; a string that is both is AMBIGUOUS_SOURCE. Bytes are text, as a file's bytes
    (JSON, JSON Lines, or the format forced: yaml=True); so is what an open file (anything
    with ``read``, as ``json.load`` takes) reads from where it stands. Anything else is a
    Python value.
    """
    if isinstance(source, Path):
        return "file", str(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "text", bytes(source)
    if callable(getattr(source, "read", None)):
        data = source.read()
        return "text", data if isinstance(data, str) else bytes(data)
    if isinstance(source, (list, tuple)) and source and all(isinstance(s, (str, Path))
                                                            for s in source):
        return "file", [str(s) for s in source]
    if not isinstance(source, str):
        return "value", source
    is_path = bool(expand(source, missing_ok=True))
    is_json = _looks_like_json(source)
    if is_path and is_json:
        raise JqMagicError(
            "AMBIGUOUS_SOURCE", f"{source!r} is both an existing file and valid JSON text.",
            f"Say which one you mean with {term('file')} or {term('input')}.")
    if is_json:
        return "text", source
    return "file", source


def _looks_like_json(text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["-0123456789tfn':
        return False
    try:
        json.loads(stripped)
    except RecursionError:  # deeply nested brackets: JSON text, too deep for Python
        return True
    except ValueError:
        return stripped[0] in "{[" and "\n" in stripped  # JSON Lines / several values
    return True



def expand(pattern: str, missing_ok: bool = False) -> list[str]:
    """The files ``pattern`` names: itself when a file of that very name exists (as jq
    reads its operands: ``g/[a].json`` is that file, ``~x`` a file named so), else ``~``
    and a glob expanded."""
    if (glob.has_magic(pattern) or pattern.startswith("~")) and os.path.lexists(pattern):
        return [pattern]
    path = os.path.expanduser(pattern)
    if glob.has_magic(path):
        sandbox.check_path(_fixed_part(path))  # no walk starts outside the roots
        return bounded_glob(path)
    if os.path.exists(path) or missing_ok:
        return [path] if os.path.exists(path) else []
    return []

