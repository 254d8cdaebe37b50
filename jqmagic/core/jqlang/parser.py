"""Parse a jq program into a tree of :mod:`.syntax` nodes, or raise NotMine for what the
subset lacks.

Precedence follows jq 1.8.2's grammar: ``|`` (right) < ``,`` < ``//`` (right) < ``or`` <
``and`` < comparisons (non-associative) < ``+ -`` < ``* / %`` < unary minus < postfix
terms. ``TERM as $x | BODY`` binds over the whole rest of the pipe.
"""

from __future__ import annotations

from functools import lru_cache

from jqmagic.core.jqlang import syntax
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.lexer import (
    Token,
    decode,
    interpolation_at,
    interpolation_length,
    tokenize,
)
from jqmagic.core.jqlang.numbers import literal_number
from jqmagic.core.jqlang.objectrules import ObjectRules
from jqmagic.core.jqlang.patterns import PatternRules
from jqmagic.core.jqlang.syntax import Node

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
_ASSIGNMENTS = {"=", "|=", "+=", "-=", "*=", "/=", "%=", "//="}
_ITEM = "?item"  # a variable name no program can write
_CONSTANTS = {"null": None, "true": True, "false": False}


@lru_cache(maxsize=512)
def parse(program: str) -> Node:
    """The tree of ``program``; NotMine when it is outside the subset (or not jq at all).
    A tree is immutable: the binder, the demand and the compiler share one parse."""
    return _Parser(tokenize(program), program).program()


class _Parser(PatternRules, ObjectRules):
    def __init__(self, tokens: list[Token], text: str, first_line: int = 1):
        self.tokens, self.text, self.first_line = tokens, text, first_line
        self.i = 0
        self.terms: dict[int, tuple[Node | NotMine, int]] = {}  # postfix terms parsed, by position

    # ------------------------------------------------------------ helpers

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def at(self, text: str) -> bool:
        tok = self.tok
        return tok.text == text and tok.kind in ("op", "keyword")

    def take(self, text: str) -> bool:
        if self.at(text):
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.take(text):
            raise NotMine(f"expected {text!r} at {self.tok.pos}")

    # ------------------------------------------------------------ grammar

    def program(self) -> Node:
        node = self.pipe()
        if self.tok.kind != "end":
            raise NotMine(f"unexpected {self.tok.text!r} at {self.tok.pos}")
        return node

    def pipe(self, comma: bool = True) -> Node:
        if not comma and (self.at("def") or self.at("label")):
            raise NotMine("a def or label in an object value: jq reports the syntax error")
        if self.at("def"):
            return self.definition()
        if self.take("label"):
            name = self.variable()
            self.expect("|")
            return syntax.Label(name, self.pipe(comma))
        start = self.i
        if comma:
            try:
                term = self.remembered(self.alternative)
            except NotMine:
                term = None
            if term is not None and self.take("as"):
                patterns = self.patterns()
                self.expect("|")
                if len(patterns) == 1 and patterns[0][0] == "pvar":
                    return syntax.Bind(term, patterns[0][1], self.pipe())
                return syntax.Destructure(term, patterns, self.pipe())
            self.i = start
        left = self.comma() if comma else self.alternative()
        if self.take("|"):
            return syntax.Pipe(left, self.pipe(comma))
        return left

    def definition(self) -> Node:
        """``def name(params): body; rest`` as ``syntax.Def(name, params, body, rest)``;
        a parameter is ``f`` or ``$a``."""
        self.expect("def")
        tok = self.tok
        if tok.kind not in ("ident", "keyword"):
            raise NotMine(f"a function name at {tok.pos}")
        self.i += 1
        params: list[str] = []
        if self.take("("):
            while True:
                param = self.tok
                if param.kind not in ("ident", "var", "keyword"):
                    raise NotMine(f"a parameter at {param.pos}")
                self.i += 1
                params.append(param.text)
                if not self.take(";"):
                    break
            self.expect(")")
        self.expect(":")
        body = self.pipe()
        self.expect(";")
        return syntax.Def(tok.text, tuple(params), body, self.pipe())

    def variable(self) -> str:
        tok = self.tok
        if tok.kind != "var" or tok.text == "$__loc__":
            raise NotMine(f"a variable at {tok.pos}")
        self.i += 1
        return tok.text[1:]

    def comma(self) -> Node:
        node = self.alternative()
        while self.take(","):
            if self.binds():  # 1, 2 as $x | ...: the binding takes the rest of the pipe
                return syntax.Comma(node, self.pipe())
            node = syntax.Comma(node, self.alternative())
        return node

    def binds(self) -> bool:
        """Whether a ``def``, ``label`` or ``EXPR as ...`` starts here."""
        if self.at("def") or self.at("label"):
            return True
        start = self.i
        try:
            self.remembered(self.alternative)
            found = self.at("as")
        except NotMine:
            found = False
        self.i = start
        return found

    def alternative(self) -> Node:
        node = self.assignment()
        if self.take("//"):
            return syntax.Alt(node, self.alternative())
        return node

    def assignment(self) -> Node:
        """``LHS = RHS``, ``|=``, ``+=`` ... ``//=``: ``syntax.Assign(op, lhs, rhs)``."""
        node = self.disjunction()
        tok = self.tok
        if tok.kind == "op" and tok.text in _ASSIGNMENTS:
            self.i += 1
            node = syntax.Assign(tok.text, node, self.disjunction())
            if self.tok.kind == "op" and self.tok.text in _ASSIGNMENTS:
                raise NotMine("chained assignment")
        return node

    def disjunction(self) -> Node:
        node = self.conjunction()
        while self.take("or"):
            node = syntax.Or(node, self.conjunction())
        return node

    def conjunction(self) -> Node:
        node = self.comparison()
        while self.take("and"):
            node = syntax.And(node, self.comparison())
        return node

    def comparison(self) -> Node:
        node = self.additive()
        if self.tok.kind == "op" and self.tok.text in _COMPARISONS:
            op = self.tok.text
            self.i += 1
            node = syntax.BinOp(op, node, self.additive())
            if self.tok.kind == "op" and self.tok.text in _COMPARISONS:
                raise NotMine("chained comparison")
        return node

    def additive(self) -> Node:
        node = self.multiplicative()
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            op = self.tok.text
            self.i += 1
            node = syntax.BinOp(op, node, self.multiplicative())
        return node

    def multiplicative(self) -> Node:
        node = self.unary()
        while self.tok.kind == "op" and self.tok.text in ("*", "/", "%"):
            op = self.tok.text
            self.i += 1
            node = syntax.BinOp(op, node, self.unary())
        return node

    def unary(self) -> Node:
        """``-`` then a term (jq 1.8.2's ``'-' Term``: ``-1 * .a`` is ``(-1) * .a``)."""
        if self.take("-"):
            return syntax.Neg(self.unary())
        return self.postfix()

    def postfix(self) -> Node:
        return self.remembered(self.steps)

    def remembered(self, rule) -> Node:
        """``rule`` read at this position, remembered: ``pipe`` reads an expression twice
        (is it a binding?), which nesting would make exponential."""
        start = (self.i, rule.__name__)
        if start not in self.terms:
            try:
                self.terms[start] = (rule(), self.i)
            except NotMine as exc:
                self.terms[start] = (exc, self.i)
        node, self.i = self.terms[start]
        if isinstance(node, NotMine):
            raise node
        return node

    def steps(self) -> Node:
        node = self.primary()
        stepped = False  # whether node ends in a postfix step (.a, [k], [a:b], [])
        while True:
            tok = self.tok
            if tok.kind == "field":
                node = syntax.Field(node, tok.text[1:])
                self.i += 1
            elif self.at(".") and self.tokens[self.i + 1].kind == "string":
                self.i += 1
                node = syntax.Field(node, self.string())
            elif self.at(".") and self.tokens[self.i + 1].text == "[":
                self.i += 2
                node = self.bracket(node, dotted=True)
            elif self.take("["):
                node = self.bracket(node)
            elif self.take("?"):
                node = _optional_step(node) if stepped else syntax.Try(node)
                stepped = False
                continue
            else:
                return node
            stepped = True

    def bracket(self, target: Node, dotted: bool = False) -> Node:
        """``[]``, ``[k]`` or ``[a:b]`` after ``target``; jq 1.8.2 has no ``.x.[a:b]``."""
        if self.take("]"):
            return syntax.Iterate(target)
        if dotted and self.at(":"):
            raise NotMine("a slice after '.': jq reports the syntax error")
        if self.take(":"):
            upper = self.pipe()
            self.expect("]")
            return syntax.Slice(target, None, upper)
        key = self.pipe()
        if self.take(":"):
            if dotted:
                raise NotMine("a slice after '.': jq reports the syntax error")
            upper = None if self.at("]") else self.pipe()
            self.expect("]")
            return syntax.Slice(target, key, upper)
        self.expect("]")
        return syntax.Index(target, key)

    def line(self, tok: Token) -> int:
        return self.first_line + self.text.count("\n", 0, tok.pos)

    def location(self, tok: Token) -> Node:
        """``$__loc__``: where it is written, as libjq names a program's text."""
        return syntax.Literal({"file": "<top-level>", "line": self.line(tok)})

    def string(self) -> str:
        """A string literal without interpolation (a field name, say)."""
        node = self.string_node()
        if node[0] != "literal":
            raise NotMine("string interpolation here")
        return node[1]

    def string_node(self, fmt: str | None = None) -> Node:
        """A string literal: ``syntax.Literal(text)``, or ``syntax.String(fmt, parts)`` when it
        interpolates (parts are texts and the nodes of the ``\\(...)`` in it)."""
        tok = self.tok
        if tok.kind != "string":
            raise NotMine(f"expected a string at {tok.pos}")
        self.i += 1
        parts: list = []
        body, start = tok.text[1:-1], 0
        while (at := interpolation_at(body, start)) >= 0:
            parts.append(decode(body[start:at]))
            end = at + 2 + interpolation_length(body[at:])
            inner = body[at + 2:end - 1]
            line = self.line(tok) + body.count("\n", 0, at + 2)
            parts.append(_Parser(tokenize(inner), inner, line).program())
            start = end
        parts.append(decode(body[start:]))
        if len(parts) == 1:
            return syntax.Literal(parts[0])
        return syntax.String(fmt, tuple(p for p in parts if p != ""))

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind == "field":
            self.i += 1
            return syntax.Field(syntax.Dot(), tok.text[1:])
        if tok.kind == "number":
            self.i += 1
            return syntax.Literal(literal_number(tok.text))
        if tok.kind == "string":
            return self.string_node()
        if tok.kind == "format":
            self.i += 1
            if self.tok.kind == "string":
                return self.string_node(tok.text[1:])
            return syntax.Format(tok.text[1:])
        if tok.kind == "var":
            self.i += 1
            if tok.text == "$__loc__":
                return self.location(tok)
            if tok.text in ("$ENV", "$__prog_args"):
                raise NotMine(tok.text)
            return syntax.Var(tok.text[1:])
        if tok.kind == "ident":
            if tok.text == "break" and self.tokens[self.i + 1].kind == "var":
                self.i += 1
                return syntax.Break(self.variable())
            return self.call()
        if self.take(".."):
            return syntax.Recurse()
        if self.take("."):
            if self.tok.kind == "string":
                return syntax.Field(syntax.Dot(), self.string())
            return syntax.Dot()
        if self.take("("):
            node = self.pipe()
            self.expect(")")
            return node
        if self.take("["):
            if self.take("]"):
                return syntax.Array(None)
            node = self.pipe()
            self.expect("]")
            return syntax.Array(node)
        if self.take("{"):
            return self.object()
        if self.take("if"):
            return self.conditional()
        if tok.text in ("reduce", "foreach") and tok.kind == "keyword":
            return self.fold()
        if self.take("try"):
            body = self.tried()
            if self.take("catch"):
                return syntax.TryCatch(body, self.tried())
            return syntax.Try(body)
        raise NotMine(f"unsupported {tok.text!r} at {tok.pos}")

    def tried(self) -> Node:
        """The body or handler of ``try``: a postfix term (jq: ``try`` binds tightest)."""
        if self.take("-"):
            return syntax.Neg(self.postfix())
        return self.postfix()

    def fold(self) -> Node:
        """``reduce SOURCE as $x (INIT; UPDATE)``, ``foreach ... (INIT; UPDATE[; EXTRACT])``;
        a pattern for ``$x`` destructures in UPDATE and EXTRACT."""
        kind = self.tok.text
        self.i += 1
        source = self.remembered(self.alternative)
        self.expect("as")
        patterns = self.patterns()
        self.expect("(")
        parts = [self.pipe()]
        while self.take(";"):
            parts.append(self.pipe())
        self.expect(")")
        if len(parts) != 2 and not (kind == "foreach" and len(parts) == 3):
            raise NotMine(f"{kind} with {len(parts)} parts")
        fold = syntax.Reduce if kind == "reduce" else syntax.Foreach
        if patterns[0][0] == "pvar" and len(patterns) == 1:
            return fold(source, patterns[0][1], *parts)
        if len(patterns) > 1:
            raise NotMine(f"?// in {kind}")
        item = syntax.Var(_ITEM)
        return fold(source, _ITEM, parts[0],
                    *[syntax.Destructure(item, patterns, part) for part in parts[1:]])

    def call(self) -> Node:
        name = self.tok.text
        self.i += 1
        args: list[Node] = []
        if self.take("("):
            args.append(self.pipe())
            while self.take(";"):
                args.append(self.pipe())
            self.expect(")")
        if not args and name in _CONSTANTS:
            return syntax.Literal(_CONSTANTS[name])
        return syntax.Call(name, tuple(args))

    def conditional(self) -> Node:
        branches = []
        while True:
            cond = self.pipe()
            self.expect("then")
            branches.append((cond, self.pipe()))
            if not self.take("elif"):
                break
        otherwise = self.pipe() if self.take("else") else None
        self.expect("end")
        return syntax.If(tuple(branches), otherwise)


OPTIONAL = "?opt"  # variable names no program can write


def _optional_step(step: Node) -> Node:
    """``TERM STEP?``: as jq runs it, ``?`` covers only the last step itself, applied to
    each output of TERM (``[.[].a?]`` on ``[1, {"a": 2}]`` is ``[2]``); TERM and the step's
    keys are read outside it: ``KEY as $k | TERM as $t | try ($t[$k])``."""
    _, term, *keys = step
    names = [f"{OPTIONAL}{i}" if isinstance(k, tuple) else None for i, k in enumerate(keys)]
    pairs = list(zip(names, keys, strict=True))
    inner = type(step)(syntax.Var(OPTIONAL), *[syntax.Var(n) if n else k for n, k in pairs])
    node: Node = syntax.Bind(term, OPTIONAL, syntax.Try(inner))
    for name, key in reversed([(n, k) for n, k in pairs if n]):
        node = syntax.Bind(key, name, node)
    return node
