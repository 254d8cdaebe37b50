"""The words of a jq command line that become values, read as jq 1.8.2's ``main.c`` reads
them: ``--arg``/``--argjson``/``--rawfile``/``--slurpfile`` bindings, ``--jsonargs``, and the
``-f`` program's file (files by libjq's own reader, ``jv_load_file``)."""

from __future__ import annotations

from jqmagic.cli import jqio
from jqmagic.core.errors import JqMagicError
from jqmagic.core.jsonarg import JsonText

TYPE_CHECKING = False  # typing costs every command's start-up (it imports re): not imported
if TYPE_CHECKING:
    from typing import Any


def program_file(path: str) -> str:
    """The text of ``-f``'s file as jq reads it: NUL bytes are jq's usage error."""
    text = loaded(path, "-f")
    if "\0" in text:
        error = JqMagicError("FILE_ERROR", "program file contains NUL bytes",
                             "Remove the NUL bytes from the program's file.")
        error.exit_code = 2
        raise error
    return text


def named_args(bindings: list[tuple[str, str, str]], held: bool = False) -> dict[str, Any]:
    """``$name`` bindings in the order jq gives them (``$ARGS.named`` keeps it): strings,
    JSON text as written, a file's text, a file's values as an array of their texts
    (``held``: run here, a file is bound by libjq itself, as jq binds it)."""
    named: dict[str, Any] = {}
    for option, name, value in bindings:
        if option == "--arg":
            named[name] = value
        elif option == "--argjson":
            named[name] = json_text(value, f"--argjson {name}")
        elif option == "--rawfile":
            named[name] = loaded(value, "--rawfile", name, held)
        else:
            slurped = loaded(value, "--slurpfile", name, held)
            named[name] = slurped if held else JsonText(_infinite_as_read(slurped))
    if held:
        return named
    if any(isinstance(v, JsonText) for v in named.values()):  # one kind: one order
        import json

        named = {k: v if isinstance(v, JsonText) else JsonText(json.dumps(v))
                 for k, v in named.items()}
    return named


def json_text(text: str, what: str) -> JsonText:
    """``text`` as JSON that jq's parser takes: strict JSON, or what jq also reads
    (``nan``, ``01``, ``1.``, ``.5``: asked of libjq's own parser, ``fromjson``). A bad
    one is jq's usage error (status 2)."""
    try:
        return JsonText.of(text, what)
    except JqMagicError as exc:
        from jqmagic.core.query import query

        exc.exit_code = 2
        try:
            query("$t | fromjson | empty", null_input=True, args={"t": str(text)})
        except JqMagicError:
            raise exc from None
        return JsonText(text)


def loaded(path: str, flag: str, name: str | None = None, held: bool = False) -> Any:
    """The file ``flag`` names, read by libjq's own reader as jq reads it (bytes as
    bytes: NUL kept, invalid UTF-8 replaced, a BOM kept; ``--slurpfile``: the JSON text of
    its values' array; ``held``: the file itself, for libjq to bind its value here),
    judged by the sandbox as every file is; jq's words and status 2 when it cannot be
    read or parsed."""
    from jqmagic.core import sandbox
    from jqmagic.core.query import libjq

    sandbox.check_path(path)
    file = libjq.LoadedFile(path, raw=flag != "--slurpfile")
    try:
        text = libjq.loaded_text(file)
        return file if held else text
    except libjq.InputError as exc:
        said = f"Bad JSON in {flag} {name} {path}: {exc}" if name else str(exc)
        error = JqMagicError("FILE_ERROR", said, "Check the file (jq reads it as it is).")
        error.exit_code = 2
        raise error from None


_DUMPED_INFINITY = r'"(?:[^"\\]|\\.)*"|(-?)1\.7976931348623157e\+308'


def _infinite_as_read(text: str) -> str:
    """A file's values' JSON text as libjq dumped it, its infinities (a number that is no
    literal: libjq dumps it as ``1.7976931348623157e+308``, a literal's ``E`` upper case)
    written ``infinity`` again, so that libjq's parse in the worker makes jq's value of
    them, not a literal that prints ``E+308``."""
    if "1.7976931348623157e+308" not in text:
        return text
    import re

    return re.sub(_DUMPED_INFINITY,
                  lambda m: m[0] if m[0].startswith('"') else f"{m[1]}infinity", text)


def as_jq_text(program: str, named: dict[str, Any],
               positional: list) -> tuple[str, dict[str, Any], list]:
    """The words with invalid UTF-8 (bytes of ``argv``) as libjq reads them."""
    def word(value: Any) -> Any:
        if isinstance(value, JsonText):
            return JsonText(jqio.jq_word(value, json_text=True))
        return jqio.jq_word(value) if isinstance(value, str) else value

    return (word(program), {word(k): word(v) for k, v in named.items()},
            [word(p) for p in positional])


def _codes(text: str) -> str:
    """``text`` as a jq expression with no quote in it."""
    return f"([{','.join(str(ord(c)) for c in text)}] | implode)"


RAW0_NUL = "Cannot dump a string containing NUL with --raw-output0 option"  # main.c's words
RAW0_CHECK = (f"\n\n| if type == {_codes('string')} and (explode | any(. == 0)) "
              f"then error({_codes(RAW0_NUL)}) else . end")
"""What jq's main.c asks of each result under ``--raw-output0`` (a string with a NUL is
that input's error: its results end there, the next input goes on), written after the
program (a pipe binds loosest; the blank line ends a trailing comment; no quote, so an
unended string in the program stays unended)."""


def raw_output0_checked(program: str) -> str:
    """``program`` for the worker under ``--raw-output0`` (without ``-a``): main.c's check
    of each result made by the program itself, so that it ends that input's results only,
    as in jq (the worker's results carry no input's bounds)."""
    return program + RAW0_CHECK
