"""The destructuring patterns of jq 1.8.2's grammar (``. as [$a, {b: $c}] ?// $a``), as
rules the parser inherits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.syntax import Literal, Node, PArray, Pattern, PObject, PVar


class PatternRules:
    """Pattern rules for a parser with ``tok``, ``take``, ``expect``, ``variable``,
    ``string_node`` and ``pipe``."""

    def patterns(self) -> tuple[Pattern, ...]:
        """``PATTERN ?// PATTERN ...``: ``PVar(name)``, ``PArray(patterns)`` or
        ``PObject(((key node, $name or None, pattern or None), ...))``."""
        return self._separated(self.pattern, "?//")

    def pattern(self) -> Pattern:
        if self.take("["):
            items = self._separated(self.pattern, ",")
            self.expect("]")
            return PArray(items)
        if self.take("{"):
            entries = self._separated(self.object_pattern, ",")
            self.expect("}")
            return PObject(entries)
        return PVar(self.variable())

    def _separated(self, item: Callable[[], Any], separator: str) -> tuple:
        """One ``item``, and one more after each ``separator``."""
        found = [item()]
        while self.take(separator):
            found.append(item())
        return tuple(found)

    def object_pattern(self) -> tuple:
        tok = self.tok
        if tok.kind == "var":
            name = self.variable()
            sub = self.pattern() if self.take(":") else None
            return Literal(name), name, sub
        if tok.kind in ("ident", "keyword"):
            self.i += 1
            key: Node = Literal(tok.text)
        elif tok.kind == "string":
            key = self.string_node()
        elif self.take("("):
            key = self.key_expression()
        else:
            raise NotMine(f"object pattern key {tok.text!r}")
        self.expect(":")
        return key, None, self.pattern()
