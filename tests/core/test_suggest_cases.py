"""suggest() on twenty tasks of two examples each (suggest_cases.json): the first answer
must give the right output on a third input it never saw (so a fit by position or by a
constant that closes the gap fails) and write no wanted value as a constant. Each search
is given the 5 s the issue asks for (the time taken is measured, not asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jqmagic.core.suggest import suggest
from jqmagic.core.suggest.programs import canon
from jqmagic.core.suggest.rank import answer_literals, embeds
from jqmagic.core.suggest.verify import outputs

CASES = json.loads((Path(__file__).parent / "suggest_cases.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["task"] for c in CASES])
def test_the_first_answer_holds_on_an_input_it_never_saw(case):
    found = suggest(examples=case["examples"], timeout=5.0, limit=3)
    assert found.programs, found.message
    first = found.best
    given, wanted = case["holdout"]
    assert canon(outputs(first, given)) == canon([wanted]), (first, found.programs)
    pairs = [(i, [o]) for i, o in case["examples"]]
    assert found.programs[0]["reads_input"] and not embeds(first, answer_literals(pairs))


def test_a_program_carrying_the_answer_is_never_the_first_answer():
    found = suggest({"name": "ada"}, "zzz", timeout=2.0)
    assert not found.programs[0]["reads_input"]  # the constant itself, said as such
    assert "Only constants fit" in found.message
    carried = [p for p in found.programs if p["reads_input"]]
    assert all(p["embeds_output"] for p in carried)
    assert all("(writes the answer as a constant)" in line for line in found.text.splitlines()
               if any(p["program"] in line for p in carried))
