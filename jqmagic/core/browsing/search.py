"""The tree's search over keys and values: a streamed shape's keys and samples, else the
document's own values, one column (node of the shape) at a time, shallow columns first,
resumable where its time ran out."""

from __future__ import annotations

import json
import time
from typing import Any

from jqmagic.core.shape.node import Node

OTHER_KEYS = "<other keys>"


SEARCH_HITS = 200


def short_text(value: Any, width: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"


class ShapeSearch:
    """A search over keys and the sample values of a streamed shape (no values kept)."""

    def __init__(self, tree: Any, text: str) -> None:  # the model's Tree
        self.tree, self.text, self.needle = tree, text, text.lower()
        self.hits: list[dict] = []
        self.done = False

    def run(self, deadline: float) -> None:
        for key in self.tree.columns():
            entry = self.tree.entries[key]
            samples = entry.node.profile.samples if entry.node.profile else ()
            what = next((s for s in samples if self.needle in _text(s).lower()), None)
            if entry.step and self.needle in entry.step.lower():
                self.hits.append({"id": key, "where": key, "match": "key"})
            elif what is not None:
                self.hits.append({"id": key, "where": key, "match": short_text(what, 60)})
            if len(self.hits) >= SEARCH_HITS:
                break
        self.done = True

    def note(self, going: bool = False) -> str:
        shown = f"{len(self.hits):,} match{'es' * (len(self.hits) != 1)}"
        return f"{shown} in keys and sample values" + (
            "" if len(self.hits) < SEARCH_HITS else f" (the first {SEARCH_HITS}: refine it)")


class ValueSearch:
    """A search over the document's own keys and values, one column (node of the shape)
    at a time, shallow columns first, so a value deep in a big array is reached without
    reading every value above it first; resumable where its time ran out."""

    def __init__(self, tree: Any, text: str) -> None:  # the model's Tree
        self.tree, self.text, self.needle = tree, text, text.lower()
        self.hits: list[dict] = []
        self.count = 0  # matches found (hits keeps the first SEARCH_HITS)
        self.columns = tree.columns()
        self.searched = 0  # columns read to the end
        self._matches = self._all()
        self.done = False

    def run(self, deadline: float) -> None:
        for match in self._matches:
            if match is not None:
                self.count += 1
                if len(self.hits) < SEARCH_HITS:
                    self.hits.append(self._hit(*match))
            if time.monotonic() > deadline:
                return
        self.done = True

    def note(self, going: bool = False) -> str:
        """What the search found and how far it read (``going``: it goes on now)."""
        count = f"{self.count:,} match{'es' * (self.count != 1)}"
        listed = f" (the first {len(self.hits):,} listed)" if self.count > len(self.hits) \
            else ""
        if self.done:
            return f"{count} in keys and values{listed}"
        at = self.columns[min(self.searched, len(self.columns) - 1)]
        read = f"{self.searched:,} of {len(self.columns):,} paths read"
        found = f"{count} so far" if self.count else "no match yet"
        if going:
            return f"searching… {found}; {read}, now at {at}"
        return f"{found}{listed}; stopped at {at} ({read}): Enter searches on"

    def _hit(self, key: str, tokens: list, what: str) -> dict:
        path, pointer = self.tree.concrete(tokens)
        where = pointer or "(the root)"
        if self.tree.inputs:
            where = f"input {tokens[0] + 1}: {pointer or '(the input)'}"
        hit = {"id": key, "where": where, "match": what, "pointer": pointer}
        if self.tree.inputs:
            hit["input"] = tokens[0] + 1
        else:
            hit["path"] = path
        return hit

    def _all(self):
        """(node id, pointer tokens, what matched) for each match, column by column; None
        now and then so the caller can watch its clock."""
        tree, needle = self.tree, self.needle
        for key in self.columns:
            entry = tree.entries[key]
            named = entry.step is not None and needle in entry.step.lower()
            scalars = set(entry.node.types) - {"object", "array"}
            if named or (scalars and _may_hold(scalars, needle)):
                root, steps = tree.entries[tree.root].node, tree.steps(key)
                test, what = (_anything, None) if named else (_contains(needle), True)
                columns = (_column(root, doc, steps, [index], test)
                           for index, doc in enumerate(tree.value)) if tree.inputs else \
                    [_column(root, tree.value, steps, [], test)]
                for tokens in (found for column in columns for found in column):
                    if tokens is None:
                        yield None
                    else:
                        yield key, tokens, short_text(_at(tree.value, tokens), 60) if what \
                            else "key"
            self.searched += 1
            yield None


def _anything(value: Any) -> bool:
    return True


def _at(value: Any, tokens: list) -> Any:
    for token in tokens:
        value = value[token]
    return value


def _may_hold(types: set[str], needle: str) -> bool:
    """Whether values of these JSON types can contain ``needle`` in their text."""
    if "string" in types:
        return True
    words = (["true", "false"] if "boolean" in types else []) + \
        (["null"] if "null" in types else [])
    if any(needle in word for word in words):
        return True
    return "number" in types and all(c in "0123456789.-+e" for c in needle)


_TICK = 4096  # values read between two looks at the clock


def _reached(values: list, chain: list):
    """(index, value at the key ``chain``) of each of ``values`` that has the chain."""
    for index, item in enumerate(values):
        for step in chain:
            if type(item) is dict and step in item:
                item = item[step]
            else:
                break
        else:
            yield index, item


def _column(node: Node | None, value: Any, steps: list, tokens: list, test):
    """Pointer tokens of every value at ``steps`` below ``value`` (whose shape is
    ``node``) that passes ``test``, in document order; None every _TICK values. A step is
    a key, None for every element, or OTHER_KEYS for the members past the tracked keys."""
    if not steps:
        if test(value):
            yield tokens
        return
    step, rest = steps[0], steps[1:]
    if step is None:
        if type(value) is not list:
            return
        if OTHER_KEYS not in rest and rest.count(None) <= 1:  # key chains, inline
            cut = rest.index(None) if None in rest else len(rest)
            chain, tail, flat = rest[:cut], rest[cut + 1:], cut == len(rest)
            tick = _TICK
            for index, item in _reached(value, chain):
                if index >= tick:
                    tick = index + _TICK
                    yield None
                if flat:  # records: the chain's value
                    if test(item):
                        yield [*tokens, index, *rest]
                elif type(item) is list:  # arrays in records: each element's chain
                    for inner, element in _reached(item, tail):
                        if test(element):
                            yield [*tokens, index, *chain, inner, *tail]
            return
        items = node.items if node is not None else None
        for index, item in enumerate(value):
            if index and not index % _TICK:
                yield None
            yield from _column(items, item, rest, [*tokens, index], test)
    elif type(value) is dict:
        if step == OTHER_KEYS:
            tracked = (node.keys if node is not None else None) or {}
            extra = node.extra if node is not None else None
            for name, item in value.items():
                if name not in tracked:
                    yield from _column(extra, item, rest, [*tokens, name], test)
        elif step in value:
            child = (node.keys or {}).get(step) if node is not None else None
            yield from _column(child, value[step], rest, [*tokens, step], test)


def _contains(needle: str):
    """A test for a scalar whose JSON text (a string: itself) contains ``needle``."""
    def test(value: Any) -> bool:
        kind = type(value)
        if kind is str:
            return needle in value.lower()
        return kind is not dict and kind is not list and needle in _text(value).lower()
    return test


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
