"""Safe JSON edits: set / insert / remove / merge by pointer or by match, RFC 6902, RFC 7386.

Every operation runs against a *store*: :class:`~jqmagic.core.jsontext.TextDoc` for a file
(edits are splices of the file's text, written atomically only if everything succeeded) or
:class:`TreeStore` for a Python dict / list (edited in place, undone on failure).

>>> doc = {"users": [{"id": 1, "status": "new"}]}
>>> patch(doc, "set", "/status", "active", match="/users", where={"id": 1})["targetPath"]
'/users/0/status'
>>> doc
{'users': [{'id': 1, 'status': 'active'}]}
"""

from __future__ import annotations

import copy
import difflib
import errno
import fcntl
import glob
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError, too_deep
from jqmagic.core.jsontext import TextDoc, Verbatim, array_index, missing_key, not_container
from jqmagic.core.pointers import parse_pointer, to_pointer
from jqmagic.core.shapenode import type_name

OPERATIONS = ("set", "insert", "remove", "merge")
RFC6902_OPS = ("add", "remove", "replace", "move", "copy", "test")
_NOT_JSON_SUFFIXES = {".yaml", ".yml", ".jsonl", ".ndjson"}
_COMPARE_BYTES = 16 << 20  # below this size, a conflict check also compares the content


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # "no value given" (None is JSON null)


class Change(NamedTuple):
    """One value written: where, what was there (None if new), what is there now."""

    path: str
    previous: Any
    new: Any


class Store(Protocol):
    """What an operation needs from a document, whatever holds it."""

    def get(self, tokens: list[str]) -> Any: ...
    def kind(self, tokens: list[str]) -> str: ...
    def verbatim(self, tokens: list[str]) -> Any: ...
    def elements(self, tokens: list[str], needles: list[str]) -> Iterator[tuple[int, Any]]: ...
    def replace(self, tokens: list[str], value: Any) -> None: ...
    def add(self, tokens: list[str], value: Any) -> int | None: ...
    def remove(self, tokens: list[str]) -> None: ...


Runner = Callable[[Store], tuple[list[Change], int]]


def patch(
    target: str | os.PathLike | dict | list,
    op: str | None = None,
    path: str | None = None,
    value: Any = MISSING,
    *,
    match: str | None = None,
    where: dict | None = None,
    all: bool = False,  # noqa: A002 - the flag is --all
    dry_run: bool = False,
    rfc6902: list | None = None,
    merge_patch: Any = MISSING,
) -> dict:
    """Edit a JSON / JSONC file (format kept, atomic write) or a Python dict / list in place.

    Args:
        target: a file path (``~`` expanded) or a dict / list, which is edited in place.
        op: ``set`` (add or replace; creates missing parents; ``/arr/-`` appends),
            ``insert`` (into an array, before the index), ``remove`` or ``merge`` (deep-merge
            an object; never deletes keys).
        path: a JSON Pointer; with ``match``, a pointer inside each matched element.
        value: the new value (a Python value; None is JSON null).
        match, where: a pointer to an array and the properties its elements must have
            (shallow equality). ``set`` with an object and no ``path`` sets each key.
        all: edit every matching element, not only the first.
        dry_run: change nothing; the result carries a unified ``diff``.
        rfc6902: a JSON Patch (list of operations), applied whole or not at all.
        merge_patch: an RFC 7386 merge patch.

    Returns:
        ``{"status": "success", "operation", "targetPath", "previousValue", "newValue",
        "matched", "changed"}``: ``targetPath`` and both values are lists when the operation
        wrote several values (one per key, match or RFC 6902 operation; ``merge`` lists only
        the leaves it changed); ``previousValue`` is None where nothing was there;
        ``matched`` counts matched elements (1 for a pointer, the operations for RFC 6902);
        ``changed`` is False when the document already held the values. ``dryRun`` and a
        unified ``diff`` are added with ``dry_run``.

    Raises:
        JqMagicError: NOT_FOUND, INVALID_POINTER, INVALID_ARGUMENT, INVALID_JSON,
            PATCH_CONFLICT (failed ``test``, or the file changed meanwhile) or FILE_ERROR.
            A failed patch changes nothing.
    """
    operation, run = _plan(op, path, value, match, where, all, rfc6902, merge_patch)
    try:
        if isinstance(target, (dict, list)):
            return _patch_value(target, operation, run, dry_run)
        if isinstance(target, (str, os.PathLike)):
            return _patch_file(Path(os.path.expanduser(target)), operation, run, dry_run)
    except RecursionError:
        raise too_deep("The document", "Nothing was changed; patch it with a tool that "
                       "streams, or restructure it.") from None
    raise JqMagicError(
        "INVALID_ARGUMENT",
        f"Cannot patch a {type(target).__name__}.",
        "The target is a file path, a dict or a list.",
    )


# ------------------------------------------------------------------------- text faces


def command_kwargs(words: list[str], match: str | None = None, where: str | None = None
                   ) -> dict:
    """:func:`patch` keywords from command words ``OP [POINTER] [VALUE]`` (VALUE and
    ``where`` are JSON text). With ``match``, a lone word after OP is the VALUE, except
    for remove."""
    kwargs: dict[str, Any] = {}
    if match is not None:
        kwargs.update(match=match, where=parse_json(where, "--where") if where else None)
    if not words:
        return kwargs
    op, rest = words[0], list(words[1:])
    if len(rest) > 2:
        raise _bad(f"Too many words after {op}: {' '.join(rest)}.",
                   "Give OP [POINTER] [VALUE]; quote a VALUE that has spaces.")
    if len(rest) == 1 and match is not None and op != "remove":
        rest.insert(0, None)
    kwargs["op"] = op
    if rest and rest[0] is not None:
        kwargs["path"] = rest[0]
    if len(rest) == 2:
        kwargs["value"] = parse_json(rest[1], "VALUE")
    return kwargs


def parse_json(text: str, what: str) -> Any:
    """JSON text given on a command line or in a cell; INVALID_JSON says where it broke."""
    try:
        return json.loads(text)
    except ValueError as exc:
        raise JqMagicError(
            "INVALID_JSON", f"{what} is not JSON: {exc.msg} at column {exc.colno}.",
            "Write JSON: strings in double quotes ('\"dark\"'), objects like '{\"a\": 1}'.",
        ) from None


# ------------------------------------------------------------------------- planning


def _plan(
    op: str | None, path: str | None, value: Any, match: str | None, where: dict | None,
    every: bool, rfc6902: list | None, merge_patch: Any,
) -> tuple[str, Runner]:
    """Check the arguments (before any file is read) and return what to run."""
    if (op is not None) + (rfc6902 is not None) + (merge_patch is not MISSING) != 1:
        raise _bad("Give exactly one of: an operation (set, insert, remove, merge), an RFC "
                   "6902 patch or a merge patch.", "e.g. patch('f.json', 'set', '/a', 1).")
    if rfc6902 is not None:
        if not isinstance(rfc6902, list):
            raise _bad("An RFC 6902 patch is a list of operations.",
                       'e.g. [{"op": "replace", "path": "/a", "value": 1}].')
        return "rfc6902", lambda store: (_rfc6902(store, rfc6902), len(rfc6902))
    if merge_patch is not MISSING:
        return "merge-patch", lambda store: (_merge_patch(store, merge_patch), 1)
    _check_op(op, value)
    if match is None:
        if path is None:
            raise _bad(f"{op} needs a path or --match.", "e.g. '/config/timeout'; '' is the root.")
        tokens = _parse(path)
        return op, lambda store: (_single(store, op, tokens, value), 1)
    if not isinstance(where, dict) or not where:
        raise _bad("--match needs --where: an object of properties to compare.",
                   'e.g. --match /users --where \'{"id": "user-123"}\'.')
    array, inner = _parse(match), _parse(path) if path else []
    return op, lambda store: _by_match(store, op, array, where, every, inner, value)


def _check_op(op: str, value: Any) -> None:
    if op not in OPERATIONS:
        raise _bad(f"Unknown operation {op!r}.", f"Use one of: {', '.join(OPERATIONS)}.")
    if op == "remove" and value is not MISSING:
        raise _bad("remove takes no value.", "Drop the value, or use set to replace.")
    if op != "remove" and value is MISSING:
        raise _bad(f"{op} needs a value.", "Pass the new value as JSON, e.g. '\"dark\"' or 42.")


def _parse(text: Any) -> list[str]:
    if not isinstance(text, str):
        raise JqMagicError("INVALID_POINTER", f"A pointer must be a string, not {_preview(text)}.",
                           "e.g. '/users/0/name'; '' is the whole document.")
    return parse_pointer(text)


def _bad(message: str, hint: str = "") -> JqMagicError:
    return JqMagicError("INVALID_ARGUMENT", message, hint)


# ------------------------------------------------------------------------- operations


def _single(store: Store, op: str, tokens: list[str], value: Any) -> list[Change]:
    if op == "set":
        return [_set(store, tokens, value)]
    if op == "insert":
        return [_insert(store, tokens, value)]
    if op == "remove":
        return [_remove(store, tokens)]
    return _merge_into(store, tokens, value)


def _exists(store: Store, tokens: list[str]) -> bool:
    try:
        store.kind(tokens)
    except JqMagicError as exc:
        if exc.code != "NOT_FOUND":
            raise
        return False
    return True


def _set(store: Store, tokens: list[str], value: Any) -> Change:
    """Replace, or add with any missing parents (``-`` in a missing part makes an array)."""
    if _exists(store, tokens):
        old = store.get(tokens)
        if not json_equal(old, value):
            store.replace(tokens, value)
        return Change(to_pointer(tokens), old, value)
    depth = len(tokens) - 1
    while depth > 0 and not _exists(store, tokens[:depth]):
        depth -= 1
    rest = tokens[depth + 1 :]
    nested = value
    for token in reversed(rest):
        nested = [nested] if token == "-" else {token: nested}
    index = store.add(tokens[: depth + 1], nested)
    head = tokens[:depth] + [tokens[depth] if index is None else str(index)]
    return Change(to_pointer(head + ["0" if t == "-" else t for t in rest]), None, value)


def _insert(store: Store, tokens: list[str], value: Any) -> Change:
    where = to_pointer(tokens)
    if not tokens:
        raise _bad("insert needs an array position, like '/items/0'.",
                   "Use set '' to replace the whole document.")
    kind = store.kind(tokens[:-1])
    if kind != "array":
        raise _bad(f"Cannot insert at '{where}': {to_pointer(tokens[:-1]) or 'the root'} is "
                   f"{_a(kind)}, not an array.", "insert works on arrays; use set to add a key.")
    index = store.add(tokens, value)
    return Change(to_pointer(tokens[:-1] + [str(index)]), None, value)


def _remove(store: Store, tokens: list[str]) -> Change:
    if not tokens:
        raise _bad("Cannot remove the whole document.", "Remove a member, or set '' to replace it.")
    old = store.get(tokens)
    store.remove(tokens)
    return Change(to_pointer(tokens), old, None)


def _merge_into(store: Store, tokens: list[str], value: Any) -> list[Change]:
    where = to_pointer(tokens) or "the root"
    if not isinstance(value, dict):
        raise _bad(f"merge needs an object value, not {_a(type_name(value))}.",
                   "Use set to replace a value.")
    kind = store.kind(tokens)
    if kind != "object":
        raise _bad(f"Cannot merge into {where}: it is {_a(kind)}, not an object.",
                   "Use set to replace it.")
    return _merge(store, tokens, value, delete_nulls=False)


def _merge(store: Store, tokens: list[str], value: dict, delete_nulls: bool) -> list[Change]:
    """Deep-merge ``value`` into the object at ``tokens``, writing only what differs."""
    changes = []
    for key, new in value.items():
        child = tokens + [key]
        if not _exists(store, child):
            if not (delete_nulls and new is None):
                new = _strip_nulls(new) if delete_nulls else new
                store.add(child, new)
                changes.append(Change(to_pointer(child), None, new))
        elif delete_nulls and new is None:
            changes.append(_remove(store, child))
        elif isinstance(new, dict) and store.kind(child) == "object":
            changes += _merge(store, child, new, delete_nulls)
        else:
            change = _set(store, child, _strip_nulls(new) if delete_nulls else new)
            if not json_equal(change.previous, change.new):
                changes.append(change)
    return changes


def _merge_patch(store: Store, patch_value: Any) -> list[Change]:
    """RFC 7386: objects merge recursively, null deletes, anything else replaces."""
    if isinstance(patch_value, dict) and store.kind([]) == "object":
        return _merge(store, [], patch_value, delete_nulls=True)
    return [_set(store, [], _strip_nulls(patch_value))]


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
        raise _bad("With --match and no path, set needs an object of keys to set.",
                   "Or give a path inside the element, e.g. '/status'.")
    changes: list[Change] = []
    for index in sorted(found, reverse=True):
        element = array + [str(index)] + inner
        if op == "set" and not inner:
            changes[:0] = [_set(store, element + [k], v) for k, v in value.items()]
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
        raise _bad(f"--match needs an array, but {where_text} is {_a(kind)}.",
                   f"Use %inspect {where_text} to find the array.")
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
            f"No element of {where_text} matches {_preview(where)}.",
            f"Values compare by type ('5' is not 5). Use %inspect {where_text} to see them.",
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
                exc.code, f"Operation {number} of the patch failed: {exc.message}",
                (exc.hint + " " if exc.hint else "") + "Nothing was changed.", exc.detail,
            ) from exc
    return changes


def _apply_operation(store: Store, operation: Any) -> Change:
    """One RFC 6902 operation."""
    name = operation.get("op") if isinstance(operation, dict) else None
    if name not in RFC6902_OPS:
        raise _bad(f"Unknown op {_preview(name)}.", f"Use one of: {', '.join(RFC6902_OPS)}.")
    tokens = _parse(_member(operation, "path"))
    where = to_pointer(tokens)
    if name == "remove":
        return _remove(store, tokens)
    if name in ("move", "copy"):
        source = _parse(_member(operation, "from"))
        value = store.verbatim(source)  # a file keeps the moved text as it was written
        if name == "copy":
            return _add(store, tokens, copy.deepcopy(value))
        if source == tokens:
            return Change(where, _plain(value), _plain(value))
        if tokens[: len(source)] == source:
            raise _bad(f"Cannot move {to_pointer(source)} into its own child {where}.")
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
            f"Test failed at '{where}': the value is {_preview(old)}, not {_preview(value)}.",
            "Re-read the document; the patch expects other content.",
        )
    return Change(where, old, old)


def _add(store: Store, tokens: list[str], value: Any) -> Change:
    replaces = not tokens or (store.kind(tokens[:-1]) == "object" and _exists(store, tokens))
    old = store.get(tokens) if replaces else None  # into an array, add inserts
    index = store.add(tokens, value)
    written = tokens if index is None else tokens[:-1] + [str(index)]
    return Change(to_pointer(written), old, _plain(value))


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Verbatim) else value


def _member(operation: dict, name: str) -> Any:
    if name not in operation:
        raise _bad(f"The {operation['op']!r} operation has no {name!r} member.",
                   f"e.g. {{\"op\": \"{operation['op']}\", \"{name}\": ...}}.")
    return operation[name]


# ------------------------------------------------------------------------- values


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: ``1 == 1.0``, but ``True != 1`` and ``"1" != 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(json_equal, a, b))
    return type(a) is type(b) and a == b


def _preview(value: Any, width: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 3] + "..."


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


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
            raise _bad("Cannot remove the whole document.")
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
            raise _bad(f"Cannot replace {_a(type_name(original))} in place by "
                       f"{_a(type_name(new))}.", "Assign the new value to the variable.")
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


# ------------------------------------------------------------------------- targets


def _result(operation: str, changes: list[Change], matched: int, changed: bool) -> dict:
    one = len(changes) == 1
    return {
        "status": "success",
        "operation": operation,
        "targetPath": changes[0].path if one else [c.path for c in changes],
        "previousValue": changes[0].previous if one else [c.previous for c in changes],
        "newValue": changes[0].new if one else [c.new for c in changes],
        "matched": matched,
        "changed": changed,
    }


def _patch_value(obj: dict | list, operation: str, run: Runner, dry_run: bool) -> dict:
    store = TreeStore(obj)
    before = _dump(obj) if dry_run else ""
    try:
        changes, matched = run(store)
        store.settle(obj)
        result = _result(operation, changes, matched, store.changed)
        if dry_run:
            result.update(dryRun=True, diff=_text_diff(before, _dump(obj), "value"))
            store.rollback()
    except BaseException:
        store.rollback()
        raise
    return result


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr) + "\n"


def _text_diff(old: str, new: str, name: str) -> str:
    return "".join(difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    ))


def _patch_file(path: Path, operation: str, run: Runner, dry_run: bool) -> dict:
    real = _check_file(path)
    data, stamp = _read(real)
    try:
        doc = TextDoc(data)
    except JqMagicError as exc:
        raise JqMagicError(exc.code, f"Cannot patch {path}: {exc.message}", exc.hint,
                           exc.detail) from None
    changes, matched = run(doc)
    result = _result(operation, changes, matched, doc.changed)
    if dry_run:
        result.update(dryRun=True, diff=doc.diff(path.name))
    elif doc.changed:
        _write(real, doc, stamp, data)
    return result


def _check_file(path: Path) -> Path:
    if path.suffix.lower() in _NOT_JSON_SUFFIXES:
        raise _bad(f"Cannot patch {path}: jsonpatch edits JSON and JSONC files, not "
                   f"{path.suffix} files.", "Convert it to JSON first, or edit it as text.")
    real = Path(sandbox.check_path(str(path), "patch"))
    if not real.exists():
        raise JqMagicError("NOT_FOUND", f"File {path} not found.",
                           "Check the path (in the magic, TARGET may also be a variable).")
    if not real.is_file():
        raise JqMagicError("FILE_ERROR", f"Cannot patch {path}: it is not a regular file.")
    return real


def _read(path: Path) -> tuple[bytes, os.stat_result]:
    from jqmagic.core.sources import check_encoding, open_file

    try:
        with open(open_file(str(path)), "rb") as handle:
            data, stamp = handle.read(), os.fstat(handle.fileno())
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"Cannot read {path}: {exc.strerror}.",
                           "Check the file's permissions.") from exc
    check_encoding(str(path), data[:4])
    return data, stamp


def _check_unchanged(path: Path, stamp: os.stat_result, data: bytes) -> None:
    try:
        now = os.stat(path)
        same = (now.st_size, now.st_mtime_ns, now.st_ino) == (
            stamp.st_size, stamp.st_mtime_ns, stamp.st_ino
        )
        if same and now.st_size <= _COMPARE_BYTES:
            same = path.read_bytes() == data
    except FileNotFoundError:
        same = False
    if not same:
        raise JqMagicError(
            "PATCH_CONFLICT",
            f"{path} changed on disk while it was being patched; nothing was written.",
            "Run the patch again to apply it to the new content.",
        )


def _write(path: Path, doc: TextDoc, stamp: os.stat_result, data: bytes) -> None:
    """Write next to ``path``, fsync, keep the mode, then replace ``path`` atomically."""
    if path.exists() and not os.access(path, os.W_OK):  # replacing would bypass its mode
        raise JqMagicError("FILE_ERROR", f"Cannot write {path}: it is read-only.",
                           "Make it writable first; nothing was changed.")
    try:
        _remove_stale_temps(path)
        handle, temp = _new_temp(path)
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"Cannot write next to {path}: {exc.strerror}.",
                           "Check that the folder is writable; the file is unchanged.") from exc
    try:
        with os.fdopen(handle, "wb") as out:  # open (and locked) until replaced
            for chunk in doc.chunks():
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
            os.chmod(temp, stat.S_IMODE(stamp.st_mode))
            with _turn(path):
                _check_unchanged(path, stamp, data)
                sandbox.check_path(str(path), "patch")  # a folder swapped meanwhile
                sandbox.check_fd(out.fileno(), str(path), "patch")
                os.replace(temp, path)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise JqMagicError("FILE_ERROR", f"Cannot write {path}: {exc.strerror}.",
                           "The original file is unchanged.") from exc
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_folder(path.parent)


def _temp_pattern(path: Path) -> str:
    return f".{glob.escape(path.name)}.*.tmp"


def _new_temp(path: Path) -> tuple[int, str]:
    """A temporary file beside ``path``, locked while it lives (see _remove_stale_temps)."""
    for _ in range(3):
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        fcntl.flock(handle, fcntl.LOCK_EX)
        with suppress(FileNotFoundError):
            if os.path.samestat(os.fstat(handle), os.lstat(temp)):
                return handle, temp
        os.close(handle)  # a cleaner took it for stale before it was locked
    raise OSError(errno.EAGAIN, "temporary files beside it keep disappearing")


def _remove_stale_temps(path: Path) -> None:
    """Remove the temporary files of writers killed mid-write: a live writer holds a lock
    on its own, a dead one's lock is gone."""
    for stale in path.parent.glob(_temp_pattern(path)):
        try:
            fd = os.open(stale, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            with suppress(OSError):  # locked: a live writer's file
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if os.path.samestat(os.fstat(fd), os.lstat(stale)):
                    os.unlink(stale)
        finally:
            os.close(fd)


@contextmanager
def _turn(path: Path) -> Iterator[None]:
    """Writers through jqmagic take turns between their last check and the replace: each
    locks the inode ``path`` names, so a second writer sees the first one's new file and
    reports PATCH_CONFLICT instead of silently overwriting it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        fd = None  # removed meanwhile: the check that follows reports it
    try:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        if fd is not None:
            os.close(fd)


def _fsync_folder(folder: Path) -> None:
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
