"""The document behind a shape request, and whether it can be read as a stream.

One JSON or JSON Lines file, or inline JSON text, can be streamed; everything else is
loaded whole. Several top-level values (JSON Lines, YAML streams, globs) are read as one
array of them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from jqmagic.core import sources
from jqmagic.core.options import Source


@dataclass
class Doc:
    """One source (:class:`Source`), the file it names once resolved, and its format."""

    source: Source
    spec: Any
    fmt: str = "json"

    @property
    def kind(self) -> str:
        return self.source.kind

    @property
    def lines(self) -> bool:
        """Whether this is JSON Lines (read as one array of its values)."""
        return self.fmt == "jsonl"

    @property
    def streamable(self) -> bool:
        """Whether the streaming parser can read it (one JSON or JSON Lines file, or text)."""
        return self.kind in ("file", "text") and self.fmt in ("json", "jsonl")

    @property
    def size(self) -> int:
        """The size in bytes (0 for a Python value or a command)."""
        if self.kind == "file":
            paths = self.spec if isinstance(self.spec, list) else [self.spec]
            try:
                return sum(Path(path).stat().st_size for path in paths)
            except OSError as exc:
                raise sources.read_error(str(exc.filename), exc) from exc
        return len(self.spec.encode()) if self.kind == "text" else 0

    def open_binary(self) -> BinaryIO:
        """The raw bytes, for the streaming parser."""
        if self.kind == "file":
            stream = open(sources.open_file(self.spec), "rb")  # noqa: SIM115 - caller closes
            if stream.peek(3)[:3] == b"\xef\xbb\xbf":  # a UTF-8 BOM is not JSON: skip it
                stream.read(3)
            return stream
        return io.BytesIO(self.spec.encode())

    def load(self) -> Any:
        """The whole parsed value (several top-level values as one array)."""
        if self.kind == "value":
            return self.spec
        values = sources.load_values(Source(self.kind, self.spec, self.source.formats))
        return values[0] if len(values) == 1 and not self.lines else values


def open_source(source: Source) -> Doc:
    """The :class:`Doc` of a source: a single file is resolved and its format known."""
    if source.kind == "text":
        return Doc(source, source.spec, source.formats.for_text())
    if source.kind != "file":
        return Doc(source, source.spec)
    files = sources.resolve_files(source.spec)
    if len(files) != 1:
        return Doc(source, files, "many")
    return Doc(source, files[0], source.formats.for_path(files[0]))
