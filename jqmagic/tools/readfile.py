"""The read_file tool: a text file, or a window of its lines."""

from __future__ import annotations

import os
from typing import Annotated, Any

from jqmagic.core.errors import JqMagicError
from jqmagic.tools import transport
from jqmagic.tools.schema import Param
from jqmagic.tools.spec import tool

READ_MAX_TOKENS = 100_000


@tool(bounds_itself=True)
def read_file(
    file_path: Annotated[str, Param("Path of the text file to read.", min_length=1)],
    offset: Annotated[int | None, Param("First line to return (1-based).", minimum=1)] = None,
    limit: Annotated[int | None, Param("Most lines to return.", minimum=1)] = None,
    large_file_passthrough: Annotated[bool, Param(
        "Read a file over about 100,000 tokens anyway (one answer at a time: the answer "
        "says the offset to read on from). Prefer json_inspect, query_json or query_yaml "
        "for JSON and YAML.")] = False,
) -> dict[str, Any]:
    """Read a text file (or some of its lines). Refuses files over about 100,000 tokens.

    Use it for small files and for parts of big ones (`offset`, `limit`). For big JSON
    use json_inspect (structure) and query_json (parts); for big YAML use query_yaml.
    Returns `content`, `total_lines` and `next_offset` (the line to read on from, when
    lines are left; an answer stops at about 25,000 tokens and says so).

    Examples:
    - Whole file: file_path="README.md"
    - Lines 100-199: file_path="app.log", offset=100, limit=100
    """
    from jqmagic.core import sources

    files = sources.resolve_files(file_path)
    if len(files) != 1:
        raise JqMagicError("INVALID_ARGUMENT", f"{file_path} names {len(files)} files.",
                           "Name one file.")
    path = files[0]
    whole = offset is None and limit is None
    if whole and not large_file_passthrough:
        _refuse_large(path, (os.path.getsize(path) + 3) // 4)
    start = (offset or 1) - 1
    window, total, long_line, odd = _line_window(path, start, limit,
                                                 transport.content_budget())
    end = start + len(window)
    out: dict[str, Any] = {"path": path, "content": "\n".join(window), "total_lines": total,
                           "offset": start + 1,
                           "next_offset": end + 1 if end < total else None}
    if long_line:
        out.update(_long_line(path, end, long_line))
    elif end < total and (limit is None or end < start + limit):
        more = f", limit={limit - len(window)}" if limit else ""
        step = {"offset": end + 1, **({"limit": limit - len(window)} if limit else {})}
        out.update(truncated=True, next_arguments=step,
                   message=f"Showing lines {start + 1:,}-{end:,} of {total:,} (one answer "
                           f"holds about {transport.tokens():,} tokens). Read on with "
                           f"offset={end + 1}{more}.")
    if not window and start >= total:
        out["message"] = f"No lines at offset {start + 1}: the file has {total:,} lines."
    if out["next_offset"] and "next_arguments" not in out:  # the caller's window
        out["next_arguments"] = {"offset": out["next_offset"]}
    if odd:
        said = f"Line {odd:,} holds bytes that are not UTF-8: each is shown as U+FFFD, as " \
               "jq -R reads them."
        out["message"] = f"{out['message']} {said}" if out.get("message") else said
    return out


def _line_window(path: str, start: int, limit: int | None,
                 budget: int) -> tuple[list[str], int, str, int]:
    """Lines ``start`` to ``start + limit`` of a UTF-8 file, as many as fit in ``budget``
    characters (escaped, as the answer carries them), and how many lines it has, read a
    line at a time: a window of a 2 GB file costs the window, not the file. The third item
    is the start of the line that did not fit, when it alone is over the budget; the
    fourth the number of the first line shown with bytes that are not UTF-8 (0: none),
    each odd sequence a U+FFFD as ``jq -R`` reads it."""
    import jqmagic.core.jqutf8  # noqa: F401 (registers the "jq-string" error handler)
    from jqmagic.core import sources

    kept: list[str] = []
    total, size, full, long_line, odd = 0, 0, False, "", 0
    with open(sources.open_file(path), "rb") as handle:
        for total, raw in enumerate(handle, 1):
            if full or total <= start or (limit is not None and total > start + limit):
                continue
            if total == 1:
                sources.check_encoding(path, raw[:4])
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                line = raw.decode("utf-8", "jq-string").rstrip("\r\n")
                odd = odd or total
            size += transport.escaped_size(line) + 2
            if size > budget:
                full = True
                if not kept:
                    long_line = transport.text_page(line, 0, budget)
                continue
            kept.append(line)
    return kept, total, long_line, odd


def _long_line(path: str, number: int, start: str) -> dict[str, Any]:
    """Line ``number`` (0-based) is alone over one answer: its start, and what reads it."""
    kind = os.path.splitext(path)[1].lower()
    instead = "json_inspect and query_json" if kind in (".json", ".jsonl", ".ndjson") else \
        "query_yaml" if kind in (".yaml", ".yml") else "the jq tool (raw=true)"
    return {"content": start, "truncated": True, "next_offset": number + 2,
            "next_arguments": {"offset": number + 2},
            "message": f"Line {number + 1:,} alone is over one answer (about "
                       f"{transport.tokens():,} tokens): its first {len(start):,} characters "
                       f"are shown. Read its data with {instead}; read on from the next line "
                       f"with offset={number + 2}."}


def _refuse_large(path: str, tokens: int) -> None:
    if tokens <= READ_MAX_TOKENS:
        return
    kind = os.path.splitext(path)[1].lower()
    if kind in (".json", ".jsonl", ".ndjson", ".jsonc"):
        instead = "Use json_inspect to see its structure, then query_json to read parts."
    elif kind in (".yaml", ".yml"):
        instead = "Use query_yaml to read parts of it."
    else:
        instead = "For JSON or YAML data use json_inspect, query_json or query_yaml instead."
    refused = JqMagicError(
        "TOO_LARGE", f"{path} is about {tokens:,} tokens, over the {READ_MAX_TOKENS:,}-token "
        "limit of read_file.",
        f"{instead} Or read fewer lines with offset and limit (e.g. offset=1, limit=200), or "
        "set large_file_passthrough=true to read it anyway.")
    refused.next_arguments = {"offset": 1, "limit": 200}  # type: ignore[attr-defined]
    raise refused
