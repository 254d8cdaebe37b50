"""``suggest()``: the shortest jq programs that turn every example input into its
outputs, found by an enumerative, shape-directed search (no language model) and each
verified in libjq 1.8.2.

>>> found = suggest({"user": "ada", "id": 7}, "ada")
>>> found.programs[0]["program"]
'.user'
"""

from __future__ import annotations

import json
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.explain import child
from jqmagic.core.suggest.render import Suggestions

__all__ = ["Suggestions", "suggest", "suggest_for"]

_MISSING = object()


def suggest(input: Any = _MISSING, output: Any = _MISSING, *,  # noqa: A002 - its name
            outputs: list | None = None, examples: list | None = None,
            timeout: float = 5.0, limit: int = 5) -> Suggestions:
    """Programs turning ``input`` into ``output`` (one value) or into ``outputs`` (the
    whole stream), or each of ``examples`` (``(input, output)`` pairs, or dicts with
    ``input`` and ``output`` or ``outputs``); at most ``limit``, searched for ``timeout``
    seconds."""
    pairs = _examples(input, output, outputs, examples)
    if not 0 < timeout <= 120:
        raise JqMagicError("INVALID_ARGUMENT", f"Cannot search for {timeout} s.",
                           "Give a timeout between 0 and 120 seconds.")
    answer = child.call({"op": "suggest", "examples": pairs, "seconds": timeout,
                         "limit": max(1, limit)}, timeout + 30, "Searching for a program")
    return Suggestions({**answer, "examples": len(pairs), "timeout": timeout})


def suggest_for(output_text: str, source: Any = None, *, timeout: float = 5.0,
                **source_keywords: Any) -> Suggestions:
    """``%jq --suggest``: programs turning the one value of a source (as
    :func:`jqmagic.query` names it) into the JSON values of ``output_text``."""
    from jqmagic.core.query import query

    wanted, decoder, at = [], json.JSONDecoder(), 0
    text = output_text.strip()
    while at < len(text):
        try:
            value, at = decoder.raw_decode(text, at)
        except ValueError as exc:
            raise JqMagicError("INVALID_JSON", f"The output wanted is not JSON: {exc}.",
                               "With --suggest, FILTER (or the cell) is the output wanted, "
                               "as JSON values, e.g. %jq --suggest '\"ada\"' users.json") \
                from None
        wanted.append(value)
        while at < len(text) and text[at].isspace():
            at += 1
    inputs = query(".", source, **source_keywords).values
    if len(inputs) != 1:
        raise JqMagicError("INVALID_ARGUMENT", f"--suggest needs one input value, not "
                           f"{len(inputs)}.", "Give a source holding one JSON value (or "
                           "call jqmagic.suggest(examples=[...]) with several examples).")
    return suggest(inputs[0], outputs=wanted, timeout=timeout)


def _examples(given: Any, output: Any, outputs: list | None,
              examples: list | None) -> list[list]:
    hint = ("Give suggest(input, output), suggest(input, outputs=[...]) or "
            "suggest(examples=[(input, output), ...]).")
    if examples is None:
        if given is _MISSING or (output is _MISSING) == (outputs is None):
            raise JqMagicError("INVALID_ARGUMENT", "suggest() needs an input and its output "
                               "(or outputs).", hint)
        return [[given, [output] if outputs is None else list(outputs)]]
    pairs = []
    for example in examples:
        if isinstance(example, dict) and "input" in example and \
                ("output" in example) != ("outputs" in example):
            outs = [example["output"]] if "output" in example else list(example["outputs"])
            pairs.append([example["input"], outs])
        elif isinstance(example, (list, tuple)) and len(example) == 2:
            pairs.append([example[0], [example[1]]])
        else:
            raise JqMagicError("INVALID_ARGUMENT", f"An example must be (input, output) or "
                               f"{{input, output|outputs}}, not {str(example)[:60]}.", hint)
    if not pairs:
        raise JqMagicError("INVALID_ARGUMENT", "suggest() got no examples.", hint)
    return pairs
