"""The document behind a shape request, and whether it can be read as a stream.

Sources are named as in the query core (:mod:`jqmagic.core.sources`). One JSON or JSON
Lines file, or inline JSON text, can be streamed; everything else is loaded whole. Several
top-level values (JSON Lines, YAML streams, globs) are read as one array of them.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from jqmagic.core import sources


@dataclass
class Doc:
    """One source: its kind (file, text, value, exec), the spec and the file format."""

    kind: str
    spec: Any
    fmt: str = "json"
    flags: dict = field(default_factory=dict)  # jsonl / yaml / jsonc forced by the caller

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
            try:
                return Path(self.spec).stat().st_size
            except OSError as exc:
                raise sources.read_error(self.spec, exc) from exc
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
        values = sources.load_values(**{self.kind: self.spec}, **self.flags)
        return values[0] if len(values) == 1 and not self.lines else values


def open_source(source: Any = None, *, value: Any = None, file: Any = None,
                text: str | None = None, exec: str | None = None, value_given: bool = False,
                jsonl: bool | None = None, yaml: bool | None = None, jsonc: bool | None = None
                ) -> Doc:
    """Resolve the arguments of ``shape`` into one :class:`Doc` (errors as the query core)."""
    flags = {"jsonl": jsonl, "yaml": yaml, "jsonc": jsonc}
    if isinstance(file, os.PathLike):
        file = os.fspath(file)
    from jqmagic.core.options import Formats, Source  # bridge until shape/ takes a Source

    given = {k: v for k, v in (("file", file), ("text", text), ("exec", exec)) if v is not None}
    if value is not None or value_given:
        given["value"] = value
    picked = Source.of(source, **given)
    kind, spec = picked.kind, picked.spec
    if kind == "text":
        fmt = "yaml" if yaml else "jsonc" if jsonc else "jsonl" if jsonl else "json"
        return Doc(kind, spec, fmt, flags)
    if kind != "file":
        return Doc(kind, spec, flags=flags)
    files = sources.resolve_files(spec)
    if len(files) != 1:
        return Doc("file", files, "many", flags)
    return Doc("file", files[0], Formats(jsonl, yaml, jsonc).for_path(files[0]), flags)
