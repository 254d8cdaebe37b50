"""Programs that read their own inputs, bound to values the fast path already holds.

jq's ``input``/``inputs`` read the next value(s) and ``input_filename`` names the file
being read. Over cached documents all are known in advance: a ``-n`` program that reads
``inputs`` once, in a place evaluated at most once (``reduce inputs as $x``, ``[inputs |
f]``, ``first(inputs | f)``, ``limit(n; inputs)``...), is the same program over
``$INPUTS[]`` run once on null; ``input`` read once so is ``$INPUTS[0]``, and ``input as
$h | ... inputs ...`` reads ``$INPUTS[0]`` then ``$INPUTS[1:][]``; ``input_filename`` and
``input_line_number`` in a per-input program are the file and line of that input
(``$FILENAME``, ``$LINE``). Anything else (a reader read twice or in a loop, these names
redefined, the file or line under -n) is left to libjq.

>>> bind("reduce inputs as $x (0; . + $x)", frozenset(), True).reads_inputs
True
>>> bind("[inputs] | length, [inputs]", frozenset(), True) is None  # read twice
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jqmagic.core.jqlang import NotMine, Program
from jqmagic.core.jqlang.columnsonly import reads_columns, whole_chains
from jqmagic.core.jqlang.parser import parse
from jqmagic.core.jqlang.registry import compile_tree
from jqmagic.core.jqlang.syntax import Index, Iterate, Literal, Slice, Var

INPUTS = "__jqmagic_inputs"
FILENAME = "__jqmagic_input_filename"
LINE = "__jqmagic_input_line_number"

_READERS = frozenset({"input", "inputs", "input_filename", "input_line_number"})
_ONCE_ARG = {"first": 0, "last": 0, "isempty": 0, "add": 0}  # call -> its argument run once
_TRUSTED = _READERS | {"first", "last", "isempty", "add", "limit"}


@dataclass(frozen=True)
class Bound:
    """A program with its input readers bound to variables."""

    program: Program
    reads_inputs: bool  # run once on null with $INPUTS = every input (jq's -n)
    names_files: bool  # $FILENAME is each input's file
    numbers_lines: bool = False  # $LINE is each input's line (jq: the lines read so far)
    takes_first: bool = False  # reads one input: libjq's error when there is none
    only_first: bool = False  # reads that one input and no other
    reads_columns: bool = False  # $INPUTS read only by plans of their columns (vector.py)
    whole_chains: frozenset | None = None  # of those, the chains read whole (None: all)


def uses_readers(text: str) -> bool:
    """Whether the text may call an input reader (a cheap test before any parse)."""
    return "input" in text


@lru_cache(maxsize=256)
def bind(text: str, names: frozenset[str], null_input: bool) -> Bound | None:
    """``text`` compiled with its readers bound, or None when libjq must run it (also when
    it calls no reader: the plain fast path compiles it)."""
    if "__jqmagic_" in text:  # the bound names: a program naming them is libjq's (an error)
        return None
    try:
        tree = parse(text)
    except (NotMine, RecursionError):
        return None
    calls: dict[str, int] = {}
    defined: set[str] = set()
    _survey(tree, calls, defined)
    per_input = "input_filename" in calls or "input_line_number" in calls
    if not calls or defined & _TRUSTED or (per_input and null_input):
        return None
    first = calls.get("input", 0)
    reads = bool(first or calls.get("inputs"))
    if reads and not (null_input and _readable(tree, first, calls.get("inputs", 0))):
        return None
    tree = _replace(tree, 1 if first else 0)
    try:
        compiled = compile_tree(tree, names | {INPUTS, FILENAME, LINE})
    except (NotMine, RecursionError):
        return None
    return Bound(Program(text, compiled), reads, "input_filename" in calls,
                 "input_line_number" in calls, bool(first),
                 bool(first) and not calls.get("inputs"),
                 null_input and not first and reads_columns(tree, INPUTS), whole_chains(tree))


def _readable(tree: Any, input_calls: int, inputs_calls: int) -> bool:
    """Whether the readers are called where the values they read are known: ``inputs``
    alone, or ``input`` alone, once in a place run once; or ``input as $x | body`` in such
    a place with ``inputs`` once in a place its body runs once."""
    if input_calls + inputs_calls != 1 and (input_calls, inputs_calls) != (1, 1):
        return False
    if inputs_calls == 0 or input_calls == 0:
        name = "input" if input_calls else "inputs"
        return any(_calls(node, name) for node in _run_once_nodes(tree))
    return any(node[0] == "bind" and _calls(node.source, "input") and
               any(_calls(inner, "inputs") for inner in _run_once_nodes(node.body))
               for node in _run_once_nodes(tree))


def _calls(node: Any, name: str) -> bool:
    return node[0] == "call" and node.name == name and not node.args


def _is_node(item: Any) -> bool:
    return isinstance(item, tuple) and hasattr(type(item), "_fields")


def _survey(item: Any, calls: dict[str, int], defined: set[str]) -> None:
    """Count the reader calls of a tree; collect the names it defines."""
    if not isinstance(item, tuple):
        return
    if _is_node(item):
        if item[0] == "call" and item.name in _READERS and not item.args:
            calls[item.name] = calls.get(item.name, 0) + 1
        elif item[0] == "def":
            defined.add(item.name)
    for part in item:
        _survey(part, calls, defined)


def _run_once_nodes(node: Any) -> Any:
    """``node`` and the nodes below it that run at most once when it runs once."""
    yield node
    for child in _run_once(node):
        yield from _run_once_nodes(child)


def _run_once(node: Any) -> tuple:
    """The children of ``node`` that one evaluation of it evaluates at most once."""
    kind = node[0]
    if kind == "pipe":
        return (node.left,)
    if kind in ("comma",):
        return (node.left, node.right)
    if kind in ("array", "try", "label"):
        return (node.body,) if node.body is not None else ()
    if kind == "trycatch":
        return (node.body,)
    if kind in ("reduce", "foreach", "bind", "destructure"):
        return (node.source,)
    if kind in ("field", "index", "slice", "iterate"):
        return (node.target,)
    if kind == "def":
        return (node.rest,)
    if kind == "alt":
        return (node.left,)
    if kind == "if":
        return (node.branches[0][0],)
    if kind == "call":
        if node.name in _ONCE_ARG and len(node.args) == 1:
            return (node.args[0],)
        if node.name == "limit" and len(node.args) == 2 and node.args[0][0] == "literal":
            return (node.args[1],)
        if node.name in ("any", "all") and len(node.args) == 2:
            return (node.args[0],)
    return ()


def _replace(item: Any, skip: int) -> Any:
    """The tree with ``input`` as ``$INPUTS[0]``, ``inputs`` as ``$INPUTS[skip:][]`` (what
    ``input`` left), ``input_filename`` as ``$FILENAME``, ``input_line_number`` as
    ``$LINE``."""
    if not isinstance(item, tuple):
        return item
    if _is_node(item) and item[0] == "call" and not item.args:
        if item.name == "inputs":
            return Iterate(Slice(Var(INPUTS), Literal(skip), None) if skip else Var(INPUTS))
        if item.name == "input":
            return Index(Var(INPUTS), Literal(0))
        if item.name == "input_filename":
            return Var(FILENAME)
        if item.name == "input_line_number":
            return Var(LINE)
    parts = [_replace(part, skip) for part in item]
    return type(item)._make(parts) if _is_node(item) else tuple(parts)
