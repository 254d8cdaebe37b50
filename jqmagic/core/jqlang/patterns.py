"""The destructuring patterns of jq 1.8.2's grammar (``. as [$a, {b: $c}] ?// $a``), as
rules the parser inherits."""

from __future__ import annotations

from jqmagic.core.jqlang.errors import NotMine

Node = tuple


class PatternRules:
    """Pattern rules for a parser with ``tok``, ``take``, ``expect``, ``variable``,
    ``string_node`` and ``pipe``."""

    def patterns(self) -> tuple[Node, ...]:
        """``PATTERN ?// PATTERN ...``: ``("pvar", name)``, ``("parray", patterns)`` or
        ``("pobject", ((key node, $name or None, pattern or None), ...))``."""
        found = [self.pattern()]
        while self.take("?//"):
            found.append(self.pattern())
        return tuple(found)

    def pattern(self) -> Node:
        if self.take("["):
            items = [self.pattern()]
            while self.take(","):
                items.append(self.pattern())
            self.expect("]")
            return ("parray", tuple(items))
        if self.take("{"):
            entries = [self.object_pattern()]
            while self.take(","):
                entries.append(self.object_pattern())
            self.expect("}")
            return ("pobject", tuple(entries))
        return ("pvar", self.variable())

    def object_pattern(self) -> tuple:
        tok = self.tok
        if tok.kind == "var":
            name = self.variable()
            sub = self.pattern() if self.take(":") else None
            return ("literal", name), name, sub
        if tok.kind in ("ident", "keyword"):
            self.i += 1
            key: Node = ("literal", tok.text)
        elif tok.kind == "string":
            key = self.string_node()
        elif self.take("("):
            key = self.key_expression()
        else:
            raise NotMine(f"object pattern key {tok.text!r}")
        self.expect(":")
        return key, None, self.pattern()
