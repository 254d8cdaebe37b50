"""The fast path's per-thread run state: the deadline, the inputs' literal facts and what
a run noticed (read by the errors, so below them)."""

from __future__ import annotations

import threading
from typing import Any


class _State(threading.local):
    deadline: float | None = None
    timeout: float = 0.0
    waited: Any = None  # seconds the run's results waited on their reader (runtime.start)
    floats_compared: bool = False
    big_compared: bool = False  # integers past 2^53 compared exactly (values._long_int)
    big_computed: bool = False  # a double past 2^53 computed (values.computed)
    sliced: bool = False  # an array slice was made (jq compares slices by identity)
    literals: Any = None  # what the inputs' number literals allow (literals.Literals)
    compact_printer: Any = None  # tojson's printer for these literals
    alternatives_waiting: int = 0  # ?// destructurings suspended after an output
    alternative_abandoned: bool = False  # one was left early (jq: a break through it)
    pending: int = 0  # items iterated since the clock was last read

    def __init__(self):
        self.held: dict[int, tuple] = {}  # doubles whose value tells not their text: numbers.note


class Cautious:
    """The literal facts when nobody said: anything may be there."""

    long = odd_floats = whole_floats = negative_zero = True
    settled = True  # known at once: every fact holds
    odd_texts = None  # not known: no float literal may be printed
    facts = frozenset({"long", "odd", "whole", "zero"})  # literals.FACTS, every one

    @property
    def fraction_texts(self) -> dict[float, str]:
        """No printed texts to reuse: any fraction may be odd (see literals.Literals)."""
        return {}


state = _State()
