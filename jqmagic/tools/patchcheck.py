"""What a json_patch call changed, and the edits that look like mistakes.

An agent that sets ``{"replicas": 3}`` on a Deployment's ``/spec`` replaces the whole
subtree; one that sets ``/config/timout`` adds a key next to ``timeout``. Both are refused
unless the call says ``force=true``, with the call that was probably meant (``merge``, the
existing key). Every answer lists the paths replaced, added and removed, with sizes.
"""

from __future__ import annotations

from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.pointers import parse_pointer, to_pointer
from jqmagic.core.words import a, json_text, type_name

LISTED = 20  # paths listed in each of replaced / added / removed


def size(value: Any) -> int:
    """Characters of ``value`` as compact JSON."""
    return len(json_text(value, separators=(",", ":")))


def report(result: Any) -> dict[str, Any]:
    """``replaced``, ``added`` and ``removed``: each change's path and sizes (at most
    :data:`LISTED` of each, then how many more)."""
    out: dict[str, list] = {"replaced": [], "added": [], "removed": []}
    for change in result.changes:
        if result.operation == "remove":
            out["removed"].append({"path": change.path, "size": size(change.previous)})
        elif change.previous is None:
            out["added"].append({"path": change.path, "size": size(change.new)})
        elif change.previous != change.new:
            out["replaced"].append({"path": change.path, "from_size": size(change.previous),
                                    "to_size": size(change.new)})
    for key, items in out.items():
        if len(items) > LISTED:
            out[key] = [*items[:LISTED], f"… {len(items) - LISTED:,} more"]
    return out


def check(result: Any, sibling_keys: Any) -> None:
    """PATCH_CONFLICT when a planned ``set`` (``result``, a dry run) replaces an object or
    array with a smaller one, or adds a key one typo away from an existing one
    (``sibling_keys(parent_pointer)`` gives the keys beside it)."""
    for change in result.changes:
        old, new = change.previous, change.new
        if isinstance(old, (dict, list)) and _smaller(old, new):
            kind = "object" if isinstance(old, dict) else "array"
            raise JqMagicError(
                "PATCH_CONFLICT", f"This set would replace the {kind} at "
                f"{repr(change.path) if change.path else 'the root'} "
                f"({_members(old)}, {size(old):,} characters) with {_members(new)}.",
                "To change only the keys you give, use operation=merge. To replace it "
                "anyway, call again with force=true.")
        if old is None:
            tokens = parse_pointer(change.path)
            if not tokens:
                continue
            keys = [k for k in sibling_keys(to_pointer(tokens[:-1])) if k != tokens[-1]]
            close = _typo_of(tokens[-1], keys)
            if close is not None:
                fixed = to_pointer([*tokens[:-1], close])
                raise JqMagicError(
                    "PATCH_CONFLICT", f"This set would add the key {tokens[-1][:100]!r} beside "
                    f"the existing {close!r}.",
                    f"Did you mean path {fixed}? To add the new key anyway, call again with "
                    "force=true.")


def _smaller(old: Any, new: Any) -> bool:
    if not isinstance(new, (dict, list)) or type(new) is not type(old):
        return True
    return len(new) < len(old)


def _members(value: Any) -> str:
    if isinstance(value, dict):
        return f"an object of {len(value):,} key{'s' * (len(value) != 1)}"
    if isinstance(value, list):
        return f"an array of {len(value):,} element{'s' * (len(value) != 1)}"
    return "null" if value is None else a(type_name(value))


def _typo_of(key: str, keys: list[str]) -> str | None:
    """The existing key ``key`` probably misspells: the same but for case, or one edit
    away (a letter added, dropped, changed or two swapped) from a key of four characters
    or more, two from one of eight or more.

    >>> _typo_of("nmae", ["name", "value"]), _typo_of("timout", ["timeout"])
    ('name', 'timeout')
    >>> _typo_of("region", ["regions_list", "name"]), _typo_of("node2", ["node1"])
    (None, None)
    """
    lowered = {k.lower(): k for k in keys}
    if key.lower() in lowered:
        return lowered[key.lower()]
    if len(key) < 4:
        return None
    allowed = 2 if len(key) >= 8 else 1
    close = [k for k in keys if abs(len(k) - len(key)) <= allowed
             and _edits(key, k, allowed) <= allowed and not _numbered(key, k)]
    return min(close, key=lambda k: _edits(key, k, allowed)) if close else None


def _numbered(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one name with different numbers (``node1``, ``node2``)."""
    return a.rstrip("0123456789") == b.rstrip("0123456789") and a != b


def _edits(a: str, b: str, most: int) -> int:
    """Optimal string alignment distance of ``a`` and ``b`` (insertions, deletions,
    substitutions, adjacent swaps), or ``most + 1`` once it is past ``most``."""
    previous, current = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > most:
            return most + 1
    return current[-1]
