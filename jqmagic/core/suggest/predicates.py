"""The conditions a ``select`` may test, found from which elements the examples keep: a
field's truth or presence, a field equal to a value the inputs hold, two fields compared,
a field against a round threshold, a word a kept string contains, an item a kept list
holds; cheapest (most plainly said) first."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import Any

from jqmagic.core.suggest.steps import field, literal, threshold

MAX_PATHS = 24
_WORD = re.compile(r"[A-Za-z0-9_]{2,}")
MISSING = object()
_POSITION = re.compile(r"\[-?\d+\]")


def paths(elements: list[Any], depth: int = 3) -> list[tuple]:
    """The object keys (and the first, second and last items of short lists) under which
    the elements hold values, as tuples of steps, shallow first."""
    found: dict[tuple, None] = {}
    level = [((), e) for e in elements[:40]]
    for _ in range(depth):
        deeper = []
        for path, value in level:
            if isinstance(value, dict):
                steps = list(value)[:16]
            elif isinstance(value, list) and 0 < len(value) <= 4:
                steps = [0, 1, -1][:len(value)]
            else:
                continue
            for step in steps:
                found.setdefault((*path, step), None)
                try:
                    deeper.append(((*path, step), value[step]))
                except (IndexError, KeyError):  # noqa: PERF203 - short lists only
                    continue
        level = deeper
    return list(found)[:MAX_PATHS]


def get(value: Any, path: tuple | None) -> Any:
    """The value at ``path`` (None: the element itself), or MISSING."""
    for step in path or ():
        found = isinstance(step, str) and isinstance(value, dict) and step in value or \
            isinstance(step, int) and isinstance(value, list) and -len(value) <= step < len(value)
        if not found:
            return MISSING
        value = value[step]
    return value


def text(path: tuple | None) -> str:
    """jq's words for ``path``: ``.a.b``, ``.[0]``, ``.``."""
    if not path:
        return "."
    steps = [field(s) if isinstance(s, str) else f"[{s}]" for s in path]
    return ("." if steps[0].startswith("[") else "") + "".join(steps)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _truthy(v: Any) -> bool:
    return v is not MISSING and v is not None and v is not False


COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def candidates(elements: list[Any], keep: list[bool] | None = None) \
        -> Iterator[tuple[str, int, Callable[[Any], bool]]]:
    """``(condition, cost, test)`` over ``elements``; ``keep`` (which elements are kept)
    lets round thresholds, words and items be read off the split. A condition on a list's
    item by position (.tags[0] == "bug") costs two more than one on a named field."""
    for condition, cost, test in _candidates(elements, keep):
        yield condition, cost + 2 * bool(_POSITION.search(condition)), test


def _candidates(elements: list[Any], keep: list[bool] | None) \
        -> Iterator[tuple[str, int, Callable[[Any], bool]]]:
    all_paths = [(), *paths(elements)]
    values = {p: [get(e, p) for e in elements] for p in all_paths}
    leaf = [p for p in all_paths if not any(isinstance(v, (dict, list)) for v in values[p])]
    for p in all_paths[1:]:
        if all(v is MISSING or isinstance(v, bool) or v is None for v in values[p]):
            yield text(p), 1, lambda e, p=p: _truthy(get(e, p))
    tops = [p for p in all_paths if len(p) == 1 and isinstance(p[0], str)]
    for p in tops:
        if any(v is MISSING for v in values[p]):
            has = f"has({literal(p[0])})"
            yield has, 1, lambda e, k=p[0]: isinstance(e, dict) and k in e
            yield f"{has} | not", 2, lambda e, k=p[0]: isinstance(e, dict) and k not in e
    for p in all_paths[1:]:
        if any(isinstance(v, bool) or v is None for v in values[p]):
            yield f"{text(p)} | not", 2, lambda e, p=p: not _truthy(get(e, p))
    for p in leaf:
        seen: dict[str, list] = {}
        for v in values[p]:
            if v is not MISSING and not isinstance(v, bool) and v is not None and \
                    (len(seen) < 12 or literal(v) in seen):
                seen.setdefault(literal(v), []).append(v)
        for text_of, same in seen.items():
            # a category several elements share (level == "error") is as plain as a flag;
            # one element's own value (name != "main.c") picks or drops it by name, and a
            # number is compared by order rather than told apart (> 0, not != 0)
            shared = len(same) > 1
            number = _number(same[0])
            for op, cost in (("==", 1 if shared else 3),
                             ("!=", 3 if number else 2 if shared else 4)):
                yield (_compare(p, op, text_of), cost,
                       lambda e, p=p, v=same[0], op=op: _holds(get(e, p), op, v))
    numeric = [p for p in leaf if all(_number(v) for v in values[p])]
    for p in numeric:
        for q in numeric:
            if p != q:
                for op in ("<", ">", "<=", ">="):
                    yield (f"{text(p)} {op} {text(q)}", 2,
                           lambda e, p=p, q=q, op=op: COMPARE[op](get(e, p), get(e, q)))
    for p in numeric:
        for op, c in _thresholds(values[p], keep):
            yield _compare(p, op, literal(c)), 2, \
                lambda e, p=p, op=op, c=c: COMPARE[op](get(e, p), c)
    for p in leaf:
        if all(isinstance(v, str) for v in values[p]):
            for name, piece in _ends(values[p], keep):
                yield (_apply(p, f"{name}({literal(piece)})"), 2,
                       lambda e, p=p, n=name, x=piece: getattr(get(e, p), n)(x))
            for word in _words(values[p], keep):
                yield (_apply(p, f"test({literal(word)})"), 3,
                       lambda e, p=p, w=word: word_in(get(e, p), w))
    for p in all_paths:
        if all(isinstance(v, list) for v in values[p]):
            for item in _items(values[p], keep):
                yield (f"any({text(p) if p else '.'}[]; . == {literal(item)})", 2,
                       lambda e, p=p, i=item: i in get(e, p))


def word_in(value: Any, word: str) -> bool:
    return isinstance(value, str) and word in value


def _holds(v: Any, op: str, c: Any) -> bool:
    if v is MISSING:
        v = None
    same = v == c and type(v) is type(c) or _number(v) and _number(c) and v == c
    return same if op == "==" else not same


def _compare(path: tuple, op: str, right: str) -> str:
    return f"{text(path)} {op} {right}"


def _apply(path: tuple, step: str) -> str:
    return step if not path else f"{text(path)} | {step}"


def _thresholds(values: list, keep: list[bool] | None) -> list[tuple[str, float]]:
    """The comparison with one round number that splits the kept values from the
    dropped (see :func:`threshold`)."""
    if keep is None:
        return []
    found = threshold(*_split(values, keep))
    return [found] if found else []


def _split(values: list, keep: list[bool] | None) -> tuple[list, list]:
    """The values kept and the values dropped (none of either when ``keep`` is None)."""
    if keep is None:
        return [], []
    return ([v for v, k in zip(values, keep, strict=True) if k],
            [v for v, k in zip(values, keep, strict=True) if not k])


def _ends(values: list[str], keep: list[bool] | None) -> list[tuple[str, str]]:
    """``startswith``/``endswith`` and the longest prefix/suffix (two characters or more)
    every kept string shares and no dropped one has: tmp_, .json."""
    kept, dropped = _split(values, keep)
    if not kept or not dropped:
        return []
    out = []
    for name, flip in (("startswith", lambda x: x), ("endswith", lambda x: x[::-1])):
        piece = os.path.commonprefix([flip(v) for v in kept])
        piece = flip(piece)
        if len(piece) >= 2 and not any(getattr(v, name)(piece) for v in dropped):
            out.append((name, piece))
    return out


def _words(values: list[str], keep: list[bool] | None) -> list[str]:
    """Words (letters, digits, _) in every kept string and no dropped one."""
    kept, dropped = _split(values, keep)
    if not kept or not dropped:
        return []
    words = dict.fromkeys(_WORD.findall(kept[0]))
    return [w for w in words if all(w in v for v in kept) and
            not any(w in v for v in dropped)][:4]


def _items(values: list[list], keep: list[bool] | None) -> list:
    """Scalar items in every kept list and no dropped one."""
    kept, dropped = _split(values, keep)
    if not kept or not dropped:
        return []
    out = []
    for item in kept[0]:
        if isinstance(item, (str, int, float)) and item not in out and \
                all(item in v for v in kept) and not any(item in v for v in dropped):
            out.append(item)
    return out[:3]


def fitting(elements: list[Any], keep: list[bool]) -> tuple[str, int] | None:
    """The cheapest condition true of exactly the kept elements, and its cost."""
    best = None
    for condition, cost, test in candidates(elements, keep):
        try:
            if [bool(test(e)) for e in elements] == keep and (best is None or cost < best[1]):
                best = (condition, cost)
        except TypeError:  # a comparison across types: not this one
            continue
    return best
