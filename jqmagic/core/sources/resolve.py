"""Which kind of source a bare argument names: a file or glob, JSON text, or a value."""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path
from typing import Any

from jqmagic.core.errors import JqMagicError


def classify(source: Any) -> tuple[str, Any]:
    """Say which kind of source a positional ``source`` is: file, text or value.

    Strings are paths (or globs) when such files exist, JSON text when they parse as
    JSON; a string that is both is AMBIGUOUS_SOURCE. Anything else is a Python value.
    """
    if isinstance(source, Path):
        return "file", str(source)
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
            "Say which one you mean with file=... or text=... (--file or --input).")
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
    path = os.path.expanduser(pattern)
    if glob.has_magic(path):
        return sorted(p for p in glob.glob(path, recursive=True) if os.path.isfile(p))
    if os.path.exists(path) or missing_ok:
        return [path] if os.path.exists(path) else []
    return []

