"""The words completion offers, each with what it is: keys from a merged shape (type and
presence), jq's builtins (arity), keywords, ``$names``, ``@formats``, and a SOURCE word's
files and variables."""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from typing import Any

from jqmagic.core.complete.context import identifier
from jqmagic.core.shape.node import Node

KEYWORDS = ("if", "then", "elif", "else", "end", "as", "def", "reduce", "foreach", "try",
            "catch", "label", "and", "or", "import", "include")
FORMATS = ("text", "json", "csv", "tsv", "html", "uri", "urid", "sh", "base64", "base64d",
           "base32", "base32d")
MAX_ENTRIES = 500  # a folder's entries read at most
_JSON_TYPES = (dict, list, tuple, str, int, float, bool, type(None))
_SHELL_NAMES = {"In", "Out", "exit", "quit", "get_ipython"}


@dataclass(frozen=True)
class Offer:
    """One completion: the ``text`` to insert, its ``kind`` (key, builtin, keyword,
    variable, format, file, folder) and ``type``, what a menu shows beside it
    (``"string, in 86 of 300"``, ``"map/1"``)."""

    text: str
    kind: str
    type: str


def keys(nodes: list[Node], prefix: str, form: str) -> list[Offer]:
    """The keys of the objects in ``nodes`` starting with ``prefix``, in the order first
    seen, written as ``form`` asks: ``field`` (``.a``, ``."a-b"``), ``member`` (``a``,
    ``"a-b"`` in an object construction) or ``quoted`` (``"a"``)."""
    seen: dict[str, list] = {}  # key -> [count, objects, {type: count}]
    for node in nodes:
        if not node.keys:
            continue
        objects = node.objects
        for key, child in node.keys.items():
            if not key.startswith(prefix):
                continue
            entry = seen.setdefault(key, [0, 0, {}])
            entry[0] += child.count
            entry[1] += objects
            for name, count in child.types.items():
                entry[2][name] = entry[2].get(name, 0) + count
    return [Offer(_written(key, form), "key", f"{_types(types)}, {_presence(count, objects)}")
            for key, (count, objects, types) in seen.items()]


def iterate(nodes: list[Node]) -> list[Offer]:
    """``.[]`` where the values are arrays (``.items.[]`` is jq 1.7's spelling of
    ``.items[]``), with what their elements are."""
    arrays = [node for node in nodes if node.items is not None and node.items.count]
    if not arrays:
        return []
    types: dict[str, int] = {}
    for node in arrays:
        for name, count in node.items.types.items():
            types[name] = types.get(name, 0) + count
    count = sum(node.items.count for node in arrays)
    return [Offer(".[]", "iterate", f"each of {count:,} elements: {_types(types)}")]


def _written(key: str, form: str) -> str:
    quoted = json.dumps(key, ensure_ascii=False)
    if form == "quoted":
        return quoted
    bare = identifier(key)
    if form == "member":
        return key if bare else quoted
    return f".{key}" if bare else f".{quoted}"


def _types(types: dict[str, int]) -> str:
    from jqmagic.core.shape.node import TYPE_ORDER

    return "|".join(t for t in TYPE_ORDER if t in types) or "none"


def _presence(count: int, objects: int) -> str:
    return f"in all {objects:,}" if count >= objects else f"in {count:,} of {objects:,}"


def builtins(prefix: str) -> list[Offer]:
    """jq's builtins and keywords starting with ``prefix``: ``map(`` for one taking
    arguments, ``length`` for one taking none (both when it comes in both forms)."""
    out = [Offer(word, "keyword", "keyword") for word in KEYWORDS
           if prefix and word.startswith(prefix)]
    for name, arities in _arities().items():
        if not name.startswith(prefix):
            continue
        if 0 in arities:
            out.append(Offer(name, "builtin", f"{name}/0"))
        taking = [a for a in arities if a]
        if taking:
            out.append(Offer(f"{name}(", "builtin", ", ".join(f"{name}/{a}" for a in taking)))
    return out


@functools.cache
def _arities() -> dict[str, list[int]]:
    """jq 1.8.2's public builtins (as libjq lists them) and their arities."""
    from jqmagic.core.query.failures import _builtins

    out: dict[str, list[int]] = {}
    for name, arity in sorted(_builtins()):
        if not name.startswith("_"):
            out.setdefault(name, []).append(arity)
    return out


def formats(prefix: str) -> list[Offer]:
    """jq's ``@formats`` starting with ``prefix``."""
    return [Offer(f"@{name}", "format", "format") for name in FORMATS if name.startswith(prefix)]


def variables(prefix: str, bound: list[str], given: dict[str, str],
              namespace: dict[str, Any] | None) -> list[Offer]:
    """``$names`` starting with ``prefix``: bound in the program, given (``--arg``...:
    ``given`` maps each to how), jq's own, and the namespace's JSON-like values (an
    unbound ``$name`` is looked up there)."""
    found: dict[str, str] = {}
    for name in bound:
        found.setdefault(name, "bound in the program")
    for name, how in given.items():
        found.setdefault(name, how)
    found.setdefault("ENV", "the environment")
    found.setdefault("__loc__", "file and line")
    for name, value in _namespace_values(namespace):
        found.setdefault(name, f"Python {_describe(value)}")
    return [Offer(f"${name}", "variable", how) for name, how in found.items()
            if name.startswith(prefix)]


def _namespace_values(namespace: dict[str, Any] | None):
    for name, value in (namespace or {}).items():
        if (isinstance(value, _JSON_TYPES) and not name.startswith("_")
                and name not in _SHELL_NAMES and name.isidentifier()):
            yield name, value


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return f"dict, {len(value):,} key{'s' if len(value) != 1 else ''}"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}, {len(value):,} item{'s' if len(value) != 1 else ''}"
    return type(value).__name__


def source_words(word: str, namespace: dict[str, Any] | None) -> list[Offer]:
    """What a SOURCE word being typed may become: the namespace's values, then the
    folders and files its text starts."""
    out = [Offer(name, "variable", f"Python {_describe(value)}")
           for name, value in _namespace_values(namespace)
           if name.startswith(word) and not isinstance(value, (int, float, bool, type(None)))]
    folder, start = os.path.split(word)
    where = os.path.expanduser(folder) or "."
    try:
        with os.scandir(where) as entries:
            found = []
            for entry in entries:
                if len(found) >= MAX_ENTRIES:
                    break
                if entry.name.startswith(start) and (start[:1] == "." or
                                                      not entry.name.startswith(".")):
                    found.append(entry)
    except OSError:
        return out
    for entry in sorted(found, key=lambda e: (not _is_dir(e), e.name)):
        text = os.path.join(folder, entry.name)
        if _is_dir(entry):
            out.append(Offer(text + "/", "folder", "folder"))
        else:
            out.append(Offer(text, "file", f"file, {_bytes(entry)}"))
    return out


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _bytes(entry: os.DirEntry) -> str:
    try:
        size = entry.stat().st_size
    except OSError:
        return "unreadable"
    if size < 1024:
        return f"{size:,} bytes"
    for unit in ("KB", "MB", "GB"):
        size /= 1024
        if size < 1024 or unit == "GB":
            break
    return f"{size:.1f} {unit}"
