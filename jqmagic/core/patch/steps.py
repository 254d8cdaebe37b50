"""The steps every edit is made of, on any store: whether a place exists, set (adding
missing parents), insert into an array, remove; each returns the :class:`Change` it made."""

from __future__ import annotations

from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.plan import Change, Store, bad
from jqmagic.core.pointers import to_pointer
from jqmagic.core.words import a, json_equal


def exists(store: Store, tokens: list[str]) -> bool:
    """Whether ``store`` has a value at ``tokens``."""
    try:
        store.kind(tokens)
    except JqMagicError as exc:
        if exc.code != "NOT_FOUND":
            raise
        return False
    return True


def set_at(store: Store, tokens: list[str], value: Any) -> Change:
    """Replace, or add with any missing parents (``-`` in a missing part makes an array)."""
    if exists(store, tokens):
        old = store.get(tokens)
        if not json_equal(old, value):
            store.replace(tokens, value)
        return Change(to_pointer(tokens), old, value)
    depth = len(tokens) - 1
    while depth > 0 and not exists(store, tokens[:depth]):
        depth -= 1
    if depth < len(tokens) - 1:
        _check_unescaped(store, tokens, depth)
    rest = tokens[depth + 1 :]
    nested = value
    for token in reversed(rest):
        nested = [nested] if token == "-" else {token: nested}
    index = store.add(tokens[: depth + 1], nested)
    head = tokens[:depth] + [tokens[depth] if index is None else str(index)]
    return Change(to_pointer(head + ["0" if t == "-" else t for t in rest]), None, value)


def _check_unescaped(store: Store, tokens: list[str], depth: int) -> None:
    """PATCH_CONFLICT when the parents a set would create spell a key that exists with a
    ``/`` in it (``/packages/node_modules/x/version`` where ``node_modules/x`` is a key):
    the pointer meant ``node_modules~1x``."""
    if store.kind(tokens[:depth]) != "object":
        return
    for end in range(len(tokens), depth + 1, -1):
        key = "/".join(tokens[depth:end])
        if exists(store, [*tokens[:depth], key]):
            meant = to_pointer([*tokens[:depth], key, *tokens[end:]])
            raise JqMagicError(
                "PATCH_CONFLICT", f"{to_pointer(tokens)} would create new objects, but "
                f"{to_pointer([*tokens[:depth], key])} is a key with '/' in it.",
                f"Write '/' inside a key as ~1: {meant}. Nothing was changed.")


def insert_at(store: Store, tokens: list[str], value: Any) -> Change:
    """Insert ``value`` into an array before the index ``tokens`` ends with."""
    where = to_pointer(tokens)
    if not tokens:
        raise bad("insert needs an array position, like '/items/0'.",
                  "Use set '' to replace the whole document.")
    kind = store.kind(tokens[:-1])
    if kind != "array":
        raise bad(f"Cannot insert at '{where}': {to_pointer(tokens[:-1]) or 'the root'} is "
                  f"{a(kind)}, not an array.", "insert works on arrays; use set to add a key.")
    index = store.add(tokens, value)
    return Change(to_pointer(tokens[:-1] + [str(index)]), None, value)


def remove_at(store: Store, tokens: list[str]) -> Change:
    """Remove the value at ``tokens`` (never the whole document)."""
    if not tokens:
        raise bad("Cannot remove the whole document.", "Remove a member, or set '' to replace it.")
    old = store.get(tokens)
    store.remove(tokens)
    return Change(to_pointer(tokens), old, None)
