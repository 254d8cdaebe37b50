"""The one option table: every flag's spelling, help text and core keyword, from which both
the command line's argparse parsers and the magics' arguments are made.

A flag is spelt as jq spells it (``-r/--raw-output``); jqmagic's own flags are spelt once
for every face. Flags a face does not have (the magic's ``--var``, the command line's
file arguments) say so in ``faces``.
"""

from __future__ import annotations

import os
import sys

from jqmagic.core.errors import JqMagicError

TYPE_CHECKING = False  # typing costs every command's start-up (it imports re): not imported
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterable
    from typing import Any

CLI, MAGIC = "cli", "magic"


class Flag:
    """One option: its spellings, the core keyword it sets, its help and its argparse kind
    (a plain class: the table is made at every command's start-up)."""

    __slots__ = ("action", "choices", "default", "faces", "help", "keyword", "metavar",
                 "names", "type")

    def __init__(self, names: tuple[str, ...], keyword: str, help: str,  # noqa: A002
                 action: str = "store_true", type: Callable[[str], Any] | None = None,  # noqa: A002
                 metavar: str | tuple[str, ...] | None = None, default: Any = None,
                 choices: tuple[str, ...] | None = None,
                 faces: tuple[str, ...] = (CLI, MAGIC)):
        self.names, self.keyword, self.help, self.action = names, keyword, help, action
        self.type, self.metavar, self.default, self.choices = type, metavar, default, choices
        self.faces = faces

    def __repr__(self) -> str:
        return f"Flag({self.names!r}, {self.keyword!r})"

    # what jqmagic/cli/jqargs.py reads of an option, as argparse's actions name it
    @property
    def option_strings(self) -> tuple[str, ...]:
        return self.names

    @property
    def dest(self) -> str:
        return self.keyword

    @property
    def nargs(self) -> int | str | None:
        """argparse's: 0 for a switch, "?" for an optional value, 2 for a pair, None for
        one value."""
        return {"pair": 2, "optional": "?", "store": None, "append": None}.get(self.action, 0)

    def argparse_options(self) -> dict[str, Any]:
        """The keyword arguments of ``add_argument`` for this flag."""
        options: dict[str, Any] = {"dest": self.keyword, "help": self.help}
        if self.action == "pair":
            options.update(nargs=2, action="append", default=[])
        elif self.action == "optional":  # the flag alone gives "", else its value
            options.update(nargs="?", const="", action="store", default=None)
        elif self.action == "append":
            options.update(action="append", default=[])
        else:
            options.update(action=self.action, default=self.default)
        if self.type is not None:
            options["type"] = self.type
        if self.metavar is not None:
            options["metavar"] = self.metavar
        if self.choices is not None:
            options["choices"] = self.choices
        return options


_ADDRESS = r"^([a-z]+://)?([\w.-]+|\[[0-9A-Fa-f:.]+\]):\d+$"


def _refused(message: str) -> Exception:
    """argparse's complaint about a value (imported only when a value is refused)."""
    import argparse

    return argparse.ArgumentTypeError(message)


def _dask_address(text: str) -> str:
    """A scheduler address (``tcp://host:8786``, ``host:8786``); anything else is refused, so
    that ``--dask FILTER`` is not read as an address."""
    import re

    if text and not re.match(_ADDRESS, text):  # "" is the flag alone (argparse checks it too)
        raise _refused(
            f"{text!r} is not a scheduler address (tcp://host:8786); put --dask after the "
            "filter and the files to start a local cluster")
    return text


def _cores(text: str) -> int:
    """``--parallel``'s count: every core when the flag stands alone (``""``)."""
    if not text:
        return os.cpu_count() or 1
    if not text.isdigit():
        raise _refused(
            f"{text!r} is not a count of workers: write --parallel=N, or --parallel alone "
            "for every core")
    return int(text)


def _count(text: str) -> int:
    """A count (``--limit``, ``--depth``...): a whole number, 0 or more."""
    if not text.strip().isdigit():
        raise _refused(f"takes a whole number of 0 or more, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    """``--timeout``: seconds, 0 or more."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise _refused(f"takes seconds (a number, 0 or more), not {text!r}")
    return seconds


def _switch(names: tuple[str, ...], keyword: str, help: str, **more: Any) -> Flag:  # noqa: A002
    return Flag(names, keyword, help, **more)


def _value(names: tuple[str, ...], keyword: str, help: str, **more: Any) -> Flag:  # noqa: A002
    return Flag(names, keyword, help, action="store", **more)


# What to read, and how: %jq, %inspect, jqmagic query, jqmagic inspect.
SOURCE = (
    _value(("--input",), "text", "inline JSON text as the input", metavar="JSON"),
    _value(("-x", "--exec"), "exec", "a shell command whose stdout is the input",
           metavar="CMD"),
    _value(("--payload",), "payload", "a stored payload (a result too big to show) as the "
           "input", metavar="ID"),
    _switch(("--jsonl",), "jsonl", "read JSON Lines (auto for .jsonl/.ndjson)", default=None),
    _switch(("--yaml",), "yaml", "read YAML, every document (auto for .yaml/.yml)",
            default=None),
    _switch(("--jsonc",), "jsonc", "read JSON with comments and trailing commas (auto for "
            ".jsonc)", default=None),
    _switch(("--file",), "force_file", "SOURCE is a file path or glob", faces=(MAGIC,)),
    _switch(("--var",), "force_var", "SOURCE is a Python variable", faces=(MAGIC,)),
    _switch(("--url",), "force_url", "SOURCE is a URL to fetch", faces=(MAGIC,)),
)

# How a jq program runs and prints, as jq spells it, plus jqmagic's bounds.
QUERY = (
    _switch(("-r", "--raw-output", "--raw"), "raw", "print strings without quotes"),
    _switch(("-c", "--compact-output", "--compact"), "compact", "one compact line per result"),
    _switch(("-s", "--slurp"), "slurp", "read every input into one array"),
    _switch(("-n", "--null-input"), "null_input", "run once with null as the input"),
    _switch(("-R", "--raw-input"), "raw_input", "each input line is a string"),
    _switch(("-S", "--sort-keys"), "sort_keys", "sort the keys of objects"),
    _switch(("--tab",), "tab", "indent with tabs"),
    _value(("--indent",), "indent", "spaces of indentation (0-7, default 2)", type=int,
           default=2, metavar="N"),
    Flag(("--arg",), "arg", "bind $NAME to the string VALUE", action="pair",
         metavar=("NAME", "VALUE")),
    Flag(("--argjson",), "argjson", "bind $NAME to the JSON value", action="pair",
         metavar=("NAME", "JSON")),
    Flag(("-L", "--library-path"), "library_paths", "a directory to search for jq modules",
         action="append", metavar="DIR"),
    _switch(("-a", "--ascii-output"), "ascii", "print non-ASCII characters as \\uXXXX"),
    _value(("--limit",), "limit", "results shown at most (default 100)", type=_count,
           metavar="N"),
    _switch(("--all",), "passthrough", "show every result (lift the result and token bounds)"),
    _value(("--timeout",), "timeout", "seconds the program may run (default 30)", type=_seconds,
           metavar="S"),
    Flag(("--parallel",), "parallel", "run a per-input program over several files on every "
         "core, or N worker processes with --parallel=N (results in input order)",
         action="optional", type=_cores, metavar="N"),
    _switch(("--stream-eval",), "stream_eval", "answer in one streaming pass over a big JSON "
            "file, memory bounded by one element (automatic past the document budget)"),
    Flag(("--dask",), "dask", "run the per-input program over the files on a Dask cluster: "
         "the current client, a scheduler ADDRESS, or a new LocalCluster", action="optional",
         type=_dask_address, metavar="ADDRESS"),
    _value(("--reduce",), "reduce", "with --dask or --parallel: run PROGRAM once on the "
           "array of every result (as jq -s does; from partial reductions where it can)",
           metavar="PROGRAM"),
    _switch(("--stream",), "stream_events", "read each input as jq's stream of [path, leaf] "
            "events (memory bounded by the deepest path, not the file)", faces=(CLI,)),
    _switch(("--stream-errors",), "stream_errors", "like --stream; a bad input ends in an "
            "error event instead of a parse error", faces=(CLI,)),
    _switch(("--no-cache",), "cache", "parse the file again instead of reusing its parsed "
            "tree", action="store_false", default=True),
    _switch(("-i", "--in-place"), "in_place", "edit each FILE in place with the program's "
            "result, writing only what changed (comments and formatting kept)"),
    _switch(("--dry-run",), "dry_run", "with -i: show the diff, write nothing"),
    _switch(("--clear-cache",), "clear_cache", "first forget every parsed file kept for later "
            "queries (alone: only that)", faces=(MAGIC,)),
    _value(("--to",), "to", "how to show the results (default: jq's text of each result; "
           "json: JupyterLab's JSON viewer)", choices=("json", "yaml", "lines", "df"),
           faces=(MAGIC,)),
    _value(("-o", "--out"), "out", "store every value in this Python variable",
           metavar="VAR", faces=(MAGIC,)),
    _switch(("--explain",), "explain", "run the program stage by stage on the input and show "
            "what each stage took, gave, dropped, where null and errors came from"),
    _switch(("--suggest",), "suggest", "find jq programs: FILTER is the output wanted (JSON; "
            "%%jq: the cell), SOURCE the input", faces=(MAGIC,)),
)

# What only the command line has: jq's output forms, exit status and program sources.
JQ_CLI = (
    _switch(("-j", "--join-output"), "join", "like -r, with no newline after each result",
            faces=(CLI,)),
    _switch(("--raw-output0",), "raw0", "like -r, with a NUL after each result",
            faces=(CLI,)),
    _switch(("--seq",), "seq", "write an ASCII RS before each result (RFC 7464)",
            faces=(CLI,)),
    _switch(("-e", "--exit-status"), "exit_status", "exit 1 when the last result is false or "
            "null, 4 when there is none", faces=(CLI,)),
    _switch(("-C", "--color-output"), "color", "colour the output (JQ_COLORS)", faces=(CLI,)),
    _switch(("-M", "--monochrome-output"), "monochrome", "never colour the output",
            faces=(CLI,)),
    _switch(("--unbuffered",), "unbuffered", "flush after each result", faces=(CLI,)),
    _switch(("--args",), "positional_args", "the remaining arguments are $ARGS.positional "
            "strings, not files", faces=(CLI,)),
    _switch(("--jsonargs",), "positional_json", "the remaining arguments are "
            "$ARGS.positional JSON values, not files", faces=(CLI,)),
    Flag(("--rawfile",), "rawfile", "bind $NAME to the text of FILE", action="pair",
         metavar=("NAME", "FILE"), faces=(CLI,)),
    Flag(("--slurpfile",), "slurpfile", "bind $NAME to the array of FILE's JSON values",
         action="pair", metavar=("NAME", "FILE"), faces=(CLI,)),
    _value(("-f", "--from-file"), "from_file", "read the program from FILE; the first "
           "argument is then an input", metavar="FILE", faces=(CLI,)),
    _switch(("-V", "--version"), "version", "print jq's version and exit", faces=(CLI,)),
    _switch(("-b", "--binary"), "binary", "accepted as jq accepts it (it only matters on "
            "Windows)", faces=(CLI,)),
)

HELP = _switch(("-h", "--help"), "help", "show this help", faces=(MAGIC,))
_OUT = _value(("-o", "--out"), "out", "store the answer (plain data) in this Python variable",
              metavar="VAR", faces=(MAGIC,))
_JSON = _switch(("--json",), "json", 'print the answer as JSON ({"success": ..., ...})',
                faces=(CLI,))

# %inspect and jqmagic inspect.
INSPECT = (
    _value(("-p", "--path"), "path", "JSON Pointer of the part to inspect", default=""),
    _value(("-d", "--depth"), "depth", "levels of children shown (default 2)", type=_count,
           default=2, metavar="N"),
    _value(("--format",), "format", "shape (merged, default), jqschema (the gh-aw filter) or "
           "jsonschema (2020-12)", choices=("shape", "jqschema", "jsonschema"),
           default="shape"),
    _switch(("--stats",), "stats", "per-path profiles: counts, missing, null, distinct, "
            "min/max, samples"),
    _switch(("--stream",), "stream", "read in one streaming pass (automatic for big files)",
            default=None),
    _switch(("--browse",), "browse", "open the SchemaBrowser widget", faces=(MAGIC,)),
    _switch(("-c", "--compact-output"), "compact", "print the shape on one line",
            faces=(CLI,)),
    _switch(("--all",), "passthrough", "print the shape however long (else past the bound "
            "it goes to the payload store)", faces=(CLI,)),
    _OUT,
)

# %jsonpatch and jqmagic patch.
PATCH = (
    _value(("--match",), "match", "edit the elements of this array that match --where",
           metavar="ARRAY"),
    _value(("--where",), "where", "properties a matching element has (JSON)", metavar="JSON"),
    _switch(("--every",), "every", "edit every match, not only the first"),
    _switch(("--dry-run",), "dry_run", "show the diff, change nothing"),
    _value(("--rfc6902",), "rfc6902", "apply an RFC 6902 JSON Patch from FILE ('-': stdin), "
           "all or nothing", metavar="FILE", faces=(CLI,)),
    _value(("--merge-patch",), "merge_patch", "apply an RFC 7386 merge patch from FILE "
           "('-': stdin)", metavar="FILE", faces=(CLI,)),
    _switch(("--json",), "json", "with --dry-run: print the result as JSON (the diff a string "
            "in it), not the diff as text", faces=(CLI,)),
    _switch(("--file",), "force_file", "TARGET is a file path", faces=(MAGIC,)),
    _switch(("--var",), "force_var", "TARGET is a Python variable", faces=(MAGIC,)),
    _switch(("--merge",), "merge", "cell: the cell is an RFC 7386 merge patch (default: RFC "
            "6902)", faces=(MAGIC,)),
    _OUT,
)

# %webfetch and jqmagic fetch.
FETCH = (
    _value(("--offset",), "offset", "first line to show (1-based)", type=_count, metavar="N"),
    _value(("--limit",), "limit", "lines shown at most", type=_count, metavar="N"),
    _switch(("--raw",), "raw", "HTML without cleaning (chrome included)"),
    _value(("--jq",), "jq", "run a jq filter on a JSON response", metavar="FILTER"),
    Flag(("-H", "--header"), "header", "an extra request header (repeatable)",
         action="append", metavar="'K: V'"),
    _value(("--max-bytes",), "max_bytes", "refuse bodies larger than this", type=_count,
           metavar="N", faces=(CLI,)),
    _switch(("--sandbox",), "sandbox", "refuse private, loopback and link-local addresses",
            faces=(CLI,)),
    _JSON,
    _OUT,
)

# %websearch and jqmagic search.
SEARCH = (
    _value(("--provider",), "provider", "search API (default brave)",
           choices=("brave", "google"), default="brave"),
    _value(("--count",), "count", "results (brave 1-20, google 1-10)", type=_count, default=10,
           metavar="N"),
    _value(("--offset",), "offset", "brave: page offset; google: results skipped", type=_count,
           default=0, metavar="N"),
    Flag(("--allow",), "allow", "keep only results from this domain (repeatable)",
         action="append", metavar="DOMAIN"),
    Flag(("--block",), "block", "drop results from this domain (repeatable)",
         action="append", metavar="DOMAIN"),
    _JSON,
    _OUT,
)

# jqmagic payloads: the payload store.
PAYLOADS = (
    _switch(("--clear",), "clear", "remove every stored payload", faces=(CLI,)),
)

# Keywords a face reads itself rather than passing to query().
FACE_ONLY = {"arg", "argjson", "to", "out", "clear_cache", "force_file", "force_var",
             "force_url", "text", "exec", "payload", "in_place", "dry_run", "explain",
             "suggest"} | {
                 f.keyword for f in JQ_CLI}


def for_face(flags: Iterable[Flag], face: str) -> list[Flag]:
    """The flags a face has."""
    return [flag for flag in flags if face in flag.faces]


def add_to_parser(parser: argparse.ArgumentParser, flags: Iterable[Flag], face: str) -> None:
    """Add ``flags`` to an argparse parser (the command line's subcommands)."""
    for flag in for_face(flags, face):
        parser.add_argument(*flag.names, **flag.argparse_options())


HELP_OPTION = Flag(("-h", "--help"), "help", "show this help and exit", action="help",
                  faces=(CLI,))
"""argparse's own -h/--help, which every command line parser has."""


def option_table(flags: Iterable[Flag], face: str) -> dict[str, Flag]:
    """Each option string of the ``flags`` a face has (and -h/--help) to its flag: what a
    command line's words are read by without argparse (:mod:`jqmagic.cli.jqargs`)."""
    return {name: flag for flag in [*for_face(flags, face), HELP_OPTION]
            for name in flag.names}


def read_options(words: list[str], table: dict[str, Flag]) -> Any:
    """The namespace argparse's ``parse_args(words)`` gives for option words already told
    apart (``-c``, ``--name``, ``--name=VALUE``), made without importing argparse (a
    command's start-up); None where argparse must answer itself: help, or a value it
    refuses, in its own words."""
    namespace = type(sys.implementation)  # types.SimpleNamespace, without importing types

    values: dict[str, Any] = {}
    for flag in dict.fromkeys(table.values()):  # each flag once, the table's order
        if flag.action == "help":  # argparse keeps no value for it
            continue
        default = [] if flag.action in ("append", "pair") else \
            None if flag.action == "optional" else flag.default
        if isinstance(default, str) and flag.type is not None:
            default = flag.type(default)
        values.setdefault(flag.keyword, default)
    for word in words:
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        flag = table.get(name)
        if flag is None or not _read(flag, eq, value, values):
            return None
    return namespace(**values)


def _read(flag: Flag, eq: str, value: str, values: dict[str, Any]) -> bool:
    """Set ``flag``'s value from one word; False when argparse must judge it."""
    if flag.action in ("store_true", "store_false"):
        values[flag.keyword] = flag.action == "store_true"
        return not eq
    if flag.action not in ("store", "append", "optional") or not (eq or flag.action ==
                                                                  "optional"):
        return False
    try:
        typed = flag.type(value) if flag.type is not None else value
    except Exception:  # noqa: BLE001 - argparse words the refusal
        return False
    if flag.choices is not None and typed not in flag.choices:
        return False
    if flag.action == "append":
        values[flag.keyword] = [*values[flag.keyword], typed]
    else:
        values[flag.keyword] = typed
    return True


def magic_arguments(flags: Iterable[Flag]) -> Callable[[Callable], Callable]:
    """A decorator adding ``flags`` (and ``-h``) to a magic, as ``@argument`` lines would."""
    from IPython.core.magic_arguments import argument

    chosen = [*for_face(flags, MAGIC), HELP]

    def decorate(func: Callable) -> Callable:
        for flag in reversed(chosen):
            func = argument(*flag.names, **flag.argparse_options())(func)
        return func

    return decorate


def query_keywords(namespace: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`jqmagic.query` that the QUERY and SOURCE flags set."""
    keywords = {flag.keyword: getattr(namespace, flag.keyword) for flag in QUERY + SOURCE
                if flag.keyword not in FACE_ONLY and hasattr(namespace, flag.keyword)}
    keywords["library_paths"] = keywords.get("library_paths") or []
    return {k: v for k, v in keywords.items() if v is not None}


def jq_args(namespace: argparse.Namespace) -> dict[str, Any]:
    """``$name`` bindings from ``--arg`` and ``--argjson`` (INVALID_JSON for bad JSON)."""
    from jqmagic.core.jsonarg import JsonText

    values: dict[str, Any] = dict(namespace.arg)
    for name, text in namespace.argjson:
        values[name] = JsonText.of(text, f"--argjson {name}")
    return values


def named_source(namespace: argparse.Namespace, words: list[str]) -> dict[str, Any]:
    """The source keyword the flags and SOURCE words name (``{}`` when none): the one
    place both faces resolve "exactly one source" (AMBIGUOUS_SOURCE otherwise)."""
    given = {kind: getattr(namespace, kind) for kind in ("text", "exec", "payload")
             if getattr(namespace, kind, None) is not None}
    if words:
        given["file"] = words if len(words) > 1 else words[0]
    if len(given) > 1:
        flags = {"text": "--input", "exec": "--exec", "payload": "--payload", "file": "SOURCE"}
        raise JqMagicError("AMBIGUOUS_SOURCE", "Several sources were given ("
                           f"{', '.join(flags[k] for k in sorted(given))}).",
                           "Give exactly one: a SOURCE, --input, --exec or --payload.")
    return given
