"""Shape-aware hints for a jq query that failed, returned nothing or returned only nulls.

:func:`hint_for` reads the path a program starts with (``.items[].name``, ``.a | .b``,
``map(.x)``), walks it over the input and says what is really there: "at .items there is
an array of 1547 objects with keys id, name, ...; try .items[].name", "no key .usr at .;
did you mean .user?". A path is offered only once it was tried on the input and answered
(no error, a value that is not null), the rest of the program's path fitted to the shape
first (``.users[].name`` on ``{"user": {"name": ...}}``: ``.user.name``). An empty string
means the shape has nothing to add.
"""

from __future__ import annotations

import collections
import difflib
import json
import re
from typing import Any

from jqmagic.core import sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.pointers import jq_step
from jqmagic.core.shape.comparehint import mixed_comparison
from jqmagic.core.shape.source import open_source
from jqmagic.core.words import a, term, type_name

Step = str | int | None  # a key, an index, or None for ``[]``
MAX_FANOUT = 10_000
KEYS_SHOWN = 8

_STEP = re.compile(r"""
    \.?\[\]                                   # .[] or []
  | \.?\[(?P<index>-?\d+)\]                   # .[0] or [0]
  | \.?\[(?P<qkey>"(?:[^"\\]|\\.)*")\]        # .["odd key"]
  | \.(?P<key>[A-Za-z_][A-Za-z0-9_]*)         # .name
  | \.(?P<str>"(?:[^"\\]|\\.)*")              # ."odd key"
  | \?                                        # error suppression changes no path
""", re.X)
_MAP = re.compile(r"^map\((?P<inner>.*)\)$", re.S)
_SELECT = re.compile(r"^select\(.*\)$", re.S)


def path_steps(program: str) -> list[Step]:
    """The path a jq program starts with, as far as it is a plain path.

    >>> path_steps('.items[] | .name')
    ['items', None, 'name']
    >>> path_steps('map(.user.id) | length')
    [None, 'user', 'id']
    """
    steps: list[Step] = []
    for segment in _split_pipes(program):
        more = _segment_steps(segment.strip())
        if more is None:
            break
        steps += more
    return steps


def _segment_steps(seg: str) -> list[Step] | None:
    if seg == ".":
        return []
    if seg.startswith("(") and seg.endswith(")") and len(_split_pipes(seg[1:-1])) == 1:
        return _segment_steps(seg[1:-1].strip())
    m = _MAP.match(seg)
    if m:
        inner = _segment_steps(m["inner"].strip())
        return None if inner is None else [None, *inner]
    if _SELECT.match(seg):
        return []
    if not seg.startswith("."):
        return None
    steps: list[Step] = []
    pos = 0
    while pos < len(seg):
        m = _STEP.match(seg, pos)
        if m is None or m.end() == pos:
            return steps or None
        if m["index"] is not None:
            steps.append(int(m["index"]))
        elif m["key"] is not None:
            steps.append(m["key"])
        elif m["qkey"] or m["str"]:
            steps.append(json.loads(m["qkey"] or m["str"]))
        elif m.group(0) != "?":
            steps.append(None)
        pos = m.end()
    return steps


def _split_pipes(program: str) -> list[str]:
    """``program`` split at ``|`` outside strings and brackets."""
    parts, depth, start, i, in_str = [], 0, 0, 0, False
    while i < len(program):
        c = program[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(program[start:i])
            start = i + 1
        i += 1
    parts.append(program[start:])
    return parts


def _describe_array(values: list) -> str:
    """``1547 objects with keys id, name, ...`` for the elements of ``values`` (arrays)."""
    elements = [e for a in values for e in a][:MAX_FANOUT]
    n = sum(len(a) for a in values)
    kinds = sorted({type_name(e) for e in elements})
    if kinds == ["object"]:
        keys = _union_keys(elements)
        shown = ", ".join(keys[:KEYS_SHOWN]) + (", ..." if len(keys) > KEYS_SHOWN else "")
        noun = "object" if n == 1 else "objects"
        return f"{n} {noun} with keys {shown}" if keys else f"{n} empty {noun}"
    if len(kinds) == 1:
        return f"{n} {kinds[0]}s" if n != 1 else f"1 {kinds[0]}"
    return f"{n} elements ({', '.join(kinds)})" if n else "no elements"


def _counted(values: list) -> str:
    """How many values of each type: '6 strings and 4 objects'."""
    kinds = collections.Counter(type_name(v) for v in values)
    said = [f"{n} {kind}{'s' * (n != 1)}" for kind, n in sorted(kinds.items())]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def _union_keys(objects: list[dict]) -> list[str]:
    keys: dict[str, None] = {}
    for o in objects:
        keys.update(dict.fromkeys(o))
    return list(keys)


def _render(path: str, steps: list[Step]) -> str:
    for s in steps:
        path = f"{path or '.'}[{s}]" if isinstance(s, int) else jq_step(path, s)
    return path or "."


def hint_for(program: str, value: Any, *, error: str | None = None,
             results: list | None = None) -> str:
    """A hint from the input's shape for ``program`` that raised ``error`` or gave ``results``.

    >>> hint_for('.usr', {'user': 1}, results=[None])
    'no key .usr at .; did you mean .user?'
    """
    return hint_for_inputs(program, [value], error=error, results=results)


def hint_for_inputs(program: str, inputs: list, *, error: str | None = None,
                    results: list | None = None) -> str:
    """:func:`hint_for` over several inputs, each of which ``program`` ran on (JSON Lines,
    a YAML stream, several files): ``.`` is each of them, not an array of them."""
    if results is not None and not results and error is None:
        mixed = mixed_comparison(program, inputs)
        if mixed:
            return mixed
    steps = path_steps(program)
    if not steps:
        return ""
    current, path = list(inputs), ""
    for n, step in enumerate(steps):
        rest = steps[n + 1:]
        objects = [v for v in current if isinstance(v, dict)]
        arrays = [v for v in current if isinstance(v, list)]
        here = path or "."
        if isinstance(step, str):
            if arrays and not objects:
                said = f"at {here} there is an array of {_describe_array(arrays)}"
                fix = _checked(inputs, [*steps[:n], None], [step, *rest])
                return f"{said}; try {_render('', fix)}" if fix else said
            if not objects:
                kinds = ", ".join(sorted({type_name(v) for v in current}))
                return f"at {here} there is {a(kinds)}, not an object; {step!r} cannot be read"
            others = [v for v in current if v is not None and not isinstance(v, dict)]
            if others and error is not None:
                key = jq_step("", step)
                return (f"at {here} there are {_counted(current)}; {key} reads objects only: "
                        f"{key}? skips the others, or select(type == \"object\") before it")
            found = [o[step] for o in objects if step in o]
            if not found:
                keys = _union_keys(objects[:MAX_FANOUT])
                close = difflib.get_close_matches(step, keys, n=1, cutoff=0.6)
                fix = _checked(inputs, [*steps[:n], close[0]], rest) if close else None
                if fix:
                    return (f"no key {jq_step('', step)} at {here}; did you mean "
                            f"{_render('', fix)}?")
                shown = ", ".join(keys[:KEYS_SHOWN]) + (", ..." if len(keys) > KEYS_SHOWN else "")
                return f"no key {jq_step('', step)} at {here}; keys are: {shown or '(none)'}"
            current = found
        elif step is None:
            if n == 0 and len(inputs) > 1 and objects and rest and isinstance(rest[0], str) \
                    and all(rest[0] in o for o in objects):  # JSON Lines read as one array
                return (f"the {len(inputs):,} inputs are each an object with "
                        f"{jq_step('', rest[0])} (JSON Lines: one a line): the program runs on "
                        f"each in turn, so {_render('', rest)} reads it ([] went inside each "
                        f"one); {term('slurp')} or [inputs] gathers them into one array")
            if not arrays and not objects:
                kinds = ", ".join(sorted({type_name(v) for v in current}))
                return f"at {here} there is {a(kinds)}; [] iterates only arrays and objects"
            current = [e for a in arrays for e in a] + [e for o in objects for e in o.values()]
        else:
            if not arrays:
                kinds = ", ".join(sorted({type_name(v) for v in current}))
                said = f"at {here} there is {a(kinds)}, not an array; [{step}] cannot be read"
                if n == 0 and len(inputs) > 1:  # a stream, as %inspect shows it: an array
                    return (f"{said}: the program runs on each of the {len(inputs):,} inputs "
                            f"in turn; {term('slurp')} reads them as one array, which .[{step}] "
                            "indexes")
                return said
            longest = max(len(a) for a in arrays)
            current = [a[step] for a in arrays if -len(a) <= step < len(a)]
            if not current:
                return (f"at {here} there is an array of length {longest}; index {step} is out "
                        "of range")
        current = current[:MAX_FANOUT]
        path = _render(path, [step])
    return _about_results(path or ".", current, error, results)


def _checked(inputs: list, prefix: list[Step], rest: list[Step]) -> list[Step] | None:
    """``prefix`` and ``rest`` fitted to the shape, or ``prefix`` alone: the first that
    answers on ``inputs`` (None when neither does)."""
    for steps in (prefix + _fitted(_follow(inputs, prefix) or [], rest), prefix):
        found = _follow(inputs, steps)
        if found and any(v is not None for v in found):
            return steps
    return None


def _fitted(values: list, rest: list[Step]) -> list[Step]:
    """``rest`` fitted to the shape of ``values``: a ``[]`` added before a key read on
    arrays, dropped where there is nothing to iterate or where the next key is read on the
    objects themselves; a key no object has, the closest one they have."""
    out: list[Step] = []
    for n, step in enumerate(rest):
        present = [v for v in values if v is not None]
        after = rest[n + 1] if n + 1 < len(rest) else None
        if step is None and (not any(isinstance(v, (list, dict)) for v in present) or
                             isinstance(after, str) and present and
                             all(isinstance(v, dict) and after in v for v in present)):
            continue
        if isinstance(step, str) and present and all(isinstance(v, list) for v in present):
            out.append(None)
            values = _follow(values, [None]) or []
        if isinstance(step, str):  # a misspelt key too: the closest the objects have
            objects = [v for v in values if isinstance(v, dict)][:MAX_FANOUT]
            if objects and not any(step in o for o in objects):
                step = next(iter(difflib.get_close_matches(step, _union_keys(objects), n=1,
                                                           cutoff=0.6)), step)
        out.append(step)
        values = _follow(values, [step]) or []
    return out


def _follow(values: list, steps: list[Step]) -> list | None:
    """The values a plain path gives on each of ``values``, as jq reads it (a key of null
    is null, ``[]`` of null an error); None when jq would stop with an error."""
    for step in steps:
        out: list = []
        for v in values:
            if isinstance(step, str) and isinstance(v, dict):
                out.append(v.get(step))
            elif step is None and isinstance(v, (list, dict)):
                out.extend(v if isinstance(v, list) else v.values())
            elif isinstance(step, int) and isinstance(v, list):
                out.append(v[step] if -len(v) <= step < len(v) else None)
            elif v is None and step is not None:
                out.append(None)
            else:
                return None
        values = out
    return values


def hint_for_source(program: str, source: Source, *, slurp: bool = False,
                    error: str | None = None, results: list | None = None,
                    max_bytes: int = 64 * 2**20) -> str:
    """:func:`hint_for_inputs` over the inputs of a :class:`Source` (one array of them
    with ``slurp``).

    Sources over ``max_bytes`` (and sources that do not load) give no hint rather than a
    slow one.
    """
    try:
        if source.kind == "value":
            inputs = [source.spec]
        else:
            if open_source(source).size > max_bytes:
                return ""
            inputs = sources.load_values(source)
    except (JqMagicError, OSError):
        return ""
    return hint_for_inputs(program, [inputs] if slurp else inputs, error=error,
                           results=results)


def hint_here(program: str, source: dict[str, Any], **options: Any) -> str:
    """:func:`hint_for_source` in the worker (``source`` in its wire form)."""
    return hint_for_source(program, Source.from_wire(source), **options)


def _about_results(path: str, current: list, error: str | None, results: list | None) -> str:
    nulls = sum(v is None for v in current)
    if current and nulls == len(current):
        return f"every value at {path} is null ({nulls} of {nulls})"
    if error is not None or results is not None and not any(r is not None for r in results):
        kinds = ", ".join(sorted({type_name(v) for v in current}))
        if not current:
            return ""
        counted = f"are {len(current)} values" if len(current) != 1 else "is 1 value"
        return f"at {path} there {counted} ({kinds})"
    return ""
