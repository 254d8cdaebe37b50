"""The object constructions of jq 1.8.2's grammar (``{a, $x, "k": v, (KEY): v, @base64:
v}``), as rules the parser inherits; a constant key that may be no string is not ours."""

from __future__ import annotations

from jqmagic.core.jqlang import syntax
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.syntax import Node


class ObjectRules:
    """Object rules for a parser with ``tok``, ``i``, ``take``, ``expect``, ``at``,
    ``location``, ``string_node`` and ``pipe``."""

    def object(self) -> Node:
        entries: list[tuple[Node, Node]] = []
        while not self.take("}"):
            if entries:
                self.expect(",")
            entries.append(self.entry())
        return syntax.Object(tuple(entries))

    def entry(self) -> tuple[Node, Node]:
        tok = self.tok
        if tok.kind == "var":
            self.i += 1
            if self.take(":"):  # {$x: v}: the key is the variable's value
                if tok.text in ("$__loc__", "$ENV"):
                    raise NotMine(f"{tok.text} as a key")
                return syntax.Var(tok.text[1:]), self.object_value()
            if tok.text == "$__loc__":
                return syntax.Literal("__loc__"), self.location(tok)
            return syntax.Literal(tok.text[1:]), syntax.Var(tok.text[1:])
        if tok.kind in ("ident", "keyword"):
            self.i += 1
            key: Node = syntax.Literal(tok.text)
        elif tok.kind == "string":
            key = self.string_node()
            if key[0] != "literal":
                self.expect(":")
                return key, self.object_value()
        elif self.take("("):
            key = self.key_expression()
            self.expect(":")
            return key, self.object_value()
        else:
            raise NotMine(f"object key {tok.text!r}")
        if self.take(":"):
            return key, self.object_value()
        return key, syntax.Field(syntax.Dot(), key[1])

    def key_expression(self) -> Node:
        """``(KEY)`` of an object or pattern: jq rejects a constant that is no string."""
        key = self.pipe()
        self.expect(")")
        if not _text(key) and _constant(key):
            raise NotMine("a constant key (jq folds them) that may be no string")
        return key

    def object_value(self) -> Node:
        node = self.pipe(comma=False)
        if self.at("as"):
            raise NotMine("binding in an object value")
        return node


def _constant(node: Node) -> bool:
    """Whether nothing in ``node`` reads the input, a variable or a function."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            if item[:1] in (("dot",), ("var",), ("call",), ("recurse",), ("format",)):
                return False
            stack.extend(item)
    return True


def _text(node: Node) -> bool:
    """Whether ``node`` is string literals added together (jq folds it to a string)."""
    if node[0] == "literal":
        return type(node[1]) is str
    return node[:2] == ("binop", "+") and _text(node[2]) and _text(node[3])
