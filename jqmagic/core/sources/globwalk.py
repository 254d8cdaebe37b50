"""Globs walked as ``glob.glob(recursive=True)`` matches, but bounded: in the calling thread
(nothing walks on after the answer), within ``settings.glob_seconds`` and
``settings.glob_max_files``, symlink loops cut, and, in the sandbox, the payload store
never listed (another session's payload is read only when named by its id)."""

from __future__ import annotations

import fnmatch
import glob
import os
import time
from collections.abc import Iterator

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import payload_dir, settings

_NARROW = "Start the glob in a folder near the files (data/**/*.json, not /**/*.json)."


def bounded_glob(pattern: str) -> list[str]:
    """The files ``pattern`` matches, sorted; TOO_LARGE past ``settings.glob_max_files``
    matches, TIMEOUT past ``settings.glob_seconds``."""
    walk = _Walk(pattern)
    found: set[str] = set()
    base, parts = _split(pattern)
    try:
        for match in walk.match(base, parts):
            if os.path.isfile(match):
                found.add(match)
                if len(found) > settings.glob_max_files:
                    raise JqMagicError("TOO_LARGE", f"The glob {pattern} matches more than "
                                       f"{settings.glob_max_files:,} files.", _NARROW)
    except RecursionError:
        raise JqMagicError("TOO_LARGE", f"The glob {pattern} goes too deep into folders.",
                           _NARROW) from None
    return sorted(found)


def _split(pattern: str) -> tuple[str, list[str]]:
    """The folder before the first wildcard and the parts after it."""
    parts = pattern.split(os.sep)
    base = os.sep if pattern.startswith(os.sep) else ""
    parts = [p for p in parts if p]
    while parts and not glob.has_magic(parts[0]):
        base = os.path.join(base, parts.pop(0))
    return base, parts


class _Walk:
    def __init__(self, pattern: str):
        self.pattern = pattern
        self.deadline = time.monotonic() + settings.glob_seconds
        self.store = _identity(str(payload_dir())) if sandbox.enabled() else None

    def match(self, base: str, parts: list[str]) -> Iterator[str]:
        if not parts:
            if base and os.path.lexists(base):
                yield base
            return
        part, rest = parts[0], parts[1:]
        if part == "**":
            yield from self.match(base, rest)
            for sub in self.below(base, set(), files=not rest):
                yield from self.match(sub, rest)
        elif glob.has_magic(part):
            for name, path in self.listing(base, dirs_only=bool(rest)):
                if (part.startswith(".") or not name.startswith(".")) and \
                        fnmatch.fnmatchcase(name, part):
                    yield from self.match(path, rest)
        else:
            path = os.path.join(base, part)
            if not rest or os.path.isdir(path):
                yield from self.match(path, rest)

    def below(self, folder: str, above: set[tuple[int, int]], files: bool) -> Iterator[str]:
        """Every visible folder under ``folder`` (and every file, with ``files``), symlinks
        followed, but never into a folder already on the way down (a loop)."""
        here = _identity(folder or ".")
        if here is None or here in above:
            return
        above = above | {here}
        for name, path in self.listing(folder, dirs_only=not files):
            if name.startswith("."):
                continue
            yield path
            if os.path.isdir(path):
                yield from self.below(path, above, files)

    def listing(self, folder: str, dirs_only: bool) -> Iterator[tuple[str, str]]:
        """(name, path) of the entries of ``folder``, the clock checked at each one."""
        self.check_clock()
        if self.store is not None and _identity(folder or ".") == self.store:
            return  # other sessions' payloads: only by id
        try:
            with os.scandir(folder or ".") as entries:
                for entry in entries:
                    self.check_clock()
                    try:
                        if dirs_only and not entry.is_dir():
                            continue
                    except OSError:
                        continue
                    yield entry.name, os.path.join(folder, entry.name)
        except OSError:
            return

    def check_clock(self) -> None:
        if time.monotonic() > self.deadline:
            raise JqMagicError("TIMEOUT", f"The glob {self.pattern} walked for more than "
                               f"{settings.glob_seconds:g} s.", _NARROW)


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino
