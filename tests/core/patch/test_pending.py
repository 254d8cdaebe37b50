"""Pending splices: queued one at a time or at once (extend), their index built when first
asked, they answer alike; sorted when iterated."""

from __future__ import annotations

import random

import pytest

from jqmagic.core.patch.pending import Pending, apply


def _splices(rng: random.Random) -> list[tuple[int, int, str]]:
    """Non-overlapping splices over 0..3000 in a random order, some adding a newline."""
    cuts = sorted(rng.sample(range(3000), 2 * rng.randint(1, 40)))
    spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]
    if rng.random() < 0.5:
        rng.shuffle(spans)
    return [(s, e, rng.choice(["x", "", "a\nb", "yy"])) for s, e in spans]


@pytest.mark.parametrize("seed", range(60))
def test_extend_and_add_answer_alike(seed):
    rng = random.Random(seed)
    splices = _splices(rng)
    one, many = Pending(), Pending()
    split = rng.randint(0, len(splices))
    for splice in splices[:split]:
        one.add(*splice)
        many.add(*splice)
    if rng.random() < 0.5:  # asked before the rest come: the index grows later
        assert one.touched(0, 10) == many.touched(0, 10)
    for splice in splices[split:]:
        one.add(*splice)
    many.extend(splices[split:])
    for _ in range(40):
        low = rng.randrange(3000)
        high = low + rng.randrange(300)
        assert one.touched(low, high) == many.touched(low, high) == any(
            s <= high and e >= low for s, e, _ in splices)
        assert one.new_line_in(low, high) == many.new_line_in(low, high)
    text = "".join(chr(97 + i % 26) for i in range(3000))
    assert list(one) == list(many) == sorted(splices)
    assert apply(text, one) == apply(text, many)
    for _ in range(40):  # asked again after the sort moved them: the index follows
        low = rng.randrange(3000)
        high = low + rng.randrange(300)
        assert many.touched(low, high) == any(s <= high and e >= low for s, e, _ in splices)
