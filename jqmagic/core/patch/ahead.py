"""An -i's jq program run on the file itself, begun before the file's text is read here as a
store: the worker reads and parses the file (as ``jq PROGRAM FILE`` would) while this
process builds the store and reads the old value, and the result comes back compact (the
least text to write and to parse). Nothing is sent but the path.

Taken only where it must equal the run on the value the store reads: a plain JSON file
(UTF-8, no byte order mark, no comments nor repeated keys: the store's value is the file's),
its name no glob, unchanged from the read to the answer (size, times, inode). Otherwise, or
on any error, the caller runs the program on the store's value as before (so an error is
that run's own).
"""

from __future__ import annotations

import glob
import os
import threading
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.jsonscan import BOM
from jqmagic.core.patch.textdoc import TextDoc


class Ahead:
    """The program's run on ``path`` in a thread of its own, begun at once."""

    def __init__(self, program: str, path: str, stamp: os.stat_result,
                 args: dict[str, Any] | None):
        from jqmagic.core.query import forkworker, query
        from jqmagic.core.query.supervisor import shared_worker

        self.path, self.stamp = path, stamp
        self.values: list | None = None
        self._unread = False  # the worker found no JSON text there
        if forkworker.can_fork():  # forked now: only while this is the only thread
            shared_worker().warm()  # (elsewhere a busy worker is not waited for here)
        self._thread = threading.Thread(
            target=self._run, args=(query, program, args), name="jqmagic-ahead", daemon=True)
        self._thread.start()

    def _run(self, query: Any, program: str, args: dict[str, Any] | None) -> None:
        try:
            self.values = query(program, file=self.path, args=args, jsonl=False, yaml=False,
                                jsonc=False, compact=True, passthrough=True).values
        except JqMagicError as exc:  # the caller runs it again on the value
            self._unread = exc.code == "INVALID_JSON"
        except BaseException:  # noqa: BLE001 - likewise (an interrupt is the caller's)
            pass

    def outputs(self, store: Any) -> list | None:
        """The program's outputs, once the run ended, when they are the store's value's;
        else None."""
        self.wait()
        if self.values is None or not usable(store) or _version(self.path) != _version_of(
                self.stamp):
            return None
        return self.values

    def wait(self) -> None:
        """Let the run end (the worker is then free for the next query). A worker that
        could not parse the file may still hold it open (a lease, taken to write it, would
        fail): it is stopped, the next query starts another."""
        self._thread.join()
        if self._unread:
            self._unread = False
            from jqmagic.core.query.supervisor import shared_worker

            shared_worker().stop()


def begin(program: str, path: str, data: bytes, stamp: os.stat_result,
          args: dict[str, Any] | None) -> Ahead | None:
    """An :class:`Ahead` run where the file may qualify (its text checked later by
    :func:`usable`), else None."""
    if glob.has_magic(path) or data.startswith(BOM) or not _utf8(data):
        return None
    return Ahead(program, path, stamp, args)


def usable(store: Any) -> bool:
    """Whether ``store`` is a plain JSON text, unedited: its value is what jq reads."""
    return isinstance(store, TextDoc) and store._first_wins and not store.changed


def _utf8(data: bytes) -> bool:
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _version(path: str) -> tuple[int, ...] | None:
    try:
        return _version_of(os.stat(path))
    except OSError:
        return None


def _version_of(st: os.stat_result) -> tuple[int, ...]:
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino
