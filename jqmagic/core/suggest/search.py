"""An enumerative search for jq programs from examples: programs grown step by step from
``.`` in order of cost, one per distinct behaviour on the examples (observational
equivalence), evaluated by jqlang; goals split by the outputs' shapes (objects, arrays,
``,``, arithmetic, ``P | map(X)``) into sub-goals looked up among the programs found."""

from __future__ import annotations

import heapq
import itertools
import json
import re
import time
from collections.abc import Iterator
from typing import Any

from jqmagic.core.suggest import steps as catalog
from jqmagic.core.suggest.predicates import get
from jqmagic.core.suggest.programs import Entry, canon, run, signature
from jqmagic.core.suggest.records import Records, subsequence
from jqmagic.core.suggest.steps import constants, literal, steps

MAX_BANK = 60_000


_STEP = re.compile(r"\.(?:[A-Za-z_][A-Za-z0-9_]*|\[[^\]|]*\])\Z")
_TERM = re.compile(r"(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|\[[^\]|]*\]))+\Z")
_OPERATION = re.compile(r"\. (?:[=!<>]=|[<>+*/%-]) [^|,]+\Z")
_PICK = re.compile(r"(?:\.\[-?\d*:?-?\d*\]|first|last|nth\(.*\))\Z")
_IN_KEY_ORDER = {"keys", "keys_unsorted", "[.[]]", "to_entries", "[paths]", "[..]",
                 "[combinations]", "[.]", "map(keys)", "[paths(scalars)]", "[.[] | .. ]",
                 '[paths(type == "number")]', "tostream", "[tostream]"}
_SELF = re.compile(r"[-+*/%() .\d]*\.[-+*/%() .\d]*\Z")  # -., 0 - ., (. + .)
_GENERIC = ("..", "min", "max", "first", "last", "add", "[]", "flatten", "implode",
            "unique", "tostring", "length", "join", "index", "type", "reverse")


def _pipe(left: str, right: str) -> str:
    """``left | right``; ``.a | .b`` written ``.a.b``."""
    if left == ".":
        return right
    if _TERM.match(left) and _STEP.match(right):
        return left + right[1:] if right.startswith(".[") else left + right
    if _TERM.match(left) and _OPERATION.match(right):
        return left + right[1:]  # .a | . > 1 is .a > 1
    return f"{left} | {right}"


def _generic(text: str) -> int:
    """How many steps of ``text`` say little about the data (``..``, ``min``, ``.[]``...):
    among programs of one cost, the ones naming fields and indices read better."""
    return sum(text.count(word) for word in _GENERIC) + 2 * text.count("..")


class Search:
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

    # ------------------------------------------------------------ deduction

    def deduce(self) -> None:
        """Goals split by the outputs' shapes, their parts looked up in the bank."""
        targets = self.targets
        for entry in filter(None, (self._object(targets), self._array(targets),
                                   self._comma(targets), self._interpolation(targets),
                                   self._tally(targets), self._alternative(targets),
                                   *self.records.deduce(list(self.bank.values())),
                                   *self._arithmetic(targets))):
            self.tried["deductions"] += 1
            self.answer(entry)

    def _singles(self, targets) -> list | None:
        return [t[0] for t in targets] if all(len(t) == 1 for t in targets) else None

    def _object(self, targets) -> Entry | None:
        singles = self._singles(targets)
        if not singles or not all(isinstance(v, dict) and v for v in singles):
            return None
        keys = list(singles[0])
        if any(list(v) != keys for v in singles) or len(keys) > 8:
            return None
        parts = []
        for key in keys:
            part = self.lookup(tuple((v[key],) for v in singles))
            if part is None:
                return None
            # a key the inputs name is written as it is ({name, email}); another one may
            # come from the input ({(.user): .titles})
            named = None if key in self.input_keys else \
                self.lookup(tuple((key,) for _ in singles), allow_const=False)
            parts.append((key if named is None or named.const else named, part))
        return Entry(1 + sum(p.cost for _, p in parts), _object_text(parts), targets,
                     all(p.const for _, p in parts))

    def _array(self, targets) -> Entry | None:
        singles = self._singles(targets)
        if not singles or not all(isinstance(v, list) for v in singles):
            return None
        whole = self.lookup(tuple(tuple(v) for v in singles), allow_const=False)
        if whole is not None and whole.text != ".":
            return Entry(whole.cost + 1, f"[{whole.text}]", targets, whole.const)
        size = len(singles[0])
        if not 0 < size <= 5 or any(len(v) != size for v in singles):
            return None
        parts = [self.lookup(tuple((v[i],) for v in singles)) for i in range(size)]
        if any(p is None for p in parts):
            return None
        return Entry(1 + sum(p.cost for p in parts), f"[{', '.join(p.text for p in parts)}]",
                     targets, all(p.const for p in parts))

    def _tally(self, targets) -> Entry | None:
        """Counts or totals per key (``{"A": 2, "B": 1}`` from records): a reduce adding
        1, or a numeric field, at the key a string field names."""
        singles = self._singles(targets)
        if not singles or not all(isinstance(t, dict) and t and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in t.values())
                for t in singles):
            return None
        records = [given for given, _ in self.examples]
        if not all(isinstance(r, list) and r and all(isinstance(e, dict) for e in r)
                   for r in records):
            return None
        keys = _keys(records)
        for key in keys:
            if not all(isinstance(e.get(key), str) for r in records for e in r):
                continue
            for amount in (None, *keys):
                totals = [_totals(r, key, amount) for r in records]
                if all(t is not None and canon(t) == canon(w)
                       for t, w in zip(totals, singles, strict=True)):
                    added = "1" if amount is None else f"$x{_step(amount)}"
                    return Entry(4, f"reduce .[] as $x ({{}}; .[$x{_step(key)}] += "
                                    f"{added})", targets, False)
        return None

    def _alternative(self, targets) -> Entry | None:
        """``A // B``: a path whose value is missing (null or false) in some examples and
        the one wanted in the others, then a path giving the rest."""
        singles = self._singles(targets)
        if not singles or any(v is None or v is False for v in singles):
            return None
        wanted = [canon(v) for v in singles]
        terms = sorted(e for e in self.bank.values() if e.cost <= 3 and not e.const and
                       _TERM.match(e.text) and all(len(s) == 1 for s in e.streams))
        for left in terms:
            got = [canon(s[0]) for s in left.streams]
            gaps = [g is None or g is False for g in got]
            if all(gaps) or not any(gaps) or \
                    any(g != w for g, w, gap in zip(got, wanted, gaps, strict=True) if not gap):
                continue
            for right in terms:
                if right is not left and all(
                        canon(s[0]) == w for s, w, gap in zip(right.streams, wanted, gaps,
                                                              strict=True) if gap):
                    return Entry(left.cost + right.cost + 1, f"{left.text} // {right.text}",
                                 targets, False)
        return None

    def _comma(self, targets, depth: int = 0) -> Entry | None:
        """``a, b`` (and ``a, b, c``...): each part of the stream looked up in the bank."""
        sizes = {len(t) for t in targets}
        if len(sizes) != 1 or (size := sizes.pop()) < 2:
            return None
        for cut in range(1, size):
            left = self.lookup(tuple(t[:cut] for t in targets))
            rest = tuple(t[cut:] for t in targets)
            right = (self.lookup(rest) or (depth < 3 and self._comma(rest, depth + 1))) \
                if left else None
            if left and right:
                return Entry(left.cost + right.cost + 1, f"{left.text}, {right.text}",
                             targets, left.const and right.const)
        return None

    def _interpolation(self, targets) -> Entry | None:
        """``"text \\(a) text \\(b)"``: the wanted strings cut where the text of a program's
        value (a number, or a string of two characters or more) appears in them."""
        singles = self._singles(targets)
        if not singles or not all(isinstance(t, str) for t in singles):
            return None
        pieces = []
        for entry in sorted(self.bank.values())[:3000]:
            values = [s[0] if len(s) == 1 else None for s in entry.streams]
            if entry.const or entry.text == "." and isinstance(values[0], str):
                continue
            texts = [_text_of(v) for v in values]
            if texts[0] and texts[0] in singles[0] and all(texts):
                pieces.append((entry, texts))
        template, i, first = [], 0, singles[0]
        while i < len(first):
            best = max((p for p in pieces if first.startswith(p[1][0], i)
                        and _bounded(first, i, p[1][0])),
                       key=lambda p: (len(p[1][0]), -p[0].cost), default=None)
            if best is None:
                template.append(first[i])
                i += 1
            else:
                template.append(best)
                i += len(best[1][0])
        used = [p for p in template if not isinstance(p, str)]
        if not used:
            return None
        for k, want in enumerate(singles):
            made = "".join(p if isinstance(p, str) else p[1][k] for p in template)
            if made != want:
                return None
        body = "".join(json.dumps(p, ensure_ascii=False)[1:-1] if isinstance(p, str)
                       else f"\\({p[0].text})" for p in template)
        return Entry(1 + sum(p[0].cost for p in used), f'"{body}"', targets, False)

    def _arithmetic(self, targets) -> list[Entry | None]:
        singles = self._singles(targets)
        if not singles:
            return []
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in singles)
        strings = all(isinstance(v, str) for v in singles)
        if not numbers and not strings:
            return []
        found: list[Entry | None] = []
        for entry in list(self.bank.values()):
            left = [s[0] if len(s) == 1 else None for s in entry.streams]
            if entry.const or any(x is None or type(x) is bool for x in left):
                continue
            for op, need in _inverses(left, singles, numbers):
                if canon(need) == canon(singles) or _neutral(op, left) or \
                        _neutral(op, need, right=True):
                    continue  # the other side alone would be the answer
                right = self.lookup(tuple((x,) for x in need), allow_const=False)
                if right is not None and right.text != entry.text:
                    text = f"{_operand(entry.text)} {op} {_operand(right.text)}"
                    # a constant that happens to close the gap (length - 1) needs more
                    # than two examples to be believed: it costs more than a filter;
                    # . - -. is . * 2 said the long way; two long programs that happen
                    # to add up are a coincidence more often than an answer
                    extra = 2 if right.const and len(self.examples) < 3 or \
                        _SELF.match(right.text) else 0
                    extra += 2 if entry.cost + right.cost > 3 else 0
                    found.append(Entry(entry.cost + right.cost + 1 + extra, text, targets,
                                       entry.const and right.const))
                    if len(found) > 3:
                        return found
        return found

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
        for key, step in [(None, ""), *((k, f" | {catalog.field(k)}") for k in _keys(arrays))]:
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


def _step(key: str) -> str:
    """``$x`` followed by this step reads ``key``: ``.k``, or ``["a b"]``."""
    step = catalog.field(key)
    return step if not step.startswith(".[") else step[1:]


def _totals(records: list[dict], key: str, amount: str | None) -> dict | None:
    """How many records have each value of ``key``, or their ``amount`` added up."""
    out: dict[str, Any] = {}
    for record in records:
        value = 1 if amount is None else record.get(amount)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return None
        out[record[key]] = out.get(record[key], 0) + value
    return out


def answer_literals(examples: list[tuple[Any, list[Any]]]) -> list[re.Pattern]:
    """Patterns of the wanted outputs' numbers and strings that the inputs do not hold
    (27.75, "zzz", the 2 of a count of two): a program writing one of them carries the
    answer rather than finding it. The inputs hold a string inside any of theirs or a
    key, a number as itself or as a string's whole text."""
    def scalars(value: Any, keys: bool):
        if isinstance(value, dict):
            for k, v in value.items():
                if keys:
                    yield k
                yield from scalars(v, keys)
        elif isinstance(value, list):
            for v in value:
                yield from scalars(v, keys)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            yield value

    given = [v for g, _ in examples for v in scalars(g, True)]
    texts = [v for v in given if isinstance(v, str)]
    numbers = {json.dumps(canon(v)) for v in given if not isinstance(v, str)}
    carried = set()
    for value in (v for _, outs in examples for o in outs for v in scalars(o, False)):
        if isinstance(value, str):
            if not any(value in t for t in texts):
                carried.add(re.escape(json.dumps(value, ensure_ascii=False)))
        elif (text := json.dumps(canon(value))) not in numbers and text not in texts:
            carried.add(r"(?<![\w.\"$])" + re.escape(text) + r"(?![\w.\"])")
    return [re.compile(p) for p in sorted(carried)]


def embeds(text: str, answers: list[re.Pattern]) -> bool:
    """Whether program ``text`` writes one of the ``answers`` as a constant."""
    return any(pattern.search(text) for pattern in answers)


def _bounded(text: str, at: int, piece: str) -> bool:
    """Whether a number's text stands alone at ``at`` (not the 2 of "42" or "x2")."""
    if not piece[:1].isdigit() and not piece.startswith("-"):
        return True
    end = at + len(piece)
    return not (at > 0 and text[at - 1].isalnum() or end < len(text) and text[end].isalnum())


def _text_of(value: Any) -> str | None:
    """What ``\\(value)`` writes for a number or a string of two characters or more."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return json.dumps(canon(value))
    if isinstance(value, str) and len(value) >= 2:
        return value
    return None


def _keys(arrays: list[list]) -> list[str]:
    keys: dict[str, None] = {}
    for array in arrays:
        for value in array[:20]:
            if isinstance(value, dict):
                keys.update(dict.fromkeys(list(value)[:16]))
    return list(keys)[:16]


def ranked(found, answers: list[re.Pattern] = (), keys: list[str] = ()) -> list[Entry]:
    """Programs reading the input first, then the constants, then programs writing a
    wanted value as a constant (see :func:`answer_literals`); cheapest first, and among
    equals the one naming more of the data's fields (``map(select(.done)) | length``
    before ``map(not) | indices(false) | .[-1]``); ``P | step`` and ``step | P`` dropped
    when ``P`` itself answers (the step changed nothing the examples show)."""
    texts = {e.text for e in found}
    kept = [e for e in found if not any(e.text.startswith(t + " | ") or
                                        e.text.endswith(" | " + t) for t in texts)]
    fields = [catalog.field(k) for k in keys]
    def key(e: Entry):
        carried = e.const or embeds(e.text, answers)  # the answer written, not found
        return (carried, not e.const, e.cost, -sum(f in e.text for f in fields),
                _generic(e.text), len(e.text))

    return sorted(kept, key=key)


def _inverses(left: list, want: list, numbers: bool):
    """``(op, right operands)`` so that ``left op right == want`` for every example."""
    if numbers:
        if all(isinstance(x, (int, float)) for x in left):
            yield "+", [w - x for x, w in zip(left, want, strict=False)]
            yield "-", [x - w for x, w in zip(left, want, strict=False)]
            if all(x != 0 for x in left):
                yield "*", [canon(w / x) for x, w in zip(left, want, strict=False)]
            if all(w != 0 for w in want):
                yield "/", [canon(x / w) for x, w in zip(left, want, strict=False)]
    elif all(isinstance(x, str) and w.startswith(x) and w != x
             for x, w in zip(left, want, strict=False)):
        yield "+", [w[len(x):] for x, w in zip(left, want, strict=False)]


def _neutral(op: str, operands: list, right: bool = False) -> bool:
    """Whether every operand leaves the other side unchanged (0 +, 1 *, "" +; on the
    right also - 0 and / 1)."""
    units = {"+": (0, ""), "-": (0,) if right else (), "*": (1,), "/": (1,) if right else ()}
    return all(x in units[op] and type(x) is not bool for x in operands)


def _operand(text: str) -> str:
    simple = all(c not in text for c in " |,")
    return text if simple else f"({text})"


def _object_text(parts) -> str:
    items = []
    for key, part in parts:
        if isinstance(key, Entry):
            items.append(f"({key.text}): {_operand(part.text)}")
            continue
        name = key if catalog.field(key) == f".{key}" else literal(key)
        if part.text == catalog.field(key) and name == key:
            items.append(key)
        else:
            items.append(f"{name}: {_operand(part.text)}")
    return "{" + ", ".join(items) + "}"
