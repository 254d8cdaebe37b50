"""Where an edit lands: a Python value (in place) or a file (format kept, atomic, locked)."""

from __future__ import annotations

import difflib
import errno
import fcntl
import glob
import json
import os
import shutil
import signal
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.linesdoc import LinesDoc
from jqmagic.core.patch.plan import Runner
from jqmagic.core.patch.result import PatchResult
from jqmagic.core.patch.stores import TreeStore
from jqmagic.core.patch.textdoc import TextDoc
from jqmagic.core.patch.yamltext import YamlDoc
from jqmagic.core.sources import check_encoding, open_file
from jqmagic.core.words import term

_YAML_SUFFIXES = {".yaml", ".yml"}
_LINES_SUFFIXES = {".jsonl", ".ndjson"}
_COMPARE_BYTES = 16 << 20  # below this size, a conflict check also compares the content


# ------------------------------------------------------------------------- targets


def patch_value(obj: dict | list, operation: str, run: Runner, dry_run: bool) -> PatchResult:
    """Edit a Python value in place (undone whole on failure, or after a dry run)."""
    store = TreeStore(obj)
    before = _dump(obj) if dry_run else ""
    try:
        changes, matched = run(store)
        store.settle(obj)
        diff = _text_diff(before, _dump(obj), "value") if dry_run else None
        result = PatchResult(operation, tuple(changes), matched, store.changed, dry_run, diff)
        if dry_run:
            store.rollback()
    except BaseException:
        store.rollback()
        raise
    return result


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr) + "\n"


def _text_diff(old: str, new: str, name: str) -> str:
    return "".join(difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    ))


def patch_file(path: Path, operation: str, run: Runner, dry_run: bool) -> PatchResult:
    """Edit a JSON, JSONC, JSON Lines or YAML file: every other byte kept, written
    atomically under a lock."""
    real = _check_file(path)
    data, stamp = _read(real)
    begin = getattr(run, "begin", None)  # a jq program's run on the file, meanwhile
    if begin is not None and _store_kind(path) is TextDoc:
        begin(str(path), data, stamp)
    try:
        try:
            doc = _open(path, data)
        except JqMagicError as exc:
            raise JqMagicError(exc.code, f"Cannot patch {path}: {exc.raw_message}",
                               exc.raw_hint, exc.detail) from None
        changes, matched = run(doc)
    finally:
        if begin is not None:
            run.end()
    if doc.changed and isinstance(doc, YamlDoc):
        doc.verify()
    result = PatchResult(operation, tuple(changes), matched, doc.changed, dry_run,
                         doc.diff(path.name) if dry_run else None)
    if not dry_run and doc.changed:
        _write(real, doc, stamp, data)
    return result


def _open(path: Path, data: bytes) -> TextDoc | LinesDoc | YamlDoc:
    """The store for a file, by its suffix."""
    kind = _store_kind(path)
    return kind(data, path.name) if kind is YamlDoc else kind(data)


def _store_kind(path: Path) -> type[TextDoc | LinesDoc | YamlDoc]:
    suffix = path.suffix.lower()
    if suffix in _YAML_SUFFIXES:
        return YamlDoc
    if suffix in _LINES_SUFFIXES:
        return LinesDoc
    return TextDoc


def _check_file(path: Path) -> Path:
    real = Path(sandbox.check_path(str(path), "patch"))
    if not real.exists():
        raise JqMagicError("NOT_FOUND", f"File {path} not found.",
                           f"Check the path. {term('target_variable')}")
    if not real.is_file():
        raise JqMagicError("FILE_ERROR", f"Cannot patch {path}: it is not a regular file.")
    return real


def _read(path: Path) -> tuple[bytes, os.stat_result]:
    try:
        with open(open_file(str(path)), "rb") as handle:
            data, stamp = handle.read(), os.fstat(handle.fileno())
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"Cannot read {path}: {exc.strerror}.",
                           "Check the file's permissions.") from exc
    check_encoding(str(path), data[:4])
    return data, stamp


def _check_unchanged(path: Path, stamp: os.stat_result, data: bytes,
                     leased: int | None = None) -> None:
    """PATCH_CONFLICT unless ``path`` still holds what was read: the same inode, size and
    time, and the same bytes (all of them under a lease, read through its descriptor:
    another open would break it)."""
    try:
        now = os.stat(path)
        same = (now.st_size, now.st_mtime_ns, now.st_ino) == (
            stamp.st_size, stamp.st_mtime_ns, stamp.st_ino
        )
        if same and leased is not None:
            same = _read_all(leased) == data
        elif same and now.st_size <= _COMPARE_BYTES:
            same = path.read_bytes() == data
    except FileNotFoundError:
        same = False
    if not same:
        raise _conflict(path)


def _conflict(path: Path) -> JqMagicError:
    return JqMagicError(
        "PATCH_CONFLICT",
        f"{path} changed on disk while it was being patched; nothing was written.",
        "Run the patch again to apply it to the new content.",
    )


def _read_all(fd: int) -> bytes:
    blocks, at = [], 0
    while block := os.pread(fd, 1 << 20, at):
        blocks.append(block)
        at += len(block)
    return b"".join(blocks)


# A write lease (Linux): the kernel tells its holder when anyone opens or truncates the
# file, so an editor that takes no lock is seen between the last check and the replace.
_LEASE_TRIES = 20  # the file is open elsewhere: wait up to 20 x 1 ms for it to close
_LEASE_GRACE = 0.002  # seconds an opener that found the old file has to reach its open
_RENAME_EXCHANGE = 2


def _lease(fd: int) -> bool:
    """Take a write lease on ``fd``'s file, its break signalled to no one (the lease is
    polled); False where none can be had (another system, a file this user does not
    own); BlockingIOError when the file stays open elsewhere (a writer may be at work)."""
    set_lease = getattr(fcntl, "F_SETLEASE", None)
    if set_lease is None or _exchange is None:
        return False
    # A break is signalled to the file's owner: SIGIO by default, which ends a process;
    # SIGURG (ignored unless handled) until the owner is no one.
    fcntl.fcntl(fd, getattr(fcntl, "F_SETSIG", 10), signal.SIGURG)
    for _ in range(_LEASE_TRIES):
        try:
            fcntl.fcntl(fd, set_lease, fcntl.F_WRLCK)
        except BlockingIOError:  # open elsewhere right now
            time.sleep(0.001)
            continue
        except OSError:
            return False
        fcntl.fcntl(fd, fcntl.F_SETOWN, 0)  # no SIGIO (it would end the process)
        return True
    raise BlockingIOError  # held open elsewhere all along: a writer may be at work


def _lease_held(fd: int) -> bool:
    return fcntl.fcntl(fd, fcntl.F_GETLEASE) == fcntl.F_WRLCK


def _swap_under_lease(path: Path, temp: str, old: int) -> None:
    """Exchange the finished copy and ``path`` (the old file lives on under the temporary
    name); when anyone opened the old file meanwhile, exchange them back (it stays where
    its writer will write) and say PATCH_CONFLICT."""
    if not _lease_held(old):
        raise _conflict(path)
    try:
        _exchange(temp, str(path))
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise
        os.replace(temp, str(path))  # a file system without exchange: the lease alone
        return
    time.sleep(_LEASE_GRACE)
    if not _lease_held(old):
        _exchange(temp, str(path))
        raise _conflict(path)
    fcntl.fcntl(old, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    os.unlink(temp)


def _exchanger() -> Any:
    """``renameat2(..., RENAME_EXCHANGE)`` from the C library, or None."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.renameat2
    except (OSError, AttributeError):
        return None

    def exchange(a: str, b: str) -> None:
        if call(-100, os.fsencode(a), -100, os.fsencode(b), _RENAME_EXCHANGE) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))

    return exchange


_exchange = _exchanger()


def _write(
    path: Path, doc: TextDoc | LinesDoc | YamlDoc, stamp: os.stat_result, data: bytes
) -> None:
    """Write next to ``path``, fsync, keep the mode and owner, then replace ``path``
    atomically; a file with other hard links, or whose owner cannot be kept, is instead
    overwritten in place from the finished copy (its links and owner stay)."""
    if path.exists() and not os.access(path, os.W_OK):  # replacing would bypass its mode
        raise JqMagicError("FILE_ERROR", f"Cannot write {path}: it is read-only.",
                           "Make it writable first; nothing was changed.")
    try:
        _remove_stale_temps(path)
        handle, temp = _new_temp(path)
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"Cannot write next to {path}: {exc.strerror}.",
                           "Check that the folder is writable; the file is unchanged.") from exc
    try:
        with os.fdopen(handle, "wb") as out:  # open (and locked) until replaced
            out.writelines(doc.chunks())  # (a C loop: 900,000 pieces for 450,000 edits)
            out.flush()
            os.fsync(out.fileno())
            os.chmod(temp, stat.S_IMODE(stamp.st_mode))
            in_place = stamp.st_nlink > 1 or not _keeps_owner(out.fileno(), stamp)
            with _turn(path) as old:
                try:
                    leased = not in_place and old is not None and _lease(old)
                except BlockingIOError:
                    raise _conflict(path) from None
                _check_unchanged(path, stamp, data, old if leased else None)
                sandbox.check_path(str(path), "patch")  # a folder swapped meanwhile
                sandbox.check_fd(out.fileno(), str(path), "patch")
                if in_place:
                    _overwrite(path, temp)
                    os.unlink(temp)
                elif leased:
                    _swap_under_lease(path, temp, old)
                else:
                    os.replace(temp, path)
                    _put_back_if_written(path, old, stamp)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise JqMagicError("FILE_ERROR", f"Cannot write {path}: {exc.strerror}.",
                           "The original file is unchanged.") from exc
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_folder(path.parent)


def _keeps_owner(fd: int, stamp: os.stat_result) -> bool:
    """Give the new copy the file's owner and group; False when that is not allowed."""
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (stamp.st_uid, stamp.st_gid):
        return True
    try:
        os.fchown(fd, stamp.st_uid, stamp.st_gid)
    except PermissionError:
        return False
    return True


def _overwrite(path: Path, finished: str) -> None:
    """Copy the finished copy into ``path``'s own inode (the copy is kept until done)."""
    with open(finished, "rb") as source, open(path, "r+b") as target:
        sandbox.check_fd(target.fileno(), str(path), "patch")
        shutil.copyfileobj(source, target, 1 << 20)
        target.truncate()
        target.flush()
        os.fsync(target.fileno())


def _temp_pattern(path: Path) -> str:
    return f".{glob.escape(path.name)}.*.tmp"


def _new_temp(path: Path) -> tuple[int, str]:
    """A temporary file beside ``path``, locked while it lives (see _remove_stale_temps)."""
    for _ in range(3):
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        fcntl.flock(handle, fcntl.LOCK_EX)
        with suppress(FileNotFoundError):
            if os.path.samestat(os.fstat(handle), os.lstat(temp)):
                return handle, temp
        os.close(handle)  # a cleaner took it for stale before it was locked
    raise OSError(errno.EAGAIN, "temporary files beside it keep disappearing")


def _remove_stale_temps(path: Path) -> None:
    """Remove the temporary files of writers killed mid-write: a live writer holds a lock
    on its own, a dead one's lock is gone. Done in the folder's turn: during a writer's
    swap the old file lies under its temporary name, unlocked, for that writer to remove
    (taken for stale, the writer said FILE_ERROR for a write that had landed)."""
    with _folder_locked(path):
        for stale in path.parent.glob(_temp_pattern(path)):
            try:
                fd = os.open(stale, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                with suppress(OSError):  # locked: a live writer's file
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    if os.path.samestat(os.fstat(fd), os.lstat(stale)):
                        os.unlink(stale)
            finally:
                os.close(fd)


def _put_back_if_written(path: Path, old: int | None, stamp: os.stat_result) -> None:
    """A writer that rewrote the old file in place between the last check and the replace
    (it takes no lock) wrote into the inode just replaced: put its text back in place of
    ours and say PATCH_CONFLICT, rather than lose its update without a word."""
    if old is None:
        return
    now = os.fstat(old)
    if (now.st_size, now.st_mtime_ns) == (stamp.st_size, stamp.st_mtime_ns):
        return
    handle, temp = _new_temp(path)
    with os.fdopen(handle, "wb") as out:
        os.lseek(old, 0, os.SEEK_SET)
        while block := os.read(old, 1 << 20):
            out.write(block)
        out.flush()
        os.fsync(out.fileno())
        os.chmod(temp, stat.S_IMODE(now.st_mode))
    os.replace(temp, path)
    raise JqMagicError(
        "PATCH_CONFLICT", f"{path} was written by another program while it was being "
        "patched; its text is kept and the patch was not applied.",
        "Run the patch again to apply it to the new content.")


@contextmanager
def _turn(path: Path) -> Iterator[int | None]:
    """Writers through jqmagic take turns between their last check and the replace: each
    locks the folder (not the file: a writer waiting its turn must not hold the file open,
    or no write lease could be had), then opens the file ``path`` names now, so a second
    writer sees the first one's new file and reports PATCH_CONFLICT."""
    with _folder_locked(path):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            fd = None  # removed meanwhile: the check that follows reports it
        except BlockingIOError:  # another program's write lease: it is replacing the file
            raise _conflict(path) from None
        try:
            yield fd
        finally:
            if fd is not None:
                os.close(fd)


@contextmanager
def _folder_locked(path: Path) -> Iterator[None]:
    """The folder of ``path`` locked (writers' turns; the cleaning of stale temps)."""
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        yield
    finally:
        os.close(folder)


def _fsync_folder(folder: Path) -> None:
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

