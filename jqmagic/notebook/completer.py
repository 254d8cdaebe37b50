"""Tab in ``%jq`` and ``%%jq``: the core's completions (core/complete) through IPython's
completer (a v2 matcher), each with what it is as its type (``string, in 86 of 300``,
``map/1``), which the terminal and JupyterLab show beside it.

The magic's line is read as the magic reads it (shell words, options and their values);
the SOURCE names the data (a variable, a file or glob, inline JSON) but is never fetched
or run here: a URL or a command gives no keys.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from IPython.core.completer import (
    CompletionContext,
    SimpleCompletion,
    SimpleMatcherResult,
    context_matcher,
)

from jqmagic.core.complete import Completions, complete, complete_source

_LINE_MAGIC = re.compile(r"(?:^|[\s=(])%jq(?=\s)")
_CELL_MAGIC = re.compile(r"\s*%%jq(?=\s|$)")
_URL = re.compile(r"^https?://", re.I)
WARM_BYTES = 256 * 2**20  # files whose shape is made after a cell ran on them
_WORD = re.compile(r"""(?:[^\s'"\\]|\\.|'[^']*(?:'|$)|"(?:[^"\\]|\\.)*(?:"|$))+""")


@dataclass
class Word:
    """One shell word of a magic's line: where its raw text starts and ends, its text
    unquoted, and where each of its characters came from (``places[i]``: the raw offset
    of ``text[i]``; one more for its end)."""

    start: int
    end: int
    text: str
    places: list[int] = field(default_factory=list)


@dataclass
class Line:
    """A magic's words read as its parser reads them."""

    positional: list[Word] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # --arg NAME: how it is given
    flags: dict[str, Any] = field(default_factory=dict)


def words(text: str, offset: int) -> list[Word]:
    """The shell words of ``text`` (an open quote runs to its end), offsets from
    ``offset``."""
    out = []
    for match in _WORD.finditer(text):
        raw, at = match.group(), match.start()
        chars, places, quote, i = [], [], None, 0
        while i < len(raw):
            char = raw[i]
            if quote is None and char in "'\"":
                quote = char
            elif char == quote:
                quote = None
            elif char == "\\" and quote != "'" and i + 1 < len(raw):
                i += 1
                chars.append(raw[i])
                places.append(offset + at + i)
            else:
                chars.append(char)
                places.append(offset + at + i)
            i += 1
        places.append(offset + match.end())
        out.append(Word(offset + at, offset + match.end(), "".join(chars), places))
    return out


def read_line(found: list[Word]) -> Line:
    """Options, their values and the positional words, as the magic's parser takes them."""
    from jqmagic.notebook.magics import JqMagic

    options = JqMagic.jq.parser._option_string_actions
    line = Line()
    i = 0
    while i < len(found):
        word = found[i]
        name, _, inline = word.text.partition("=")
        action = options.get(name) if word.text.startswith("-") else None
        if action is None:
            line.positional.append(word)
            i += 1
            continue
        takes = {None: 1, "?": 0}.get(action.nargs, action.nargs)
        if action.nargs == "?" and i + 1 < len(found) and found[i + 1].text.isdigit():
            takes = 1
        values = [w.text for w in found[i + 1: i + 1 + takes]] if not inline else [inline]
        if action.dest in ("arg", "argjson") and values:
            line.names[values[0]] = f"--{action.dest}"
        else:
            line.flags[action.dest] = values[0] if values else True
        i += 1 + (0 if inline else takes)
    return line


def source_keywords(line: Line, sources: list[Word], namespace: dict[str, Any]
                    ) -> dict[str, Any]:
    """The core's source keywords for completion: what the words and flags name, read
    without fetching a URL or running a command (those give no keys)."""
    flags = line.flags
    given = {k: flags[k] for k in ("text", "exec", "payload") if isinstance(flags.get(k), str)}
    formats = {k: True for k in ("jsonl", "yaml", "jsonc") if flags.get(k)}
    if not sources:
        return {**given, **formats}
    word = sources[0].text
    head = word.split(".")[0]
    if flags.get("force_url") or (_URL.match(word) and not flags.get("force_file")):
        return {"url": word}
    if not flags.get("force_file") and head.isidentifier() and head in namespace:
        value = namespace[head]
        try:
            for attribute in word.split(".")[1:]:
                value = getattr(value, attribute)
        except Exception:
            return {}
        return {"value": value, **formats}
    if word[:1] in "{[":
        try:
            json.loads(word)
            return {"text": word, **formats}
        except ValueError:
            pass
    names = [w.text for w in sources]
    return {"file": names if len(names) > 1 else word, **formats}


def at_cursor(text: str, line_no: int, column: int, namespace: dict[str, Any]
              ) -> tuple[Completions, str] | None:
    """The completions at the cursor of a cell, and the text before the cursor they
    replace; None outside a %jq program or SOURCE word."""
    lines = text.split("\n")
    if _CELL_MAGIC.match(lines[0]):
        head = lines[0]
        magic_at = head.index("%%jq") + 4
        found = words(head[magic_at:], magic_at)
        line = read_line(found)
        if line_no == 0:
            return _source_word(line, head, column, namespace)
        program = "\n".join(lines[1:])
        cursor = sum(len(x) + 1 for x in lines[1:line_no]) + column
        return _program(program, cursor, line, line.positional, namespace)
    here = lines[line_no]
    magics = list(_LINE_MAGIC.finditer(here[:column]))
    if not magics:
        return None
    magic = magics[-1]
    found = words(here[magic.end():], magic.end())
    line = read_line(found)
    if not line.positional or column < line.positional[0].start:
        return None
    first = line.positional[0]
    if column <= first.end:  # in the program word
        inside = [i for i, place in enumerate(first.places) if place < column]
        cursor = len(inside)
        return _program(first.text, cursor, line, line.positional[1:], namespace)
    return _source_word(line, here, column, namespace)


def _program(program: str, cursor: int, line: Line, sources: list[Word],
             namespace: dict[str, Any]) -> tuple[Completions, str]:
    keywords = source_keywords(line, sources, namespace)
    done = complete(program, cursor, names=line.names, namespace=namespace,
                    slurp=bool(line.flags.get("slurp")),
                    null_input=bool(line.flags.get("null_input")), **keywords)
    return done, program[done.start:cursor]


def _source_word(line: Line, text: str, column: int, namespace: dict[str, Any]
                 ) -> tuple[Completions, str] | None:
    """A SOURCE word at the cursor (a fresh one after white space)."""
    for word in line.positional:
        if word.start <= column <= word.end:
            if text[word.start:column] != word.text[:column - word.start]:
                return None  # quoted: left alone
            typed = text[word.start:column]
            return complete_source(typed, namespace), typed
    if column and not text[column - 1].isspace():
        return None
    return complete_source("", namespace), ""


NO_KEYS = "no keys known here: they come from the data named after the program"


@context_matcher()
def jq_matcher(context: CompletionContext) -> SimpleMatcherResult:
    """IPython's matcher for ``%jq`` / ``%%jq``: the data's keys, builtins, $names,
    @formats, SOURCE words."""
    from IPython import get_ipython

    shell = get_ipython()
    namespace = shell.user_ns if shell is not None else {}
    found = at_cursor(context.full_text, context.cursor_line, context.cursor_position,
                      namespace)
    if found is None:
        return {"completions": [], "suppress": False}
    done, fragment = found
    before = context.text_until_cursor
    if not before.endswith(fragment):  # an escape inside the word: offsets differ
        return {"completions": [], "suppress": False}
    # no-break spaces: JupyterLab sizes its menu before the type column wraps, and a
    # wrapped "string, in 86 of 300" draws its lines over each other
    offered = [(offer.text, offer.type) for offer in done.offers]
    if not offered and done.program:
        # in a program, never IPython's files or Python names (an unclosed quote left its
        # file matcher offering .ipynb_checkpoints/): what is typed, and why no keys
        # (IPython lets only a matcher with completions suppress the others)
        offered = [(fragment, done.note or NO_KEYS)]
    completions = [SimpleCompletion(text, type=why.replace(" ", "\u00a0"))
                   for text, why in offered]
    return {"completions": completions, "matched_fragment": fragment,
            "suppress": bool(completions), "ordered": True}


def warm(result) -> None:
    """After a cell ran %jq on a file (up to :data:`WARM_BYTES`), make its shape in the
    background, once per file version: the first Tab on it then answers at once."""
    lines = (getattr(result.info, "raw_cell", None) or "").split("\n")
    if _CELL_MAGIC.match(lines[0]):
        at = lines[0].index("%%jq") + 4
        line = read_line(words(lines[0][at:], at))
        sources = line.positional
    else:
        for text in lines:
            magic = _LINE_MAGIC.search(text)
            if magic:
                break
        else:
            return
        line = read_line(words(text[magic.end():], magic.end()))
        sources = line.positional[1:]
    keywords = source_keywords(line, sources, {})
    path = keywords.get("file")
    if isinstance(path, str) and os.path.isfile(path) and os.path.getsize(path) <= WARM_BYTES:
        threading.Thread(target=_shape_quietly, args=(path, keywords), daemon=True).start()


def _shape_quietly(path: str, keywords: dict[str, Any]) -> None:
    from jqmagic.core.complete.shapes import shape_now
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.options import Formats, Source

    formats = Formats(**{k: keywords.get(k) for k in ("jsonl", "yaml", "jsonc")})
    with contextlib.suppress(JqMagicError):  # the cell showed it; the next Tab says none
        # a big file's made by the worker in a thread of its own: nothing parsed here
        shape_now(Source.of(file=path, formats=formats), first=False)


def register(ipython) -> None:
    """Add the matcher to a shell's completer, and the warming after a cell (once)."""
    matchers = ipython.Completer.custom_matchers
    if jq_matcher not in matchers:
        matchers.insert(0, jq_matcher)
        ipython.events.register("post_run_cell", warm)
