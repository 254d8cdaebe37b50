"""Programs over a collection, deduced rather than grown: from a program giving one array
per example (``.``, ``sort_by(.age)``, ``to_entries``, ``.lines``...), the shapes an
analyst writes over its elements: ``map(.a.b)``, ``map(select(C) | .a)``,
``map(select(C)) | length``, ``group_by(.k) | map({k: .[0].k, total: map(.v) | add})``,
``map({key: .k, value: .v}) | from_entries``, and ``with_entries(select(C))``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jqmagic.core.suggest.predicates import COMPARE, MISSING, candidates, fitting, get, paths, text
from jqmagic.core.suggest.programs import Entry, canon
from jqmagic.core.suggest.steps import field, literal, threshold

MAX_SOURCES = 300  # arrays looked at per search
MAX_SOURCE_COST = 4


class Records:
    """The deductions over collections of one search's examples, each source once."""

    def __init__(self, targets: tuple):
        self.targets = targets
        self.singles = [t[0] for t in targets] if all(len(t) == 1 for t in targets) \
            else None
        self.seen: set[str] = set()

    def deduce(self, bank) -> Iterator[Entry]:
        if self.singles is None or len(self.seen) >= MAX_SOURCES:
            return
        fresh = sorted(e for e in bank if e.cost <= MAX_SOURCE_COST and not e.const and
                       e.text not in self.seen and all(len(s) == 1 for s in e.streams) and
                       all(isinstance(s[0], (list, dict)) for s in e.streams))
        for source in fresh[:MAX_SOURCES - len(self.seen)]:
            self.seen.add(source.text)
            values = [s[0] for s in source.streams]
            if all(isinstance(v, list) for v in values):
                yield from self._over(source, values)
            elif all(isinstance(v, dict) for v in values) and \
                    all(isinstance(t, dict) for t in self.singles):
                found = _kept_entries(values, self.singles)
                if found:
                    yield self._entry(source, f"with_entries(select({found[0]}))",
                                      3 + found[1])

    def _entry(self, source: Entry, step: str, cost: int) -> Entry:
        whole = step if source.text == "." else f"{source.text} | {step}"
        return Entry(source.cost + cost, whole, self.targets, False)

    def _over(self, source: Entry, arrays: list[list]) -> Iterator[Entry]:
        singles = self.singles
        elements = [e for a in arrays for e in a]
        if not elements:
            return
        if all(isinstance(t, list) for t in singles):
            found = _selected(arrays, singles, elements)
            if found:
                yield self._entry(source, *found)
            found = _flattened(arrays, singles, elements)
            if found:
                yield self._entry(source, found, 4)
            found = _grouped(arrays, singles)
            if found:
                yield self._entry(source, found, 5)
        elif all(isinstance(t, dict) for t in singles):
            found = _grouped(arrays, singles) or _entries(arrays, singles, elements)
            if found:
                yield self._entry(source, found, 5)
        elif all(isinstance(t, bool) for t in singles) and len(set(singles)) == 2:
            found = _quantified(arrays, singles, elements)
            if found:
                yield self._entry(source, *found)
        elif all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in singles):
            found = _counted(arrays, singles, elements)
            if found:
                yield self._entry(source, *found)
            found = _aggregate(_aggregates(elements, products=True), list(zip(
                arrays, singles, strict=True))) if all(isinstance(e, dict) for e in elements) \
                else None
            if found and found != "length" and not found.startswith(".[0]"):
                yield self._entry(source, found, 2 + found.count("|"))


def _selected(arrays, wanted, elements) -> tuple[str, int] | None:
    """``map(.a)``, ``map(select(C))`` or ``map(select(C) | .a)``: the wanted items the
    values at one path of the kept elements, in order."""
    for path in [None, *paths(elements)]:
        keep = [subsequence([get(e, path) for e in a], w)
                for a, w in zip(arrays, wanted, strict=True)]
        if any(k is None for k in keep):
            continue
        flags = [f for k in keep for f in k]
        if all(flags):
            if path is None:
                continue  # the source itself
            return f"map({text(path)})", 2
        condition = fitting(elements, flags)
        if condition is not None:
            tail = "" if path is None else f" | {text(path)}"
            return f"map(select({condition[0]}){tail})", 3 + condition[1]
    return None


def _counted(arrays, wanted, elements) -> tuple[str, int] | None:
    """``map(select(C)) | length``: how many elements meet a condition (not all of them
    in every example: that is ``length``)."""
    if all(len(a) == w for a, w in zip(arrays, wanted, strict=True)):
        return None
    best = None
    for condition, cost, test in [*candidates(elements), *_count_thresholds(arrays, wanted)]:
        try:
            counts = [sum(bool(test(e)) for e in a) for a in arrays]
        except TypeError:
            continue
        if counts == [canon(w) for w in wanted] and (best is None or cost < best[1]):
            best = (condition, cost)
    return (f"map(select({best[0]})) | length", 3 + best[1]) if best else None


def _count_thresholds(arrays, wanted):
    """``(.qty > 0, cost, test)``: where each example's count is how many of a numeric
    field's values lie above (below) a bound, the round bound between them."""
    elements = [e for a in arrays for e in a]
    for p in paths(elements):
        if not all(_number(get(e, p)) for e in elements):
            continue
        for top in (True, False):
            kept, dropped = [], []
            for a, w in zip(arrays, wanted, strict=True):
                ranked = sorted((get(e, p) for e in a), reverse=top)
                if not isinstance(w, int) or not 0 <= w <= len(ranked):
                    break
                kept += ranked[:w]
                dropped += ranked[w:]
            else:
                found = threshold(kept, dropped)
                if found:
                    op, c = found
                    yield (f"{text(p)} {op} {literal(c)}", 2,
                           lambda e, p=p, op=op, c=c: COMPARE[op](get(e, p), c))


def _quantified(arrays, wanted, elements) -> tuple[str, int] | None:
    """``any(.[]; C)`` or ``all(.[]; C)``: whether some (every) element meets C."""
    best = None
    for condition, cost, test in candidates(elements):
        try:
            tests = [[bool(test(e)) for e in a] for a in arrays]
        except TypeError:
            continue
        for name, quantifier in (("any", any), ("all", all)):
            if [quantifier(t) for t in tests] == list(wanted) and \
                    (best is None or 2 + cost < best[1]):
                best = (f"{name}(.[]; {condition})", 2 + cost)
    return best


def _kept_entries(objects: list[dict], wanted: list[dict]) -> tuple[str, int] | None:
    """The condition on ``{key, value}`` that keeps the wanted entries of each object."""
    entries, flags = [], []
    for given, want in zip(objects, wanted, strict=True):
        if not set(want) <= set(given) or len(want) == len(given) or \
                any(canon(given[k]) != canon(v) for k, v in want.items()):
            return None
        for k, v in given.items():
            entries.append({"key": k, "value": v})
            flags.append(k in want)
    return fitting(entries, flags)


def _aggregates(records: list[dict], products: bool = False) -> list[tuple[str, Any]]:
    """What a group of records may be summed up as: ``.[0].k``, ``length``,
    ``map(.k) | add`` (max, min, mean), ``map(.k)``; with ``products``, also
    ``map(.a * .b) | add`` (quantity times price)."""
    keys = list(dict.fromkeys(k for r in records for k in r))[:16]
    out: list[tuple[str, Any]] = [("length", len)]
    numeric = [k for k in keys if all(_number(r.get(k)) for r in records)]
    if products:
        for i, a in enumerate(numeric):
            for b in numeric[i + 1:]:
                out.append((f"map({field(a)} * {field(b)}) | add",
                            lambda g, a=a, b=b: _add([r[a] * r[b] for r in g])))
    for k in keys:
        f = field(k)
        out.append((f".[0]{f}", lambda g, k=k: g[0].get(k, MISSING)))
        out.append((f"map({f})", lambda g, k=k: [r.get(k) for r in g]))
        if k in numeric:
            out += [(f"map({f}) | add", lambda g, k=k: _add([r[k] for r in g])),
                    (f"map({f}) | max", lambda g, k=k: max([r[k] for r in g] or [None])),
                    (f"map({f}) | min", lambda g, k=k: min([r[k] for r in g] or [None])),
                    (f"map({f}) | add / length",
                     lambda g, k=k: sum(r[k] for r in g) / len(g))]
    return out


def _groups(records: list[dict], key: str) -> list[list[dict]] | None:
    values = [r.get(key, MISSING) for r in records]
    if not (all(isinstance(v, str) for v in values) or all(_number(v) for v in values)):
        return None
    groups: dict[Any, list[dict]] = {}
    for r in records:
        groups.setdefault(r[key], []).append(r)
    return [groups[v] for v in sorted(groups)]


def _grouped(arrays, wanted) -> str | None:
    """``group_by(.k) | map({...})`` (a list of one object per group) or ``group_by(.k) |
    map({key: .[0].k, value: A}) | from_entries`` (an object keyed by the groups)."""
    if not all(a and all(isinstance(e, dict) for e in a) for a in arrays):
        return None
    keyed = all(isinstance(w, dict) for w in wanted)
    if not keyed and not all(w and all(isinstance(o, dict) for o in w) for w in wanted):
        return None
    records = [e for a in arrays for e in a]
    aggregates = _aggregates(records)
    for key in list(dict.fromkeys(k for r in records for k in r))[:16]:
        grouped = [_groups(a, key) for a in arrays]
        if any(g is None for g in grouped) or all(len(g) == 1 for gs in grouped for g in gs):
            continue  # no two records share a value: nothing grouped
        if keyed:
            if any(set(w) != {str(g[0][key]) for g in gs} or
                   not all(isinstance(g[0][key], str) for g in gs)
                   for w, gs in zip(wanted, grouped, strict=True)):
                continue
            parts = [(g, w[g[0][key]]) for w, gs in zip(wanted, grouped, strict=True)
                     for g in gs]
            value = _aggregate(aggregates, parts)
            if value is not None:
                return (f"group_by({field(key)}) | map({{key: .[0]{field(key)}, "
                        f"value: {value}}}) | from_entries")
            continue
        if any(len(w) != len(gs) for w, gs in zip(wanted, grouped, strict=True)):
            continue
        names = list(wanted[0][0])
        if any(list(o) != names for w in wanted for o in w):
            return None
        items = []
        for name in names:
            parts = [(g, o[name]) for w, gs in zip(wanted, grouped, strict=True)
                     for g, o in zip(gs, w, strict=True)]
            value = _aggregate(aggregates, parts)
            if value is None:
                break
            label = name if field(name) == f".{name}" else literal(name)
            items.append(f"{label}: {value}")
        else:
            return f"group_by({field(key)}) | map({{{', '.join(items)}}})"
    return None


def _aggregate(aggregates, parts) -> str | None:
    for words, apply in aggregates:
        try:
            if all(canon(apply(g)) == canon(want) for g, want in parts):
                return words
        except (TypeError, KeyError, IndexError, AttributeError, ValueError,
                ZeroDivisionError):
            continue
    return None


def _flattened(arrays, wanted, elements) -> str | None:
    """``[.[].items[].sku]``: a field of the items of a list each element holds."""
    if not all(isinstance(e, dict) for e in elements):
        return None
    for p in paths(elements, depth=2):
        lists = [get(e, p) for e in elements]
        if not all(isinstance(x, list) for x in lists):
            continue
        items = [i for x in lists for i in x]
        for q in [None, *paths(items)]:
            made = [[get(i, q) for e in a for i in get(e, p)] for a in arrays]
            if all(canon(m) == canon(w) for m, w in zip(made, wanted, strict=True)):
                return f"[.[]{text(p)}[]{'' if q is None else text(q)}]"
    return None


def _entries(arrays, wanted, elements) -> str | None:
    """``map({key: K, value: V}) | from_entries``: one entry per element."""
    options = [None, *paths(elements)]
    for k in options[1:]:
        if not all(isinstance(get(e, k), str) for e in elements):
            continue
        for v in options:
            if v == k:
                continue
            built = [{get(e, k): get(e, v) for e in a} for a in arrays]
            if all(MISSING not in b.values() and canon(b) == canon(w)
                   for b, w in zip(built, wanted, strict=True)):
                return f"map({{key: {text(k)}, value: {text(v)}}}) | from_entries"
    return None


def _add(numbers: list) -> Any:
    """jq's ``add`` of numbers: null for none."""
    return sum(numbers) if numbers else None


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def subsequence(values: list, wanted: list) -> list[bool] | None:
    """Which of ``values`` to keep so that the kept ones are ``wanted`` (greedy)."""
    keep, i = [], 0
    for value in values:
        hit = i < len(wanted) and value is not MISSING and canon(value) == canon(wanted[i])
        keep.append(hit)
        i += hit
    return keep if i == len(wanted) else None
