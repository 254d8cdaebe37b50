"""The words of a jq command line read as jq 1.8.2's ``main.c`` reads them.

jq's reading is its own: options anywhere until ``--``; a word is an option only when it is
``-`` + a letter or ``--`` + a name (so ``-.`` is a program); short options cluster
(``-nr``); ``-f`` is a switch that makes the program word a file name; ``--args`` and
``--jsonargs`` change how the words after them are taken, each from where it stands; the
first ``--arg``/``--argjson``/``--rawfile``/``--slurpfile`` of a name wins; of ``-c``,
``--tab`` and ``--indent`` the last wins. The option table's argparse parser still parses
each option's values; this module only decides which words are options.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import JsonText

_BINDINGS = {"--arg", "--argjson", "--rawfile", "--slurpfile"}
_LAYOUT = {"-c": "compact", "--compact-output": "compact", "--compact": "compact",
           "--tab": "tab", "--indent": "indent"}
_FROM_FILE = {"-f", "--from-file"}


@dataclass
class Words:
    """A jq command line taken apart: option words for argparse, and the rest."""

    options: list[str] = field(default_factory=list)
    program: str | None = None
    files: list[str] = field(default_factory=list)
    positional: list[Any] = field(default_factory=list)
    from_file: bool = False
    layout: str | None = None  # the last of -c, --tab, --indent


def optionish(word: str) -> bool:
    """jq's test: ``-`` then a letter, or ``--`` then anything."""
    return len(word) > 1 and word[0] == "-" and (word[1] == "-" or word[1].isalpha())


def split(parser: argparse.ArgumentParser, argv: list[str]) -> Words:
    """Take ``argv`` apart as jq does; the options' values are checked by ``parser``."""
    actions = parser._option_string_actions  # noqa: SLF001 (argparse keeps them here only)
    words, seen = Words(), set()
    mode, done, index = None, False, 0
    while index < len(argv):
        word = argv[index]
        index += 1
        if done or not optionish(word):
            _positional(words, word, mode)
        elif word == "--":
            done = True
        elif word in ("--args", "--jsonargs"):
            mode = word
        elif word.startswith("--"):
            index = _long(words, actions, argv, index, seen)
        else:
            index = _short(words, actions, argv, index)
    return words


def _positional(words: Words, word: str, mode: str | None) -> None:
    if words.program is None:
        words.program = word
    elif mode == "--args":
        words.positional.append(word)
    elif mode == "--jsonargs":  # checked as jq's parser would (lone surrogate escapes too)
        words.positional.append(json.loads(JsonText.of(word, "--jsonargs")))
    else:
        words.files.append(word)


def _long(words: Words, actions: dict, argv: list[str], index: int, seen: set) -> int:
    word = argv[index - 1]
    name, eq, attached = word.partition("=")
    action = actions.get(name)
    if action is None or (eq and name in _BINDINGS):
        raise _unknown(word)
    if name in _FROM_FILE:
        words.from_file = True
        return index
    count = _arity(action, argv, index, words) if not eq else 0
    values = argv[index:index + count]
    if len(values) < count:
        raise JqMagicError("INVALID_ARGUMENT", f"{name} takes {count} parameter(s).",
                           f"e.g. {name} {' '.join(_metavars(action))}")
    if name in _BINDINGS:
        if values[0] in seen:  # jq keeps the first binding of a name
            return index + count
        seen.add(values[0])
    words.layout = _LAYOUT.get(name, words.layout)
    words.options += [word, *values]
    return index + count


def _short(words: Words, actions: dict, argv: list[str], index: int) -> int:
    letters = argv[index - 1][1:]
    for at, letter in enumerate(letters):
        option = "-" + letter
        action = actions.get(option)
        if action is None:
            raise _unknown(option)
        if option in _FROM_FILE:
            words.from_file = True
            continue
        if _arity(action, argv, index, words):
            rest = letters[at + 1:]  # -L/dir, as jq takes it, or -L dir
            if rest:
                words.options += [option, rest]
                return index
            if index >= len(argv):
                raise JqMagicError("INVALID_ARGUMENT", f"{option} takes a parameter.",
                                   f"e.g. {option} {' '.join(_metavars(action))}")
            words.options += [option, argv[index]]
            return index + 1
        words.layout = _LAYOUT.get(option, words.layout)
        words.options.append(option)
    return index


def _arity(action: argparse.Action, argv: list[str], index: int, words: Words) -> int:
    """How many words an option takes; an optional value (``nargs='?'``) only once the
    program is known, so the program word is never taken for it."""
    if action.nargs == "?":
        taken = words.program is not None and index < len(argv) and not optionish(argv[index])
        return int(taken)
    if isinstance(action.nargs, int):
        return action.nargs
    return 0 if action.nargs == 0 else 1


def _metavars(action: argparse.Action) -> tuple[str, ...]:
    metavar = action.metavar or action.dest.upper()
    return metavar if isinstance(metavar, tuple) else (metavar,)


def _unknown(option: str) -> JqMagicError:
    return JqMagicError("INVALID_ARGUMENT", f"Unknown option {option}",
                        "See jqmagic query --help for the options (jq's, plus jqmagic's).")
