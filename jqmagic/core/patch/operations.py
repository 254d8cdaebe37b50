"""The edits themselves, on any store: set, insert, remove, merge, by pointer or by match,
RFC 6902 operations and RFC 7386 merge patches."""

from __future__ import annotations

import copy
import json
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.jqdiff import jq_runner
from jqmagic.core.patch.jsonscan import Verbatim
from jqmagic.core.patch.plan import (
    MISSING,
    RFC6902_OPS,
    Change,
    Edit,
    Runner,
    Store,
    bad,
    check_op,
    pointer_tokens,
)
from jqmagic.core.patch.steps import exists, insert_at, remove_at, set_at
from jqmagic.core.pointers import to_pointer
from jqmagic.core.words import a, json_equal, preview, term, type_name


def _single(store: Store, op: str, tokens: list[str], value: Any) -> list[Change]:
    if op == "set":
        return [set_at(store, tokens, value)]
    if op == "insert":
        return [insert_at(store, tokens, value)]
    if op == "remove":
        return [remove_at(store, tokens)]
    return _merge_into(store, tokens, value)


def _merge_into(store: Store, tokens: list[str], value: Any) -> list[Change]:
    where = to_pointer(tokens) or "the root"
    if not isinstance(value, dict):
        raise bad(f"merge needs an object value, not {a(type_name(value))}.",
                   "Use set to replace a value.")
    kind = store.kind(tokens)
    if kind != "object":
        raise bad(f"Cannot merge into {where}: it is {a(kind)}, not an object.",
                   "Use set to replace it.")
    return _merge(store, tokens, value, delete_nulls=False)


def _merge(store: Store, tokens: list[str], value: dict, delete_nulls: bool) -> list[Change]:
    """Deep-merge ``value`` into the object at ``tokens``, writing only what differs."""
    changes = []
    for key, new in value.items():
        child = tokens + [key]
        if not exists(store, child):
            if not (delete_nulls and new is None):
                new = _strip_nulls(new) if delete_nulls else new
                store.add(child, new)
                changes.append(Change(to_pointer(child), None, new))
        elif delete_nulls and new is None:
            changes.append(remove_at(store, child))
        elif isinstance(new, dict) and store.kind(child) == "object":
            changes += _merge(store, child, new, delete_nulls)
        else:
            change = set_at(store, child, _strip_nulls(new) if delete_nulls else new)
            if not json_equal(change.previous, change.new):
                changes.append(change)
    return changes


def _merge_patch(store: Store, patch_value: Any) -> list[Change]:
    """RFC 7386: objects merge recursively, null deletes, anything else replaces."""
    if isinstance(patch_value, dict) and store.kind([]) == "object":
        return _merge(store, [], patch_value, delete_nulls=True)
    return [set_at(store, [], _strip_nulls(patch_value))]


def _strip_nulls(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    return {k: _strip_nulls(v) for k, v in value.items() if v is not None}


def _by_match(
    store: Store, op: str, array: list[str], where: dict, every: bool, inner: list[str],
    value: Any,
) -> tuple[list[Change], int]:
    """Apply ``op`` to the matching elements (from the end, so indexes stay valid)."""
    found = _find(store, array, where, every)
    if op == "set" and not inner and not isinstance(value, dict):
        raise bad(f"With {term('match')} and no path, set needs an object of keys to set.",
                   "Or give a path inside the element, e.g. '/status'.")
    changes: list[Change] = []
    for index in sorted(found, reverse=True):
        element = array + [str(index)] + inner
        if op == "set" and not inner:
            changes[:0] = [set_at(store, element + [k], v) for k, v in value.items()]
        else:
            changes[:0] = _single(store, op, element, value)
    if op == "insert" and not inner:  # report where the new elements ended up
        changes = [Change(to_pointer(array + [str(i + n)]), None, value)
                   for n, i in enumerate(sorted(found))]
    return changes, len(found)


def _find(store: Store, array: list[str], where: dict, every: bool) -> list[int]:
    where_text = to_pointer(array) or "the root"
    kind = store.kind(array)
    if kind != "array":
        raise bad(f"{term('match')} needs an array, but {where_text} is {a(kind)}.",
                   f"Use {term('inspect', to_pointer(array))} to find the array.")
    found = []
    for index, element in store.elements(array, _needles(where)):
        if isinstance(element, dict) and all(
            key in element and json_equal(element[key], want) for key, want in where.items()
        ):
            found.append(index)
            if not every:
                break
    if not found:
        raise JqMagicError(
            "NOT_FOUND",
            f"No element of {where_text} matches {preview(where)}.",
            "Values compare by type ('5' is not 5). Use "
            f"{term('inspect', to_pointer(array))} to see them.",
        )
    return found


def _needles(where: dict) -> list[str]:
    """Texts that an element must contain verbatim (if it has no escapes) to match."""
    needles = []
    for key, want in where.items():
        for item in (key, want):
            if isinstance(item, str) and json.dumps(item, ensure_ascii=False) == f'"{item}"':
                needles.append(f'"{item}"')
            elif item is None or isinstance(item, bool):
                needles.append(json.dumps(item))
    return needles


def _rfc6902(store: Store, operations: list) -> list[Change]:
    changes = []
    for number, operation in enumerate(operations):
        try:
            changes.append(_apply_operation(store, operation))
        except JqMagicError as exc:
            raise JqMagicError(
                exc.code, f"Operation {number} of the patch failed: {exc.raw_message}",
                (exc.raw_hint + " " if exc.raw_hint else "") + "Nothing was changed.",
                exc.detail,
            ) from exc
    return changes


def _apply_operation(store: Store, operation: Any) -> Change:
    """One RFC 6902 operation."""
    name = operation.get("op") if isinstance(operation, dict) else None
    if name not in RFC6902_OPS:
        raise bad(f"Unknown op {preview(name)}.", f"Use one of: {', '.join(RFC6902_OPS)}.")
    tokens = pointer_tokens(_member(operation, "path"))
    where = to_pointer(tokens)
    if name == "remove":
        return remove_at(store, tokens)
    if name in ("move", "copy"):
        source = pointer_tokens(_member(operation, "from"))
        value = store.verbatim(source)  # a file keeps the moved text as it was written
        if name == "copy":
            return _add(store, tokens, copy.deepcopy(value))
        if source == tokens:
            return Change(where, _plain(value), _plain(value))
        if tokens[: len(source)] == source:
            raise bad(f"Cannot move {to_pointer(source)} into its own child {where}.")
        store.remove(source)
        return _add(store, tokens, value)
    value = _member(operation, "value")
    if name == "add":
        return _add(store, tokens, value)
    old = store.get(tokens)
    if name == "replace":
        store.replace(tokens, value)
        return Change(where, old, value)
    if not json_equal(old, value):
        raise JqMagicError(
            "PATCH_CONFLICT",
            f"Test failed at '{where}': the value is {preview(old)}, not {preview(value)}.",
            "Re-read the document; the patch expects other content.",
        )
    return Change(where, old, old)


def _add(store: Store, tokens: list[str], value: Any) -> Change:
    replaces = not tokens or (store.kind(tokens[:-1]) == "object" and exists(store, tokens))
    old = store.get(tokens) if replaces else None  # into an array, add inserts
    index = store.add(tokens, value)
    written = tokens if index is None else tokens[:-1] + [str(index)]
    return Change(to_pointer(written), old, _plain(value))


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Verbatim) else value


def _member(operation: dict, name: str) -> Any:
    if name not in operation:
        raise bad(f"The {operation['op']!r} operation has no {name!r} member.",
                   f"e.g. {{\"op\": \"{operation['op']}\", \"{name}\": ...}}.")
    return operation[name]


def plan(edit: Edit) -> tuple[str, Runner]:
    """Check the edit (before any file is read) and return what to run."""
    op, path, value, match, where = edit.op, edit.path, edit.value, edit.match, edit.where
    every, rfc6902, merge_patch = edit.every, edit.rfc6902, edit.merge_patch
    if (op is not None) + (rfc6902 is not None) + (merge_patch is not MISSING) + (
            edit.jq is not None) != 1:
        raise bad("Give exactly one of: an operation (set, insert, remove, merge), an RFC "
                   "6902 patch, a merge patch or a jq program.",
                  "e.g. patch('f.json', 'set', '/a', 1) or patch('f.json', jq='.a = 1').")
    if edit.args is not None and edit.jq is None:
        raise bad("args binds the $names of a jq program, and no jq program was given.",
                  "e.g. patch('f.json', jq='.version = $v', args={'v': '2.0'}).")
    if edit.jq is not None:
        return "jq", jq_runner(edit.jq, args=edit.args)
    if rfc6902 is not None:
        if not isinstance(rfc6902, list):
            raise bad("An RFC 6902 patch is a list of operations.",
                       'e.g. [{"op": "replace", "path": "/a", "value": 1}].')
        return "rfc6902", lambda store: (_rfc6902(store, rfc6902), len(rfc6902))
    if merge_patch is not MISSING:
        return "merge-patch", lambda store: (_merge_patch(store, merge_patch), 1)
    check_op(op, value)
    if match is None:
        if path is None:
            raise bad(f"{op} needs a path or {term('match')}.",
                      "e.g. '/config/timeout'; '' is the root.")
        tokens = pointer_tokens(path)
        return op, lambda store: (_single(store, op, tokens, value), 1)
    if not isinstance(where, dict) or not where:
        example = term("match_example", "/users", '{"id": "user-123"}')
        given = "an empty object" if where == {} else None  # it would match every element
        raise bad(f"{term('match')} needs {term('where')}: an object of properties to "
                  f"compare{f', not {given}' if given else ''}.", f"e.g. {example}.")
    array, inner = pointer_tokens(match), pointer_tokens(path) if path else []
    return op, lambda store: _by_match(store, op, array, where, every, inner, value)
