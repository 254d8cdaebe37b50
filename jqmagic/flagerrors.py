"""What a face says when its flags refuse a command line: argparse's message made a coded
error (INVALID_ARGUMENT) with the face's own help, and the nearest option or choice to a misspelt
one; shared by the command line and the magics, as the option table is."""

from __future__ import annotations

from jqmagic.core.errors import JqMagicError

TYPE_CHECKING = False  # typing costs every command's start-up (it imports re): not imported
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

_UNRECOGNIZED = r"unrecognized arguments: (.*)"
_CHOICE = r"argument (\S+): invalid choice: '?([^']*)'? \(choose from (.*)\)"
_REQUIRED = r"the following arguments are required: (.*)"
_ARGUMENT = r"argument (\S+?)(?:/(\S+))?: (.*)"


def usage_parser(**options: Any) -> argparse.ArgumentParser:
    """An argparse parser (its subcommands' too) whose complaint is raised as one
    INVALID_ARGUMENT error whose hint names what was meant (``--dpth``: ``--depth``;
    ``qeury``: ``query``), where argparse would print its usage block and exit. argparse
    is imported here: ``jqmagic query`` reads jq's words without it
    (:func:`jqmagic.flags.read_options`)."""
    import argparse

    class UsageParser(argparse.ArgumentParser):
        def error(self, message: str):  # type: ignore[override]
            raise usage_error(message, self, f"See {self.prog} --help.")

    return UsageParser(**options)


def usage_error(message: str, parser: argparse.ArgumentParser, see: str,
                elsewhere: dict[str, str] | None = None) -> JqMagicError:
    """argparse's ``message`` as one line, with a did-you-mean from ``parser``'s options or
    choices, then ``see`` (where the face lists them); an unknown option in ``elsewhere``
    (another face's) is told its sentence there instead of a did-you-mean."""
    import argparse
    import re

    options = list(parser._option_string_actions)  # noqa: SLF001 (argparse keeps them here)
    if found := re.fullmatch(_UNRECOGNIZED, message):
        words = found[1].split()
        word = next((w for w in words if w.startswith("-")), words[0])
        if not word.startswith("-"):  # the words as given (argparse joined them by spaces)
            text = found[1] if len(found[1]) <= 80 else found[1][:77] + "..."
            stdin = f"The request goes on stdin: echo '{{...}}' | {parser.prog} NAME. " \
                if text.startswith("{") and parser.prog.endswith(" tool") else ""
            return JqMagicError("INVALID_ARGUMENT", f"Unexpected argument {text}", stdin + see)
        option = word.partition("=")[0]
        said = (elsewhere or {}).get(option) or did_you_mean(option, options)
        return JqMagicError("INVALID_ARGUMENT", f"Unknown option {word}", said + see)
    if found := re.fullmatch(_CHOICE, message):
        choices = [c.strip("'\" ") for c in found[3].split(",")]
        what = "command" if found[1] == "COMMAND" else f"value for {found[1]}"
        return JqMagicError("INVALID_ARGUMENT", f"Unknown {what} {found[2]!r}",
                            did_you_mean(found[2], choices) +
                            f"Choose from {', '.join(choices)}.")
    if found := re.fullmatch(_REQUIRED, message):
        commands = [c for a in parser._actions for c in (a.choices or ())  # noqa: SLF001
                    if isinstance(a, argparse._SubParsersAction)]  # noqa: SLF001
        if commands:
            return JqMagicError("INVALID_ARGUMENT", "No command given",
                                f"e.g. {parser.prog} query . data.json; the commands: "
                                f"{', '.join(commands)}. {see}")
        return JqMagicError("INVALID_ARGUMENT", f"Missing argument: {found[1]}", see)
    if found := re.fullmatch(_ARGUMENT, message):
        name = found[2] or found[1]
        return JqMagicError("INVALID_ARGUMENT", f"{name} {found[3]}", see)
    return JqMagicError("INVALID_ARGUMENT", message[:1].upper() + message[1:], see)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"Did you mean X? "`` for the choice closest to ``word``, else one that ends in its
    words (--root: --allow-root), or ``""``. The positive form of a --no- choice is said
    to be the default, never offered its opposite (--sandbox: not --no-sandbox)."""
    import difflib

    choices = list(choices)
    if word.startswith("--") and (negation := f"--no-{word[2:]}") in choices:
        return f"{word} is the default ({negation} turns it off). "
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.75) or \
        [c for c in choices if word.startswith("--") and c.endswith(f"-{word[2:]}")][:1]
    return f"Did you mean {close[0]}? " if close else ""
