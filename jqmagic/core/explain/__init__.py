"""``explain()``: a jq program run stage by stage on its real input, in libjq.

Each stage of each pipeline (and the branches of ``,``, ``if``, ``//``, ``select``,
``map``, ``[...]``, reduce/foreach states and defined functions) says how many values went
in and came out, shows a few of them (their shape when big), which inputs it dropped,
whether it made a ``null`` and from what, where an error was raised and on which value,
and the path of each output in the input. The staged results are checked against the
plain run of the whole program (``same_as_plain``).

>>> e = explain('.[] | [match("[ACD]").string] | add', value=["a", "b"])
>>> e.null_origin["stage"], e.null_origin["input"]["text"]
('add', '[]')
"""

from __future__ import annotations

import os
import re
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.explain import child
from jqmagic.core.explain.render import Explanation
from jqmagic.core.options import source_from
from jqmagic.core.query.request import check_program
from jqmagic.core.settings import settings
from jqmagic.core.sources.prepare import prepare

__all__ = ["Explanation", "explain"]

_READS_INPUTS = re.compile(r"(?<![\w$.])(inputs?|input_filename|input_line_number)\b")


def explain(program: str, source: Any = None, *, file: Any = None, text: Any = None,
            value: Any = ..., exec: str | None = None, payload: str | None = None,
            jsonl: bool | None = None, yaml: bool | None = None, jsonc: bool | None = None,
            args: dict[str, Any] | None = None, slurp: bool = False,
            null_input: bool = False, timeout: float | None = None) -> Explanation:
    """Run ``program`` on one source (as :func:`jqmagic.query` names it) stage by stage
    and say what each stage did; ``timeout`` in seconds (None: the setting)."""
    check_program(program)
    if _READS_INPUTS.search(program):
        raise JqMagicError("INVALID_ARGUMENT", "--explain runs each input on its own: a "
                           "program that reads input, inputs, input_filename or "
                           "input_line_number cannot be split that way.",
                           "Run it without --explain, or explain the part after the read "
                           "on its result (e.g. [inputs] | ... as -s then the rest).")
    keywords = {k: v for k, v in (("file", file), ("text", text), ("exec", exec),
                                  ("payload", payload), ("jsonl", jsonl), ("yaml", yaml),
                                  ("jsonc", jsonc)) if v is not None}
    if value is not ...:
        keywords["value"] = value
    src = source_from(source, keywords, null_input)
    with prepare(src, settings.exec_timeout) as prepared:
        fds = [os.open(path, os.O_RDONLY) for path in prepared.files]
        try:
            answer = child.call({"op": "explain", "program": program, "fds": fds,
                                 "slurp": slurp, "null_input": null_input,
                                 "args": args or {}},
                                settings.timeout if timeout is None else timeout,
                                "Explaining the program")
        finally:
            for fd in fds:
                os.close(fd)
    if "ok" in answer:
        return Explanation(answer["ok"])
    if answer["error"] == "compile":
        raise JqMagicError("INVALID_QUERY", f"jq could not compile the program: "
                           f"{answer['message'][:300]}", "Check the program with the plain "
                           "query first; --explain runs only programs jq compiles.")
    raise JqMagicError("INVALID_JSON", f"jq could not read the input: "
                       f"{answer['message'][:300]}", "Check the source's format "
                       "(--yaml, --jsonl) or inspect it first.")
