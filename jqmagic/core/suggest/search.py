"""An enumerative search for jq programs from examples: programs grown step by step from
``.`` in order of cost, one per distinct behaviour on the examples (observational
equivalence), evaluated by jqlang; then the goals split by the outputs' shapes (deduce.py)
and ``P | map(X)`` nested searches; the programs found ranked by rank.py."""

from __future__ import annotations

import heapq
import itertools
import json
import re
import time
from collections.abc import Iterator
from typing import Any

from jqmagic.core.suggest import steps as catalog
from jqmagic.core.suggest.deduce import TERM, Deduction, record_keys
from jqmagic.core.suggest.predicates import get
from jqmagic.core.suggest.programs import Entry, canon, run, signature
from jqmagic.core.suggest.rank import answer_literals, ranked
from jqmagic.core.suggest.records import Records, subsequence
from jqmagic.core.suggest.steps import constants, literal, steps

MAX_BANK = 60_000


_STEP = re.compile(r"\.(?:[A-Za-z_][A-Za-z0-9_]*|\[[^\]|]*\])\Z")
_OPERATION = re.compile(r"\. (?:[=!<>]=|[<>+*/%-]) [^|,]+\Z")
_PICK = re.compile(r"(?:\.\[-?\d*:?-?\d*\]|first|last|nth\(.*\))\Z")
_IN_KEY_ORDER = {"keys", "keys_unsorted", "[.[]]", "to_entries", "[paths]", "[..]",
                 "[combinations]", "[.]", "map(keys)", "[paths(scalars)]", "[.[] | .. ]",
                 '[paths(type == "number")]', "tostream", "[tostream]"}


def _pipe(left: str, right: str) -> str:
    """``left | right``; ``.a | .b`` written ``.a.b``."""
    if left == ".":
        return right
    if TERM.match(left) and _STEP.match(right):
        return left + right[1:] if right.startswith(".[") else left + right
    if TERM.match(left) and _OPERATION.match(right):
        return left + right[1:]  # .a | . > 1 is .a > 1
    return f"{left} | {right}"


class Search(Deduction):
    """One search over ``examples`` (input, outputs) until ``deadline``."""

    def __init__(self, examples: list[tuple[Any, list[Any]]], deadline: float,
                 nested: bool = True):
        self.examples = examples
        self.deadline = deadline
        self.nested = nested
        self.pool = constants(examples)
        self.answers = answer_literals(examples)
        self.targets = tuple(tuple(outs) for _, outs in examples)
        self.goal = signature(self.targets)
        self.records = Records(self.targets)
        self.input_keys = {k for given, _ in examples for k in _object_keys(given)}
        self.bank: dict[str, Entry] = {}
        self.found: dict[str, Entry] = {}
        self.tried = {"programs": 0, "kept": 0, "deductions": 0, "nested": 0, "rounds": 0}
        self._cost = -1
        self._queue: list = []
        self._order = itertools.count()

    # ------------------------------------------------------------ the bank

    def add(self, entry: Entry) -> bool:
        sig = signature(entry.streams)
        self.tried["programs"] += 1
        if sig is not None and sig == self.goal:
            self.answer(entry)
        known = self.bank.get(sig) if sig is not None else None
        # a behaviour is kept once, by its cheapest program (steps come in no cost order:
        # .[:-1] may come before map(select(.active)) that does the same on the examples)
        if sig is None or known is not None and not (known.const and not entry.const) and \
                not (entry.cost < known.cost and entry.const == known.const):
            return False
        self.bank[sig] = entry
        self.tried["kept"] += 1
        heapq.heappush(self._queue, (entry.cost, next(self._order), entry))
        return True

    def answer(self, entry: Entry) -> None:
        """``entry`` answers: kept at the cheapest cost it was reached by."""
        known = self.found.get(entry.text)
        if known is None or entry.cost < known.cost:
            self.found[entry.text] = entry

    def lookup(self, streams, allow_const: bool = True) -> Entry | None:
        sig = signature(streams)
        if sig is None:
            return None
        hit = self.bank.get(sig)
        if hit is not None:
            return hit
        if allow_const and all(len(s) == 1 for s in streams):
            values = [canon(s[0]) for s in streams]
            if all(v == values[0] for v in values) and len(json.dumps(values[0])) <= 60:
                return Entry(1, literal(values[0]), tuple(streams), const=True)
        return None

    # ------------------------------------------------------------ the search

    def run(self) -> list[Entry]:
        root = Entry(0, ".", tuple((given,) for given, _ in self.examples))
        self.add(root)
        for value in [*self.pool["scalars"][:8], *self.pool["numbers"]]:
            self.add(Entry(1, literal(value), tuple((value,) for _ in self.examples),
                           const=True))
        self.add(Entry(1, "empty", tuple(() for _ in self.examples), const=True))
        start = time.monotonic()
        phases = [start + (self.deadline - start) * 0.45, self.deadline]
        for i, until in enumerate(phases):
            self.enumerate(until)
            if time.monotonic() < self.deadline:
                self.deduce()
            if i == 0 and self.nested and not self._settled():
                self.nest(start + (self.deadline - start) * 0.8)
            if self._settled():
                break
        return ranked(self.found.values(), self.answers, self.pool["keys"])

    def enumerate(self, until: float) -> None:
        """Grow programs cheapest first until ``until``, a little past the first found."""
        while self._queue and time.monotonic() < until and len(self.bank) < MAX_BANK:
            cost, _, entry = heapq.heappop(self._queue)
            if cost != self._cost:
                self.deduce()
                self._cost = cost
                self.tried["rounds"] += 1
                cheapest = min((e.cost for e in self.found.values() if not e.const),
                               default=None)
                if cheapest is not None and cost > cheapest:
                    heapq.heappush(self._queue, (cost, next(self._order), entry))
                    return
            self.expand(entry)

    def _found_reading(self) -> bool:
        return any(not e.const for e in self.found.values())

    def _settled(self) -> bool:
        """Whether a program reading the input was found and no cheaper one can come: every
        cost level below it was grown (one found early through a costly step, such as
        map(.name) | .[:-1], does not stop the search for cheaper ones)."""
        cheapest = min((e.cost for e in self.found.values() if not e.const), default=None)
        return cheapest is not None and (cheapest <= self._cost or not self._queue)

    def expand(self, entry: Entry) -> None:
        values = [v for stream in entry.streams for v in stream][:64]
        # picking by position from keys, values or a walk, in the order the input happens
        # to have: a teacher names the field instead (.nickname // .name, not [.[]] | .[-1])
        # (or from groups, in the order of their keys: the count of the group whose key
        # sorts last)
        picks = 2 if entry.text.rsplit(" | ", 1)[-1] in _IN_KEY_ORDER or \
            "group_by(" in entry.text else 0
        for text, cost in steps(values, self.pool):
            if time.monotonic() >= self.deadline:
                return
            streams = run(text, entry.streams)
            if streams is not None:
                extra = picks if _PICK.match(text) else -1 if text == "reverse" and \
                    entry.text.rsplit(" | ", 1)[-1].startswith("sort") else 0
                self.add(Entry(entry.cost + cost + extra, _pipe(entry.text, text), streams,
                               entry.const))
        if entry.text != ".":
            collected = tuple((list(s),) for s in entry.streams)
            self.add(Entry(entry.cost + 1, f"[{entry.text}]", collected, entry.const))

    # ------------------------------------------------------------ nesting

    def nest(self, until: float) -> None:
        """``P | X``, ``P | map(X)``, ``P | map_values(X)`` and ``P | map(select(X) |
        .k)``: for the cheapest P whose outputs line up with the outputs wanted (one for
        one, element for element, value for value, or the wanted elements a subsequence of
        P's), a search for X on P's outputs, a second at most each (one that finds nothing
        would take the time of the ones after it)."""
        singles = self._singles(self.targets)
        tried = 0
        for entry in sorted(self.bank.values())[:400]:
            if time.monotonic() >= until or tried >= 12:
                return
            if entry.const:
                continue
            for pairs, form in self._nestings(entry, singles):
                if not _functional(pairs):
                    continue  # one input, two outputs: no X does that
                tried += 1
                self.tried["nested"] += 1
                share = min((until - time.monotonic()) / 3, 1.0)
                inner = Search(pairs, time.monotonic() + share, nested=False).run()
                found = next((e for e in inner if e.text != "." and not e.const), None)
                if found is not None:
                    whole = form.format(found.text)
                    if whole.startswith(". | "):
                        whole = whole[4:]
                    self.answer(Entry(entry.cost + found.cost + 2, whole, self.targets,
                                      False))
                    return

    def _nestings(self, entry: Entry, singles: list | None):
        """``(examples for X, the whole program with {} for X)`` that ``entry`` allows."""
        streams, targets = entry.streams, self.targets
        # a program of one output each is grown step by step anyway: P | X for streams
        if entry.text != "." and any(len(s) > 1 for s in streams) and \
                all(len(s) == len(t) for s, t in zip(streams, targets, strict=True)):
            yield ([(v, [o]) for s, t in zip(streams, targets, strict=True)
                    for v, o in zip(s, t, strict=True)], f"{entry.text} | {{}}")
        if singles and all(len(s) == 1 and isinstance(s[0], dict) and isinstance(t, dict) and
                           s[0] and set(s[0]) == set(t) for s, t in zip(streams, singles,
                                                                      strict=True)):
            yield ([(s[0][k], [t[k]]) for s, t in zip(streams, singles, strict=True)
                    for k in t], f"{entry.text} | map_values({{}})")
        if not singles or not all(len(s) == 1 and isinstance(s[0], list) and
                                  isinstance(t, list) for s, t in zip(streams, singles,
                                                                      strict=True)):
            return
        arrays = [s[0] for s in streams]
        if all(len(a) == len(t) for a, t in zip(arrays, singles, strict=True)) and any(singles):
            yield ([(v, [o]) for a, t in zip(arrays, singles, strict=True)
                    for v, o in zip(a, t, strict=True)], f"{entry.text} | map({{}})")
        fields = ((k, f" | {catalog.field(k)}") for k in record_keys(arrays))
        for key, step in [(None, ""), *fields]:
            kept = [subsequence([get(v, key and (key,)) for v in a], t)
                    for a, t in zip(arrays, singles, strict=True)]
            if all(k is not None for k in kept) and any(not all(k) for k in kept):
                pairs = [(v, [keep]) for a, k in zip(arrays, kept, strict=True)
                         for v, keep in zip(a, k, strict=True)]
                yield pairs, f"{entry.text} | map(select({{}}){step})"
                return


def _functional(pairs: list) -> bool:
    """Whether no input of ``pairs`` is asked for two different outputs."""
    seen: dict[str, str] = {}
    for given, outs in pairs:
        a, b = signature([given]), signature([outs])
        if a is not None and seen.setdefault(a, b) != b:
            return False
    return True


def _object_keys(value: Any, depth: int = 0) -> Iterator[str]:
    """The keys of the objects in ``value``, a few levels down."""
    if depth > 4:
        return
    if isinstance(value, dict):
        for k, v in list(value.items())[:catalog.MAX_KEYS]:
            yield k
            yield from _object_keys(v, depth + 1)
    elif isinstance(value, list):
        for v in value[:20]:
            yield from _object_keys(v, depth + 1)
