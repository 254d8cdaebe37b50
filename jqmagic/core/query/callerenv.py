"""The caller's environment as libjq sees it in the worker: jq's ``$ENV`` and ``env`` read
C's ``environ``, and the worker's own variables (its memory cap, its parent, its private
``$TMPDIR``, the payload store it is told) are no part of the caller's. The supervisor
says which of them the caller had, and how (:func:`for_worker`); the worker takes them out
of C's ``environ`` again after each change (:func:`as_callers`), while Python's
``os.environ`` (what jqmagic's own code reads) keeps the worker's values."""

from __future__ import annotations

import ctypes
import json
import os

CALLERS = "JQMAGIC_WORKER_CALLER_ENV"
"""The variable that carries the caller's values of the worker's own variables."""
OWN = ("JQMAGIC_WORKER_MEMORY", "JQMAGIC_WORKER_PARENT", "JQMAGIC_PAYLOAD_DIR", "TMPDIR",
       "HOME")


def for_worker(caller: dict[str, str] | os._Environ, own: dict[str, str]) -> dict[str, str]:
    """The worker's environment: the caller's, ``own`` over it, and what the caller had of
    the worker's own variables (absent ones as null)."""
    had = {name: caller.get(name) for name in (*OWN, CALLERS)}
    return {**caller, **own, CALLERS: json.dumps(had)}


def as_callers() -> None:
    """C's ``environ`` made the caller's again where the worker's own variables differ
    (none said: a worker started by another hand, left as it is)."""
    given = os.environ.get(CALLERS)
    if not given:
        return
    libc = ctypes.CDLL(None)
    for name, value in json.loads(given).items():
        if value is None:
            libc.unsetenv(os.fsencode(name))
        else:
            libc.setenv(os.fsencode(name), os.fsencode(value), 1)
