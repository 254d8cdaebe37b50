"""The search's deduction stage: a goal split by the outputs' shapes (an object, an array,
``a, b``, a string template, counts per key, ``A // B``, arithmetic), each part looked up
among the programs the search has found."""

from __future__ import annotations

import json
import re
from typing import Any

from jqmagic.core.suggest import steps as catalog
from jqmagic.core.suggest.programs import Entry, canon
from jqmagic.core.suggest.steps import literal

TERM = re.compile(r"(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|\[[^\]|]*\]))+\Z")
_SELF = re.compile(r"[-+*/%() .\d]*\.[-+*/%() .\d]*\Z")  # -., 0 - ., (. + .)


class Deduction:
    """The deduction methods of :class:`~jqmagic.core.suggest.search.Search`, which holds the
    examples, the bank (``lookup``) and the answers found (``answer``)."""


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
        keys = record_keys(records)
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
                       TERM.match(e.text) and all(len(s) == 1 for s in e.streams))
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


def record_keys(arrays: list[list]) -> list[str]:
    """The first keys of the objects in ``arrays`` (16 at most, from 20 items each)."""
    keys: dict[str, None] = {}
    for array in arrays:
        for value in array[:20]:
            if isinstance(value, dict):
                keys.update(dict.fromkeys(list(value)[:16]))
    return list(keys)[:16]


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
