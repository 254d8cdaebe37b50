"""The words of a jq command line read as jq 1.8.2's ``main.c`` reads them.

jq's reading is its own: options anywhere until ``--``; a word is an option only when it is
``-`` + a letter or ``--`` + a name (so ``-.`` is a program); short options cluster
(``-nr``); ``-f`` is a switch that makes the program word a file name; ``--args`` and
``--jsonargs`` change how the words after them are taken, each from where it stands. An
option that takes values takes the next words whatever they are (``--arg x -c`` binds
``-c``); the first ``--arg``/``--argjson``/``--rawfile``/``--slurpfile`` of a name wins,
in the order given; ``-c``, ``--tab`` and ``--indent`` change jq's dump flags one after
the other, as main.c does (``--indent -1`` is ``--tab``; a bad ``--indent`` stops there).
jq's own long options never take ``=VALUE``; jqmagic's do, and ``--parallel`` takes its
count only so (``--parallel=4``: alone it means every core, and the next word stays the
program); ``--dask`` takes the next word when it is a scheduler's address. The option
table reads what is left (:func:`jqmagic.flags.read_options`).
"""

from __future__ import annotations

from jqmagic.core.errors import JqMagicError
from jqmagic.core.jsonarg import JsonText

TYPE_CHECKING = False  # typing and dataclasses cost every command's start-up: not imported
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jqmagic.flags import Flag

# jq's dump flags (src/jv.h) and JV_PRINT_INDENT_FLAGS(n)
PRETTY, TAB = 1, 64


def indent_flags(n: int) -> int:
    """``JV_PRINT_INDENT_FLAGS(n)``: a tab for n < 0 or n > 7, else n spaces."""
    return TAB | PRETTY if n < 0 or n > 7 else n << 8 | PRETTY


_INDENT_BITS = indent_flags(7)
BINDINGS = ("--arg", "--argjson", "--rawfile", "--slurpfile")
_FROM_FILE = {"-f", "--from-file"}
_ATTACHED_ONLY = {"--parallel"}  # an optional value only as --parallel=N
# jq 1.8.2's long options (main.c): none of them takes "=VALUE"
_JQ_LONG = {"--slurp", "--raw-output", "--raw-output0", "--join-output", "--compact-output",
            "--color-output", "--monochrome-output", "--ascii-output", "--unbuffered",
            "--sort-keys", "--raw-input", "--null-input", "--from-file", "--library-path",
            "--binary", "--tab", "--indent", "--seq", "--stream", "--stream-errors",
            "--exit-status", "--help", "--version", *BINDINGS}
_JQ_SHORT = {f"-{letter}" for letter in "srjcCMaSRnfLbehV"}
# jq 1.8.2's options for its own developers, and the two that answer at once
_DEBUG = {"--debug-dump-disasm", "--debug-trace", "--debug-trace=all"}
_ENDING = {"-h": "help", "--help": "help", "--build-configuration": "build-configuration"}
JQ_OPTIONS = _JQ_LONG | _JQ_SHORT | _DEBUG | set(_ENDING) | {"--args", "--jsonargs"}


class Words:
    """A jq command line taken apart: option words for the option table, and the rest."""

    def __init__(self) -> None:
        self.options: list[str] = []
        self.program: str | None = None
        self.files: list[str] = []
        self.positional: list[Any] = []
        self.from_file = False
        self.bindings: list[tuple[str, str, str]] = []  # (option, name, value)
        self.bound: set[str] = set()  # the bindings' names (first one wins)
        self.dumpopts = indent_flags(2)  # jq's dump flags as -c, --tab and --indent left them
        self.ends_with: str | None = None  # -h or --build-configuration: jq answers, ends
        self.disasm = False  # --debug-dump-disasm
        self.trace = 0  # --debug-trace: 1, --debug-trace=all: 3 (jq's JQ_DEBUG_TRACE flags)

    def layout(self) -> dict[str, Any]:
        """The core's layout keywords for :attr:`dumpopts`."""
        pretty, tab = bool(self.dumpopts & PRETTY), bool(self.dumpopts & TAB)
        return {"compact": not pretty, "tab": tab and pretty,
                "indent": (self.dumpopts >> 8) & 7 if pretty and not tab else 2}


def optionish(word: str) -> bool:
    """jq's test: ``-`` then a letter, or ``--`` then anything."""
    return len(word) > 1 and word[0] == "-" and (word[1] == "-" or word[1].isalpha())


def split(actions: Mapping[str, Flag], argv: list[str]) -> Words:
    """Take ``argv`` apart as jq does, each option string looked up in ``actions`` (the
    option table's flags, or an argparse parser's actions: the same attributes)."""
    words = Words()
    mode, done, index = None, False, 0
    while index < len(argv) and words.ends_with is None:
        word = argv[index]
        index += 1
        if done or not optionish(word):
            _positional(words, word, mode)
        elif word == "--":
            done = True
        elif word in ("--args", "--jsonargs"):
            mode = word
        elif word.startswith("--"):
            index = _long(words, actions, argv, index)
        else:
            index = _short(words, actions, argv, index)
    return words


def _positional(words: Words, word: str, mode: str | None) -> None:
    if words.program is None:
        words.program = word
    elif mode == "--args":
        words.positional.append(word)
    elif mode == "--jsonargs":  # JSON text as written (the caller checks it as jq does)
        words.positional.append(JsonText(word))
    else:
        words.files.append(word)


def _long(words: Words, actions: dict, argv: list[str], index: int) -> int:
    word = argv[index - 1]
    if word in _ENDING:
        words.ends_with = _ENDING[word]
        return index
    if word in _DEBUG:
        words.disasm = words.disasm or word == "--debug-dump-disasm"
        words.trace |= {"--debug-trace": 1, "--debug-trace=all": 3}.get(word, 0)
        return index
    name, eq, attached = word.partition("=")
    action = actions.get(name)
    if action is None or (eq and name in _JQ_LONG):
        raise _unknown(word, actions)
    if name in _FROM_FILE:
        words.from_file = True
        return index
    if name in BINDINGS:
        return _binding(words, name, argv, index)
    if name == "--indent":
        return _indent(words, argv, index)
    words.dumpopts = _layout(name, words.dumpopts)
    count = 0 if eq else _arity(action, argv, index)
    if count == 0:
        words.options.append(word)
        return index
    if index >= len(argv):
        raise JqMagicError("INVALID_ARGUMENT", f"{name} takes a parameter.",
                           f"e.g. {name} {' '.join(_metavars(action))}")
    words.options.append(f"{name}={argv[index]}")  # a value that starts with - stays one
    return index + 1


def _short(words: Words, actions: dict, argv: list[str], index: int) -> int:
    letters = argv[index - 1][1:]
    for at, letter in enumerate(letters):
        option = "-" + letter
        if option in _ENDING:
            words.ends_with = _ENDING[option]
            return index
        action = actions.get(option)
        if action is None:
            raise _unknown(option, actions)
        if option in _FROM_FILE:
            words.from_file = True
            continue
        if _arity(action, argv, index):
            rest = letters[at + 1:]  # -L/dir, as jq takes it, or -L dir
            if not rest and index >= len(argv):
                raise JqMagicError("INVALID_ARGUMENT", f"{option} takes a parameter.",
                                   f"e.g. {option} {' '.join(_metavars(action))}")
            long = next((o for o in action.option_strings if o.startswith("--")), option)
            words.options.append(f"{long}={rest or argv[index]}")
            return index if rest else index + 1
        words.dumpopts = _layout(option, words.dumpopts)
        words.options.append(option)
    return index


def _binding(words: Words, name: str, argv: list[str], index: int) -> int:
    """``--arg NAME VALUE`` and its kin: the next two words, whatever they are; the first
    binding of a name wins (jq reads a later one's file or JSON not at all)."""
    if index + 2 > len(argv):
        what = {"--arg": "value", "--argjson": "text"}.get(name, "filename")
        raise JqMagicError("INVALID_ARGUMENT", f"{name} takes two parameters.",
                           f"e.g. {name} varname {what}")
    key, value = argv[index], argv[index + 1]
    if key not in words.bound:
        words.bound.add(key)
        words.bindings.append((name, key, value))
    return index + 2


def _indent(words: Words, argv: list[str], index: int) -> int:
    """``--indent N``: the next word, read as jq's strtol reads it, -1 (a tab) to 7."""
    if index >= len(argv):
        raise JqMagicError("INVALID_ARGUMENT", "--indent takes one parameter.",
                           "e.g. --indent 4 (or --tab)")
    text = argv[index]
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit()) or not -1 <= int(text) <= 7:
        raise JqMagicError("INVALID_ARGUMENT", "--indent takes a number between -1 and 7.",
                           "e.g. --indent 4 (-1 or --tab: a tab)")
    words.dumpopts = words.dumpopts & ~(TAB | _INDENT_BITS) | indent_flags(int(text))
    return index + 1


def _layout(option: str, dumpopts: int) -> int:
    """jq's dump flags after ``-c`` or ``--tab`` (any other option leaves them)."""
    if option in ("-c", "--compact-output", "--compact"):
        return dumpopts & ~(TAB | _INDENT_BITS)
    if option == "--tab":
        return dumpopts & ~_INDENT_BITS | TAB | PRETTY
    return dumpopts


def _arity(action: Flag, argv: list[str], index: int) -> int:
    """How many words an option takes (0 or 1: the bindings are read apart). An optional
    value (``nargs='?'``) is the next word only when the option's type accepts it (``--dask
    tcp://host:8786 FILTER``, as Dask's own tools take an address), so neither the program
    nor a file is taken for it; never for the options whose value must be attached."""
    if action.nargs == "?":
        return int(not _ATTACHED_ONLY & set(action.option_strings) and index < len(argv)
                   and not optionish(argv[index]) and _accepts(action, argv[index]))
    return 0 if action.nargs == 0 else 1


def _accepts(action: Flag, word: str) -> bool:
    """Whether ``word`` is a value of the option's type (an address for ``--dask``)."""
    try:
        action.type(word)  # type: ignore[misc]
    except Exception:  # noqa: BLE001 - argparse's ArgumentTypeError, ValueError, TypeError
        return False
    return bool(word)


def _metavars(action: Flag) -> tuple[str, ...]:
    metavar = action.metavar or action.dest.upper()
    return metavar if isinstance(metavar, tuple) else (metavar,)


def _unknown(option: str, actions: dict) -> JqMagicError:
    from jqmagic.flagerrors import did_you_mean

    return JqMagicError("INVALID_ARGUMENT", f"Unknown option {option}",
                        did_you_mean(option.partition("=")[0], actions) +
                        "See jqmagic query --help for the options (jq's, plus jqmagic's).")
