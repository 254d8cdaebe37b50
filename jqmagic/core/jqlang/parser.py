"""Parse a jq program into a tree of tuples, or raise NotMine for what the subset lacks.

Precedence follows jq 1.8.2's grammar: ``|`` (right) < ``,`` < ``//`` (right) < ``or`` <
``and`` < comparisons (non-associative) < ``+ -`` < ``* / %`` < unary minus < postfix
terms. ``TERM as $x | BODY`` binds over the whole rest of the pipe.
"""

from __future__ import annotations

import json

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.lexer import Token, tokenize
from jqmagic.core.jqlang.numbers import literal_number

Node = tuple
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}


def parse(program: str) -> Node:
    """The tree of ``program``; NotMine when it is outside the subset (or not jq at all)."""
    return _Parser(tokenize(program)).program()


class _Parser:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.i = 0

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
        tok = self.tok
        if tok.kind != "string" or "\\(" in tok.text:
            raise NotMine("string interpolation")
        try:
            text = json.loads(tok.text)
        except ValueError as exc:
            raise NotMine("string escape") from exc
        if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            raise NotMine("surrogate escape")
        self.i += 1
        return text

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind == "field":
            self.i += 1
            return ("field", ("dot",), tok.text[1:])
        if tok.kind == "number":
            self.i += 1
            return ("literal", literal_number(tok.text))
        if tok.kind == "string":
            return ("literal", self.string())
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
        if self.take("try"):
            if self.at("catch"):
                raise NotMine("catch")
            body = self.postfix()
            if self.at("catch"):
                raise NotMine("catch")
            return ("try", body)
        raise NotMine(f"unsupported {tok.text!r} at {tok.pos}")

    def call(self) -> Node:
        name = self.tok.text
        self.i += 1
        args: list[Node] = []
        if self.take("("):
            args.append(self.pipe())
            while self.take(";"):
                args.append(self.pipe())
            self.expect(")")
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
            key = ("literal", self.string())
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
