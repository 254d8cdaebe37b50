"""The value search reads a column (a chain of keys and arrays below the root) in one
pass: every value there that passes the test, with its pointer tokens, in document order,
as a plain walk of the same steps finds them."""

from __future__ import annotations

import random

from jqmagic.core.browsing.search import _column


def _walk(value, steps, tokens):
    """The reference: each step taken as it reads (a key, or None for every element)."""
    if not steps:
        yield tokens
        return
    step, rest = steps[0], steps[1:]
    if step is None and type(value) is list:
        for index, item in enumerate(value):
            yield from _walk(item, rest, [*tokens, index])
    elif step is not None and type(value) is dict and step in value:
        yield from _walk(value[step], rest, [*tokens, step])


def _at(value, tokens):
    for token in tokens:
        value = value[token]
    return value


def _tree(rng: random.Random, depth: int = 1):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice([1, "ab", None, [], {}, 2.5, True])
    if roll < 0.6:
        return [_tree(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {key: _tree(rng, depth + 1) for key in rng.sample("abc", rng.randint(0, 3))}


def test_a_column_is_read_as_a_walk_of_its_steps_reads_it():
    rng = random.Random(16)
    found = 0
    for _ in range(2000):
        value = [_tree(rng) for _ in range(rng.randint(0, 6))]
        steps = [None, *(rng.choice(["a", "b", None]) for _ in range(rng.randint(0, 3)))]
        test = (lambda v: v is not None) if rng.random() < 0.5 else (lambda v: v == 1)
        expected = [tokens for tokens in _walk(value, steps, []) if test(_at(value, tokens))]
        read = [tokens for tokens in _column(None, value, steps, [], test) if tokens is not None]
        assert read == expected, (value, steps)
        found += len(read)
    assert found > 1000  # the trees reach their columns


def test_a_long_column_lets_its_reader_look_at_the_clock():
    records = [{"a": {"b": [i, i + 1]}} for i in range(10_000)]
    read = list(_column(None, records, [None, "a", "b", None], [], lambda v: v == 3))
    assert [tokens for tokens in read if tokens is not None] == [[2, "a", "b", 1],
                                                                 [3, "a", "b", 0]]
    assert read.count(None) == 2  # one look every 4,096 records
