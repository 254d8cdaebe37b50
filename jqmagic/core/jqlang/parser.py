"""Parse a jq program into a tree of tuples, or raise NotMine for what the subset lacks.

Precedence follows jq 1.8.2's grammar: ``|`` (right) < ``,`` < ``//`` (right) < ``or`` <
``and`` < comparisons (non-associative) < ``+ -`` < ``* / %`` < unary minus < postfix
terms. ``TERM as $x | BODY`` binds over the whole rest of the pipe.
"""

from __future__ import annotations

import json

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.lexer import Token, tokenize
from jqmagic.core.jqlang.lexer import interpolation_end as lexer_interpolation_end
from jqmagic.core.jqlang.numbers import literal_number

Node = tuple
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
_CONSTANTS = {"null": None, "true": True, "false": False}


def parse(program: str) -> Node:
    """The tree of ``program``; NotMine when it is outside the subset (or not jq at all)."""
    return _Parser(tokenize(program)).program()


class _Parser:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
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
        start = self.i
        if comma:
            try:
                term = self.postfix()
            except NotMine:
                term = None
            if term is not None and self.take("as"):
                name = self.variable()
                self.expect("|")
                return ("bind", term, name, self.pipe())
            self.i = start
        left = self.comma() if comma else self.alternative()
        if self.take("|"):
            return ("pipe", left, self.pipe(comma))
        return left

    def variable(self) -> str:
        tok = self.tok
        if tok.kind != "var":
            raise NotMine("destructuring patterns")
        self.i += 1
        return tok.text[1:]

    def comma(self) -> Node:
        node = self.alternative()
        while self.take(","):
            node = ("comma", node, self.alternative())
        return node

    def alternative(self) -> Node:
        node = self.disjunction()
        if self.take("//"):
            return ("alt", node, self.alternative())
        return node

    def disjunction(self) -> Node:
        node = self.conjunction()
        while self.take("or"):
            node = ("or", node, self.conjunction())
        return node

    def conjunction(self) -> Node:
        node = self.comparison()
        while self.take("and"):
            node = ("and", node, self.comparison())
        return node

    def comparison(self) -> Node:
        node = self.additive()
        if self.tok.kind == "op" and self.tok.text in _COMPARISONS:
            op = self.tok.text
            self.i += 1
            node = ("binop", op, node, self.additive())
            if self.tok.kind == "op" and self.tok.text in _COMPARISONS:
                raise NotMine("chained comparison")
        return node

    def additive(self) -> Node:
        node = self.multiplicative()
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            op = self.tok.text
            self.i += 1
            node = ("binop", op, node, self.multiplicative())
        return node

    def multiplicative(self) -> Node:
        node = self.unary()
        while self.tok.kind == "op" and self.tok.text in ("*", "/", "%"):
            op = self.tok.text
            self.i += 1
            node = ("binop", op, node, self.unary())
        return node

    def unary(self) -> Node:
        if self.take("-"):
            return ("neg", self.multiplicative())
        return self.postfix()

    def postfix(self) -> Node:
        """A term with its steps; remembered, as ``pipe`` reads a term twice (is it a
        binding?), which nested parentheses and strings would make exponential."""
        start = self.i
        if start not in self.terms:
            try:
                self.terms[start] = (self.steps(), self.i)
            except NotMine as exc:
                self.terms[start] = (exc, start)
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
                node = ("field", node, tok.text[1:])
                self.i += 1
            elif self.at(".") and self.tokens[self.i + 1].kind == "string":
                self.i += 1
                node = ("field", node, self.string())
            elif self.at(".") and self.tokens[self.i + 1].text == "[":
                self.i += 2
                node = self.bracket(node, dotted=True)
            elif self.take("["):
                node = self.bracket(node)
            elif self.take("?"):
                node = _optional_step(node) if stepped else ("try", node)
                stepped = False
                continue
            else:
                return node
            stepped = True

    def bracket(self, target: Node, dotted: bool = False) -> Node:
        """``[]``, ``[k]`` or ``[a:b]`` after ``target``; jq 1.8.2 has no ``.x.[a:b]``."""
        if self.take("]"):
            return ("iterate", target)
        if dotted and self.at(":"):
            raise NotMine("a slice after '.': jq reports the syntax error")
        if self.take(":"):
            upper = self.pipe()
            self.expect("]")
            return ("slice", target, None, upper)
        key = self.pipe()
        if self.take(":"):
            if dotted:
                raise NotMine("a slice after '.': jq reports the syntax error")
            upper = None if self.at("]") else self.pipe()
            self.expect("]")
            return ("slice", target, key, upper)
        self.expect("]")
        return ("index", target, key)

    def string(self) -> str:
        """A string literal without interpolation (a field name, say)."""
        node = self.string_node()
        if node[0] != "literal":
            raise NotMine("string interpolation here")
        return node[1]

    def string_node(self, fmt: str | None = None) -> Node:
        """A string literal: ``("literal", text)``, or ``("string", fmt, parts)`` when it
        interpolates (parts are texts and the nodes of the ``\\(...)`` in it)."""
        tok = self.tok
        if tok.kind != "string":
            raise NotMine(f"expected a string at {tok.pos}")
        self.i += 1
        parts: list = []
        body, start = tok.text[1:-1], 0
        while (at := _interpolation_at(body, start)) >= 0:
            parts.append(_decode(body[start:at]))
            end = at + 2 + _interpolation_length(body[at:])
            parts.append(_Parser(tokenize(body[at + 2:end - 1])).program())
            start = end
        parts.append(_decode(body[start:]))
        if len(parts) == 1:
            return ("literal", parts[0])
        return ("string", fmt, tuple(p for p in parts if p != ""))

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind == "field":
            self.i += 1
            return ("field", ("dot",), tok.text[1:])
        if tok.kind == "number":
            self.i += 1
            return ("literal", literal_number(tok.text))
        if tok.kind == "string":
            return self.string_node()
        if tok.kind == "format":
            self.i += 1
            if self.tok.kind == "string":
                return self.string_node(tok.text[1:])
            return ("format", tok.text[1:])
        if tok.kind == "var":
            self.i += 1
            if tok.text in ("$__loc__", "$ENV", "$__prog_args"):
                raise NotMine(tok.text)
            return ("var", tok.text[1:])
        if tok.kind == "ident":
            return self.call()
        if self.take(".."):
            return ("recurse",)
        if self.take("."):
            if self.tok.kind == "string":
                return ("field", ("dot",), self.string())
            return ("dot",)
        if self.take("("):
            node = self.pipe()
            self.expect(")")
            return node
        if self.take("["):
            if self.take("]"):
                return ("array", None)
            node = self.pipe()
            self.expect("]")
            return ("array", node)
        if self.take("{"):
            return self.object()
        if self.take("if"):
            return self.conditional()
        if tok.text in ("reduce", "foreach") and tok.kind == "keyword":
            return self.fold()
        if self.take("try"):
            if self.at("catch"):
                raise NotMine("catch")
            body = self.postfix()
            if self.at("catch"):
                raise NotMine("catch")
            return ("try", body)
        raise NotMine(f"unsupported {tok.text!r} at {tok.pos}")

    def fold(self) -> Node:
        """``reduce SOURCE as $x (INIT; UPDATE)``, ``foreach ... (INIT; UPDATE[; EXTRACT])``."""
        kind = self.tok.text
        self.i += 1
        source = self.postfix()
        self.expect("as")
        name = self.variable()
        self.expect("(")
        parts = [self.pipe()]
        while self.take(";"):
            parts.append(self.pipe())
        self.expect(")")
        if len(parts) != 2 and not (kind == "foreach" and len(parts) == 3):
            raise NotMine(f"{kind} with {len(parts)} parts")
        return (kind, source, name, *parts)

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
            return ("literal", _CONSTANTS[name])
        return ("call", name, tuple(args))

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
        return ("if", tuple(branches), otherwise)

    def object(self) -> Node:
        entries: list[tuple[Node, Node]] = []
        while not self.take("}"):
            if entries:
                self.expect(",")
            entries.append(self.entry())
        return ("object", tuple(entries))

    def entry(self) -> tuple[Node, Node]:
        tok = self.tok
        if tok.kind == "var":
            self.i += 1
            if self.at(":") or tok.text == "$__loc__":
                raise NotMine("variable key with a value")
            return ("literal", tok.text[1:]), ("var", tok.text[1:])
        if tok.kind in ("ident", "keyword"):
            self.i += 1
            key: Node = ("literal", tok.text)
        elif tok.kind == "string":
            key = self.string_node()
            if key[0] != "literal":
                self.expect(":")
                return key, self.object_value()
        elif self.take("("):
            key = self.pipe()
            self.expect(")")
            self.expect(":")
            return key, self.object_value()
        else:
            raise NotMine(f"object key {tok.text!r}")
        if self.take(":"):
            return key, self.object_value()
        return key, ("field", ("dot",), key[1])

    def object_value(self) -> Node:
        node = self.pipe(comma=False)
        if self.at("as"):
            raise NotMine("binding in an object value")
        return node


def _decode(raw: str) -> str:
    """The text of a piece of a string literal (JSON's escapes)."""
    try:
        text = json.loads(f'"{raw}"')
    except ValueError as exc:
        raise NotMine("string escape") from exc
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise NotMine("surrogate escape")
    return text


def _interpolation_at(body: str, start: int) -> int:
    """Where the next ``\\(`` of a string body is, or -1."""
    i = start
    while (i := body.find("\\", i)) >= 0:
        if body.startswith("(", i + 1):
            return i
        i += 2
    return -1


def _interpolation_length(rest: str) -> int:
    """The length of ``(...)`` in ``rest`` (which starts with a backslash)."""
    return lexer_interpolation_end(rest, 2) - 2


OPTIONAL = "?opt"  # variable names no program can write


def _optional_step(step: Node) -> Node:
    """``TERM STEP?``: as jq runs it, ``?`` covers only the last step itself, applied to
    each output of TERM (``[.[].a?]`` on ``[1, {"a": 2}]`` is ``[2]``); TERM and the step's
    keys are read outside it: ``KEY as $k | TERM as $t | try ($t[$k])``."""
    kind, term, *keys = step
    names = [f"{OPTIONAL}{i}" if isinstance(k, tuple) else None for i, k in enumerate(keys)]
    pairs = list(zip(names, keys, strict=True))
    inner = (kind, ("var", OPTIONAL), *[("var", n) if n else k for n, k in pairs])
    node: Node = ("bind", term, OPTIONAL, ("try", inner))
    for name, key in reversed([(n, k) for n, k in pairs if n]):
        node = ("bind", key, name, node)
    return node
