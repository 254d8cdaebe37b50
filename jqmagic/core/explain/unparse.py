"""jq text of a parsed program (:mod:`jqmagic.core.jqlang.syntax`), for libjq to run.

Parentheses only where jq 1.8.2's precedence needs them; the parser's own names
(``?item``, ``?opt``) become ``$__jqm_item``-style names any program may hold.

>>> from jqmagic.core.jqlang.parser import parse
>>> text(parse('.a[]? | select(.b > 1) as $x | {k: $x, "s\\\\(.c)": 2}'))
'.a[]? | select(.b > 1) as $x | {"k": $x, "s\\\\(.c)": 2}'
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import re
from collections.abc import Iterator
from typing import Any

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KEYWORDS = {"def", "as", "if", "then", "elif", "else", "end", "reduce", "foreach", "try",
             "catch", "label", "import", "include", "and", "or", "not", "__loc__"}
_BINARY = {"==": 6, "!=": 6, "<": 6, "<=": 6, ">": 6, ">=": 6, "+": 7, "-": 7, "*": 8,
           "/": 8, "%": 8}
_POSTFIX = 10


def text(node: Any) -> str:
    """The jq text of ``node``."""
    return _text(node, 0)


def var(name: str) -> str:
    """``$name``, the parser's internal names made writable."""
    return "$" + (name.replace("?", "__jqm_") if name.startswith("?") else name)


def _text(node: Any, need: int) -> str:
    prec, body = _PRINTERS[node[0]](node)
    return body if prec >= need else f"({body})"


def _literal(node) -> tuple[int, str]:
    value = node[1]
    body = json.dumps(value, ensure_ascii=False)
    return (9 if isinstance(value, (int, float)) and value < 0 else _POSTFIX), body


def _string_body(parts: tuple) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(json.dumps(part, ensure_ascii=False)[1:-1])
        else:
            out.append(f"\\({text(part)})")
    return '"' + "".join(out) + '"'


def _string(node) -> tuple[int, str]:
    _, fmt, parts = node
    return _POSTFIX, (f"@{fmt} " if fmt else "") + _string_body(parts)


def _target(node) -> str:
    """The term a postfix step follows ('' for ``.``, whose steps read ``.a``, ``.[]``)."""
    if node[0] == "dot":
        return ""
    if node[0] == "bind" and _optional(node) is not None:
        return _optional(node)  # .a[]? takes more steps: .a[]?.b
    return _text(node, _POSTFIX) if node[0] in _STEPPABLE else f"({text(node)})"


def _name(name: str) -> str:
    return name if _IDENT.match(name) and name not in _KEYWORDS else json.dumps(name)


def _field(node) -> tuple[int, str]:
    target = _target(node[1])
    return _POSTFIX, f"{target}.{_name(node[2])}"


def _index(node) -> tuple[int, str]:
    target = _target(node[1])
    return _POSTFIX, f"{target or '.'}[{text(node[2])}]"


def _slice(node) -> tuple[int, str]:
    _, target, lower, upper = node
    low = "" if lower is None else text(lower)
    high = "" if upper is None else text(upper)
    return _POSTFIX, f"{_target(target) or '.'}[{low}:{high}]"


def _iterate(node) -> tuple[int, str]:
    return _POSTFIX, f"{_target(node[1]) or '.'}[]"


# how a catch-less try is printed (the parse keeps no difference): ``try E``, or ``E?``
# when this holds the program's text without spaces
_QUESTION: contextvars.ContextVar[str | None] = contextvars.ContextVar("question",
                                                                     default=None)
# what ``E?`` takes bare: a term a ``?`` after which makes a try, not an optional step
_BARE_BEFORE_QUESTION = {"dot", "recurse", "var", "literal", "string", "format", "array",
                         "object", "call"}


@contextlib.contextmanager
def written_as(program: str, tree: Any) -> Iterator[None]:
    """Within it, each catch-less try of ``tree`` is printed as ``program`` writes it:
    ``(.a)?`` stays ``(.a)?``, ``try .a`` stays ``try .a``; a program writing both gets
    ``E?`` throughout (the same program to jq)."""
    from jqmagic.core.jqlang.lexer import tokenize

    words = [t.text for t in tokenize(program) if t.kind == "keyword"]
    spelled = words.count("try") - words.count("catch")
    token = _QUESTION.set("".join(program.split()) if spelled < _tries(tree) else None)
    try:
        yield
    finally:
        _QUESTION.reset(token)


def _tries(node: Any) -> int:
    """The catch-less trys of ``node`` written ``try E`` or ``E?`` (not ``.a?``)."""
    if not isinstance(node, tuple):
        return 0
    own = node[:1] == ("try",) and len(node) == 2
    if node[:1] == ("bind",) and _optional(node) is not None:
        return _tries(node[1])  # .a? : an optional step, printed as written
    return own + sum(_tries(item) for item in node[1:])


def _try(node) -> tuple[int, str]:
    body = node[1]
    written = _QUESTION.get()
    if written is not None:
        shown = _text(body, _POSTFIX)
        bare = body[0] in _BARE_BEFORE_QUESTION or (  # .a? .[0]? .[]? on the input itself
            body[0] in ("field", "index", "slice", "iterate") and body[1][0] == "dot"
            and f"({shown})?" not in written)  # unless written (.a)?
        return _POSTFIX, f"{shown}?" if bare else f"({text(body)})?"
    return 9, f"try {_text(body, _POSTFIX)}"


def _bind(node) -> tuple[int, str]:
    _, source, name, body = node
    optional = _optional(node)
    if optional is not None:
        return _POSTFIX, optional
    return 0, f"{_text(source, _POSTFIX)} as {var(name)} | {text(body)}"


def _optional(node) -> str | None:
    """``TERM STEP?`` as the parser wrote it: ``TERM as $?opt | try STEP($?opt)``."""
    _, source, name, body = node
    if name != "?opt" or body[0] != "try" or body[1][0] not in ("field", "index",
                                                                 "slice", "iterate"):
        return None
    step = body[1]
    if step[1] != ("var", "?opt") or any(isinstance(k, tuple) and "?opt" in repr(k)
                                         for k in step[2:]):
        return None
    stepped = _PRINTERS[step[0]](type(step)(source, *step[2:]))[1]
    return stepped + "?"


def _pattern(pattern) -> str:
    kind = pattern[0]
    if kind == "pvar":
        return var(pattern[1])
    if kind == "parray":
        return "[" + ", ".join(_pattern(p) for p in pattern[1]) + "]"
    entries = []
    for key, name, sub in pattern[1]:
        if name is not None:
            entries.append(var(name) + (f": {_pattern(sub)}" if sub is not None else ""))
            continue
        if key[0] == "literal" and isinstance(key[1], str):
            head = json.dumps(key[1], ensure_ascii=False)
        elif key[0] == "string":
            head = _string(key)[1]
        else:
            head = f"({text(key)})"
        entries.append(f"{head}: {_pattern(sub)}")
    return "{" + ", ".join(entries) + "}"


def _destructure(node) -> tuple[int, str]:
    _, source, patterns, body = node
    pats = " ?// ".join(_pattern(p) for p in patterns)
    return 0, f"{_text(source, _POSTFIX)} as {pats} | {text(body)}"


def _fold(node) -> tuple[int, str]:
    kind, source, name, init, update, *rest = node
    parts = [update, *[p for p in rest if p is not None]]
    head = var(name)
    if name == "?item" and all(p[0] == "destructure" and p[1] == ("var", "?item")
                               for p in parts):
        head = " ?// ".join(_pattern(p) for p in parts[0][2])
        parts = [p[3] for p in parts]
    inner = "; ".join(text(p) for p in [init, *parts])
    return _POSTFIX, f"{kind} {_text(source, _POSTFIX)} as {head} ({inner})"


def _if(node) -> tuple[int, str]:
    _, branches, otherwise = node
    out = []
    for i, (cond, then) in enumerate(branches):
        out.append(f"{'if' if i == 0 else 'elif'} {text(cond)} then {text(then)}")
    if otherwise is not None:
        out.append(f"else {text(otherwise)}")
    return _POSTFIX, " ".join(out) + " end"


def _object(node) -> tuple[int, str]:
    entries = []
    for key, value in node[1]:
        if key[0] == "literal" and isinstance(key[1], str):
            head = json.dumps(key[1], ensure_ascii=False)
        elif key[0] == "string":
            head = _string(key)[1]
        elif key[0] == "var":
            head = var(key[1])
        else:
            head = f"({text(key)})"
        entries.append(f"{head}: {_text(value, _POSTFIX)}")
    return _POSTFIX, "{" + ", ".join(entries) + "}"


def _call(node) -> tuple[int, str]:
    _, name, args = node
    if not args:
        return _POSTFIX, name
    return _POSTFIX, f"{name}({'; '.join(text(a) for a in args)})"


def _def(node) -> tuple[int, str]:
    _, name, params, body, rest = node
    head = f"{name}({'; '.join(params)})" if params else name
    return 0, f"def {head}: {text(body)}; {text(rest)}"


def _binop(node) -> tuple[int, str]:
    _, op, left, right = node
    prec = _BINARY[op]
    left_need = prec + 1 if prec == 6 else prec
    return prec, f"{_text(left, left_need)} {op} {_text(right, prec + 1)}"


def _infix(prec: int, op: str, right_assoc: bool = False):
    def printer(node) -> tuple[int, str]:
        left_need, right_need = (prec + 1, prec) if right_assoc else (prec, prec + 1)
        return prec, f"{_text(node[1], left_need)}{op}{_text(node[2], right_need)}"
    return printer


_PRINTERS = {
    "dot": lambda n: (_POSTFIX, "."),
    "recurse": lambda n: (_POSTFIX, ".."),
    "literal": _literal,
    "var": lambda n: (_POSTFIX, var(n[1])),
    "format": lambda n: (_POSTFIX, f"@{n[1]}"),
    "string": _string,
    "array": lambda n: (_POSTFIX, "[]" if n[1] is None else f"[{text(n[1])}]"),
    "object": _object,
    "call": _call,
    "field": _field,
    "index": _index,
    "slice": _slice,
    "iterate": _iterate,
    "try": _try,
    "trycatch": lambda n: (9, f"try {_text(n[1], _POSTFIX)} catch {_text(n[2], _POSTFIX)}"),
    "pipe": lambda n: (0, f"{_text(n[1], 1)} | {text(n[2])}"),
    "comma": _infix(1, ", "),
    "neg": lambda n: (9, f"-{_text(n[1], _POSTFIX)}"),
    "binop": _binop,
    "and": _infix(5, " and "),
    "or": _infix(4, " or "),
    "alt": _infix(2, " // ", right_assoc=True),
    "assign": lambda n: (3, f"{_text(n[2], 4)} {n[1]} {_text(n[3], 4)}"),
    "if": _if,
    "bind": _bind,
    "destructure": _destructure,
    "reduce": _fold,
    "foreach": _fold,
    "def": _def,
    "label": lambda n: (0, f"label {var(n[1])} | {text(n[2])}"),
    "break": lambda n: (_POSTFIX, f"break {var(n[1])}"),
}
_STEPPABLE = {"dot", "recurse", "var", "field", "index", "slice", "iterate", "call",
              "array", "object", "string", "format", "if", "reduce", "foreach"}
