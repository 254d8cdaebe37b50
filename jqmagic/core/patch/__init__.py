"""Safe JSON edits: set / insert / remove / merge by pointer or by match, RFC 6902, RFC 7386.

Every operation runs against a *store*: for a file, :class:`TextDoc` (JSON, JSONC),
:class:`LinesDoc` (JSON Lines) or :class:`YamlDoc` (YAML), whose edits are splices of the
file's text, written atomically only if everything succeeded; or :class:`TreeStore` for a
Python dict / list (edited in place, undone on failure).

>>> doc = {"users": [{"id": 1, "status": "new"}]}
>>> patch(doc, "set", "/status", "active", match="/users", where={"id": 1})["targetPath"]
'/users/0/status'
>>> doc
{'users': [{'id': 1, 'status': 'active'}]}
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from jqmagic.core.errors import JqMagicError, too_deep
from jqmagic.core.patch.operations import plan
from jqmagic.core.patch.plan import MISSING, Edit, command_kwargs, parse_json
from jqmagic.core.patch.result import PatchResult
from jqmagic.core.patch.targets import patch_file, patch_value

__all__ = ["MISSING", "PatchResult", "command_kwargs", "parse_json", "patch"]


def patch(
    target: str | os.PathLike | dict | list,
    op: str | None = None,
    path: str | None = None,
    value: Any = MISSING,
    *,
    match: str | None = None,
    where: dict[str, Any] | None = None,
    every: bool = False,
    rfc6902: list[dict[str, Any]] | None = None,
    merge_patch: Any = MISSING,
    jq: str | None = None,
    args: dict[str, Any] | None = None,
    dry_run: bool = False,
) -> PatchResult:
    """Edit a JSON, JSONC, JSON Lines or YAML file (format kept, atomic write) or a Python
    dict / list in place.

    Args:
        target: a file path (``~`` expanded) or a dict / list, which is edited in place. A
            YAML stream of several documents, or a JSON Lines file, is the array of its
            documents: ``/0/...`` is inside the first.
        op: ``set`` (add or replace; creates missing parents; ``/arr/-`` appends),
            ``insert`` (into an array, before the index), ``remove`` or ``merge`` (deep-merge
            an object; never deletes keys).
        path: a JSON Pointer; with ``match``, a pointer inside each matched element.
        value: the new value (a Python value; None is JSON null).
        match, where: a pointer to an array and the properties its elements must have
            (shallow equality). ``set`` with an object and no ``path`` sets each key.
        every: edit every matching element, not only the first.
        rfc6902: a JSON Patch (list of operations), applied whole or not at all.
        merge_patch: an RFC 7386 merge patch.
        jq: a jq program giving the whole new document (``'.version = "2.0"'``), run on
            each document of a stream or line of JSON Lines; only the values that differ are
            written (jq's missing ``-i``, keeping every other byte).
        args: the jq program's ``$name`` bindings, as :func:`jqmagic.query` takes them
            (``--arg`` / ``--argjson``): ``jq='.version = $v', args={'v': '2.0'}``.
        dry_run: change nothing; the result carries a unified ``diff``.

    Give exactly one of ``op``, ``rfc6902``, ``merge_patch`` and ``jq``.

    Returns:
        A :class:`PatchResult`; as a mapping (``to_dict()``) it is
        ``{"status": "success", "operation", "targetPath", "previousValue", "newValue",
        "matched", "changed"}``: ``targetPath`` and both values are lists when the operation
        wrote several values (one per key, match or RFC 6902 operation; ``merge`` lists only
        the leaves it changed); ``previousValue`` is None where nothing was there;
        ``matched`` counts matched elements (1 for a pointer, the operations for RFC 6902);
        ``changed`` is False when the document already held the values. ``dryRun`` and a
        unified ``diff`` are added with ``dry_run``.

    Raises:
        JqMagicError: NOT_FOUND, INVALID_POINTER, INVALID_ARGUMENT, INVALID_JSON,
            INVALID_YAML, PATCH_CONFLICT (failed ``test``, the file changed meanwhile, or a
            YAML edit through an alias or merge key, or one whose format cannot be kept) or
            FILE_ERROR.
            A failed patch changes nothing.
    """
    operation, run = plan(Edit(op, path, value, match=match, where=where, every=every,
                               rfc6902=rfc6902, merge_patch=merge_patch, jq=jq, args=args))
    try:
        if isinstance(target, (dict, list)):
            return patch_value(target, operation, run, dry_run)
        if isinstance(target, (str, os.PathLike)):
            return patch_file(Path(os.path.expanduser(target)), operation, run, dry_run)
    except RecursionError:
        raise too_deep("The document", "Nothing was changed; patch it with a tool that "
                       "streams, or restructure it.") from None
    raise JqMagicError(
        "INVALID_ARGUMENT",
        f"Cannot patch a {type(target).__name__}.",
        "The target is a file path, a dict or a list.",
    )


