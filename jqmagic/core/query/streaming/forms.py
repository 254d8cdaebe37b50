"""Which jq programs can run in one streaming pass over a big JSON document, read from the
program's own tree (jqlang's parser, used read-only) and cut from its text.

A streamable program is a path of literal keys and indexes into the document, then:

- ``PATH[] | F``: F on each element (array items or object values) in turn;
- ``[PATH[] | F] | TAIL``: only F's outputs are kept, TAIL runs once on their array
  (``length`` just counts them);
- ``first(PATH[] | F)``, ``limit(N; PATH[] | F)``, each optionally ``| TAIL``;
- ``PATH`` (the value there alone is read), ``PATH | length`` (an array's or object's
  elements are counted, not kept) and ``PATH | TAIL`` when PATH goes through an index
  (``.[N]``: one element is kept); ``.[K]`` and ``.[N]`` are such paths.

F and TAIL are any jq text that reads no other input and asks nothing of jq's reader (no
``input``/``inputs``, ``input_filename``, ``input_line_number``). Every
spelling of a walk over literal steps is the same walk: ``.a[].v``, ``.a[] | .v``,
``.a | .[] | .v`` and ``.a | .[].v`` are PATH ``.a``, then F ``.v`` on each element.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.lexer import Token, tokenize
from jqmagic.core.jqlang.parser import parse

FORMS = ("PATH[] | F", "[PATH[] | F] | length/add/min/max/unique/group_by(...)",
         "first(PATH[] | F)", "limit(N; PATH[] | F)", "PATH | length", ".[K]")
_OPEN = {"(": ")", "[": "]", "{": "}", "if": "end"}
_CLOSE = {")", "]", "}", "end"}
_READS_INPUT = {"input", "inputs", "$__loc__", "input_filename", "input_line_number"}
"""Words a streamed run cannot answer as jq does: each element is no input of jq's reader."""
_OWN_SCOPE = {"def", "as", "label", "import", "include", "reduce", "foreach", "?//"}

Step = str | int  # an object key, or an array index (>= 0)


@dataclass(frozen=True)
class Plan:
    """How to stream one program: where, what to run per element, how to finish."""

    path: tuple[Step, ...]  # literal keys (and indexes) from the top
    mode: str  # "each" (PATH[] ...), "collect", "first", "limit", "value" (PATH | TAIL)
    each: str = "."  # F, run on each element
    tail: str | None = None  # TAIL: on every output (each/first/limit) or on the array
    count: int = 0  # N of limit(N; ...)


def plan(program: str) -> Plan | None:
    """The streaming plan of ``program``, or None when its shape does not stream."""
    try:
        tokens = tokenize(program)
        return _plan(program, tokens[:-1])
    except NotMine:
        return None


def _plan(text: str, tokens: list[Token]) -> Plan | None:
    if any(t.text in _READS_INPUT for t in tokens):
        return None
    head, rest = _split(text, tokens, "|")
    if head is None:
        return None
    node = parse(_text(text, head))
    if node == ("call", "length", ()) and not rest:
        return Plan((), "value", tail="length")
    chain = _chain(text, head, rest)
    if chain is not None:
        path, each, rest = chain
        tail = _text(text, rest) if rest else None
        if each is None:
            return _lookup(path, tail or ".")
        return Plan(path, "each", each=_then(each, tail))
    tail = _text(text, rest) if rest else None
    inner = _inside(head)
    if inner is None:
        return None
    if node[0] == "array" and node[1] is not None:
        return _wrapped(text, inner, "collect", tail)
    if node[0] == "call" and node[1] == "first" and len(node[2]) == 1:
        return _wrapped(text, inner, "first", tail)
    if node[0] == "call" and node[1] == "limit" and len(node[2]) == 2:
        count = node[2][0]
        first, second = _split(text, inner, ";")
        if count[0] != "literal" or type(count[1]) is not int or count[1] < 0 or not second:
            return None
        return _wrapped(text, second, "limit", tail, count[1])
    return None


def _lookup(path: tuple[Step, ...], tail: str) -> Plan | None:
    """``PATH | TAIL`` when only a part is kept: the value at a path (not the whole
    document), an element's (a path through an index), or nothing but a count."""
    if tail == "length" or (path and tail == ".") or any(type(s) is int for s in path):
        return Plan(path, "value", tail=tail)
    return None


def _wrapped(text: str, inner: list[Token], mode: str, tail: str | None,
             count: int = 0) -> Plan | None:
    """``[INNER]``, ``first(INNER)`` or ``limit(N; INNER)`` when INNER is ``PATH[] | F``
    in any of its spellings."""
    head, rest = _split(text, inner, "|")
    chain = None if head is None else _chain(text, head, rest)
    if chain is None or chain[1] is None:
        return None
    path, each, rest = chain
    return Plan(path, mode, each=_then(each, _text(text, rest) if rest else None),
                tail=tail, count=count)


def _chain(text: str, head: list[Token], rest: list[Token]
           ) -> tuple[tuple[Step, ...], str | None, list[Token]] | None:
    """The leading pipe stages that only walk literal steps, as one walk: ``.a[].v``,
    ``.a[] | .v``, ``.a | .[] | .v`` and ``.a | .[].v`` all are PATH ``.a``, each element
    then F ``.v``; the path alone (F None) when no step iterates; what is left after.
    None when the first stage is something else."""
    steps = _steps(parse(_text(text, head)))
    if steps is None:
        return None
    while rest:
        stage, after = _split(text, rest, "|")
        more = None if stage is None else _steps(parse(_text(text, stage)))
        if more is None:
            break
        steps, rest = steps + more, after
    if None not in steps:
        return tuple(steps), None, rest
    at = steps.index(None)
    return tuple(steps[:at]), "." + "".join(_step_text(s) for s in steps[at + 1:]), rest


def _steps(node: tuple) -> list[Step | None] | None:
    """The literal steps of ``.a.b[0]["c"][]`` (None for an iteration), or None for
    anything else (an index computed from the input, ``?``, a slice...)."""
    steps: list[Step | None] = []
    while node[0] in ("field", "index", "iterate"):
        if node[0] == "field":
            steps.append(node[2])
        elif node[0] == "iterate":
            steps.append(None)
        elif node[2][0] == "literal" and (type(node[2][1]) is str or (
                type(node[2][1]) is int and node[2][1] >= 0)):
            steps.append(node[2][1])
        else:
            return None
        node = node[1]
    return list(reversed(steps)) if node == ("dot",) else None


def _step_text(step: Step | None) -> str:
    return "[]" if step is None else f"[{json.dumps(step)}]"


def _then(each: str, tail: str | None) -> str:
    """F, then the stages after it (on each element)."""
    if tail is None:
        return each
    return tail if each == "." else f"{each} | {tail}"


def _split(text: str, tokens: list[Token], sep: str) -> tuple[list[Token] | None, list[Token]]:
    """``tokens`` cut at the first ``sep`` outside brackets; (None, []) when a construct
    with its own scope (``def``, ``as``, ``label``, ``reduce``...) comes before it."""
    depth = 0
    for i, tok in enumerate(tokens):
        if tok.kind in ("op", "keyword") and tok.text in _OPEN:
            depth += 1
        elif tok.kind in ("op", "keyword") and tok.text in _CLOSE:
            depth -= 1
        elif depth == 0 and tok.text in _OWN_SCOPE and tok.kind != "string":
            return None, []
        elif depth == 0 and tok.kind == "op" and tok.text == sep:
            return tokens[:i], tokens[i + 1:]
    return tokens, []


def _inside(tokens: list[Token]) -> list[Token] | None:
    """The tokens between the outer brackets of ``[...]`` or ``name(...)``."""
    start = 2 if tokens and tokens[0].kind == "ident" else 1
    if len(tokens) <= start or tokens[start - 1].text not in ("[", "("):
        return None
    return tokens[start:-1]


def _text(text: str, tokens: list[Token]) -> str:
    """The program text the tokens span."""
    end = tokens[-1].pos + len(tokens[-1].text)
    return text[tokens[0].pos:end]
