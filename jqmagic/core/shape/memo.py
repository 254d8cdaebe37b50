"""What was made from a file, kept for that file's version (device, inode, format; size,
mtime, ctime, as the query caches key it): browsing an unchanged file again reads nothing.

Only the last file is kept: a browser holds the same objects while it is open, so the
memo costs no memory of its own beyond one closed browser's document.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_lock = threading.Lock()
_last: tuple[tuple, Any] | None = None


def version(path: str, what: Any) -> tuple:
    """The key of ``what`` made from ``path`` as the file is now."""
    st = os.stat(path)
    return (st.st_dev, st.st_ino, what, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def kept(path: str, what: Any, make: Callable[[], T]) -> T:
    """``make()``, or what it returned for this version of ``path`` last time (``what``
    names what is made: the same file browsed at two pointers is two things)."""
    global _last
    key = version(path, what)
    with _lock:
        if _last is not None and _last[0] == key:
            return _last[1]
    made = make()
    if version(path, what) == key:  # not changed while it was read
        with _lock:
            _last = (key, made)
    return made


def forget() -> None:
    """Drop what is kept."""
    global _last
    with _lock:
        _last = None
