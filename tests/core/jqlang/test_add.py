"""``add`` over numbers answers as libjq 1.8.2 folds them, in doubles: ints whose partial
sums a double holds exactly (summed at once), and ints past that (folded one by one)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import compile_subset, runtime
from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.jqlang.printer import tojson
from tests.core.jqlang.oracle import jq_texts

BIG = 2**53
ints = st.one_of(st.integers(-1000, 1000), st.integers(-BIG, BIG),
                 st.sampled_from([BIG, -BIG, BIG - 1, 1 - BIG, BIG // 2, 0]))


@settings(max_examples=300, deadline=None)
@given(numbers=st.lists(ints, max_size=6))
def test_add_of_ints_is_libjqs(numbers):
    text = json.dumps(numbers)
    runtime.start(None, Literals.of_text(text.encode()).settle())
    try:
        answer = [tojson(x) for x in compile_subset("add").run(numbers, {})]
    except Exception as exc:  # noqa: BLE001 - a decline (NotMine) or an error: not compared
        answer = [type(exc).__name__]
    if answer != ["NotMine"]:
        assert answer == jq_texts("add", text)
