"""The order of the programs a search found: the ones reading the input before constants and
before the ones writing a wanted value as a constant, cheapest first, the ones naming the
data's fields before generic steps."""

from __future__ import annotations

import json
import re
from typing import Any

from jqmagic.core.suggest import steps as catalog
from jqmagic.core.suggest.programs import Entry, canon

_GENERIC = ("..", "min", "max", "first", "last", "add", "[]", "flatten", "implode",
            "unique", "tostring", "length", "join", "index", "type", "reverse")


def _generic(text: str) -> int:
    """How many steps of ``text`` say little about the data (``..``, ``min``, ``.[]``...):
    among programs of one cost, the ones naming fields and indices read better."""
    return sum(text.count(word) for word in _GENERIC) + 2 * text.count("..")


def answer_literals(examples: list[tuple[Any, list[Any]]]) -> list[re.Pattern]:
    """Patterns of the wanted outputs' numbers and strings that the inputs do not hold
    (27.75, "zzz", the 2 of a count of two): a program writing one of them carries the
    answer rather than finding it. The inputs hold a string inside any of theirs or a
    key, a number as itself or as a string's whole text."""
    def scalars(value: Any, keys: bool):
        if isinstance(value, dict):
            for k, v in value.items():
                if keys:
                    yield k
                yield from scalars(v, keys)
        elif isinstance(value, list):
            for v in value:
                yield from scalars(v, keys)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            yield value

    given = [v for g, _ in examples for v in scalars(g, True)]
    texts = [v for v in given if isinstance(v, str)]
    numbers = {json.dumps(canon(v)) for v in given if not isinstance(v, str)}
    carried = set()
    for value in (v for _, outs in examples for o in outs for v in scalars(o, False)):
        if isinstance(value, str):
            if not any(value in t for t in texts):
                carried.add(re.escape(json.dumps(value, ensure_ascii=False)))
        elif (text := json.dumps(canon(value))) not in numbers and text not in texts:
            carried.add(r"(?<![\w.\"$])" + re.escape(text) + r"(?![\w.\"])")
    return [re.compile(p) for p in sorted(carried)]


def embeds(text: str, answers: list[re.Pattern]) -> bool:
    """Whether program ``text`` writes one of the ``answers`` as a constant."""
    return any(pattern.search(text) for pattern in answers)


def ranked(found, answers: list[re.Pattern] = (), keys: list[str] = ()) -> list[Entry]:
    """Programs reading the input first, then the constants, then programs writing a
    wanted value as a constant (see :func:`answer_literals`); cheapest first, and among
    equals the one naming more of the data's fields (``map(select(.done)) | length``
    before ``map(not) | indices(false) | .[-1]``); ``P | step`` and ``step | P`` dropped
    when ``P`` itself answers (the step changed nothing the examples show)."""
    texts = {e.text for e in found}
    kept = [e for e in found if not any(e.text.startswith(t + " | ") or
                                        e.text.endswith(" | " + t) for t in texts)]
    fields = [catalog.field(k) for k in keys]
    def key(e: Entry):
        carried = e.const or embeds(e.text, answers)  # the answer written, not found
        return (carried, not e.const, e.cost, -sum(f in e.text for f in fields),
                _generic(e.text), len(e.text))

    return sorted(kept, key=key)
