"""Where the cursor is in a jq program: the word being typed and the path of the value
``.`` stands for there, read from the text before the cursor by a forgiving scan (the
program is unfinished: nothing here raises on bad syntax).

A path is a tuple of steps from the input: a key (``str``), :data:`ITEMS` (``.[]``,
``.[n]``, or an object's values), :data:`RECURSE` (``..``: any value below) or
:data:`WRAP` (an array made of the values before it, as ``[...]`` and ``map`` make);
``None`` when the path is not known (a literal, an arithmetic result, a user function).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ITEMS, RECURSE, WRAP = "[]", "..", "[...]"
Path = tuple | None

_TOKEN = re.compile(r"""
 (?P<ws>\s+|\#[^\n]*)
|(?P<str>"(?:[^"\\]|\\.)*")
|(?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)
|(?P<field>\.[A-Za-z_][A-Za-z0-9_]*|\."(?:[^"\\]|\\.)*")
|(?P<recurse>\.\.)
|(?P<dot>\.)
|(?P<var>\$[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*|\$)
|(?P<format>@[A-Za-z0-9_]*)
|(?P<ident>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
|(?P<op>\?//|[|+\-*/%]=|//=|==|!=|<=|>=|//|[|,;:(){}\[\]?+\-*/%<>=])
""", re.X)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# a branch or operand starts a new term on the same input
_RESTART = {"if", "then", "elif", "else", "and", "or", "try", "catch", "reduce", "foreach",
            "label"}
_OPERATORS = {"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "//", "=", "+=",
              "-=", "*=", "/=", "%=", "//=", "?//"}
# builtins whose arguments run on each element of their input (an object's values too)
_PER_ELEMENT = {"map", "map_values", "any", "all", "sort_by", "group_by", "unique_by",
                "min_by", "max_by"}
_WHOLE = {"select", "sort", "unique", "reverse", "with_entries", "map_values", "del",
          "walk", "sort_by", "unique_by", "delpaths", "setpath", "debug", "stderr",
          "objects", "arrays", "values", "nulls", "iterables", "limit", "first", "last",
          "until", "while", "repeat"}


def after(path: Path, step: str) -> Path:
    """``path`` one step further (``.[]`` of a made array is what it was made of)."""
    if path is None:
        return None
    if step == ITEMS and path and path[-1] == WRAP:
        return path[:-1]
    return (*path, step)


def key_of(text: str) -> str:
    """The key a field token names: ``.a`` -> ``a``, ``."a-b"`` -> ``a-b``."""
    return unquote(text[2:-1]) if text.startswith('."') else text[1:]


def unquote(raw: str) -> str:
    """A jq string's contents (without its quotes) as text; as typed when not valid."""
    import json

    try:
        return json.loads(f'"{raw}"')
    except ValueError:
        return raw


@dataclass
class _Frame:
    kind: str  # top, paren, call, index, array, object
    base: Path  # what `.` is when a term starts here
    cur: Path = None  # the value of the term read last
    fresh: bool = True  # the next token starts a term
    name: str = ""  # a call's function
    start: Path = None  # a call's input, an index's target
    arg: int = 0
    keyed: bool = True  # an object construction expects a key
    parts: list = field(default_factory=list)  # an index's tokens
    binding: bool = False  # after `as`, until its `|`


@dataclass
class Context:
    """What the cursor follows: ``kind`` of word (key, qkey, qindex, objkey, qobjkey,
    name, var, format, term, none), the ``prefix`` typed of it, where that word starts in
    the program, the path of ``.`` there, and the variables the program binds before it."""

    kind: str
    prefix: str
    start: int
    path: Path
    bound: list[str]


def read(program: str, cursor: int | None = None, null_input: bool = False) -> Context:
    """The :class:`Context` at ``cursor`` (default: the end) of ``program`` (with
    ``null_input``, `.` is null until ``input`` reads the document)."""
    text = program[: len(program) if cursor is None else cursor]
    tokens, rest = _tokens(text)
    kind, prefix, start = "none", "", len(text)
    if rest.startswith('"'):  # an open string: a quoted key, or nothing
        start = len(text) - len(rest)
        prefix = unquote(rest[1:])
        if tokens and tokens[-1][0] == "dot" and tokens[-1][2] == start - 1:
            kind, start = "qkey", start - 1
            tokens.pop()
        elif tokens and tokens[-1][1] == "[":
            kind = "qindex"
        else:
            kind = "qobjkey"
    elif rest:  # something the scan cannot read: no guess
        return Context("none", "", len(text), None, [])
    elif tokens and tokens[-1][2] + len(tokens[-1][1]) == len(text):
        last_kind, last, at, _ = tokens[-1]
        if last_kind in ("field", "dot"):
            kind, prefix, start = "key", key_of(last) if last_kind == "field" else "", at
            if last.startswith('."'):
                kind = "qkey"
                prefix = unquote(last[2:-1])
        elif last_kind == "ident":
            kind, prefix, start = "name", last, at
        elif last_kind == "var":
            kind, prefix, start = "var", last[1:], at
        elif last_kind == "format":
            kind, prefix, start = "format", last[1:], at
        if kind != "none":
            tokens.pop()
    state = _scan(tokens, None if null_input else ())
    frame = state[-1]
    path = frame.base if frame.fresh else frame.cur
    bound = [t[1][1:] for t in tokens if t[0] == "var" and t[3]]
    if kind == "none" and frame.fresh:
        kind = "term"
    if kind == "term" and frame.kind == "index" and not frame.parts:
        kind = "qindex"  # `.[` right after the bracket: a key as a string, not a filter
    if kind == "qindex":
        path = frame.start if frame.kind == "index" else None
    elif frame.kind == "object" and frame.keyed and frame.fresh:
        kind = {"name": "objkey", "term": "objkey", "qobjkey": "qobjkey"}.get(kind, kind)
        path = frame.base
    elif kind == "qobjkey":
        kind = "none"
    return Context(kind, prefix, start, path, bound)


def _tokens(text: str) -> tuple[list[list], str]:
    """The tokens of ``text`` as [kind, text, offset, binds] (white space dropped), and
    the part from where the scan stopped (an open string)."""
    out: list[list] = []
    at, binding = 0, False
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:
            return out, text[at:]
        kind = match.lastgroup
        word = match.group()
        if kind == "ident" and word == "as":
            binding = True
        elif kind == "op" and word in ("|", "("):
            binding = False
        if kind != "ws":
            out.append([kind, word, at, binding and kind == "var"])
        at = match.end()
    return out, ""


def _scan(tokens: list[list], top: Path) -> list[_Frame]:
    """The frames open after ``tokens``, each with the path of its `.` and its last term."""
    stack = [_Frame("top", top)]
    previous = ""
    for kind, word, _, _ in tokens:
        frame = stack[-1]
        if kind == "field":
            frame.cur = after(frame.base if frame.fresh else frame.cur, key_of(word))
        elif kind == "dot":
            if frame.fresh:
                frame.cur = frame.base
        elif kind == "recurse":
            frame.cur = after(frame.base, RECURSE) if frame.fresh else None
        elif kind in ("str", "num", "format") or kind == "var":
            if frame.kind == "index":
                frame.parts.append((kind, word))
            if frame.fresh:
                frame.cur = None
        elif kind == "ident":
            _word(frame, word)
            previous = word
            continue
        else:
            _operator(stack, frame, word, previous)
            previous = word
            continue
        frame.fresh = False
        previous = word
    return stack


def _word(frame: _Frame, word: str) -> None:
    if word == "as":
        frame.binding = True
    elif word in _RESTART:
        frame.cur, frame.fresh = frame.base, True
    elif word == "end":
        frame.fresh = False
    elif word == "not":
        frame.cur, frame.fresh = None, False
    else:  # a function: its input is `.` where the term starts
        frame.name = word
        frame.start = frame.base if frame.fresh else None
        frame.cur = _result(word, frame.start, None)
        frame.fresh = False


def _operator(stack: list[_Frame], frame: _Frame, op: str, previous: str) -> None:
    if op == "|":
        if not frame.binding:  # `E as $x | body`: body reads the same `.` as E
            frame.base = frame.cur
        frame.binding, frame.fresh = False, True
    elif op == "|=":
        frame.base, frame.fresh = frame.cur, True
    elif op == ",":
        if frame.kind == "object":
            frame.keyed = True
        frame.cur, frame.fresh = frame.base, True
    elif op == ":":
        if frame.kind == "object":
            frame.keyed, frame.cur, frame.fresh = False, frame.base, True
        elif frame.kind == "index":
            frame.parts.append(("op", ":"))
    elif op == ";":
        frame.arg += 1
        if frame.kind == "paren":  # reduce/foreach: `.` is the state from here on
            frame.base = None
        frame.cur, frame.fresh = frame.base, True
    elif op in _OPERATORS:
        frame.cur, frame.fresh = frame.base, True
    elif op == "[":
        if frame.fresh:
            stack.append(_Frame("array", frame.base))
        else:
            stack.append(_Frame("index", frame.base, start=frame.cur))
    elif op == "(":
        if not frame.fresh and previous == frame.name and frame.name:
            base = frame.start
            if frame.name in _PER_ELEMENT:
                base = after(base, ITEMS)
            elif frame.name == "walk":
                base = after(base, RECURSE)
            stack.append(_Frame("call", base, name=frame.name, start=frame.start))
        else:
            frame.binding = False
            stack.append(_Frame("paren", frame.base))
    elif op == "{":
        stack.append(_Frame("object", frame.base))
    elif op in ")]}" and len(stack) > 1:
        inner = stack.pop()
        outer = stack[-1]
        outer.cur, outer.fresh = _closed(inner), False
    # `?` and anything else leave the term as it is


def _closed(inner: _Frame) -> Path:
    """The value of a bracketed term once it closes."""
    if inner.kind == "index":
        parts = inner.parts
        if len(parts) == 1 and parts[0][0] == "str":
            return after(inner.start, unquote(parts[0][1][1:-1]))
        if any(kind == "op" for kind, _ in parts):  # a slice: the same array
            return inner.start
        return after(inner.start, ITEMS)
    if inner.kind == "array":
        return after(inner.cur, WRAP)
    if inner.kind == "paren":
        return inner.cur
    if inner.kind == "call":
        return _result(inner.name, inner.start, inner.cur)
    return None


def _result(name: str, start: Path, argument: Path) -> Path:
    """What function ``name`` gives on input ``start`` (``argument``: its last one's
    value, None for a bare call)."""
    if name in ("input", "inputs"):
        return ()
    if name == "map":
        return after(argument, WRAP)
    if name == "recurse":
        return after(start, RECURSE)
    if name in ("first", "last") and argument is not None:
        return argument
    if name in ("first", "last", "add", "min", "max", "min_by", "max_by"):
        return after(start, ITEMS)
    if name == "group_by":
        return after(start, WRAP)
    if name in ("limit", "until", "while", "repeat") and argument is not None:
        return argument
    if name in _WHOLE:
        return start
    return None


def identifier(key: str) -> bool:
    """Whether ``key`` can follow a dot bare (``.a_1``); others need quotes (``."a-b"``)."""
    return bool(_IDENT.match(key))
