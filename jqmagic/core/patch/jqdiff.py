"""An edit by a jq program: run it on the document, then write only the difference between
the old and the new value (set, add, remove by pointer), so every other byte stays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.operations import _remove, _set
from jqmagic.core.patch.plan import Change, Runner, Store
from jqmagic.core.words import json_equal

Step = tuple[str, list[str], Any]  # ("set" | "remove", tokens, value)


def differences(old: Any, new: Any, at: list[str] | None = None) -> Iterator[Step]:
    """The smallest steps that turn ``old`` into ``new``: members and elements are compared
    one by one; an array that only grew or shrank at its end gains or loses those elements;
    any other change of an array, or of a value's type, replaces it whole.

    >>> list(differences({"a": 1, "b": [1]}, {"a": 2, "b": [1, 2], "c": 3}))
    [('set', ['a'], 2), ('set', ['b', '-'], 2), ('set', ['c'], 3)]
    """
    at = at or []
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                yield "remove", [*at, key], None
        for key, value in new.items():
            if key in old:
                yield from differences(old[key], value, [*at, key])
            else:
                yield "set", [*at, key], value
    elif isinstance(old, list) and isinstance(new, list) and _same_head(old, new):
        common = min(len(old), len(new))
        for index in range(common):
            yield from differences(old[index], new[index], [*at, str(index)])
        for value in new[common:]:
            yield "set", [*at, "-"], value
        for index in reversed(range(common, len(old))):
            yield "remove", [*at, str(index)], None
    elif not json_equal(old, new) or type(old) is not type(new) and not _both_numbers(old, new):
        yield "set", at, new


def _same_head(old: list, new: list) -> bool:
    """Whether elements stay at their index (the shorter one is the other's head, up to
    edits inside elements): otherwise elements moved, and the array is replaced."""
    return len(old) == len(new) or all(
        type(a) is type(b) or _both_numbers(a, b) for a, b in zip(old, new, strict=False))


def _both_numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))


def jq_runner(program: str, run_query: Any) -> Runner:
    """A runner that edits a store by the jq ``program``, run through ``run_query`` (the
    query core: the program must give exactly one value for the document)."""

    def run(store: Store) -> tuple[list[Change], int]:
        count = getattr(store, "documents", None)  # a YAML stream, JSON Lines: each alone
        changes: list[Change] = []
        for at in [[]] if count is None else [[str(n)] for n in range(count)]:
            old = store.get(at)
            result = run_query(program, value=old, passthrough=True)
            if len(result.values) != 1:
                which = f"document {at[0]}" if at else "the document"
                raise JqMagicError(
                    "QUERY_ERROR", f"The program gave {len(result.values)} values for "
                    f"{which}; an edit needs exactly one.", "Nothing was changed. Make the "
                    "program give the whole new document, e.g. '.version = \"2.0\"'.")
            steps = list(differences(old, result.values[0], at))  # before old changes
            changes += [_remove(store, tokens) if op == "remove" else _set(store, tokens, value)
                        for op, tokens, value in steps]
        return changes, 1 if count is None else count

    return run
