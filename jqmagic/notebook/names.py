"""What a magic's SOURCE or TARGET word names in a notebook: a variable of the user's
namespace (a name or a dotted attribute, evaluated there), a URL (fetched; its JSON is the
input), inline JSON or a file. The magics' flags (``--file``, ``--var``, ``--url``) force
a reading."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

from jqmagic import flags
from jqmagic.core.errors import JqMagicError

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_URL = re.compile(r"^https?://", re.I)


def source_keywords(args: argparse.Namespace, words: list[str], namespace: dict[str, Any]
                    ) -> dict[str, Any]:
    """The core's source keywords for the SOURCE words and flags of a magic line: a bare
    word is a file, a Python variable, inline JSON or a URL, by what it names."""
    formats = {"jsonl": args.jsonl, "yaml": args.yaml, "jsonc": args.jsonc}
    named = flags.named_source(args, words)
    word = named.get("file") if isinstance(named.get("file"), str) else None
    if word is None or args.force_file:
        return {**formats, **named}
    if args.force_var:
        return {**formats, **_of_variable(variable(word, namespace))}
    if args.force_url or _URL.match(word):
        return {**formats, **_fetched(word, formats)}
    if _is_variable(word, namespace):
        try:
            return {**formats, **_of_variable(variable(word, namespace))}
        except JqMagicError:
            if not os.path.exists(word):  # customers.json beside a variable customers
                raise
    if word.isidentifier() and not os.path.exists(word):
        raise JqMagicError(
            "NOT_FOUND", f"{word} is neither a Python variable nor a file.",
            f"Run the cell that defines {word} first, or check the file's name.")
    if word[:1] in "{[" and not _is_json(word) and not os.path.exists(word):  # {a:1}
        raise JqMagicError(
            "INVALID_ARGUMENT", f"{word} is neither a file nor JSON: the line's quotes "
            "were read as a shell reads them.",
            "Quote inline JSON in single quotes: %jq .a '{\"a\": 1}', or give it with "
            "--input '...'.")
    return {**formats, "source": word}


def filter_first(program: str, words: list[str], args: argparse.Namespace,
                 namespace: dict[str, Any]) -> JqMagicError | None:
    """The error of a line that reads as SOURCE FILTER (``%jq data.json .name``): its first
    word a file, the next naming no source (no file, variable, JSON or URL), or none and no
    source given otherwise; None when the line does not read so."""
    if args.null_input or not os.path.isfile(os.path.expanduser(program)):
        return None
    file = shlex.quote(program)
    if not words:
        if flags.named_source(args, []):  # a source given by its option: -x, --input...
            return None
        return JqMagicError("INVALID_QUERY", f"No jq filter given: {program} is the source.",
                            f"Put the filter first: %jq '.' {file}")
    word = words[0]
    if os.path.exists(os.path.expanduser(word)) or _is_variable(word, namespace) or \
            _is_json(word) or _URL.match(word):
        return None
    return JqMagicError("INVALID_ARGUMENT", f"{program} is a file and {word} no source: "
                        "%jq takes the filter first, then the source.",
                        f"%jq {shlex.quote(word)} {file}")


def cell_without_source(cell: str, args: argparse.Namespace) -> JqMagicError | None:
    """The error of a %%jq cell given no source (none on the magic's line, no -n, no source
    option), naming the file its last line holds if it holds one; None otherwise."""
    if args.null_input or flags.named_source(args, []):
        return None
    last = (cell.strip().splitlines() or [""])[-1].strip()
    if os.path.isfile(os.path.expanduser(last)):
        return JqMagicError("AMBIGUOUS_SOURCE", f"No input was given: {last}, the cell's last "
                            "line, is read as part of the program.",
                            f"Put the source on the magic's line: %%jq {shlex.quote(last)} "
                            "(and drop that line).")
    return JqMagicError("AMBIGUOUS_SOURCE", "No input was given: %%jq reads its source on "
                        "the magic's line, the cell is the program.",
                        "e.g. %%jq data.json, or %%jq -n for a program without input.")


def _of_variable(value: Any) -> dict[str, Any]:
    """A variable's source keyword: bytes (a response's ``.content``, a file read in binary)
    are text read as a file's, as ``query(b"...")`` reads them; anything else a value."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"text": bytes(value)}
    return {"value": value}


def patch_target(word: str, args: argparse.Namespace, namespace: dict[str, Any]) -> Any:
    """What ``%jsonpatch`` edits: a dict / list variable, or else a file path."""
    if args.force_file or (not args.force_var and (Path(word).expanduser().exists()
                                                    or not _is_variable(word, namespace))):
        return word
    value = variable(word, namespace)
    if not isinstance(value, (dict, list)):
        raise JqMagicError(
            "INVALID_ARGUMENT", f"{word} is a {type(value).__name__}, not a dict or list.",
            "Patch a dict or list variable, or give --file for a file path.")
    return value


def variable(name: str, namespace: dict[str, Any]) -> Any:
    """The value of ``name`` (a name or a dotted attribute) in the user's namespace."""
    try:
        return eval(name, namespace)  # a name or dotted attribute, checked by the callers
    except Exception:
        raise JqMagicError("NOT_FOUND", f"No Python variable named {name}.",
                           "Define it first, or drop --var to read a file.") from None


def _is_json(word: str) -> bool:
    try:
        json.loads(word)
    except ValueError:
        return False
    return True


def _is_variable(word: str, namespace: dict[str, Any]) -> bool:
    return bool(_IDENTIFIER.match(word)) and word.split(".")[0] in namespace


def _fetched(url: str, formats: dict[str, bool | None]) -> dict[str, Any]:
    """``url``'s answer as the core's text source: its bytes as served (jq reads its
    numbers as written), JSON (whatever its type says, when it opens as JSON does), or JSON
    Lines, YAML or JSONC by the flags or the URL's suffix (PARSE_ERROR for another
    answer)."""
    from urllib.parse import urlsplit

    from jqmagic.core.options import Formats
    from jqmagic.core.web.fetch import fetch  # the web core: loaded when a URL is read

    result = fetch(url)
    kind = Formats(**formats).for_path(urlsplit(result.final_url).path)
    head = result.body.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]  # JSON served as text (raw GitHub)
    if result.value is None and kind == "json" and head not in (b"{", b"["):
        raise JqMagicError("PARSE_ERROR", f"{url} did not return JSON.",
                           "Give --jsonl or --yaml if it is JSON Lines or YAML, or use "
                           "%webfetch to read it as markdown.")
    return {"text": result.body, **({kind: True} if kind != "json" else {})}
