"""Where a document comes from: files, globs, inline text, Python values, shell commands.

:func:`prepare` turns the one source a caller names into files that libjq reads by path
(YAML, JSONC, inline text, values and command output are written to temporary files
first); :func:`load_values` parses a source into Python values for the Python-side
engines (shape inference, the widget).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import glob
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jqmagic.core import jsonc, sandbox
from jqmagic.core.errors import JqMagicError, caret_excerpt, too_deep
from jqmagic.core.settings import settings

JSONL_SUFFIXES = {".jsonl", ".ndjson"}
YAML_SUFFIXES = {".yaml", ".yml"}
JSONC_SUFFIXES = {".jsonc"}


@dataclass
class Prepared:
    """Files ready for libjq, with the names the user knows them by."""

    files: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    formats: dict[str, str] = field(default_factory=dict)
    fds: list[int] = field(default_factory=list)  # files held open for libjq (sandbox)

    def label(self, path: str) -> str:
        return self.labels.get(path, path)


# ---------------------------------------------------------------- choosing the source


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
    is_path = bool(_expand(source, missing_ok=True))
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


def pick_source(source: Any = None, *, file: Any = None, text: str | None = None,
                value: Any = None, exec: str | None = None, null_input: bool = False,
                value_given: bool = False) -> tuple[str, Any] | None:
    """The one (kind, spec) named by the caller, or None under ``null_input``."""
    given = {k: v for k, v in (("file", file), ("text", text), ("exec", exec)) if v is not None}
    if value is not None or value_given:
        given["value"] = value
    if source is not None:
        kind, spec = classify(source)
        if kind in given:
            raise JqMagicError("AMBIGUOUS_SOURCE", f"The {kind} source is given twice.",
                               "Pass one source only.")
        given[kind] = spec
    if len(given) > 1:
        raise JqMagicError(
            "AMBIGUOUS_SOURCE", f"Several sources were given ({', '.join(sorted(given))}).",
            "Pass exactly one of file, text, value or exec.")
    if not given:
        if null_input:
            return None
        raise JqMagicError("AMBIGUOUS_SOURCE", "No input was given.",
                           "Pass a file, text, value or exec source, or use null_input (-n).")
    return next(iter(given.items()))


# ---------------------------------------------------------------- files


def _expand(pattern: str, missing_ok: bool = False) -> list[str]:
    path = os.path.expanduser(pattern)
    if glob.has_magic(path):
        return sorted(p for p in glob.glob(path, recursive=True) if os.path.isfile(p))
    if os.path.exists(path) or missing_ok:
        return [path] if os.path.exists(path) else []
    return []


def resolve_files(spec: str | list[str]) -> list[str]:
    """Expand ``~`` and globs; every result is a readable file, or an error says why not.

    In the sandbox, a path outside the allowed roots is SANDBOX_DENIED whether or not it
    exists (judged before anything about it is said).
    """
    patterns = [os.fspath(spec)] if isinstance(spec, (str, os.PathLike)) else \
        [os.fspath(s) for s in spec]
    files: list[str] = []
    for pattern in patterns:
        if not glob.has_magic(pattern):
            sandbox.check_path(pattern)
        found = _expand(pattern)
        if not found:
            raise _not_found(pattern)
        files.extend(found)
    for path in files:
        if os.path.isdir(path):
            raise JqMagicError("FILE_ERROR", f"{path} is a directory, not a file.",
                               f"Name a file inside it, or a glob such as {path}/*.json.")
        sandbox.check_path(path)
        if not os.access(path, os.R_OK):
            raise JqMagicError("FILE_ERROR", f"{path} is not readable.",
                               "Check the file's permissions.")
        with open(open_file(path), "rb") as head:
            check_encoding(path, head.read(4))
    return files


def _not_regular(path: str) -> JqMagicError:
    return JqMagicError("FILE_ERROR", f"{path} is not a regular file (a FIFO, socket or "
                        "device).", "Copy its content to a file first, or pipe it with --exec.")


def check_encoding(path: str, head: bytes) -> None:
    """FILE_ERROR for UTF-16 / UTF-32 text (by its BOM, or zero bytes around the first
    ASCII character as RFC 4627 detects it); jqmagic reads UTF-8."""
    def ascii_at(i: int) -> bool:
        return len(head) > i and 0x09 <= head[i] <= 0x7E

    name = None
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        name = "UTF-32"
    elif head.startswith((b"\xff\xfe", b"\xfe\xff")):
        name = "UTF-16"
    elif (ascii_at(0) and head[1:4] == b"\x00" * 3) or (head[:3] == b"\x00" * 3 and ascii_at(3)):
        name = "UTF-32"
    elif (ascii_at(0) and head[1:2] == b"\x00") or (head[:1] == b"\x00" and ascii_at(1)):
        name = "UTF-16"
    if name:
        raise JqMagicError("FILE_ERROR", f"{path} is {name} text; convert it to UTF-8.",
                           f"e.g. iconv -f {name} -t UTF-8 {path} > converted.json")


def _not_found(pattern: str) -> JqMagicError:
    path = Path(os.path.expanduser(pattern))
    if glob.has_magic(str(path)):
        return JqMagicError("NOT_FOUND", f"No file matches {pattern}.",
                            "Check the folder and the pattern (** needs recursive globs).")
    folder = path.parent if str(path.parent) else Path(".")
    hint = "Check the path; ~ and globs are expanded."
    if folder.is_dir():
        names = [p.name for p in folder.iterdir()]
        close = difflib.get_close_matches(path.name, names, n=3)
        if close:
            hint = "Did you mean " + ", ".join(str(folder / c) for c in close) + "?"
    return JqMagicError("NOT_FOUND", f"File not found: {pattern}", hint)


def file_format(path: str, jsonl: bool | None = None, yaml: bool | None = None,
                jsonc: bool | None = None) -> str:
    """json, jsonl, yaml or jsonc: forced by a flag, else by the file's suffix."""
    if yaml:
        return "yaml"
    if jsonc:
        return "jsonc"
    if jsonl:
        return "jsonl"
    suffix = Path(path).suffix.lower()
    if suffix in YAML_SUFFIXES and yaml is not False:
        return "yaml"
    if suffix in JSONC_SUFFIXES and jsonc is not False:
        return "jsonc"
    if suffix in JSONL_SUFFIXES and jsonl is not False:
        return "jsonl"
    return "json"


# ---------------------------------------------------------------- preparing for libjq


@contextlib.contextmanager
def prepare(source: Any = None, *, file: Any = None, text: str | None = None,
            value: Any = None, exec: str | None = None, jsonl: bool | None = None,
            yaml: bool | None = None, jsonc: bool | None = None, null_input: bool = False,
            exec_timeout: float | None = None, value_given: bool = False,
            ) -> Iterator[Prepared]:
    """Files for libjq to read, cleaned up on exit."""
    picked = pick_source(source, file=file, text=text, value=value, exec=exec,
                         null_input=null_input, value_given=value_given)
    prepared = Prepared()
    workdir = tempfile.mkdtemp(prefix="jqmagic-")
    try:
        if picked is not None:
            kind, spec = picked
            _PREPARERS[kind](prepared, spec, workdir, jsonl=jsonl, yaml=yaml, jsonc=jsonc,
                             exec_timeout=exec_timeout)
        yield prepared
    finally:
        for fd in prepared.fds:
            os.close(fd)
        shutil.rmtree(workdir, ignore_errors=True)


def _prepare_files(prepared: Prepared, spec, workdir, *, jsonl, yaml, jsonc, **_):
    for path in resolve_files(spec):
        fmt = file_format(path, jsonl, yaml, jsonc)
        if fmt in ("yaml", "jsonc"):
            text = read_text(path)
            converted = _temp(workdir, _convert(text, fmt, path))
            prepared.labels[converted] = path
            path_for_jq = converted
        elif sandbox.enabled():  # libjq reads the checked file, whatever its name becomes
            fd = open_file(path)
            prepared.fds.append(fd)
            path_for_jq = f"/proc/{os.getpid()}/fd/{fd}"
            prepared.labels[path_for_jq] = path
        else:
            path_for_jq = path
        prepared.files.append(path_for_jq)
        prepared.formats[path_for_jq] = fmt


def _prepare_text(prepared: Prepared, spec: str, workdir, *, yaml, jsonc, **_):
    fmt = "yaml" if yaml else "jsonc" if jsonc else "json"
    path = _temp(workdir, _convert(spec, fmt, "<input>") if fmt != "json" else spec)
    prepared.files.append(path)
    prepared.labels[path] = "<input>"
    prepared.formats[path] = fmt


def _prepare_value(prepared: Prepared, spec: Any, workdir, **_):
    path = _temp(workdir, dumps(spec))
    prepared.files.append(path)
    prepared.labels[path] = "<value>"
    prepared.formats[path] = "json"


def _prepare_exec(prepared: Prepared, spec: str, workdir, *, yaml, jsonc, exec_timeout, **_):
    path = os.path.join(workdir, "exec.out")
    run_command(spec, path, exec_timeout)
    if yaml or jsonc:
        fmt = "yaml" if yaml else "jsonc"
        path = _temp(workdir, _convert(read_text(path, confined=False), fmt,
                                       f"<exec: {spec}>"))
    prepared.files.append(path)
    prepared.labels[path] = f"<exec: {spec}>"
    prepared.formats[path] = "json"


_PREPARERS = {"file": _prepare_files, "text": _prepare_text, "value": _prepare_value,
              "exec": _prepare_exec}


def _temp(workdir: str, text: str) -> str:
    fd, path = tempfile.mkstemp(dir=workdir, suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    return path


def open_file(path: str, confined: bool = True) -> int:
    """A descriptor for reading ``path``, which must be a regular file (a FIFO never blocks
    here) and, in the sandbox, really lie inside the allowed roots once opened (unless not
    ``confined``: jqmagic's own temporary files)."""
    try:
        fd = os.open(os.path.expanduser(path), os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise read_error(path, exc) from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _not_regular(path)
        if confined:
            sandbox.check_fd(fd, path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_error(path: str, exc: OSError) -> JqMagicError:
    if isinstance(exc, FileNotFoundError):
        return JqMagicError("NOT_FOUND", f"File not found: {path} (it was removed while being "
                            "read).", "Check the path and run again.")
    return JqMagicError("FILE_ERROR", f"Could not read {path}: {exc.strerror or exc}.",
                        "Check the path and its permissions.")


def read_text(path: str, confined: bool = True) -> str:
    """A file's text as UTF-8 (a BOM is dropped); FILE_ERROR if it cannot be read.

    ``confined``: the sandbox judges the file (not for jqmagic's own temporary files).
    """
    try:
        with open(open_file(path, confined), "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise read_error(path, exc) from exc
    check_encoding(path, data[:4])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JqMagicError("FILE_ERROR", f"{path} is not UTF-8 text ({exc.reason} at byte "
                           f"{exc.start}).", "Convert it to UTF-8 first (iconv).") from None


def run_command(command: str, out_path: str, timeout: float | None = None) -> None:
    """Run ``command`` in a shell, its stdout into ``out_path``; EXEC_ERROR or TIMEOUT.

    The sandbox may refuse it (SANDBOX_DENIED). Files the command writes, its output
    included, stop at ``settings.exec_max_bytes`` (the shell's ``ulimit -f``): TOO_LARGE.
    """
    sandbox.check_exec(command)
    timeout = settings.exec_timeout if timeout is None else timeout
    cap = settings.exec_max_bytes
    # POSIX sh counts ulimit -f in 512-byte blocks; the limit binds the command's children.
    limited = ["/bin/sh", "-c", f'ulimit -f {-(-cap // 512)} && eval "$1"', "sh", command]
    with open(out_path, "wb") as out:
        process = subprocess.Popen(limited, stdout=out, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise JqMagicError("TIMEOUT", f"The command ran longer than {timeout:g} s: "
                               f"{command}", "Raise the limit with --timeout.") from None
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    if os.path.getsize(out_path) >= cap:
        raise JqMagicError("TOO_LARGE", f"The command's output passed the {cap:,}-byte cap: "
                           f"{command}", "Make the command print less (filter it first), or "
                           "raise JqMagic exec_max_bytes.")
    if process.returncode != 0:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        why = lines[-1] if lines else "no error output"
        raise JqMagicError("EXEC_ERROR", f"The command exited with status "
                           f"{process.returncode}: {why}", f"Run it in a terminal: {command}")


# ---------------------------------------------------------------- formats


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, (dt.date, dt.datetime, dt.time)):
        return obj.isoformat()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    if isinstance(obj, bytes):
        return obj.decode("utf-8", "replace")
    for method in ("tolist", "to_dict", "item"):  # NumPy, pandas
        if hasattr(obj, method):
            return getattr(obj, method)()
    raise TypeError(type(obj).__name__)


def dumps(value: Any) -> str:
    """JSON text of a Python value (dates as ISO text); INVALID_ARGUMENT otherwise."""
    try:
        return json.dumps(value, default=_jsonable, ensure_ascii=False)
    except RecursionError:
        raise too_deep("The value", "Pass a part of it, or its JSON text with text=...") from None
    except (TypeError, ValueError) as exc:
        raise JqMagicError("INVALID_ARGUMENT",
                           f"A value of type {exc} cannot be turned into JSON.",
                           "Pass dicts, lists, strings, numbers, booleans or None.") from None


def _convert(text: str, fmt: str, label: str) -> str:
    if fmt == "jsonc":
        return jsonc.to_json(text)
    return "\n".join(dumps(doc) for doc in parse_yaml(text, label))


def parse_yaml(text: str, label: str = "<input>") -> list[Any]:
    """Every document of a YAML stream, with the safe loader; INVALID_YAML on errors."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        documents = []
        while loader.check_node():
            node = loader.get_node()
            _check_alias_expansion(node, label)
            # as JSON holds it: keys as text ({1: x} -> {"1": x}), dates as ISO text
            documents.append(json.loads(dumps(loader.construct_document(node))))
        return documents
    except RecursionError:
        raise too_deep(label, "Flatten the YAML, or convert it to JSON for jq.") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if isinstance(exc, yaml.constructor.ConstructorError) and mark is not None:
            raise JqMagicError(
                "INVALID_YAML", f"{label}, line {mark.line + 1}: {problem}",
                "YAML is read with the safe loader: tags that build Python objects are "
                "refused; remove the tag.", caret_excerpt(text, mark.line + 1, mark.column + 1)
            ) from None
        if mark is None:
            raise JqMagicError("INVALID_YAML", f"{label}: {problem}",
                               "Check the YAML syntax.") from None
        raise JqMagicError(
            "INVALID_YAML", f"{label}, line {mark.line + 1}, column {mark.column + 1}: {problem}",
            "Check the indentation and quoting on that line.",
            caret_excerpt(text, mark.line + 1, mark.column + 1)) from None
    finally:
        loader.dispose()


def _check_alias_expansion(root: Any, label: str) -> None:
    """Refuse alias bombs ("billion laughs") and cycles before anything is constructed.

    Counts the nodes the document would have once every alias is expanded, without
    expanding them; a document that grows more than tenfold (and past 100k nodes)
    through aliases is refused.
    """
    expanded: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in expanded:
            continue
        children = _yaml_children(node)
        if children_done:
            open_nodes.discard(key)
            expanded[key] = 1 + sum(expanded[id(c)] for c in children)
            continue
        if key in open_nodes:
            raise JqMagicError("INVALID_YAML", f"{label}: an alias refers to itself (a cycle).",
                               "JSON cannot hold cycles; remove the recursive alias.")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in expanded)
    total = expanded[id(root)]
    if total > max(10 * len(expanded), 100_000):
        raise JqMagicError(
            "INVALID_YAML", f"{label}: aliases expand {len(expanded):,} nodes into {total:,} "
            "(an alias bomb?); refused.", "Remove the nested aliases (&anchor / *alias).")


def _yaml_children(node: Any) -> list[Any]:
    value = node.value
    if isinstance(value, list):
        if value and isinstance(value[0], tuple):  # a mapping's (key, value) pairs
            return [part for pair in value for part in pair]
        return value
    return []


def parse_json(text: str, label: str = "<input>", fmt: str = "json") -> list[Any]:
    """All top-level JSON values of ``text`` (one for JSON, one a line for JSON Lines)."""
    if fmt == "jsonc":
        text = jsonc.to_json(text)
    decoder = json.JSONDecoder()
    values, pos, end = [], 0, len(text)
    space = re.compile(r"\s*")
    try:
        pos = space.match(text, pos).end()
        while pos < end:
            value, pos = decoder.raw_decode(text, pos)
            values.append(value)
            pos = space.match(text, pos).end()
    except json.JSONDecodeError as exc:
        raise invalid_json(label, exc.msg, text, exc.lineno, exc.colno, fmt) from None
    except RecursionError:
        raise too_deep(label, "Query it with jq (%jq), which reads up to 10,000 levels.") from None
    return values


def invalid_json(label: str, why: str, text: str, line: int, column: int,
                 fmt: str = "json") -> JqMagicError:
    """INVALID_JSON at a place, with a caret excerpt and a hint fitting the likely cause."""
    excerpt = caret_excerpt(text, line, column)
    hint = "Check the JSON syntax at that place."
    lines = text.splitlines()
    offending = lines[line - 1] if 0 < line <= len(lines) else ""  # past a final newline: ""
    if fmt == "json" and ("//" in offending or "/*" in offending
                          or re.search(r",\s*[\]}]", offending)):
        hint = ("If the file has comments or trailing commas (JSONC, as in tsconfig.json), "
                "read it with --jsonc.")
    if fmt == "yaml":
        hint = "Read it as YAML with --yaml."
    return JqMagicError("INVALID_JSON", f"{label}, line {line}, column {column}: {why}",
                        hint, excerpt)


def load_values(source: Any = None, *, file: Any = None, text: str | None = None,
                value: Any = None, exec: str | None = None, jsonl: bool | None = None,
                yaml: bool | None = None, jsonc: bool | None = None,
                value_given: bool = False) -> list[Any]:
    """Parse a source into Python values (one per top-level document)."""
    kind, spec = pick_source(source, file=file, text=text, value=value, exec=exec,
                             value_given=value_given)
    if kind == "value":
        return [spec]
    if kind == "text":
        fmt = "yaml" if yaml else "jsonc" if jsonc else "json"
        return parse_yaml(spec) if fmt == "yaml" else parse_json(spec, "<input>", fmt)
    if kind == "exec":
        with tempfile.TemporaryDirectory(prefix="jqmagic-") as workdir:
            out = os.path.join(workdir, "exec.out")
            run_command(spec, out)
            return parse_json(read_text(out, confined=False), f"<exec: {spec}>")
    values: list[Any] = []
    for path in resolve_files(spec):
        fmt = file_format(path, jsonl, yaml, jsonc)
        content = read_text(path)
        values.extend(parse_yaml(content, path) if fmt == "yaml"
                      else parse_json(content, path, fmt))
    return values

