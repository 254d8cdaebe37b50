"""An edit by a jq program: run it on the document, then write only the difference between
the old and the new value (set, add, remove by pointer), so every other byte stays."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from jqmagic.core import query as querying
from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.plan import Change, Runner, Store
from jqmagic.core.patch.steps import remove_at, set_at
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
    if _same(old, new):
        return
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


def _same(old: Any, new: Any) -> bool:
    """Equal to JSON, told at C speed: Python's == (which takes True for 1, so containers
    are compared again by their orjson text; a difference in key order only loses speed)."""
    if type(old) is not type(new) or old != new:
        return False
    if not isinstance(old, (dict, list)):
        return True
    try:
        return orjson.dumps(old) == orjson.dumps(new)
    except (TypeError, orjson.JSONEncodeError):  # past 64-bit integers, lone surrogates
        return False


def _same_head(old: list, new: list) -> bool:
    """Whether elements stay at their index (the shorter one is the other's head, up to
    edits inside elements): otherwise elements moved, and the array is replaced."""
    return len(old) == len(new) or all(
        type(a) is type(b) or _both_numbers(a, b) for a, b in zip(old, new, strict=False))


def _both_numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))


_DIRECTIVE = re.compile(r"\s*(?:#[^\n]*\n\s*)*(?:import|include|module)\b")


def _outputs(program: str, documents: list, run_query: Any) -> list[list]:
    """Each document's outputs: of one query over all of them (``.[] | [PROGRAM]``) unless
    the program starts with a directive, which must come first."""
    if len(documents) > 1 and not _DIRECTIVE.match(program):
        return run_query(f".[] | [\n{program}\n]", value=documents, passthrough=True).values
    return [run_query(program, value=doc, passthrough=True).values for doc in documents]


def jq_runner(program: str, run_query: Callable[..., Any] | None = None) -> Runner:
    """A runner that edits a store by the jq ``program``, run through ``run_query`` (default:
    the query core, loaded when first run): it must give exactly one value per document."""

    def run(store: Store) -> tuple[list[Change], int]:
        count = getattr(store, "documents", None)  # a YAML stream, JSON Lines: each alone
        places = [[]] if count is None else [[str(n)] for n in range(count)]
        olds = [store.get(at) for at in places]
        changes: list[Change] = []
        outputs_of = _outputs(program, olds, run_query or querying.query)
        for at, old, outputs in zip(places, olds, outputs_of, strict=True):
            if len(outputs) != 1:
                which = f"document {at[0]}" if at else "the document"
                raise JqMagicError(
                    "QUERY_ERROR", f"The program gave {len(outputs)} values for "
                    f"{which}; an edit needs exactly one.", "Nothing was changed. Make the "
                    "program give the whole new document, e.g. '.version = \"2.0\"'.")
            steps = list(differences(old, outputs[0], at))  # before old changes
            changes += [remove_at(store, tokens) if op == "remove" else set_at(store, tokens, value)
                        for op, tokens, value in steps]
        return changes, len(places)

    return run
