"""A source parsed into Python values, one per top-level document."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from jqmagic.core import payloads
from jqmagic.core.options import source_from
from jqmagic.core.sources.command import run_command
from jqmagic.core.sources.files import read_text, resolve_files
from jqmagic.core.sources.formats import parse_json
from jqmagic.core.sources.yamldocs import parse_yaml


def load_values(source: Any = None, /, **given: Any) -> list[Any]:
    """Parse a source into Python values (one per top-level document).

    ``source`` is a :class:`Source` or anything :meth:`Source.of` takes, with the same
    keywords (``file=``, ``text=``, ``value=``, ``exec=``, ``payload=``, and ``jsonl``,
    ``yaml``, ``jsonc`` to force a format).
    """
    source = source_from(source, given)
    if given:
        raise TypeError(f"load_values() got unexpected keyword(s): {', '.join(given)}")
    if source.kind == "value":
        return [source.spec]
    if source.kind == "text":
        return _parse(source.spec, source.formats.for_text(), source.label)
    if source.kind == "payload":
        return [payloads.payload(source.spec)]
    if source.kind == "exec":
        with tempfile.TemporaryDirectory(prefix="jqmagic-") as workdir:
            out = os.path.join(workdir, "exec.out")
            run_command(source.spec, out)
            return _parse(read_text(out, confined=False), source.formats.for_text(),
                          source.label)
    values: list[Any] = []
    for path in resolve_files(source.spec):
        fmt = source.formats.for_path(path)  # JSON as jq reads it, bytes not UTF-8 too
        values.extend(_parse(read_text(path, as_jq=fmt != "yaml"), fmt, path))
    return values


def _parse(text: str, fmt: str, label: str) -> list[Any]:
    return parse_yaml(text, label) if fmt == "yaml" else parse_json(text, label, fmt)
