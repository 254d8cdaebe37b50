"""jq's missing ``-i``: edit each named file (a glob names several) by a jq program, each
on its own; one that fails changes nothing and the others go on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import patch
from jqmagic.core.patch.result import PatchResult
from jqmagic.core.sources import resolve_files
from jqmagic.core.words import count as counted


def edit_files(program: str, files: list[str], dry_run: bool = False,
               args: dict[str, Any] | None = None
               ) -> Iterator[tuple[str, PatchResult | JqMagicError]]:
    """Each file the names and globs in ``files`` name, with its edit's result or error
    (``args``: the program's ``$name`` bindings)."""
    if not files:
        raise JqMagicError("INVALID_ARGUMENT", "-i edits files, and none was named.",
                           "Name the files: -i '.version = \"2\"' package.json")
    for path in each_file(files):
        try:
            yield path, patch(path, jq=program, args=args, dry_run=dry_run)
        except JqMagicError as exc:
            yield path, exc


def edit_in_place(program: str, files: list[str], dry_run: bool, face: str = "terminal",
                  args: dict[str, Any] | None = None) -> tuple[list[str], bool]:
    """``-i``: the lines to show (each failure in ``face``'s words: code, message, detail
    and hint), and whether every file succeeded (``args``: --arg / --argjson's bindings)."""
    lines, ok = [], True
    for path, outcome in edit_files(program, files, dry_run, args):
        if isinstance(outcome, JqMagicError):
            lines.append(f"{path}: {outcome.render(face)}")
            ok = False
            continue
        changed = counted(len(outcome.changes) if outcome.changed else 0, "value")
        lines.append(f"{path}: {changed} changed" + (" (dry run: nothing written)"
                                                     if dry_run else ""))
        if dry_run and outcome.diff:
            lines.append(outcome.diff.rstrip("\n"))
    return lines, ok


def each_file(names: list[str]) -> list[str]:
    """The files the names and globs name (a missing one kept, for its edit to report)."""
    found = []
    for name in names:
        try:
            found += resolve_files(name)
        except JqMagicError:
            found.append(name)
    return found
