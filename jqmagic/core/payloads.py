"""The payload store: a result too big to show is kept on disk under a 32-hex id.

Layout (as the gh-aw jqschema middleware): ``<dir>/<id>/payload.json``. The folder is
``directory=``, else ``$JQMAGIC_PAYLOAD_DIR``, else ``<cache dir>/payloads``
(``~/.cache/jqmagic/payloads``). Past a size budget (``$JQMAGIC_PAYLOAD_BUDGET`` bytes,
default 1 GiB) the oldest payloads are pruned, never the one just written; :func:`clear`
(``jqmagic payloads --clear``) removes them all. Writes are atomic; a full disk is a
FILE_ERROR that leaves nothing half-written behind.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from jqmagic.core import settings as config
from jqmagic.core.errors import JqMagicError

FILENAME = "payload.json"
_ID = re.compile(r"^[0-9a-f]{32}$")
_SPACE = re.compile(r"\s*")


@dataclass(frozen=True)
class PayloadRef:
    """Where a stored payload is: its id, the path of its ``payload.json`` and its size."""

    id: str
    path: Path
    size: int


def payload_dir(directory: str | os.PathLike | None = None) -> Path:
    """The store's folder (not created)."""
    if directory is not None:
        return Path(directory).expanduser()
    return config.payload_dir()


def _budget(budget: int | None) -> int:
    if budget is not None:
        return budget
    return config.payload_budget()


def _open_for_write(fd: int) -> IO[bytes]:
    return os.fdopen(fd, "wb")


def store(text: str | bytes, *, directory: str | os.PathLike | None = None,
          budget: int | None = None) -> PayloadRef:
    """Keep ``text`` under a new random id, then prune the store down to ``budget`` bytes."""
    data = text.encode() if isinstance(text, str) else text
    root = payload_dir(directory)
    pid = secrets.token_hex(16)
    folder = root / pid
    tmp = None
    try:
        folder.mkdir(parents=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".payload-")
        with _open_for_write(fd) as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, folder / FILENAME)
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise _write_error(exc, root, len(data)) from exc
    prune(_budget(budget), directory=root, keep={pid})
    return PayloadRef(pid, folder / FILENAME, len(data))


def reserve(*, directory: str | os.PathLike | None = None) -> PayloadRef:
    """A new id and the path its ``payload.json`` will have; nothing is created yet.

    For writers that stream a payload themselves (the jq worker spills results there);
    call :func:`settle` once the file is written.
    """
    pid = secrets.token_hex(16)
    return PayloadRef(pid, payload_dir(directory) / pid / FILENAME, 0)


def release(ref: PayloadRef) -> None:
    """Remove what was written through :func:`reserve` for a query that failed."""
    shutil.rmtree(ref.path.parent, ignore_errors=True)


def settle(ref: PayloadRef, *, budget: int | None = None) -> PayloadRef:
    """Prune the store around a payload written through :func:`reserve`; its final size."""
    root = ref.path.parent.parent
    prune(_budget(budget), directory=root, keep={ref.id})
    try:
        size = ref.path.stat().st_size
    except FileNotFoundError:  # another session pruned it already: find() says NOT_FOUND
        size = 0
    return PayloadRef(ref.id, ref.path, size)


def _write_error(exc: OSError, root: Path, size: int) -> JqMagicError:
    why = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else \
        (exc.strerror or str(exc))
    return JqMagicError(
        "FILE_ERROR", f"Could not store a payload of {size:,} bytes in {root}: {why}.",
        "Free disk space, prune old payloads, or set JQMAGIC_PAYLOAD_DIR to a folder with room; "
        "meanwhile narrow the query so the result fits on screen.")


def find(pid: str, *, directory: str | os.PathLike | None = None) -> PayloadRef:
    """The stored payload ``pid``; INVALID_ARGUMENT for a malformed id, NOT_FOUND if gone."""
    if not isinstance(pid, str) or not _ID.match(pid):
        raise JqMagicError("INVALID_ARGUMENT", f"{pid!r} is not a payload id",
                           "A payload id is 32 lowercase hex characters, as shown with the "
                           "truncated result.")
    path = payload_dir(directory) / pid / FILENAME
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise JqMagicError("NOT_FOUND", f"No payload {pid} in {path.parent.parent}",
                           "It may have been pruned past the size budget; run the query "
                           "again.") from None
    return PayloadRef(pid, path, size)


def load(pid: str, *, directory: str | os.PathLike | None = None) -> str:
    """The text of payload ``pid``."""
    ref = find(pid, directory=directory)
    try:
        return ref.path.read_text(encoding="utf-8")
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"Could not read payload {pid}: {exc.strerror}",
                           "Check the payload folder's permissions.") from exc


def payload(pid: str, *, directory: str | os.PathLike | None = None) -> Any:
    """The value of payload ``pid`` (several top-level JSON values come back as a list)."""
    text, decoder = load(pid, directory=directory), json.JSONDecoder()
    values, pos = [], _SPACE.match(text).end()
    while pos < len(text):  # jqmagic wrote it: JSON values, one a line
        value, pos = decoder.raw_decode(text, pos)
        values.append(value)
        pos = _SPACE.match(text, pos).end()
    return values[0] if len(values) == 1 else values


def entries(directory: str | os.PathLike | None = None) -> list[PayloadRef]:
    """Every stored payload, oldest first."""
    root = payload_dir(directory)
    found = []
    if root.is_dir():
        for folder in root.iterdir():
            path = folder / FILENAME
            if _ID.match(folder.name):
                try:
                    st = path.stat()
                except OSError:
                    continue
                found.append((st.st_mtime_ns, PayloadRef(folder.name, path, st.st_size)))
    return [ref for _, ref in sorted(found, key=lambda e: (e[0], e[1].id))]


def clear(directory: str | os.PathLike | None = None) -> list[PayloadRef]:
    """Remove every stored payload (one a running query is still writing too); the ones
    removed."""
    refs = entries(directory)
    for ref in refs:
        shutil.rmtree(ref.path.parent, ignore_errors=True)
    return refs


def prune(budget: int, *, directory: str | os.PathLike | None = None,
          keep: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Remove the oldest payloads until the store holds at most ``budget`` bytes."""
    refs = entries(directory)
    total = sum(r.size for r in refs)
    removed = []
    for ref in refs:
        if total <= budget:
            break
        if ref.id in keep:
            continue
        shutil.rmtree(ref.path.parent, ignore_errors=True)
        total -= ref.size
        removed.append(ref.id)
    return removed
