"""The IPython magics: argument parsing only; each magic calls one core function.

jq syntax uses ``$name`` and ``{...}``, so no magic lets IPython expand variables in its
line (``@no_var_expand``); Python values reach jq explicitly (``--var``, ``--arg``) or as
unbound ``$name``s looked up in the user namespace.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import (
    Magics,
    line_cell_magic,
    line_magic,
    magics_class,
    no_var_expand,
)
from IPython.core.magic_arguments import argument, magic_arguments
from traitlets import Bool, Float, Int, List, Unicode, observe, validate

from jqmagic import flagerrors, flags
from jqmagic.core import settings as core_settings
from jqmagic.core.errors import JqMagicError, too_deep
from jqmagic.core.query import bounds, clear_cache, query
from jqmagic.core.words import count
from jqmagic.notebook import names
from jqmagic.notebook.display import payload_words
from jqmagic.notebook.outputs import Text, lines_text, yaml_text


class MagicError(UsageError):
    """A magic's error, shown as ``CODE: message`` and its hint, with no traceback and no
    "UsageError:" prefix (IPython shows ``_render_traceback_``'s lines as they are)."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


def usage_error(exc: JqMagicError) -> UsageError:
    """One short error in the notebook (IPython shows a UsageError without a traceback)."""
    error = MagicError(exc.render("notebook"))  # options and operations as the magics name them
    error.code = exc.code
    return error


def parse_line(magic, line: str):
    """Parse a magic's line with shell quoting rules (quotes removed, a ``#`` that starts
    a word ending it, as in a terminal)."""
    try:
        argv = shlex.split(_uncommented(line))
    except ValueError as exc:
        raise MagicError(f"INVALID_ARGUMENT: {exc} in the magic's line.\n"
                         "Hint: quote the jq filter with single quotes.") from None
    try:  # options anywhere on the line, as the command line takes them
        return magic.parser.parse_intermixed_args(argv)
    except UsageError as exc:  # argparse's own complaint, one line with a did-you-mean
        see = f"See %{magic.parser.prog} -h for the options."
        if "expected one argument" in str(exc):  # a value that starts with '-'
            see = "Write a value that starts with '-' as --option=VALUE. " + see
        raise usage_error(flagerrors.usage_error(str(exc), magic.parser, see,
                                                 _command_line_only(argv, magic.parser.prog))
                          ) from None


_NOTEBOOK_WAY = {  # what a notebook does instead of a jq option only the command line has
    "rawfile": "An unbound ${0} is the notebook variable {0}: {0} = jqmagic.query('.', "
               "file={1!r}, raw_input=True, slurp=True).value",
    "slurpfile": "An unbound ${0} is the notebook variable {0}: {0} = jqmagic.query('.', "
                 "file={1!r}, slurp=True).value",
    "positional_args": "Bind each value by name: --arg NAME VALUE",
    "positional_json": "Bind each value by name: --argjson NAME JSON",
    "from_file": "%%jq takes the program as the cell's body",
}


def _command_line_only(argv: list[str], prog: str) -> dict[str, str]:
    """What %jq says of each jq option only the command line has: whose it is, and the
    notebook's way where there is one (with the NAME and FILE given)."""
    said: dict[str, str] = {}
    for flag in flags.JQ_CLI if prog == "jq" else ():
        if flags.MAGIC in flag.faces:
            continue
        at = next((i for i, w in enumerate(argv) if w in flag.names), len(argv))
        given = argv[at + 1:at + 3]
        way = _NOTEBOOK_WAY.get(flag.keyword, "").format(*given, *["NAME", "FILE"][len(given):])
        said.update({name: f"{name} is jq's command line's (jqmagic query), not %jq's. "
                     f"{way}{'. ' * bool(way)}" for name in flag.names})
    return said


def _parsed(magic, line: str, needed: str = ""):
    """The magic's arguments from its line, or None once its help is printed (asked for
    with -h, or the argument ``needed`` left out)."""
    args = parse_line(magic, line)
    if args.help or (needed and not getattr(args, needed)):
        print(magic.parser.format_help())
        return None
    return args


def _magic(kind: Callable, options: tuple, *positional: str, **how: Any) -> Callable:
    """IPython's documented stack for one of these magics, in its order: a ``kind`` magic
    (line_magic, line_cell_magic) whose line IPython never $-expands, parsed by argparse:
    its one positional argument (``argument(*positional, **how)``), then the ``options``
    of the shared table (jqmagic.flags) and -h."""

    def stack(method: Callable) -> Callable:
        method = flags.magic_arguments(options)(kind(method))
        return no_var_expand(magic_arguments()(argument(*positional, **how)(method)))

    return stack


def _shell_chars(line: str) -> Iterator[tuple[int, str, bool]]:
    """Each character of ``line`` with its place, and whether a shell reads it plain:
    outside quotes and not escaped (a space there splits words, a ``#`` may start a
    comment)."""
    quote, escaped = None, False
    for at, char in enumerate(line):
        plain = not escaped and quote is None
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        yield at, char, plain


def _uncommented(line: str) -> str:
    """``line`` up to a ``#`` that starts a word outside quotes, as a shell reads it
    (``%jq .a data  # note``); a ``#`` inside a word or in quotes stays."""
    starts = True  # the next character starts a word
    for at, char, plain in _shell_chars(line):
        if plain and char == "#" and starts:
            return line[:at]
        starts = plain and char.isspace()
    return line


def _raw_words(line: str) -> list[str]:
    """The words of ``line`` as typed, quotes kept, split where a shell splits them."""
    words, word = [], ""
    for _, char, plain in _shell_chars(line):
        if plain and char.isspace():
            words, word = words + [word] * bool(word), ""
        else:
            word += char
    return words + [word] * bool(word)


def _quotes_said(query: Callable, line: str) -> Callable:
    """``query``, its refused program told how its line's quotes cut it where the line
    wrapped it in double quotes that its own strings' quotes closed (``%jq
    "select(.a == "x")" f`` ran ``select(.a == x)``): jq's message names an undefined x."""
    def run(program: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return query(program, *args, **kwargs)
        except JqMagicError as exc:
            cut = next((w for w in _raw_words(_uncommented(line))
                        if w[:1] == w[-1:] == '"' and "'" not in w
                        and w.count('"') - 2 > program.count('"')
                        and shlex.split(w) == [program]), None)
            if exc.code == "INVALID_QUERY" and cut:
                meant = line.replace(cut, f"'{cut[1:-1]}'", 1).strip()
                exc.hint = (f"The program's double quotes closed at its first \" (it ran as "
                            f"{program}): quote it with single quotes, %jq {meant}")
            raise
    return run


_DEFAULTS = core_settings.Settings()


@magics_class
class JqMagic(Magics):
    """%jq and %%jq, plus the settings every jqmagic magic shares (``%config JqMagic``)."""

    # Defaults come from the core's Settings: one place for every limit.
    max_results = Int(_DEFAULTS.max_results, help="Results shown at most, unless --all."
                      ).tag(config=True)
    max_tokens = Int(_DEFAULTS.max_tokens, help="About this many tokens of output at most."
                     ).tag(config=True)
    timeout = Float(_DEFAULTS.timeout, help="Seconds a jq program may run.").tag(config=True)
    exec_timeout = Float(_DEFAULTS.exec_timeout, help="Seconds an --exec command may run."
                         ).tag(config=True)
    exec_max_bytes = Int(_DEFAULTS.exec_max_bytes, help="Bytes an --exec command may print."
                         ).tag(config=True)
    doc_cache_bytes = Int(_DEFAULTS.doc_cache_bytes, help="Resident bytes of parsed files "
                          "kept for later queries (default: a quarter of physical memory, "
                          "at least 1 GiB).").tag(config=True)
    worker_memory = Int(_DEFAULTS.worker_memory, help="Bytes the query worker may map (0: "
                        "three quarters of physical memory).").tag(config=True)
    workers = Int(_DEFAULTS.workers, help="Query workers at most, side by side (0: one a "
                  "core plus one, 2 to 4).").tag(config=True)
    debug = Bool(False, help="Show tracebacks instead of one-line errors.").tag(config=True)
    sandbox = Bool(_DEFAULTS.sandbox, help="Confine files to allowed_roots, refuse --exec and "
                   "private web addresses (JQMAGIC_SANDBOX=1 turns it on too).").tag(config=True)
    allowed_roots = List(Unicode(), help="Folders the sandbox allows (default: the working "
                         "directory).").tag(config=True)
    exec_allowed = Bool(_DEFAULTS.exec_allowed, help="Let --exec run in the sandbox."
                        ).tag(config=True)

    @validate("max_results", "max_tokens", "timeout", "exec_timeout", "exec_max_bytes")
    def _positive(self, proposal):
        if proposal["value"] <= 0:
            raise ValueError(f"{proposal['trait'].name} must be positive")
        return proposal["value"]

    @observe("max_results", "max_tokens", "timeout", "exec_timeout", "exec_max_bytes",
             "doc_cache_bytes", "worker_memory", "workers", "sandbox", "allowed_roots",
             "exec_allowed")
    def _to_core(self, change):
        core_settings.configure(**{change["name"]: change["new"]})

    def run_core(self, operation, *args, **kwargs):
        """Call a core operation; its JqMagicError becomes a one-line UsageError."""
        try:
            return operation(*args, **kwargs)
        except JqMagicError as exc:
            if self.debug:
                raise
            before = getattr(exc, "result", None)
            if before is not None and before.total:  # shown as jq shows it, then the error
                from IPython.display import display

                display(before)
            raise usage_error(exc) from None
        except RecursionError:  # a value nested past Python's limit, wherever it surfaced
            if self.debug:
                raise
            raise usage_error(too_deep("The result", "Query a part of it, or print it with "
                                       "tojson (-r) as text.")) from None

    def source_kwargs(self, args, words: list[str]) -> dict[str, Any]:
        """The core's source keywords for the SOURCE words and flags of a magic line."""
        return self.run_core(names.source_keywords, args, words, self.shell.user_ns)

    def _store(self, name: str, value: Any, what: str) -> None:
        """``-o NAME``: keep ``value`` in the notebook's variable ``name`` and say so."""
        self.shell.user_ns[name] = value
        print(f"Stored {what} in {name}.")

    @_magic(line_cell_magic, flags.SOURCE + flags.QUERY, "words", nargs="*",
            help="FILTER then SOURCE (line); SOURCE only (cell)")
    def jq(self, line: str, cell: str | None = None):
        """Run a jq program over a file, glob, Python variable, inline JSON, URL or command.

        Line:  %jq FILTER [SOURCE] [options]
        Cell:  %%jq [SOURCE] [options]   (the cell is the program: comments and defs allowed)

        SOURCE is a path or glob, a Python variable, inline JSON, a URL, or -x CMD.
        Examples:
          %jq '.users[] | select(.active) | .name' users.json -r
          %jq 'map(.price) | add' orders
          %jq -n '[inputs | .id]' events.jsonl
        """
        if (args := _parsed(self.jq, line)) is None:
            return None
        words = list(args.words)
        if args.clear_cache:
            self.run_core(clear_cache)
            if not words and cell is None:
                print("Cleared the parsed files kept for later queries.")
                return None
        if cell is None:
            if not words:
                raise MagicError("INVALID_QUERY: No jq filter given.\nHint: %jq '.' data.json")
            program = words.pop(0)
            if swapped := names.filter_first(program, words, args, self.shell.user_ns):
                raise usage_error(swapped)
        else:
            program = cell
            if not words and (missing := names.cell_without_source(cell, args)):
                raise usage_error(missing)
        if args.in_place:
            from jqmagic.core.patch.inplace import edit_in_place

            lines, _ = self.run_core(edit_in_place, program, words, args.dry_run, "notebook",
                                     self.run_core(flags.jq_args, args) or None)
            return Text("\n".join(lines))
        if args.explain or args.suggest:  # the stages (a mime bundle), or programs found
            from jqmagic.core.explain import explain
            from jqmagic.core.suggest import suggest_for

            source = self.source_kwargs(args, words)
            if args.suggest:
                return self.run_core(suggest_for, program, **source)
            return self.run_core(explain, program, args=self.run_core(flags.jq_args, args),
                                 slurp=args.slurp, null_input=args.null_input,
                                 timeout=args.timeout, **source)
        keywords = {**flags.query_keywords(args), **self.source_kwargs(args, words)}
        keywords["passthrough"] = args.passthrough or args.out is not None or args.to == "df"
        if not keywords["passthrough"]:  # the notebook shows a bounded view; -o gets it all
            keywords.setdefault("limit", core_settings.settings.max_results)
        result = self.run_core(_quotes_said(query, line), program,
                               args=self.run_core(flags.jq_args, args),
                               namespace=self.shell.user_ns, **keywords)
        for message in result.messages:
            print(message, file=sys.stderr)
        if result.truncated and any(v is not None for v in result.values):  # not nulls
            result.message = bounds.and_then(result.message, "Use --all to show everything.")
        result.message = payload_words(result.message)
        if args.out:
            return self._store(args.out, result.value, count(result.total, "result"))
        return self._shown(result, args)

    def _shown(self, result, args):
        if args.to == "df":
            from jqmagic.notebook.dataframe import to_dataframe

            return self.run_core(to_dataframe, result.values)
        if args.to == "yaml":
            return Text(yaml_text(result.values), result.message)
        if args.to == "json":
            from jqmagic.notebook.display import JsonView

            return JsonView(result)
        if args.to == "lines":
            return Text(lines_text(result.values), result.message)
        return result

    @_magic(line_magic, flags.SOURCE + flags.INSPECT, "words", nargs="*",
            help="SOURCE: a path, glob, Python variable, JSON or URL")
    def inspect(self, line: str):
        """Show the shape of a document: keys, merged array elements, types, presence.

        %inspect SOURCE [--path POINTER] [--depth N] [--format shape|jqschema|jsonschema]
                        [--stats] [--stream] [--browse]
        Examples:
          %inspect api.json --path /items --depth 1
          %inspect manifest.json --stats
          %inspect users --browse
        """
        if (args := _parsed(self.inspect, line)) is None:
            return None
        kwargs = self.source_kwargs(args, list(args.words))
        if args.browse:
            from jqmagic.notebook.widget import SchemaBrowser

            kwargs = {k: v for k, v in kwargs.items() if k not in ("jsonl", "yaml", "jsonc")}
            return self.run_core(SchemaBrowser, path=args.path, stream=args.stream, **kwargs)
        from jqmagic.core.shape import shape

        result = self.run_core(shape, path=args.path, depth=args.depth, format=args.format,
                               stats=args.stats, stream=args.stream, **kwargs)
        if args.out:
            return self._store(args.out, result.value,
                               f"the shape of {result.path or 'the document'}")
        return result

    @_magic(line_magic, flags.FETCH, "url", nargs="?", help="the http(s) URL to fetch")
    def webfetch(self, line: str):
        """Fetch a web page as clean markdown, or a JSON API response as JSON.

        %webfetch URL [--offset N] [--limit N] [--raw] [--jq FILTER] [-H 'K: V'] [-o VAR]
        HTML keeps its main content (title, headings, links, lists, tables, code);
        JSON stays JSON (--jq queries it); text passes through.
        Examples:
          %webfetch https://docs.python.org/3/library/json.html --limit 80
          %webfetch https://api.github.com/repos/jqlang/jq --jq '.stargazers_count'
        """
        if (args := _parsed(self.webfetch, line, needed="url")) is None:
            return None
        from jqmagic.core.web.fetch import fetch, parse_headers

        headers = self.run_core(parse_headers, args.header)
        result = self.run_core(fetch, args.url, offset=args.offset, limit=args.limit,
                               raw=args.raw, jq=args.jq, headers=headers)
        if args.out:
            stored = result.value if result.value is not None else result.content
            what = "the JSON value" if result.value is not None else "the text"
            return self._store(args.out, stored, f"{what} of {result.final_url}")
        return result

    @_magic(line_magic, flags.SEARCH, "words", nargs="*", help="the search query")
    def websearch(self, line: str):
        """Search the web (Brave or Google) and list the results as markdown links.

        %websearch QUERY [--provider brave|google] [--count N] [--allow D] [--block D]
        Keys: BRAVE_API_KEY, or GOOGLE_SEARCH_API_KEY + GOOGLE_SEARCH_ENGINE_ID, or
        ~/.config/jqmagic/credentials.json.
        Example:
          %websearch jq manual --allow jqlang.org --count 5
        """
        if (args := _parsed(self.websearch, line, needed="words")) is None:
            return None
        from jqmagic.core.web.search import search

        result = self.run_core(search, " ".join(args.words), provider=args.provider,
                               count=args.count, offset=args.offset,
                               allowed_domains=args.allow, blocked_domains=args.block)
        if args.out:
            return self._store(args.out, result.results, count(result.count, "result"))
        return result

    @_magic(line_cell_magic, flags.PATCH, "words", nargs="*",
            help="TARGET OP [POINTER] [VALUE] (line); TARGET (cell: the patch as JSON)")
    def jsonpatch(self, line: str, cell: str | None = None):
        """Edit a JSON/JSONC/YAML file (formatting and comments kept) or a dict/list variable.

        Line:  %jsonpatch TARGET OP [POINTER] [VALUE] [--match ARRAY --where JSON] [--every]
                          [--dry-run]
        Cell:  %%jsonpatch TARGET [--merge] [--dry-run]   (the cell: an RFC 6902 patch)

        OP is set (add or replace; /arr/- appends), insert (before an array index),
        remove or merge (deep, never deletes). VALUE is JSON. With --match, POINTER is
        inside each matched element; set with an object and no POINTER sets its keys.
        Examples:
          %jsonpatch config.json set /server/port 8080
          %jsonpatch users.json set '{"status": "active"}' --match /users --where '{"id": 7}'
          %jsonpatch settings.jsonc remove /editor.fontSize --dry-run
        """
        from jqmagic.core.patch import command_kwargs, parse_json

        if (args := _parsed(self.jsonpatch, line, needed="words")) is None:
            return None
        kwargs = self.run_core(command_kwargs, [] if cell is not None else args.words[1:],
                               args.match, args.where)
        if cell is not None:
            body = self.run_core(parse_json, cell, "The cell")
            kwargs["merge_patch" if args.merge else "rfc6902"] = body
        target = self.run_core(names.patch_target, args.words[0], args, self.shell.user_ns)
        result = self.run_core(_patched, target, args.words[0], every=args.every,
                               dry_run=args.dry_run, **kwargs)
        if args.out:
            return self._store(args.out, result, "the result")
        return Text(result.summary(matched=args.match is not None))


def _patched(target: Any, word: str, **kwargs: Any) -> Any:
    """The core's patch of ``target``; an edit it refuses at a stream's top (a YAML
    document, a JSON Lines line), or a document past the last, said with the one the
    pointer names and how many there are (the core's error holds the count in its facts,
    its words say only that documents cannot be replaced, added or removed, or that the
    "array length" is N)."""
    from jqmagic.core.patch import patch
    from jqmagic.core.pointers import parse_pointer

    try:
        return patch(target, **kwargs)
    except JqMagicError as exc:
        n, noun = exc.facts.get("documents"), exc.facts.get("noun")
        if n is None or "path" not in kwargs:
            raise
        pointer, first = kwargs["path"], (parse_pointer(kwargs["path"]) or [""])[0]
        past = exc.code == "NOT_FOUND" and first.isdigit()
        if not past and exc.code != "INVALID_ARGUMENT":
            raise
        held = f"{count(n, noun)}{f', /0 to /{n - 1}' if n > 1 else ', /0' if n else ''}"
        if first.isdigit() and int(first) >= n:
            said = f"{target} has no {noun} {first}: it holds {held}."
        else:
            doing = ("replace the whole file" if not pointer else f"remove a whole {noun}"
                     if kwargs["op"] == "remove" else f"add a {noun}" if first == "-" or
                     kwargs["op"] == "insert" else f"replace a whole {noun}")
            said = (f"%jsonpatch {kwargs['op']} {pointer or repr('')} would {doing} of "
                    f"{target} ({held}): it edits inside one.")
        example = f"%jsonpatch {word} set /{max(n - 1, 0)}/KEY VALUE"
        raise JqMagicError("NOT_FOUND" if past else "INVALID_ARGUMENT", said,
                           f"Name a place inside one, e.g. {example}.") from None


def register(ipython) -> None:
    """Register the magics and the display formatters with a running IPython."""
    from jqmagic.core.query.supervisor import shared_worker
    from jqmagic.notebook.display import register as register_display

    magics = JqMagic(shell=ipython)
    ipython.register_magics(magics)
    if magics not in ipython.configurables:
        ipython.configurables.append(magics)
    register_display(ipython)
    shared_worker().warm()  # its start-up (0.3 s) overlaps the user's first keystrokes
