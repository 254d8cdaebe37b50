"""A Python dict or list as a store: edited in place, undone whole on failure."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from jqmagic.core.patch.jsonscan import array_index, missing_key, not_container
from jqmagic.core.patch.plan import bad
from jqmagic.core.words import a, type_name


class TreeStore:
    """A Python dict / list edited in place, with an undo log for all-or-nothing."""

    def __init__(self, root: Any):
        self.root = root
        self._undo: list[Callable[[], None]] = []

    def _walk(self, tokens: list[str]) -> Any:
        node = self.root
        for depth, token in enumerate(tokens):
            if isinstance(node, dict):
                if token not in node:
                    raise missing_key(tokens, depth, list(node))
                node = node[token]
            elif isinstance(node, list):
                node = node[array_index(tokens, depth, len(node))]
            else:
                raise not_container(tokens, depth, type_name(node))
        return node

    def get(self, tokens: list[str]) -> Any:
        return self._walk(tokens)

    def kind(self, tokens: list[str]) -> str:
        return type_name(self._walk(tokens))

    def verbatim(self, tokens: list[str]) -> Any:
        return self._walk(tokens)

    def elements(self, tokens: list[str], needles: list[str]) -> Iterator[tuple[int, Any]]:
        return enumerate(self._walk(tokens))

    def replace(self, tokens: list[str], value: Any) -> None:
        if not tokens:
            old = self.root
            self.root = value
            self._undo.append(lambda: setattr(self, "root", old))
            return
        self._walk(tokens)  # raises if missing
        parent = self._walk(tokens[:-1])
        key = tokens[-1] if isinstance(parent, dict) else int(tokens[-1])
        old = parent[key]
        parent[key] = value
        self._undo.append(lambda: parent.__setitem__(key, old))

    def add(self, tokens: list[str], value: Any) -> int | None:
        if not tokens:
            self.replace(tokens, value)
            return None
        parent = self._walk(tokens[:-1])
        if isinstance(parent, list):
            index = array_index(tokens, len(tokens) - 1, len(parent), append=True)
            parent.insert(index, value)
            self._undo.append(lambda: parent.__delitem__(index))
            return index
        if not isinstance(parent, dict):
            raise not_container(tokens, len(tokens) - 1, type_name(parent))
        if tokens[-1] in parent:
            self.replace(tokens, value)
        else:
            parent[tokens[-1]] = value
            self._undo.append(lambda: parent.pop(tokens[-1]))
        return None

    def remove(self, tokens: list[str]) -> None:
        if not tokens:
            raise bad("Cannot remove the whole document.")
        parent = self._walk(tokens[:-1])
        self._walk(tokens)  # raises if missing
        if isinstance(parent, list):
            index = int(tokens[-1])
            old = parent.pop(index)
            self._undo.append(lambda: parent.insert(index, old))
        else:
            items = list(parent.items())  # restoring must keep the key order
            del parent[tokens[-1]]
            self._undo.append(lambda: (parent.clear(), parent.update(items)))

    def settle(self, original: dict | list) -> None:
        """Copy a replaced root back into ``original``, which must keep its type."""
        new = self.root
        if new is original:
            return
        if not (isinstance(new, dict) and isinstance(original, dict)) and not (
            isinstance(new, list) and isinstance(original, list)
        ):
            raise bad(f"Cannot replace {a(type_name(original))} in place by "
                       f"{a(type_name(new))}.", "Assign the new value to the variable.")
        saved = copy.copy(original)
        _fill(original, new)
        self.root = original
        self._undo.append(lambda: _fill(original, saved))

    @property
    def changed(self) -> bool:
        """Whether anything was written (and not undone)."""
        return bool(self._undo)

    def rollback(self) -> None:
        """Undo every edit, newest first."""
        while self._undo:
            self._undo.pop()()


def _fill(target: dict | list, source: dict | list) -> None:
    if isinstance(target, dict):
        target.clear()
        target.update(source)
    else:
        target[:] = source


