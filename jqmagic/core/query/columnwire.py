"""Columns sent from one process to another (a child's half of a columns-only pass:
:func:`.linespans.rows`): marshalled, each object a column shares written once (marshal's
references: a string that repeats stays one object), an unread cell as a mark.

>>> made = columns.Made({("a",): ["x", columns.UNREAD, 1.5]}, kinds={("a",): 16 | 128 | 8})
>>> back = unpacked(packed(made, (("a",),)))
>>> back[("a",)][1] is columns.UNREAD, back.kinds == made.kinds
(True, True)
"""

from __future__ import annotations

import marshal

from jqmagic.core.jqlang import columns

_MARK = ("unread",)  # no JSON value is a tuple
_UNREAD_BIT = 128  # of columns' kinds


def packed(made: columns.Made, order: tuple) -> bytes:
    """``made``'s columns of ``order``, their kinds and distinct strings, as bytes."""
    cells = [[_MARK if value is columns.UNREAD else value for value in made[chain]]
             if made.kinds.get(chain, _UNREAD_BIT) & _UNREAD_BIT else made[chain]
             for chain in order]
    return marshal.dumps((_MARK, order, cells, made.kinds, made.distinct))


def unpacked(data: bytes) -> columns.Made | None:
    """The columns :func:`packed` wrote; None for anything else (a child that failed)."""
    try:
        mark, order, cells, kinds, distinct = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    made = columns.Made(kinds=kinds, distinct=distinct)
    for chain, column in zip(order, cells, strict=True):
        made[chain] = [columns.UNREAD if value is mark else value for value in column] \
            if kinds.get(chain, _UNREAD_BIT) & _UNREAD_BIT else column
    return made
