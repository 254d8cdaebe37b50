"""The document behind a shape request, and whether it can be read as a stream.

One JSON or JSON Lines file, or inline JSON text, can be streamed; everything else is
loaded whole. Several top-level values (JSON Lines, YAML streams, globs) are read as one
array of them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from jqmagic.core import sources
from jqmagic.core.gcpause import gc_paused
from jqmagic.core.options import Source

# digits as "0", the rest as " ": 19 digits in a row may be an integer past 2^63, which
# orjson reads as a float (a translate and a find: 0.07 s for 50 MB, a regex takes 0.5 s)
_DIGITS = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))


@dataclass
class Doc:
    """One source (:class:`Source`), the file it names once resolved, and its format."""

    source: Source
    spec: Any
    fmt: str = "json"
    several: bool = field(default=False, init=False)  # load() made one array of several

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
        """The whole parsed value (several top-level values as one array: then
        :attr:`several` is set)."""
        if self.kind == "value":
            return self.spec
        values = self.values()
        self.several = len(values) != 1 or bool(self.lines)
        return values if self.several else values[0]

    def values(self) -> list[Any]:
        """Every top-level value. One JSON file is read by orjson (a fifth of ``json``'s
        time) unless its text has an integer orjson would turn into a float; any other
        source, and any text orjson refuses (with its caret), as the sources read it."""
        if self.kind == "file" and self.fmt == "json":
            with self.open_binary() as stream:
                data = stream.read()
            if b"0" * 19 not in data.translate(_DIGITS):
                try:
                    with gc_paused():  # no cycles in a parsed tree: collections only cost
                        return [orjson.loads(data)]
                except orjson.JSONDecodeError:
                    pass  # NaN, a lone surrogate, a mistake: json reads it or says where
        return sources.load_values(Source(self.kind, self.spec, self.source.formats))


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
