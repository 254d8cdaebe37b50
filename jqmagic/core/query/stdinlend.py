"""A file lent to libjq as this process's standard input while it reads ``-`` (the
worker's own stdin is its request pipe; a test's stream is not fd 0), and C's stdin kept
fully buffered: Python run unbuffered (-u, PYTHONUNBUFFERED) leaves it unbuffered, and
libjq's reads of ``-`` were then one read() a byte (a 50 MB text 14 s, not 0.3 s)."""

from __future__ import annotations

import os

try:
    from jqmagic.core.query._jqmain import purge_stdin
except ImportError:  # built without a C compiler: libc's own functions, through ctypes
    import ctypes

    _libc = ctypes.CDLL(None)
    _IOFBF = 0  # <stdio.h>'s fully buffered mode
    _BUFFER = ctypes.create_string_buffer(1 << 16)  # C's stdin's, for the process's life

    def purge_stdin() -> None:
        """C's stdin emptied, and fully buffered."""
        stream = ctypes.c_void_p.in_dll(_libc, "stdin")
        _libc.__fpurge(stream)
        _libc.clearerr(stream)
        _libc.setvbuf(stream, _BUFFER, _IOFBF, len(_BUFFER))


def lend_stdin(path: str) -> tuple[int, int]:
    """``path`` as this process's standard input until :func:`give_back`; C's buffer is
    purged on both sides."""
    saved, fd = os.dup(0), os.open(path, os.O_RDONLY)
    try:
        os.dup2(fd, 0)
        purge_stdin()
    except BaseException:
        give_back((saved, fd))
        raise
    return saved, fd


def give_back(lent: tuple[int, int]) -> None:
    """The standard input :func:`lend_stdin` replaced, back."""
    saved, fd = lent
    os.dup2(saved, 0)
    purge_stdin()
    os.close(saved)
    os.close(fd)
