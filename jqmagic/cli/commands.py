"""The ``jqmagic`` command's subcommands: each a pair of functions, one adding its
arguments to a parser, one running it and returning the exit status; the parser
(:func:`build_parser`) and ``--version``. ``jqmagic query`` reads its words without this
module (:mod:`jqmagic.cli.jqcli`), which it asks only for help and a refusal's words."""

from __future__ import annotations

import sys

from jqmagic import flagerrors, flags
from jqmagic.core.errors import JqMagicError

TYPE_CHECKING = False  # typing itself costs a command's start-up (it imports re)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable


# ---------------------------------------------------------------- jqmagic query


# ---------------------------------------------------------------- jqmagic inspect


def _inspect_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?", help="a file or glob (default: stdin)")
    flags.add_to_parser(parser, flags.SOURCE + flags.INSPECT, flags.CLI)


def _run_inspect(args: argparse.Namespace) -> int:
    from jqmagic.core import payloads
    from jqmagic.core.options import Bounds
    from jqmagic.core.shape import shape
    from jqmagic.core.words import json_text

    source = flags.named_source(args, [args.source] if args.source is not None else [])
    if not source:
        source = {"text": sys.stdin.read()}
    result = shape(path=args.path, depth=args.depth, format=args.format, stats=args.stats,
                   stream=args.stream, jsonl=args.jsonl, yaml=args.yaml, jsonc=args.jsonc,
                   **source)
    text = json_text(result.value,
                     **({"separators": (",", ":")} if args.compact else {"indent": 2}))
    bound = Bounds.default().max_chars
    if args.passthrough or len(text) <= bound:
        print(text)
        return 0
    kept = payloads.store(text)  # too long to print: kept whole, and said where
    less = ("--depth N or --path POINTER" if args.format == "shape" else "--path POINTER "
            f"(the {args.format} has every level: --depth cuts the shape format only)")
    print(f"The {args.format} is {len(text):,} characters, over the {bound:,} a command "
          f"prints: it is in payload {kept.id} ({kept.path}). See less with {less}, or "
          "print it all with --all.", file=sys.stderr)
    return 0


# ---------------------------------------------------------------- jqmagic fetch / search


def _print_json(data: dict) -> None:
    from jqmagic.core.words import json_text

    print(json_text(data, indent=2))


def _fetch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="the http(s) URL to fetch")
    flags.add_to_parser(parser, flags.FETCH, flags.CLI)


def _run_fetch(args: argparse.Namespace) -> int:
    from jqmagic.core.web.fetch import fetch, parse_headers

    def show(result) -> None:
        if result.content:
            print(result.heading() + result.content)
        if result.next_offset is not None:
            print(f"Lines {result.offset}-{result.next_offset - 1} of {result.total_lines}. "
                  f"Read on with --offset {result.next_offset}.", file=sys.stderr)

    return _answer(args, lambda: fetch(args.url, offset=args.offset, limit=args.limit,
                                       raw=args.raw, jq=args.jq,
                                       headers=parse_headers(args.header),
                                       private_addresses=False if args.sandbox else None,
                                       max_bytes=args.max_bytes or None), show)


def _answer(args: argparse.Namespace, produce: Callable, show: Callable) -> int:
    """Run ``produce``; with --json print its result or its failure as JSON, else ``show``."""
    try:
        result = produce()
    except JqMagicError as exc:
        if not args.json:
            raise
        _print_json(exc.to_dict("terminal"))
        return 1
    if args.json:
        _print_json(result.to_dict())
    else:
        show(result)
    return 0


def _search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="+", help="the search terms")
    flags.add_to_parser(parser, flags.SEARCH, flags.CLI)


def _run_search(args: argparse.Namespace) -> int:
    from jqmagic.core.web.search import search

    return _answer(args, lambda: search(" ".join(args.query), provider=args.provider,
                                        count=args.count, offset=args.offset,
                                        allowed_domains=args.allow,
                                        blocked_domains=args.block),
                   lambda result: print(result.to_markdown()))


# ---------------------------------------------------------------- jqmagic patch


def _patch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", help="the JSON, JSONC, JSON Lines or YAML file to edit "
                        "(formatting is kept)")
    parser.add_argument("words", nargs="*", metavar="OP [POINTER] [VALUE]",
                        help="set, insert, remove or merge; a JSON Pointer; a JSON value")
    flags.add_to_parser(parser, flags.PATCH, flags.CLI)


def _json_file(name: str, what: str):
    """A patch file's JSON, read as every source is (the sandbox judges it)."""
    from jqmagic.core.patch import parse_json
    from jqmagic.core.sources.files import read_option_file

    return parse_json(sys.stdin.read() if name == "-" else read_option_file(name, what), what)


def _run_patch(args: argparse.Namespace) -> int:
    from jqmagic.core.patch import command_kwargs, patch

    try:
        kwargs = command_kwargs(args.words, args.match, args.where)
        if args.rfc6902:
            kwargs["rfc6902"] = _json_file(args.rfc6902, "--rfc6902")
        if args.merge_patch:
            kwargs["merge_patch"] = _json_file(args.merge_patch, "--merge-patch")
        done = patch(args.target, every=args.every, dry_run=args.dry_run, **kwargs)
    except JqMagicError as exc:
        said = exc.to_dict("terminal")
        _print_json({"status": "error", "code": exc.code, "message": said["error"],
                     "suggestion": said.get("hint", "")})
        return 1
    if args.dry_run and not args.json:  # a person reads the diff, as query -i --dry-run's
        text = done.summary(matched=args.match is not None)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    result = done.to_dict()
    for key in ("previousValue", "newValue"):
        result[key] = _bounded(result[key])
    _print_json(result)
    return 0


def _bounded(value, limit: int = 10_000):
    """A value whose JSON is longer than ``limit`` becomes a one-line description."""
    from jqmagic.core.words import json_text

    size = len(json_text(value))
    if size <= limit:
        return value
    kind = {dict: "object", list: "array"}.get(type(value), "value")
    count = f" of {len(value):,} members" if isinstance(value, (dict, list)) else ""
    return f"<{kind}{count}, {size:,} characters of JSON: not shown>"


# ---------------------------------------------------------------- jqmagic payloads


def _payloads_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_to_parser(parser, flags.PAYLOADS, flags.CLI)


def _run_payloads(args: argparse.Namespace) -> int:
    """The payload store: each payload (id, bytes, when written), oldest first, then the
    total; with --clear, every payload removed."""
    import contextlib
    import time

    from jqmagic.core import payloads, settings
    from jqmagic.core.words import count

    folder = payloads.payload_dir()
    if args.clear:
        gone = payloads.clear()
        print(f"Removed {count(len(gone), 'payload')}, {sum(r.size for r in gone):,} bytes, "
              f"from {folder}.")
        return 0
    refs = payloads.entries()
    for ref in refs:
        with contextlib.suppress(OSError):  # pruned meanwhile: left out
            written = time.strftime("%Y-%m-%d %H:%M", time.localtime(ref.path.stat().st_mtime))
            print(f"{ref.id}  {ref.size:>15,}  {written}")
    print(f"{count(len(refs), 'payload')}, {sum(r.size for r in refs):,} bytes, in {folder}; the "
          f"oldest are pruned past {settings.payload_budget():,} bytes "
          "(JQMAGIC_PAYLOAD_BUDGET). jqmagic payloads --clear removes them all.",
          file=sys.stderr)
    return 0


# ---------------------------------------------------------------- jqmagic tool / mcp


def _agents(module: str, name: str) -> Callable:
    """``name`` from the agents' face (``jqmagic/tools/``), loaded on use by its module's
    name as a console script names its entry point: the command line imports no other
    face, and ``jqmagic tool`` / ``jqmagic mcp`` are the same there as from a terminal."""
    import importlib

    return getattr(importlib.import_module(f"jqmagic.tools.{module}"), name)


def _tool_arguments(parser: argparse.ArgumentParser) -> None:
    _agents("protocol", "tool_arguments")(parser)


def _run_tool(args: argparse.Namespace) -> int:
    return _agents("protocol", "run_tool")(args)


def _mcp_arguments(parser: argparse.ArgumentParser) -> None:
    _agents("mcp", "mcp_arguments")(parser)


def _run_mcp(args: argparse.Namespace) -> int:
    return _agents("mcp", "run_mcp")(args)


def _browse_arguments(parser: argparse.ArgumentParser) -> None:
    from jqmagic.cli.browse import browse_arguments

    browse_arguments(parser)


def _run_browse(args: argparse.Namespace) -> int:
    from jqmagic.cli.browse import run_browse

    return run_browse(args)


# ---------------------------------------------------------------- the command


def _query_arguments(parser: argparse.ArgumentParser) -> None:
    from jqmagic.cli import jqcli

    jqcli.add_arguments(parser)


def _run_query(args: argparse.Namespace) -> int:
    from jqmagic.cli import jqcli

    return jqcli.run(args)


COMMANDS: list[tuple[str, str, Callable[[argparse.ArgumentParser], None],
                     Callable[[argparse.Namespace], int]]] = [
    ("query", "run a jq program over JSON, JSON Lines or YAML, as the jq command line does",
     _query_arguments, _run_query),
    ("inspect", "show the shape of a document (merged, jqschema or JSON Schema) as JSON",
     _inspect_arguments, _run_inspect),
    ("fetch", "fetch a URL as markdown (HTML), JSON or text", _fetch_arguments, _run_fetch),
    ("search", "search the web with Brave or Google", _search_arguments, _run_search),
    ("patch", "edit a JSON/JSONC file in place, keeping its formatting; prints the result as "
     "JSON (--dry-run: the diff)", _patch_arguments, _run_patch),
    ("payloads", "list the payload store (results too big to show), or --clear it",
     _payloads_arguments, _run_payloads),
    ("tool", "run an agent tool: one JSON request on stdin, one JSON response on stdout",
     _tool_arguments, _run_tool),
    ("mcp", "serve the agent tools over MCP on stdio (needs the mcp extra)", _mcp_arguments,
     _run_mcp),
    ("browse", "a jq box in the terminal: completion from the data, a live preview (needs "
     "the tui extra)", _browse_arguments, _run_browse),
]


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser,
                                                   dict[str, argparse.ArgumentParser]]:
    """The command's parser and each subcommand's (with ``only``, only that one gets its
    arguments: a command starts without importing what the others need)."""
    parser = flagerrors.usage_parser(
        prog="jqmagic", description="jq, shapes, patches and the web, for humans and agents.")
    parser.add_argument("-V", "--version", action=_version_action(), nargs=0,
                        help="print the versions of jqmagic, libjq and Python, and exit")
    subcommands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    subs = {}
    for name, summary, configure, run in COMMANDS:
        sub = subs[name] = subcommands.add_parser(name, help=summary, description=summary)
        if only in (None, name):
            configure(sub)
        sub.set_defaults(run=run, command=name)
    return parser, subs


def _version_action() -> type:
    """``jqmagic --version`` / ``-V``: the package's, libjq's and Python's versions."""
    import argparse

    class Version(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            print(version_text())
            parser.exit()

    return Version


def version_text() -> str:
    """``jqmagic 0.1.0 (libjq 1.8.2: vendored, -O2; Python 3.11.2)``."""
    from importlib.metadata import PackageNotFoundError, version

    from jqmagic.cli import jqcli
    from jqmagic.core.settings import libjq_build

    try:
        mine = version("jqmagic")
    except PackageNotFoundError:  # run from a source tree that was never installed
        mine = "(not installed)"
    return (f"jqmagic {mine} (libjq {jqcli.JQ_VERSION.removeprefix('jq-')}: "
            f"{libjq_build()}; Python {sys.version.split()[0]})")
