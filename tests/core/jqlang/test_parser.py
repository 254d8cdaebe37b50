"""jqlang.parser: each construct of jq 1.8.2's grammar as its typed node, with jq's
precedence; NotMine for what the subset lacks."""

from __future__ import annotations

import pytest

from jqmagic.core.jqlang import syntax as s
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.parser import OPTIONAL, parse
from tests.conformance.jq_suite import SUITE, all_cases

DOT = s.Dot()
A = s.Field(DOT, "a")
ONE, TWO = s.Literal(1), s.Literal(2)


@pytest.mark.parametrize(("program", "tree"), [
    (".", DOT),
    ("..", s.Recurse()),
    ("null", s.Literal(None)),
    ('"x"', s.Literal("x")),
    ("$x", s.Var("x")),
    ("@csv", s.Format("csv")),
    ('"a\\(.)b"', s.String(None, ("a", DOT, "b"))),
    ('@base64 "\\(.)"', s.String("base64", (DOT,))),
    ("[]", s.Array(None)),
    ("[.]", s.Array(DOT)),
    ("{a, b: 1}", s.Object(((s.Literal("a"), A), (s.Literal("b"), ONE)))),
    ("{$x}", s.Object(((s.Literal("x"), s.Var("x")),))),
    ("{(.a): 1}", s.Object(((A, ONE),))),
    ("f", s.Call("f", ())),
    ("f(.; 1)", s.Call("f", (DOT, ONE))),
    (".a", A),
    ('."a"', A),
    (".a.b", s.Field(A, "b")),
    (".[1]", s.Index(DOT, ONE)),
    (".[1:]", s.Slice(DOT, ONE, None)),
    (".[:2]", s.Slice(DOT, None, TWO)),
    (".[]", s.Iterate(DOT)),
    (".a?", s.Try(A)),
    (".a.b?", s.Bind(A, OPTIONAL, s.Try(s.Field(s.Var(OPTIONAL), "b")))),
    ("(1)?", s.Try(ONE)),
    ("try 1", s.Try(ONE)),
    ("try 1 catch 2", s.TryCatch(ONE, TWO)),
    (". | 1", s.Pipe(DOT, ONE)),
    (". , 1", s.Comma(DOT, ONE)),
    ("-1", s.Neg(ONE)),
    ("1 + 2 * 2", s.BinOp("+", ONE, s.BinOp("*", TWO, TWO))),
    ("1 == 2", s.BinOp("==", ONE, TWO)),
    ("1 and 2 or 1", s.Or(s.And(ONE, TWO), ONE)),
    ("1 // 2 // 1", s.Alt(ONE, s.Alt(TWO, ONE))),
    (".a |= 1", s.Assign("|=", A, ONE)),
    ("if 1 then 2 end", s.If(((ONE, TWO),), None)),
    ("if 1 then 2 elif 2 then 1 else . end", s.If(((ONE, TWO), (TWO, ONE)), DOT)),
    (". as $x | $x", s.Bind(DOT, "x", s.Var("x"))),
    (". as [$a, {b: $c}] | 1", s.Destructure(
        DOT, (s.PArray((s.PVar("a"), s.PObject(((s.Literal("b"), None, s.PVar("c")),)))),),
        ONE)),
    (". as [$a] ?// $a | 1", s.Destructure(DOT, (s.PArray((s.PVar("a"),)), s.PVar("a")), ONE)),
    ("reduce . as $x (1; 2)", s.Reduce(DOT, "x", ONE, TWO)),
    ("foreach . as $x (1; 2)", s.Foreach(DOT, "x", ONE, TWO)),
    ("foreach . as $x (1; 2; .)", s.Foreach(DOT, "x", ONE, TWO, DOT)),
    ("def f(g; $a): 1; 2", s.Def("f", ("g", "$a"), ONE, TWO)),
    ("label $out | 1", s.Label("out", ONE)),
    ("break $out", s.Break("out")),
    ("$__loc__", s.Literal({"file": "<top-level>", "line": 1})),
    ("1, 2 as $x | 1", s.Comma(ONE, s.Bind(TWO, "x", ONE))),
])
def test_each_construct_is_its_typed_node(program, tree):
    got = parse(program)
    assert got == tree
    assert _types(got) == _types(tree)


def _types(node):
    """The node's classes, nested as the tree (equality alone ignores them)."""
    if isinstance(node, tuple):
        return (type(node).__name__, *map(_types, node))
    return node


def test_nodes_are_plain_to_index_and_named_to_read():
    node = parse(".a | .b")
    assert node[0] == node.kind == "pipe"
    assert node.left.name == "a" and node[2][2] == "b"


def test_reduce_over_a_pattern_destructures_in_the_update():
    node = parse("reduce .[] as [$a] (0; $a)")
    assert isinstance(node, s.Reduce)
    assert isinstance(node.update, s.Destructure)


@pytest.mark.parametrize("program", [
    "1 == 2 == 3", ".a = .b = 1", "$ENV", "{a: def f: 1; f}", ". as $x",
    ".[:1]?x", "reduce . as [$a] ?// $a (0; 1)", "import \"a\" as a; .", "{(1): 2}",
])
def test_not_mine(program):
    with pytest.raises(NotMine):
        parse(program)


def _plain_nodes(node, found):
    """Plain tuples under ``node`` where a typed node belongs (read field by field: a
    string's parts, a call's arguments, an object's entries hold nodes but are none)."""
    if type(node) is tuple:
        found.append(node)
        return found
    for name, value in zip(node._fields[1:], node[1:], strict=True):
        if name in ("value", "name", "op", "fmt", "params"):
            continue
        for item in value if name in ("parts", "args", "patterns", "items") else (value,):
            if name in ("entries", "branches"):
                item = [x for pair in item for x in pair]
            for sub in item if isinstance(item, list) else (item,):
                if isinstance(sub, tuple):
                    _plain_nodes(sub, found)
    return found


@pytest.mark.skipif(not SUITE.is_dir(), reason=f"jq suite not found at {SUITE}")
def test_the_parser_builds_only_typed_nodes_over_jqs_suite():
    parsed = 0
    for case in all_cases():
        try:
            tree = parse(case.program)
        except (NotMine, RecursionError):
            continue
        parsed += 1
        assert _plain_nodes(tree, []) == [], case.id
    assert parsed > 700


def test_a_plain_tuple_among_typed_nodes_is_found():
    tree = s.Object(((s.Literal("k"), s.Call("f", (("dot",),))),))
    assert _plain_nodes(tree, []) == [("dot",)]
