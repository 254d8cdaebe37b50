"""Files for libjq to read: YAML, JSONC, text, values and command output written out first."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field

from jqmagic.core import jsonc, payloads, sandbox
from jqmagic.core.options import Source
from jqmagic.core.sources.command import run_command
from jqmagic.core.sources.files import open_file, read_text, resolve_files
from jqmagic.core.sources.formats import ValueText, dumps, value_json
from jqmagic.core.sources.yamldocs import parse_yaml


@dataclass
class Prepared:
    """Files ready for libjq, with the names the user knows them by."""

    files: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    formats: dict[str, str] = field(default_factory=dict)
    fds: list[int] = field(default_factory=list)  # files held open for libjq (sandbox)
    stdin: str | None = None  # the file libjq reads as "-" (text, values, command output)
    names: dict[str, str] = field(default_factory=dict)  # a stand-in: the user's file name

    def label(self, path: str) -> str:
        return self.labels.get(path, path)

    def naming(self, program: str) -> str:
        """``program``, its ``input_filename`` naming the user's files where libjq reads
        others in their place (a converted YAML or JSONC file, a sandbox's descriptor)."""
        return naming(program, self.names)


def naming(program: str, names: dict[str, str]) -> str:
    """``program`` with ``input_filename`` saying ``names[file]`` for the files ``names``
    holds (stand-ins libjq reads). The definitions go before it on its first line (its
    lines stay jq's); a program with module directives, which must come first, or one
    that never asks, is left as it is."""
    if not names or not _NAMES_FILES.search(program) or _DIRECTIVE.match(program):
        return program
    return ("def __jqmagic_read_name: input_filename; def input_filename: "
            "__jqmagic_read_name as $f | if $f == null then null else "
            f"({json.dumps(names)}[$f] // $f) end; {program}")


_NAMES_FILES = re.compile(r"\binput_filename\b")
_DIRECTIVE = re.compile(r"\s*(#[^\n]*\n\s*)*(module|import|include)\b")



@contextlib.contextmanager
def prepare(source: Source, exec_timeout: float | None = None) -> Iterator[Prepared]:
    """Files for libjq to read, cleaned up on exit."""
    prepared = Prepared()
    workdir = tempfile.mkdtemp(prefix="jqmagic-")
    try:
        if source.kind != "null":
            _PREPARERS[source.kind](prepared, source, workdir, exec_timeout)
        yield prepared
    finally:
        for fd in prepared.fds:
            os.close(fd)
        shutil.rmtree(workdir, ignore_errors=True)


def _prepare_files(prepared: Prepared, source: Source, workdir: str, _timeout) -> None:
    for path in resolve_files(source.spec):
        fmt = source.formats.for_path(path)
        if fmt in ("yaml", "jsonc"):
            converted = _temp(workdir, convert(read_text(path), fmt, path))
            prepared.labels[converted] = prepared.names[converted] = path
            path_for_jq = converted
        elif sandbox.enabled():  # libjq reads the checked file, whatever its name becomes
            fd = open_file(path)
            prepared.fds.append(fd)
            path_for_jq = f"/proc/{os.getpid()}/fd/{fd}"
            prepared.labels[path_for_jq] = prepared.names[path_for_jq] = path
        else:
            path_for_jq = path
        prepared.files.append(path_for_jq)
        prepared.formats[path_for_jq] = fmt


def _prepare_payload(prepared: Prepared, source: Source, workdir: str, _timeout) -> None:
    path = str(payloads.find(source.spec).path)  # jqmagic's own store: not confined
    prepared.files.append(path)
    prepared.labels[path] = source.label
    prepared.formats[path] = "json"


def _prepare_text(prepared: Prepared, source: Source, workdir: str, _timeout) -> None:
    _add_text(prepared, source, workdir, source.spec)


def _prepare_value(prepared: Prepared, source: Source, workdir: str, _timeout) -> None:
    spec = source.spec  # the text the caller sent (ValueText), or the value itself here
    data = spec.data if isinstance(spec, ValueText) else value_json(spec)
    _add_text(prepared, Source("value"), workdir, data.decode("utf-8", "surrogatepass"))


def _prepare_exec(prepared: Prepared, source: Source, workdir: str, timeout) -> None:
    path = os.path.join(workdir, "exec.out")
    run_command(source.spec, path, timeout)
    if source.formats.for_text() in ("json", "jsonl"):  # libjq reads the output as it is
        prepared.stdin = path
        prepared.files.append(path)
        prepared.labels[path] = source.label
        prepared.formats[path] = "json"
    else:
        _add_text(prepared, source, workdir, read_text(path, confined=False))


def _add_text(prepared: Prepared, source: Source, workdir: str, text: str) -> None:
    fmt = source.formats.for_text()
    path = prepared.stdin = _temp(workdir, convert(text, fmt, source.label))
    prepared.files.append(path)
    prepared.labels[path] = source.label
    prepared.formats[path] = fmt


_PREPARERS = {"file": _prepare_files, "text": _prepare_text, "value": _prepare_value,
              "exec": _prepare_exec, "payload": _prepare_payload}


def _temp(workdir: str, text: str) -> str:
    fd, path = tempfile.mkstemp(dir=workdir, suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    return path



def convert(text: str, fmt: str, label: str) -> str:
    """JSON text for libjq: JSONC without comments, YAML documents one per line (each
    line ended, so that a next file's first value never runs into the last)."""
    if fmt in ("json", "jsonl"):
        return text
    if fmt == "jsonc":
        return jsonc.to_json(text)
    return "".join(dumps(doc) + "\n" for doc in parse_yaml(text, label))


_BOM = b"\xef\xbb\xbf"
_APART = frozenset(b' \t\n\r]}"')  # a file ending so ends its last token


def run_together(paths: list[str]) -> bool:
    """Whether jq, reading ``paths`` as one stream, may read them otherwise than one by
    one (as the parsed-file caches hold them): a file but the last that ends inside a
    token (``1`` then ``2`` is 12 to jq), or a later file that opens with a BOM (jq's
    parse error: only the stream's first BOM is skipped), or one that opens but cannot
    be read (EIO: libjq says so where jq does, after the files before it)."""
    for index, path in enumerate(paths if len(paths) > 1 else ()):
        fd = open_file(path)
        try:
            size = os.fstat(fd).st_size
            if index and os.pread(fd, 3, 0) == _BOM:
                return True
            if index < len(paths) - 1 and size and os.pread(fd, 1, size - 1)[0] not in _APART:
                return True
        except OSError:
            return True
        finally:
            os.close(fd)
    return False

