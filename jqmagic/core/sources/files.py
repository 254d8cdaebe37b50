"""Files on disk: globs resolved, opened under the sandbox, read as UTF-8 text."""

from __future__ import annotations

import difflib
import glob
import os
import stat
import time
from pathlib import Path

from jqmagic.core import jqutf8, sandbox  # noqa: F401 (jqutf8: the jq-utf8 handler)
from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources.resolve import expand
from jqmagic.core.words import term


def resolve_files(spec: str | list[str]) -> list[str]:
    """Expand ``~`` and globs; every result is a readable file, or an error says why not
(the bytes are the reader's: UTF-16 text is said where its parse fails).

    In the sandbox, a path outside the allowed roots is SANDBOX_DENIED whether or not it
    exists (judged before anything about it is said).
    """
    patterns = [os.fspath(spec)] if isinstance(spec, (str, os.PathLike)) else \
        [os.fspath(s) for s in spec]
    files: list[str] = []
    for pattern in patterns:
        if not glob.has_magic(pattern) or os.path.lexists(pattern):  # a name, not a glob
            sandbox.check_path(pattern)
        found = expand(pattern)
        if not found:
            raise _not_found(pattern)
        files.extend(found)
    for path in files:
        if os.path.isdir(path):
            raise JqMagicError("FILE_ERROR", f"{path} is a directory, not a file.",
                               "Name a file inside it, or a glob such as "
                               f"{os.path.join(os.path.normpath(path), '*.json')}.")
        sandbox.check_path(path)
        if not os.access(path, os.R_OK):
            raise JqMagicError("FILE_ERROR", f"{path} is not readable.",
                               "Check the file's permissions.")
        os.close(open_file(path))  # a FIFO, socket or device said here
    return files  # UTF-16 is said where a parse fails (jq reads 1\0 as 1)


def _not_regular(path: str) -> JqMagicError:
    return JqMagicError("FILE_ERROR", f"{path} is not a regular file (a FIFO, socket or "
                        "device).", "Copy its content to a file first, or pipe it with "
                        f"{term('exec')}.")


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
    hint = "Check the path; ~ and globs are expanded (where no file has that very name)."
    if folder.is_dir():
        names = [p.name for p in folder.iterdir() if p.is_file()]  # a folder is no answer
        close = _similar(path.name, names)
        spaced = [n for n in names if n.startswith(f"{path.name} ") or
                  n.endswith(f" {path.name}")][:3]  # a name a shell split at its spaces
        if spaced:
            import shlex

            hint = ("Did you mean " + ", ".join(shlex.quote(str(folder / n)) for n in spaced)
                    + "? A name with spaces is quoted in a shell.")
        elif close:
            hint = "Did you mean " + ", ".join(str(folder / c) for c in close) + "?"
    return JqMagicError("NOT_FOUND", f"File not found: {pattern}", hint)



_DATA_SUFFIXES = {".json", ".jsonl", ".ndjson", ".jsonc", ".yaml", ".yml", ".geojson"}


def _similar(name: str, names: list[str]) -> list[str]:
    """Up to three of ``names`` like ``name``: its stem alike (a typo) with its suffix or
    one of a data file, not its suffix alone (``nosuch.json`` is not like ``out.json``, nor
    ``x.json`` like ``x.py``)."""
    suffix = Path(name).suffix.lower()
    stems: dict[str, list[str]] = {}
    for other in sorted(names):
        if Path(other).suffix.lower() in (suffix, *_DATA_SUFFIXES):
            stems.setdefault(Path(other).stem, []).append(other)
    close = difflib.get_close_matches(Path(name).stem, list(stems), n=3, cutoff=0.75)
    return [other for stem in close for other in stems[stem]][:3]


def open_file(path: str, confined: bool = True) -> int:
    """A descriptor for reading ``path``, which must be a regular file (a FIFO never blocks
    here) and, in the sandbox, really lie inside the allowed roots once opened (unless not
    ``confined``: jqmagic's own temporary files)."""
    for wait in (0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0):
        try:
            fd = os.open(os.path.expanduser(path), os.O_RDONLY | os.O_NONBLOCK)
            break
        except BlockingIOError as exc:  # a patch's write lease, held a few milliseconds
            if not wait:
                raise read_error(path, exc) from exc
            time.sleep(wait)
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


def read_text(path: str, confined: bool = True, as_jq: bool = False) -> str:
    """A file's text as UTF-8 (a BOM is dropped); FILE_ERROR if it cannot be read.

    ``confined``: the sandbox judges the file (not for jqmagic's own temporary files);
    ``as_jq``: bytes that are not UTF-8 read as jq reads JSON text (U+FFFD), not refused.
    """
    try:
        with open(open_file(path, confined), "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise read_error(path, exc) from exc
    check_encoding(path, data[:4])
    try:
        return data.decode("utf-8-sig", "jq-utf8" if as_jq else "strict")
    except UnicodeDecodeError as exc:
        raise JqMagicError("FILE_ERROR", f"{path} is not UTF-8 text ({exc.reason} at byte "
                           f"{exc.start}).", "Convert it to UTF-8 first (iconv).") from None



def read_option_file(path: str, flag: str) -> str:
    """The text of a file an option names (``-f``, ``--rawfile``, ``--slurpfile``...),
    through the sandbox's one file check: SANDBOX_DENIED outside the roots (whether or not
    it exists), else NOT_FOUND or FILE_ERROR naming the option when it cannot be read."""
    sandbox.check_path(path)
    try:
        return read_text(path)
    except JqMagicError as exc:
        cause = exc.__cause__
        if exc.code == "SANDBOX_DENIED" or not isinstance(cause, OSError):
            raise
        code = "NOT_FOUND" if isinstance(cause, FileNotFoundError) else "FILE_ERROR"
        raise JqMagicError(code, f"{flag} {path}: {cause.strerror or cause}.",
                           "Check the path.") from None
