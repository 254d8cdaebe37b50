"""``jq -n '... inputs ...'`` over values libjq parsed before (the worker's
:mod:`.jvcache`): the program's input callback is ``_jqmain``'s ``next_held``, which hands
it a copy of each held value in turn, in C. A question the fast path declines over a file
already parsed pays no parse and no Python call per input.

Only where the held values are what jq's own reading would give: ``input_filename`` and
``input_line_number`` ask the reader itself (its file, its line), so a program naming them
reads the files as jq does.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Iterator

from jqmagic.core.query import libjq, libjqinput
from jqmagic.core.query.mainloop import _jqmain

_ASKS_THE_READER = re.compile(r"\binput_(filename|line_number)\b")


class _Held(ctypes.Structure):
    """``held_inputs`` in _jqmain.c."""

    _fields_ = [("values", ctypes.POINTER(libjq.jv)), ("count", ctypes.c_ssize_t),
                ("at", ctypes.c_ssize_t)]


def answers(program: str) -> bool:
    """Whether a ``-n`` program reading its inputs can be given held values."""
    return _jqmain is not None and not _ASKS_THE_READER.search(program)


def run(program: libjq.Program, values: list, flags: int, batched: bool = False) -> Iterator:
    """The results of ``program`` run with ``-n``, its ``input``/``inputs`` giving
    ``values`` (borrowed: each is copied as it is given) in order."""
    array = (libjq.jv * len(values))(*values)
    held = _Held(array, len(values), 0)
    libjq._lib.jq_set_input_cb(program.state, _jqmain.NEXT_HELD,  # noqa: SLF001
                               ctypes.byref(held))
    program.messages.clear()
    program.input_errors = []
    try:
        yield from libjqinput.run_parsed(program, [], null_input=True, flags=flags,
                                         batched=batched)
    finally:
        libjq._lib.jq_set_input_cb(program.state, None, None)  # noqa: SLF001
        del array


if _jqmain is not None:
    assert ctypes.sizeof(_Held) == _jqmain.HELD_SIZE, "_jqmain.c's held_inputs changed"
