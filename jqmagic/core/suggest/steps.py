"""The steps a search may append to a program, chosen from the values it produces now
(their types, keys, lengths) and the constants of the examples."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
SEPARATORS = [", ", ",", " ", "", "-", "_", "/", "\n", ";", "|", ":", "."]
MAX_KEYS = 16

ANY = ["length", "type", "tostring", "tojson", "not", "keys", "to_entries", "..", "paths",
       "[paths]", "tostream", "[..]", "[.]", "values", "numbers", "strings", "arrays",
       "objects", "booleans", "nulls", "scalars", "iterables", "toboolean"]
# steps whose answer on an array depends on positions, or on the order of an object's
# keys, rather than on what the data says: a teacher reaches for them last, so they cost
# more and a fit by coincidence (two examples whose wanted items come first) loses to the
# program that names a field
BY_POSITION = {"keys", "to_entries", "paths", "[paths]", "tostream", "combinations",
               "[combinations]", "transpose"}
RECURSIVE = {"..", "[..]", "[paths]", "paths", "tostream"}  # every level at once
# on records, steps that read every field at once (compared or added key by key)
WHOLE_OBJECTS = {"sort", "unique", "min", "max", "add", "map(add)", "map(values)",
                 "map(keys)", "flatten", "flatten(1)", "group_by(.)", "[.[] | tostring]",
                 "[.[] | tojson]", "map(tostring)", "sort_by(length)", "max_by(length)",
                 "min_by(length)", "unique_by(length)"}
# the item at a position, or the items in the opposite order: fits by coincidence where
# two examples happen to have the wanted item last (reverse costs 1 after a sort)
PICKS = {"first", "last", "reverse"}
# on lists of lists (groups), steps that compare whole lists (min of groups by level is
# the group whose first record sorts first) or pick the largest: seldom what was meant
ORDERED = {"sort", "unique", "min", "max", "group_by(.)", "max_by(length)", "min_by(length)"}
# on containers, steps that read a record as text (searching its JSON for a word)
AS_TEXT = {"tostring", "tojson"}
ARRAY = [".[]", "sort", "reverse", "unique", "add", "min", "max", "first", "last", "flatten",
         "transpose", "from_entries", "any", "all", "flatten(1)",
         "[.[] | tostring]", "[.[] | tojson]", "implode", "@csv", "@tsv", "@sh", "to_entries",
         "map(keys)", "map(length)", "map(type)", "map(tostring)", "map(tonumber)",
         "map(add)", "map(not)", "map(abs)", "add / length", "map(values)",
         "[.[] | numbers]", "[.[] | strings]", "[.[] | select(. != null)]", "length",
         "[limit(3; .[])]", "[.[] | .. ]", "unique_by(length)",
         "group_by(.)", "sort_by(length)", "max_by(length)", "min_by(length)"]
OBJECT = [".[]", "keys_unsorted", "add", "to_entries", "map_values(. + 1)", "[.[]]",
          "with_entries(.value |= tostring)", "del(..|nulls)", "[paths(type == \"number\")]",
          "[paths(scalars)]", "map(.)"]
STRING = ["ascii_downcase", "ascii_upcase", "explode", "tonumber", "utf8bytelength",
          "@base64", "@base64d", "@html", "@uri", "@json", "@text", "fromjson", "trim",
          "ltrim", "rtrim", "fromdate", "fromdateiso8601", "@sh", "length", "[splits(\" \")]",
          "ascii", "test(\"^[0-9]+$\")", "explode | implode", "split(\"\")",
          "[scan(\"\\\\w+\")]", "gsub(\"\\\\s+\"; \" \")", "tostring"]
NUMBER = ["floor", "sqrt", "ceil", "round", "fabs", "abs", "-.", "todate", "tostring",
          "exp10", "log10", "pow(.; 2)", "significand",
          "toboolean", "infinite * .", "isinfinite", "isnan", "isnormal", "not"]
# mathematics an analyst's question seldom asks for: on a count or a total, a fit by
# coincidence (length | sqrt | floor is 2 for 4 records and 1 for 2)
SCIENTIFIC = {"sqrt", "exp10", "log10", "pow(.; 2)", "significand", "infinite * .",
              "isinfinite", "isnan", "isnormal", "todate"}
# functions of a string tried with each string of the examples, on a string and on each
# element of an array
STRING_CALLS = ("ltrimstr", "rtrimstr", "trimstr", "startswith", "endswith", "split",
                "contains", "inside", "test", "index", "rindex", "indices")
ELEMENT_CALLS = ("startswith", "endswith", "ltrimstr", "rtrimstr", "trimstr", "test",
                 "contains")


def literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def field(key: str) -> str:
    return f".{key}" if _IDENT.match(key) else f".[{literal(key)}]"


def profile(values: list[Any]) -> dict[str, Any]:
    """What the values are: their types, object keys (``numeric``: the keys every object
    holds a number at), array lengths, element profile."""
    kinds = {_kind(v) for v in values}
    keys: dict[str, None] = {}
    lengths = []
    elements: list[Any] = []
    for v in values:
        if isinstance(v, dict):
            keys.update(dict.fromkeys(list(v)[:MAX_KEYS]))
        elif isinstance(v, list):
            lengths.append(len(v))
            elements.extend(v[:20])
    objects = [v for v in values if isinstance(v, dict)]
    numeric = [k for k in list(keys)[:MAX_KEYS] if objects and all(
        isinstance(o.get(k), (int, float)) and not isinstance(o.get(k), bool) for o in objects)]
    return {"kinds": kinds, "keys": list(keys)[:MAX_KEYS], "lengths": lengths,
            "elements": elements, "numeric": numeric}


def _kind(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return "boolean" if isinstance(v, bool) else "null"
    if isinstance(v, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(v)]


def steps(values: list[Any], pool: dict[str, list]) -> Iterator[tuple[str, int]]:
    """``(jq text, cost)`` of each step worth trying after a program producing ``values``."""
    if not values:
        return
    p = profile(values)
    kinds = p["kinds"]
    for key in p["keys"]:
        yield field(key), 1
    if kinds <= {"array", "null"} and "array" in kinds:
        records = bool(p["elements"]) and all(isinstance(e, dict) for e in p["elements"])
        lists = bool(p["elements"]) and all(isinstance(e, list) for e in p["elements"])
        for step in ARRAY:
            yield step, 4 if step in BY_POSITION or step == "[.[] | .. ]" else \
                3 if records and step in WHOLE_OBJECTS or lists and step in ORDERED else \
                2 if step in PICKS else 1
        if not records:  # where the largest (smallest) is
            yield from (("index(max)", 2), ("index(min)", 2))
        shortest = min(p["lengths"] or [0])
        if max(p["lengths"] or [0]) <= 6:  # combinations stay small, and come last
            yield from (("combinations", 5), ("[combinations]", 5))
        for i in [*range(min(shortest, 4)), -1]:
            yield f".[{i}]", 2
        for a, b in [(1, None), (None, -1), (None, 1), (None, 2), (None, 3), (-2, None),
                     (-1, None), (1, -1), (2, 4), (1, 3), (2, None)]:
            yield f".[{'' if a is None else a}:{'' if b is None else b}]", 4
        yield from _element_steps(p["elements"], pool)
        for sep in pool["separators"]:
            yield f"join({literal(sep)})", 2
    if "object" in kinds:
        # the values in the keys' order, or each plus a constant the data may not hold
        costs = {".[]": 2, "[.[]]": 2, "map(.)": 2, "map_values(. + 1)": 3,
                 "[paths(type == \"number\")]": 2, "[paths(scalars)]": 2}
        yield from ((s, costs.get(s, 1)) for s in OBJECT)
        for key in p["keys"]:
            yield f"del({field(key)})", 2
            yield f"has({literal(key)})", 1  # as plain as reading the field
            yield f"{{{key if _IDENT.match(key) else literal(key)}}}", 2
        for key in pool["keys"]:
            yield f"has({literal(key)})", 2
    if kinds == {"string"}:
        yield from ((s, 1) for s in STRING)
        yield from _called_with(pool["strings"], STRING_CALLS, ("{}",), (". + {}", "{} + ."), 2)
        for sep in pool["separators"]:
            yield f"split({literal(sep)})", 2
            yield f"[splits({literal(sep)})]", 2
    if kinds == {"number"}:
        yield from ((s, 3 if s in SCIENTIFIC else 1) for s in NUMBER)
        small = all(abs(v) <= 1000 for v in values)  # ranges stay small
        if small:  # the indices below a count: a count less one in disguise
            yield from (("[range(.)]", 3), ("range(.)", 3))
        for n in pool["numbers"]:
            # 0, 1 and 2 are always tried; one the inputs do not hold must earn its place
            # (length - 2 where two of three records are wanted is a coincidence)
            cost = 3 if literal(n) in pool["given"] else 4
            for op in ("+", "-", "*", "/", "%"):
                yield f". {op} {literal(n)}", cost
            yield f"{literal(n)} - .", cost
            yield f"{literal(n)} / .", cost
            if small:
                yield f"[range({literal(n)}; .)]", 2
                yield f"[range(.; {literal(n)})]", 2
    arrays, containers = "array" in kinds, bool(kinds & {"array", "object"})
    yield from ((s, 4 if arrays and s in BY_POSITION else 4 if containers and s in RECURSIVE
                 else 3 if containers and s in AS_TEXT else 2 if s == "[.]" else 1)
                for s in ANY)
    for c in pool["scalars"]:
        yield f". == {literal(c)}", 2
        yield f"select(. == {literal(c)})", 2
        yield f"select(. != {literal(c)})", 2
        if kinds <= {"array", "object", "string"}:
            yield f"contains({literal(c)})", 2
            yield f"index({literal(c)})", 2
            yield f"indices({literal(c)})", 2
        if isinstance(c, (int, float)) and not isinstance(c, bool):
            for op in ("<", "<=", ">", ">="):
                cost = 2 if _compares(op, c, pool) else 3
                yield f"select(. {op} {literal(c)})", cost
                yield f". {op} {literal(c)}", cost


def _called_with(strings: list[str], names: tuple[str, ...], forms: tuple[str, ...],
                 after: tuple[str, ...], cost: int) -> Iterator[tuple[str, int]]:
    """For each string s: each of ``names`` called with s, written in each of ``forms``
    (``{}``: the call), then each of ``after`` (``{}``: s), in that order (ties keep it)."""
    for s in strings:
        text = literal(s)
        for name in names:
            for form in forms:
                yield form.format(f"{name}({text})"), cost
        for form in after:
            yield form.format(text), cost


def _compares(op: str, n: float, pool: dict[str, Any]) -> bool:
    """Whether ``. op n`` is as a teacher would compare with ``n``: where the examples
    split records by a round threshold, only its own comparison (>= 50, not > 50, and not
    > 42, the score that happens to be the highest dropped); else any."""
    comparisons = pool.get("comparisons", ())
    return not comparisons or (op, literal(n)) in comparisons


def _element_steps(elements: list[Any], pool: dict[str, list]) -> Iterator[tuple[str, int]]:
    """Steps over an array's elements: map, select, sort_by, group_by, ..."""
    e = profile(elements)
    inner: list[str] = []
    for key in e["keys"]:
        inner.append(field(key))
    inner += ["length", "."]
    # the size of a record or a list, compared: the longest name, but seldom the record
    # with the most keys or the largest group
    sized = 3 if e["kinds"] <= {"object", "array"} else 2
    for f in inner:
        for name in ("map", "sort_by", "group_by", "unique_by", "min_by", "max_by"):
            if f != "." or name == "map":
                yield f"{name}({f})", sized if f == "length" and name != "map" else 2
        if f == ".":
            continue
        yield f"add({'.[]' + f if f.startswith('.') else '.[] | ' + f})", 3
        yield f"[.[] | {f}]", 3
    for key in e["keys"]:
        yield f"map(select({field(key)}))", 3  # a flag: kept where it is true
        yield f".[] | select({field(key)})", 3
        for c in pool["scalars"]:
            for op in ("==", "!=", ">", "<", ">=", "<="):
                if op in ("==", "!=") or isinstance(c, (int, float)) and not isinstance(c, bool):
                    cost = 4 if op in ("==", "!=") or _compares(op, c, pool) else 5
                    yield f"map(select({field(key)} {op} {literal(c)}))", cost
                    yield f".[] | select({field(key)} {op} {literal(c)})", cost
        for k2 in e["keys"]:
            if k2 != key:
                yield f"sort_by({field(key)}, {field(k2)})", 3
                if key in e["numeric"] and k2 in e["numeric"]:  # qty * price
                    for op in ("*", "-", "+", "/"):
                        yield f"map({field(key)} {op} {field(k2)})", 3
    for c in pool["scalars"]:
        if isinstance(c, (int, float)) and not isinstance(c, bool):
            for op in ("==", ">", "<", ">=", "<="):
                yield f"map(select(. {op} {literal(c)}))", 3
            for op in ("+", "-", "*", "/"):
                yield f"map(. {op} {literal(c)})", 3
        yield f"map(select(. != {literal(c)}))", 3
    yield from _called_with(pool["strings"], ELEMENT_CALLS, ("[.[] | {}]", "map({})"),
                            ("map(has({}))",), 3)
    for n in pool["numbers"]:
        yield f"map(has({literal(n)}))", 3
        yield f"flatten({literal(n)})", 2
        yield f"[limit({literal(n)}; .[])]", 3
        yield f"[skip({literal(n)}; .[])]", 3
        if len(elements) <= 6 and isinstance(n, int) and 0 <= n <= 3:
            yield f"combinations({literal(n)})", 4
        yield f"nth({literal(n)})", 2
    if e["kinds"] == {"array"}:
        for sep in pool["separators"]:
            yield f"map(join({literal(sep)}))", 3
    records = bool(elements) and all(isinstance(v, dict) for v in elements)
    for name in ("abs", "tostring", "tojson", "type", "length", "keys", "not", "add",
                 "ascii_downcase", "ascii_upcase", "floor", "sqrt", "tonumber"):
        yield f"map({name})", 3 if records and name in ("add", "keys", "tostring", "tojson") \
            else 2


def constants(examples: list[tuple[Any, list[Any]]]) -> dict[str, list]:
    """The constants worth trying: scalars of the outputs and inputs (``given``: the
    inputs' ones, as jq writes them), keys, separators, prefixes and suffixes that turn an
    input string into an output string (or into a number's text: "user-" of "user-42")."""
    scalars: dict[str, Any] = {}
    given_literals: set[str] = set()
    strings: dict[str, None] = {}
    keys: dict[str, None] = {}

    def walk(value: Any, depth: int, output: bool) -> None:
        if isinstance(value, dict):
            for k, v in list(value.items())[:MAX_KEYS]:
                keys[k] = None
                walk(v, depth + 1, output)
        elif isinstance(value, list):
            for v in value[:MAX_KEYS]:
                walk(v, depth + 1, output)
        elif len(scalars) < 24:
            if isinstance(value, str) and len(value) > 40:
                return
            if not output:
                given_literals.add(literal(value))
            scalars.setdefault(literal(value), value)
            if isinstance(value, str):
                strings[value] = None

    in_strings, out_strings, number_texts = [], [], []
    for given, outs in examples:
        for out in outs:
            walk(out, 0, True)
            if isinstance(out, str):
                out_strings.append(out)
            elif isinstance(out, (int, float)) and not isinstance(out, bool):
                number_texts.append(json.dumps(out))
        walk(given, 0, False)
        in_strings += _strings(given)
    for s in in_strings:
        for t in out_strings + number_texts:
            if t and s.endswith(t) and s != t:
                strings[s[:-len(t)]] = None
            if t and s.startswith(t) and s != t:
                strings[s[len(t):]] = None
    separators = [s for s in SEPARATORS if any(s in t for t in out_strings + in_strings)]
    comparisons = _thresholds(examples)
    thresholds = [n for _, n in comparisons if literal(n) not in scalars]
    numbers = thresholds + sorted(
        (v for v in scalars.values() if isinstance(v, (int, float)) and not isinstance(v, bool)
         and v not in thresholds), key=lambda v: literal(v) not in given_literals)
    numbers = numbers[:5] + [n for n in (0, 1, 2) if n not in numbers[:5]]
    return {"scalars": thresholds + list(scalars.values()), "strings": list(strings)[:16],
            "keys": list(keys)[:MAX_KEYS], "separators": separators, "numbers": numbers[:8],
            "given": given_literals,
            "comparisons": {(op, literal(n)) for op, n in comparisons}}


def _thresholds(examples: list[tuple[Any, list[Any]]]) -> list[tuple[str, float]]:
    """Where the examples ask whether to keep a record (each output true or false), the
    comparison with a round number that splits a numeric field into the kept and the
    dropped values (the < 10 of "books under 10", never a price of the examples that
    happens to split them)."""
    if not all(len(outs) == 1 and isinstance(outs[0], bool) for _, outs in examples):
        return []
    found = []
    for key in {k for given, _ in examples if isinstance(given, dict) for k in given}:
        split: dict[bool, list[float]] = {True: [], False: []}
        for given, (keep,) in examples:
            value = given.get(key) if isinstance(given, dict) else None
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                break
            split[keep].append(value)
        else:
            comparison = threshold(split[True], split[False])
            if comparison:
                found.append(comparison)
    return found[:2]


def threshold(kept: list[float], dropped: list[float]) -> tuple[str, float] | None:
    """The comparison a teacher writes to keep the ``kept`` numbers and drop the others:
    ``> 0`` (positive), ``>= 50`` (a pass mark), ``< 10`` (books under 10); the
    roundest bound between them."""
    if not kept or not dropped:
        return None
    if min(kept) > max(dropped):
        low, high = max(dropped), min(kept)
        bound = roundest(low, high)
        return (">", low) if _roundness(low) >= _roundness(bound) else (">=", bound)
    if max(kept) < min(dropped):
        low, high = max(kept), min(dropped)
        bound = roundest(low, high)
        return ("<=", low) if _roundness(low) > _roundness(bound) else ("<", bound)
    return None


def _roundness(x: float) -> float:
    """How round ``x`` is: 0 most, then by the power of ten it is a multiple of."""
    if x == 0:
        return float("inf")
    power = -6
    while power < 15 and round(x / 10.0 ** (power + 1), 9).is_integer():
        power += 1
    return power


def roundest(low: float, high: float) -> float:
    """The roundest number in (low, high]: a multiple of the largest power of ten, or of
    five times one (5 between 3 and 7)."""
    step = 10.0 ** 12
    while step > 1e-6:
        for size in (5 * step, step):
            x = (low // size + 1) * size
            if low < x <= high:
                return int(x) if x == int(x) else round(x, 6)
        step /= 10
    return high


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if len(value) <= 40 else []
    if isinstance(value, list):
        return [s for v in value[:MAX_KEYS] for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in list(value.values())[:MAX_KEYS] for s in _strings(v)]
    return []
