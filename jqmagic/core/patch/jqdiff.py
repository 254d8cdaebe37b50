"""An edit by a jq program: run it on the document, then write only the difference between
the old and the new value (set, add, remove by pointer), so every other byte stays."""

from __future__ import annotations

import difflib
import gc
import json
import math
import os
import re
from collections.abc import Callable
from typing import Any

import orjson

from jqmagic.core import query as querying
from jqmagic.core.errors import JqMagicError
from jqmagic.core.gcpause import gc_paused
from jqmagic.core.patch import ahead
from jqmagic.core.patch.batch import Step, apply_steps
from jqmagic.core.patch.plan import Change, Store
from jqmagic.core.words import json_equal


def differences(old: Any, new: Any, at: list[str] | None = None) -> list[Step]:
    """The smallest steps that turn ``old`` into ``new``: members are compared one by one,
    elements as :func:`_array_steps` aligns them; a change of a value's type replaces it.

    >>> differences({"a": 1, "b": [1]}, {"a": 2, "b": [1, 2], "c": 3})
    [('set', ['a'], 2), ('set', ['b', '-'], 2), ('set', ['c'], 3)]
    >>> differences([{"n": "A"}, {"n": "B"}], [{"n": "B"}])
    [('remove', ['0'], None)]
    """
    steps: list[Step] = []
    _differences(old, new, at or [], steps)
    return steps


def _differences(old: Any, new: Any, at: list[str], steps: list[Step]) -> None:
    """:func:`differences`, each step appended to ``steps``."""
    if _same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        if old.keys() != new.keys():  # (else no key is removed or added)
            steps += [("remove", [*at, key], None) for key in old if key not in new]
        for key, value in new.items():
            if key not in old:
                steps.append(("set", [*at, key], value))
            else:
                _member_steps(old[key], value, at, key, steps)
    elif isinstance(old, list) and isinstance(new, list):
        _array_steps(old, new, at, steps)
    elif _left_alone(old, new):
        return
    elif not json_equal(old, new) or type(old) is not type(new) and not _both_numbers(old, new):
        steps.append(("set", at, new))


_LARGEST = 1.7976931348623157e308  # what jq makes of an infinity


def _left_alone(old: Any, new: Any) -> bool:
    """Whether ``new`` is how the program gives back the non-finite ``old`` it did not
    touch (a YAML ``.inf``, ``-.inf``, ``.nan``, a JSON ``1e400``): jq's largest double of
    its sign (or the infinity), or null for NaN (as NaN prints); kept as written, not
    rewritten as either. An infinity set to null is written."""
    if type(old) is not float or math.isfinite(old):
        return False
    if old != old:
        return new is None or type(new) is float and new != new
    return type(new) is float and abs(new) >= _LARGEST and (new > 0) == (old > 0)


_SCALARS = (str, int, bool, type(None))


def _member_steps(old: Any, new: Any, at: list[str], token: str, steps: list[Step]) -> None:
    """:func:`_differences` of a member at ``[*at, token]``; two strings, integers,
    booleans or nulls told at once (what it would say of them)."""
    if type(old) in _SCALARS and type(new) in _SCALARS:
        if type(old) is not type(new) or old != new:
            steps.append(("set", [*at, token], new))
        return
    _differences(old, new, [*at, token], steps)


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


_ALIGNED = 2000  # elements between the equal head and tail aligned by difflib, at most
# (and only where most are distinct: 2,000 values repeating with periods 7 and 5 took 4.4 s)


def _array_steps(old: list, new: list, at: list[str], steps: list[Step]) -> None:
    """An array's steps, last elements first (an index stays true until its own step):
    where the lengths differ, elements equal in both are aligned (the equal head and tail,
    then difflib's matching runs) and only the others removed or inserted, so deleting or
    adding one in the middle leaves the rest, and their comments, in place; elements
    between aligned ones, or of an array of the same length, are compared at one index."""
    head = tail = 0
    if len(old) != len(new):
        shorter = min(len(old), len(new))
        while head < shorter and _same(old[head], new[head]):
            head += 1
        while tail < shorter - head and _same(old[-1 - tail], new[-1 - tail]):
            tail += 1
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    blocks = [("replace", 0, len(old_mid), 0, len(new_mid))]
    if old_mid and new_mid and len(old) != len(new):
        keys = [_key(v) for v in old_mid], [_key(v) for v in new_mid]
        in_order = _only_removed_or_inserted(*keys)
        if in_order is not None:
            blocks = in_order
        elif max(len(old_mid), len(new_mid)) <= _ALIGNED and \
                2 * len(set(keys[0])) >= len(keys[0]):  # repeated values: difflib is quadratic
            blocks = difflib.SequenceMatcher(None, *keys, False).get_opcodes()
    for tag, i1, i2, j1, j2 in reversed(blocks):
        if tag == "equal":
            continue
        common, i1, i2 = min(i2 - i1, j2 - j1), head + i1, head + i2
        for k in range(common):
            _member_steps(old[i1 + k], new[head + j1 + k], at, str(i1 + k), steps)
        for index in reversed(range(i1 + common, i2)):
            steps.append(("remove", [*at, str(index)], None))
        for k in range(common, j2 - j1):
            place = "-" if i2 == len(old) else str(i1 + k)
            steps.append((("set" if place == "-" else "insert"), [*at, place],
                          new[head + j1 + k]))


def _only_removed_or_inserted(old: list, new: list) -> list[tuple] | None:
    """difflib's opcodes over two arrays' keys when one is the other with elements only
    removed (a filter: ``map(select(...))``, ``del(...)``) or only inserted, found in one
    pass at any length; None when it is not so."""
    removing = len(old) > len(new)
    longer, shorter = (old, new) if removing else (new, old)
    kept: list[int] = []
    for at, key in enumerate(longer):
        if len(kept) < len(shorter) and key == shorter[len(kept)]:
            kept.append(at)
    if len(kept) < len(shorter):
        return None
    blocks, start = [], 0
    for j, at in enumerate([*kept, len(longer)]):
        if at > start:  # longer[start:at] is only in the longer array
            blocks.append(("delete", start, at, j, j) if removing else ("insert", j, j, start, at))
        if at < len(longer):
            blocks.append(("equal", at, at + 1, j, j + 1) if removing else
                          ("equal", j, j + 1, at, at + 1))
        start = at + 1
    return blocks


def _key(value: Any) -> str:
    """A value's text, equal for equal JSON values (their keys sorted); a str, as orjson's
    bytes keep their whole buffer (200,000 keys of 70 bytes held 781 MB)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):  # past 64-bit integers, lone surrogates
        return json.dumps(value, sort_keys=True)


def _both_numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))


_DIRECTIVE = re.compile(r"\s*(?:#[^\n]*\n\s*)*(?:import|include|module)\b")


def _outputs(program: str, documents: list, run_query: Any) -> list[list]:
    """Each document's outputs: of one query over all of them (``.[] | [PROGRAM]``) unless
    the program starts with a directive, which must come first; when that query fails, the
    documents one by one, so the error is the failing document's own (its hint not about
    the ``.[]`` the user never wrote)."""
    if len(documents) > 1 and not _DIRECTIVE.match(program):
        try:
            return run_query(f".[] | [\n{program}\n]", value=documents,
                             passthrough=True).values
        except JqMagicError:
            pass
    return [_document_outputs(program, doc, n, len(documents), run_query)
            for n, doc in enumerate(documents)]


def _document_outputs(program: str, document: Any, number: int, count: int,
                      run_query: Any) -> list:
    try:
        return run_query(program, value=document, passthrough=True).values
    except JqMagicError as exc:
        if count == 1:
            raise
        raise JqMagicError(exc.code, f"Document {number}: {exc.raw_message}", exc.raw_hint,
                           exc.detail) from None


def jq_runner(program: str, run_query: Callable[..., Any] | None = None,
              args: dict[str, Any] | None = None) -> JqRunner:
    """A runner that edits a store by the jq ``program`` (its ``$name`` bindings ``args``),
    run through ``run_query`` (default: the query core, loaded when first run): it must
    give exactly one value per document."""
    return JqRunner(program, run_query, args)


class JqRunner:
    """:func:`jq_runner`'s runner; with the query core, a file's run may begin before its
    store is built (:meth:`begin`, ahead.py)."""

    def __init__(self, program: str, run_query: Callable[..., Any] | None,
                 args: dict[str, Any] | None):
        self.program, self.run_query, self.args = program, run_query, args
        self.ahead: ahead.Ahead | None = None

    def begin(self, path: str, data: bytes, stamp: os.stat_result) -> None:
        """Run the program on the file ``path`` (read as ``data`` at ``stamp``) meanwhile."""
        if self.run_query is None:
            self.ahead = ahead.begin(self.program, path, data, stamp, self.args)

    def end(self) -> None:
        """Let a run begun on the file end (the worker is free again)."""
        if self.ahead is not None:
            self.ahead.wait()

    def __call__(self, store: Store) -> tuple[list[Change], int]:
        program, args = self.program, self.args
        count = getattr(store, "documents", None)  # a YAML stream, JSON Lines: each alone
        places = [[]] if count is None else [[str(n)] for n in range(count)]
        olds = [store.get(at) for at in places]
        changes: list[Change] = []
        early = self.ahead.outputs(store) if self.ahead is not None else None
        if early is not None:
            outputs_of = [early]
        else:
            asked = self.run_query or querying.query
            outputs_of = _outputs(program, olds, asked if args is None else
                                  lambda text, **kw: asked(text, args=args, **kw))
        for at, old, outputs in zip(places, olds, outputs_of, strict=True):
            if len(outputs) != 1:
                which = f"document {at[0]}" if at else "the document"
                raise JqMagicError(
                    "QUERY_ERROR", f"The program gave {len(outputs)} values for "
                    f"{which}; an edit needs exactly one.", "Nothing was changed. Make the "
                    "program give the whole new document, e.g. '.version = \"2.0\"'.")
            with gc_paused():  # many small lists, no cycles
                steps = differences(old, outputs[0], at)  # before old changes
                changes += apply_steps(store, steps)
                del steps
                _promote()
        return changes, len(places)


def _promote() -> None:
    """Move the objects made while the collector paused to its oldest generation (they
    hold no cycles): its first collection after the pause would walk them all (0.4 s for
    450,000 steps' changes). Not where something else froze objects (unfreezing is all)."""
    if not gc.get_freeze_count():
        gc.freeze()
        gc.unfreeze()
