"""Generated programs and inputs aimed at the places where the fast path and jq 1.8.2 part
ways over small things (issue 30): signed zeros, integers past 2^53, literals jq keeps as
written, builtins' edge cases and evaluation order. Seeded, so a run is reproducible."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from jqmagic.core.query.libjq import CompileError
from tests.core.jqlang.oracle import fast, jq_texts

NUMBERS = ["0", "-0", "0.0", "-0.0", "-0.5", "0.5", "1.5", "-2.5", "3", "12.0", "1.0",
           "1E+2", "1.50", "9007199254740993", "18014398509481985", "-9007199254740993", "7"]
STRINGS = ['""', '"a"', '"ab"', '"ba"', '"aab"', '"-0"', '"item-0"']
DATES = ["[1969,11,31,23,59,59,0,0]", "[1969,11,31,23,59,58,0,0]", "[1970,0,1,0,0,1,4,0]"]
LEAVES = NUMBERS + STRINGS + ["null", "true", "false", "[]", "{}"]

TERMS = [".", ".a", ".[]?", ".[0]?", ".[1:]?", "-.", "floor", "ceil", "significand", "fabs",
         "trunc", "round", "atan2(.; -1)", "copysign(1; .)", ". / -1", ". * -1", ". + 0",
         "add", "map(.a?) | add", "[.[]? | .a?] | add", "add(.[]?)", "tostring", "tojson",
         "indices([])", "indices([1])", "indices(1)", 'indices("a")', "indices(.)",
         "index(true)", "index(1)", 'index("a")', "rindex(1)", 'rindex("a")', "IN(1, 2)",
         "IN(.[]?; 1, 2)", "[IN(2, 1; 1, error)]", "[IN(1, 2; 2, error)]",
         '[JOIN({"a": 1}, {"b": 2}; tostring)]', '[JOIN({"a": 1}, {"b": 2}; .[]?; .a?)]',
         '[JOIN({"1": 1}, {"3": 3}; .[]?; tostring; add)]', "mktime", "[limit(0; error)]",
         "[limit(0; 1 / 0)]", "[limit(0; .[])]", "[limit(1; .[]?, error)]",
         '[match("(?=(a))|b*"; "g")]', '[match("(a)?"; "g") | .captures]',
         '[scan("(?=(a))")]', '[capture("(?<x>(?=a))"; "g")]', 'sub("(?=(?<x>a))"; "<\\(.x)>")',
         "(. as [$a, $b, $c] | [$a, $c])", "(. as [[$a], $b] | $b)",
         "(. as {a: $x, b: $x} | $x)", "(. as [$p, $p] | $p)", "(. as {$a, b: [$a]} | $a)",
         "(. as [$a] ?// {a: $a} | $a)", "(.[-0.5]? = 1)", "(.[-1.5]? |= -.)",
         "del(.[-0.5]?)", "setpath([-0.5]; 1)?"]
SHAPES = ["{}", "[{}]", "{} | {}", "try ({}) catch .", "[.[]? | {}]", "[.[]? | try {} catch .]",
          "reduce .[]? as $x (null; . + ($x | {}))", "reduce .[]? as $x (null; . + $x) | {}",
          "try (reduce .[]? as $x (null; . + ($x | {}))) catch .", "({}), ({})", "[{}] | add",
          "map({})?", "[.[]? | select({} | . == 0)]", "[paths] | length as $n | {}"]


@dataclass
class Tally:
    """Programs run, answered by the fast path, and answered wrongly (with the first few)."""

    run: int = 0
    answered: int = 0
    wrong: list[tuple[str, str, list[str], list[str]]] = field(default_factory=list)
    shapes: Counter = field(default_factory=Counter)

    def __str__(self) -> str:
        return f"{self.run} programs run, {self.answered} answered by the fast path, " \
               f"{len(self.wrong)} wrong"


def program(rng: random.Random, depth: int = 0) -> str:
    if depth >= 2 or rng.random() < 0.4:
        return rng.choice(TERMS)
    shape = rng.choice(SHAPES)
    return shape.format(*(program(rng, depth + 1) for _ in range(shape.count("{}"))))


def value(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth >= 2 or roll < 0.45:
        return rng.choice(LEAVES)
    if roll < 0.55:
        return rng.choice(DATES)
    if roll < 0.8:
        return "[" + ",".join(value(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"
    keys = rng.sample(["a", "b", "1", "3"], rng.randrange(3))
    return "{" + ",".join(f'"{k}":{value(rng, depth + 1)}' for k in keys) + "}"


def text(rng: random.Random) -> str:
    """One input, or several run together as on standard input (``[1]-0``)."""
    out = value(rng)
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        out += ("" if out[-1] in ']}"' and rng.random() < 0.7 else " ") + value(rng)
    return out


def check(prog: str, doc: str, tally: Tally) -> None:
    """Run one program both ways; an answer must be jq's (an error there is libjq's)."""
    try:
        expected = jq_texts(prog, doc)
    except CompileError:
        return
    tally.run += 1
    got = fast(prog, doc, compact=True)
    if got is None:
        return
    tally.answered += 1
    texts = got.text.split("\n") if got.text else []
    if texts != expected:
        tally.wrong.append((prog, doc, texts, expected))


def campaign(seed: int, count: int) -> Tally:
    rng, tally = random.Random(seed), Tally()
    for _ in range(count):
        check(program(rng), text(rng), tally)
    return tally
