"""A hint for a question that returned nothing because it compared numbers with a string,
or strings with a number: jq orders every number before every string, so
``select(.stars > "100")`` keeps nothing, and says no error.

>>> print(mixed_comparison('.[] | select(.stars > "100") | .name', [[{"stars": 120}]]))
... # doctest: +NORMALIZE_WHITESPACE
.stars holds numbers and "100" is a string: jq orders every number before every string,
so .stars > "100" is never true; compare with 100 (no quotes)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.parser import parse

_COMPARISONS = frozenset({"<", "<=", ">", ">=", "=="})
_NODES = 20_000  # of the input walked for the compared key's values
_ABOVE = (">", ">=", "==")  # a number OP a string: never true (the other way round too)
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def mixed_comparison(program: str, inputs: list) -> str:
    """The hint, or an empty string when the program compares no chain that way."""
    try:
        tree = parse(program)
    except (NotMine, RecursionError):
        return ""
    for chain, op, literal in _comparisons(tree):
        found = _values_of(inputs, chain[-1])
        if not found:
            continue
        shown = "." + ".".join(chain)
        said = f"{shown} {op} {json.dumps(literal, ensure_ascii=False)}"
        if all(_number(v) for v in found) and type(literal) is str and op in _ABOVE:
            fix = literal.strip() if _numeric(literal) else f"a number, or {shown} | tostring"
            return (f"{shown} holds numbers and {json.dumps(literal, ensure_ascii=False)} is a "
                    f"string: jq orders every number before every string, so {said} is never "
                    f"true; compare with {fix}" + (" (no quotes)" if _numeric(literal) else ""))
        if all(type(v) is str for v in found) and _number(literal) and op not in _ABOVE[:2]:
            fix = f"({shown} | tonumber) {op} {json.dumps(literal)}" if all(
                _numeric(v) for v in found) else f'a string ("{literal}")'
            return (f"{shown} holds strings and {json.dumps(literal)} is a number: jq orders "
                    f"every number before every string, so {said} is never true; compare "
                    f"with {fix}")
    return ""


def _comparisons(node: Any) -> Iterator[tuple[tuple[str, ...], str, Any]]:
    """``(chain, op, literal)`` of each ``.a.b OP literal`` (or ``literal OP .a.b``, the
    operator turned round) in the tree."""
    if not isinstance(node, tuple) or not node:
        return
    if node[0] == "binop" and node.op in _COMPARISONS:
        for chain, other, op in ((node.left, node.right, node.op),
                                 (node.right, node.left, _FLIP[node.op])):
            names = _chain(chain)
            if names and other[0] == "literal" and (type(other[1]) is str or _number(other[1])):
                yield names, op, other[1]
    for part in node[1:] if type(node[0]) is str else node:  # a node, or a tuple of them
        yield from _comparisons(part)


def _chain(node: Any) -> tuple[str, ...]:
    names: list[str] = []
    while isinstance(node, tuple) and node and node[0] == "field":
        names.insert(0, node.name)
        node = node.target
    return tuple(names) if node == ("dot",) else ()


def _values_of(inputs: list, key: str) -> list:
    """The values of ``key`` in the objects of ``inputs`` (the first :data:`_NODES`
    containers, breadth first)."""
    found, queue, seen = [], list(inputs), 0
    while queue and seen < _NODES:
        value = queue.pop(0) if len(queue) < 64 else queue.pop()
        seen += 1
        if type(value) is dict:
            if key in value:
                found.append(value[key])
            queue.extend(v for v in value.values() if type(v) in (dict, list))
        elif type(value) is list:
            queue.extend(v for v in value if type(v) in (dict, list))
    return [v for v in found if v is not None]


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.strip() == text and text.lower() not in ("nan", "inf", "-inf", "infinity")
