"""Small words every message uses: type names, articles, previews, JSON equality, the one
cut of long text, and the face-neutral names of options and operations (:func:`term`) that
each face says in its own words (:func:`for_face`)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

_TYPE_NAMES = {type(None): "null", bool: "boolean", int: "number", float: "number",
               str: "string", list: "array", dict: "object"}
PREVIEW_CHARS = 40


def type_name(value: Any) -> str:
    """jq's name of the type of a parsed JSON value, or of a Python value as jq is given it
    (a dict or list subclass, a tuple or set an array, bytes or a date a string, as
    ``sources.formats`` writes them; ``number`` for any other number type)."""
    name = _TYPE_NAMES.get(type(value))
    if name is not None:
        return name
    import datetime

    return ("object" if isinstance(value, dict) else "array" if isinstance(
        value, (list, tuple, set, frozenset)) else "string" if isinstance(
        value, (str, bytes, datetime.date, datetime.time)) else "number")


def a(noun: str) -> str:
    """``noun`` with its indefinite article: ``an array``, ``a string``.

    >>> a("object"), a("number")
    ('an object', 'a number')
    """
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless one (never ``output(s)``).

    >>> count(1, "output"), count(2, "output"), count(0, "error")
    ('1 output', '2 outputs', '0 errors')
    """
    return f"{n:,} {noun}{'s' * (n != 1)}"


def preview(value: Any, width: int = PREVIEW_CHARS) -> str:
    """A value's JSON text cut to ``width`` characters (``...`` marks the cut), as gojq and
    jq preview values in errors; never a whole document."""
    if isinstance(value, str) and len(value) > 4 * width:
        value = value[: 4 * width]  # never serialise a huge string to show 40 characters
    text = json_text(value, default=repr)
    return text if len(text) <= width else text[: width - 3] + "..."


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` that any UTF-8 stream can take:
    a lone surrogate (Python's json reads ``"\\ud800"``) stays a ``\\uXXXX`` escape, NaN and
    the infinities are written as jq prints them (:func:`as_jq_prints`).

    >>> json_text(["\\ud800é"])
    '["\\\\ud800é"]'
    """
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except ValueError as exc:  # NaN or an infinity (a YAML .nan, .inf): no JSON
        if "Out of range float" not in str(exc):
            raise
        text = json.dumps(as_jq_prints(value), ensure_ascii=False, **options)
    if _LONE_SURROGATE.search(text) is None:
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_LARGEST = 1.7976931348623157e308  # jq's number for an infinity


def as_jq_prints(value: Any) -> Any:
    """``value`` with NaN as null and an infinity as the largest double of its sign, as
    jq 1.8.2 prints them."""
    if type(value) is float and not math.isfinite(value):
        return None if value != value else math.copysign(_LARGEST, value)
    if isinstance(value, dict):
        return {key: as_jq_prints(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_jq_prints(item) for item in value]
    return value


def without_lone_surrogates(value: Any) -> Any:
    """``value`` with each lone surrogate in its strings and keys replaced by U+FFFD (as jq
    reads them), for encoders that refuse them (pydantic's, in the MCP SDK)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {without_lone_surrogates(k): without_lone_surrogates(v)
                for k, v in value.items()}
    return value


def key_label(key: str) -> str:
    """A key as a tree of keys shows it: itself, or its JSON text where it would read as
    another row or another key (empty, spaces at an end, a line break or a control, the
    items' ``[]`` or a cut's ``...``/``…``)."""
    if key and key.isprintable() and key == key.strip() and key != "[]" and \
            not key.startswith(("...", "…")):
        return key
    return json.dumps(key, ensure_ascii=False)


def cut(text: str, limit: int, what: str = "characters") -> str:
    """``text`` kept within ``limit`` characters, saying how much was cut.

    >>> cut("abcdef", 3)
    'abc… (3 more characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more {what})"


def json_equal(left: Any, right: Any) -> bool:
    """Equality as JSON sees it: ``1 == 1.0``, but ``True != 1`` and ``"1" != 1`` (a NaN, as
    YAML's ``.nan`` reads, equals a NaN)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right or left != left and right != right  # NaN is one value here
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        return len(left) == len(right) and all(map(json_equal, left, right))
    return type(left) is type(right) and left == right


# ---------------------------------------------------------------- the faces' words in hints

FACES = ("notebook", "terminal", "agent")
"""Who reads a hint: the magics, the ``jqmagic`` command, an agent calling the tools."""

TERMS: dict[str, dict[str, str | None]] = {
    # What each face calls an option, an operation or a setting (None: it has no such
    # thing, and a sentence naming it is left out); {0}, {1} are the term's arguments.
    # options
    "timeout": {"notebook": "--timeout", "terminal": "--timeout",
                "agent": "the timeout parameter"},
    "jsonl": {"notebook": "--jsonl", "terminal": "--jsonl",
              "agent": "JSON Lines (one value per line, in a .jsonl file)"},
    "yaml": {"notebook": "--yaml", "terminal": "--yaml", "agent": "query_yaml"},
    "jsonc": {"notebook": "--jsonc", "terminal": "--jsonc", "agent": None},
    "exec": {"notebook": "--exec", "terminal": "--exec", "agent": "the jq tool's exec"},
    "file": {"notebook": "--file (file=... in Python)", "terminal": "a FILE argument",
             "agent": "file"},
    "input": {"notebook": "--input (text=... in Python)", "terminal": "--input",
              "agent": "input"},
    "path": {"notebook": "--path", "terminal": "--path", "agent": "path"},
    "stats": {"notebook": "--stats", "terminal": "--stats", "agent": "stats"},
    "format": {"notebook": "--format {0}", "terminal": "--format {0}",
               "agent": 'format "{0}"'},
    "match": {"notebook": "--match", "terminal": "--match", "agent": "match"},
    "where": {"notebook": "--where", "terminal": "--where", "agent": "match.where"},
    "match_example": {"notebook": "--match {0} --where '{1}'",
                      "terminal": "--match {0} --where '{1}'",
                      "agent": 'match {{"arrayPath": "{0}", "where": {1}}}'},
    "arg": {"notebook": "--arg {0} VALUE", "terminal": "--arg {0} VALUE",
            "agent": 'args {{"{0}": VALUE}}'},
    "bind": {"notebook": "--arg {0} VALUE or --argjson {0} JSON, or define a "
                         "JSON-serializable Python variable {0}",
             "terminal": "--arg {0} VALUE or --argjson {0} JSON",
             "agent": 'args {{"{0}": VALUE}}'},
    "indent": {"notebook": "--indent N or --tab", "terminal": "--indent N or --tab",
               "agent": None},
    "slurp": {"notebook": "-s", "terminal": "-s", "agent": "slurp=true"},
    "null_input": {"notebook": "-n", "terminal": "-n", "agent": "null_input=true"},
    # operations
    "inspect": {"notebook": "%inspect SOURCE --path '{0}'", "terminal":
                "jqmagic inspect FILE --path '{0}'", "agent": 'json_inspect with path "{0}"'},
    "inspect_stream": {"notebook": "%inspect SOURCE --stream", "terminal":
                       "jqmagic inspect FILE --stream", "agent": None},
    "inspect_bare": {"notebook": "%inspect", "terminal": "jqmagic inspect",
                     "agent": "json_inspect"},
    "query": {"notebook": "jq (%jq)", "terminal": "jq (jqmagic query)", "agent": "the jq tool"},
    # who may open the sandbox up
    "allow_root": {"notebook": "%config JqMagic.allowed_roots = [...] (or JQMAGIC_ALLOWED_ROOTS)",
                   "terminal": "jqmagic mcp --allow-root DIR (or jqmagic tool; or "
                               "JQMAGIC_ALLOWED_ROOTS)",
                   "agent": "ask the user to restart the tools with that folder allowed "
                            "(allow-root, or JQMAGIC_ALLOWED_ROOTS)"},
    "allow_exec": {"notebook": "%config JqMagic.exec_allowed = True (or "
                               "JQMAGIC_EXEC_ALLOWED=1)",
                   "terminal": "jqmagic mcp --allow-exec (or jqmagic tool; or "
                               "JQMAGIC_EXEC_ALLOWED=1)",
                   "agent": "ask the user to restart the tools with commands allowed "
                            "(allow-exec, or JQMAGIC_EXEC_ALLOWED=1)"},
    "stream_eval": {"notebook": "--stream-eval", "terminal": "--stream-eval", "agent": None},
    "doc_budget": {"notebook": "%config JqMagic.doc_cache_bytes = N",
                   "terminal": None, "agent": None},
    "dask": {"notebook": "--dask", "terminal": "--dask", "agent": None},
    "fetch_jq": {"notebook": "--jq", "terminal": "--jq", "agent": None},
    "fetch_raw": {"notebook": "--raw", "terminal": "--raw", "agent": None},
    # a whole sentence only one face has
    "target_variable": {"notebook": "The target may also be a Python variable.",
                        "terminal": None, "agent": None},
}
_TERM = re.compile(r"⟨(\w+)((?:\|[^|⟨⟩]*)*)⟩")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=\S)")


def term(name: str, *arguments: str) -> str:
    """A face-neutral name of an option, operation or setting, for a hint or message the
    core writes; each face says it in its own words (:func:`for_face`).

    >>> for_face(f"Raise the limit with {term('timeout')}.", "agent")
    'Raise the limit with the timeout parameter.'
    >>> for_face(f"Use {term('inspect', '/users')}.", "terminal")
    "Use jqmagic inspect FILE --path '/users'."
    """
    if name not in TERMS:
        raise ValueError(f"no term {name!r}")
    return "⟨" + name + "".join(f"|{a}" for a in arguments) + "⟩"


def terms(text: str) -> set[str]:
    """The names of the terms ``text`` uses."""
    return {m[1] for m in _TERM.finditer(text)}


def for_face(text: str, face: str) -> str:
    """``text`` with each :func:`term` in ``face``'s words; a sentence naming a term that
    ``face`` has no words for is left out."""
    if "⟨" not in text:
        return text
    if face not in FACES:
        raise ValueError(f"no face {face!r}")

    def say(match: re.Match) -> str:
        words = TERMS[match[1]][face]
        return "\0" if words is None else words.format(*match[2].split("|")[1:])

    sentences = _SENTENCE_END.split(_TERM.sub(say, text))
    return " ".join(s for s in sentences if "\0" not in s)
