"""Merging values column by column (shape/columns.py) makes exactly the nodes adding them
one by one makes: counts, types, key order, lengths, the key cap, on varied documents."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from jqmagic.core.shape.columns import add_all
from jqmagic.core.shape.node import Limits, Node


def _dump(node: Node) -> list:
    return [(path, n.count, list(n.types.items()), n.floats, list(n.keys or ()),
             n.keys is None, n.extra_count, n.len_min, n.len_max)
            for path, n, _ in node.walk()]


def _both(values: list, max_keys: int = 1000) -> tuple[list, list]:
    one = Node(Limits(max_keys=max_keys))
    for value in values:
        one.add(value)
    bulk = Node(Limits(max_keys=max_keys))
    add_all(bulk, values)
    return _dump(one), _dump(bulk)


def _random_value(rng: random.Random, depth: int) -> object:
    kind = rng.choice("nbifsoa" if depth < 4 else "nbifs")
    if kind == "o":
        keys = rng.sample("abcdefgh", rng.randint(0, 5))
        return {k: _random_value(rng, depth + 1) for k in keys}
    if kind == "a":
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {"n": None, "b": rng.random() < 0.5, "i": rng.randint(-9, 9),
            "f": rng.random(), "s": "x" * rng.randint(0, 3)}[kind]


def _records(rng: random.Random, n: int) -> list:
    """Records that mostly share keys (and key order), as real data does."""
    out = []
    for i in range(n):
        rec = {"id": i, "name": f"n{i}", "tags": ["a", "b"][: rng.randint(0, 2)],
               "addr": {"city": "X", "zip": rng.choice([1, "1", None])}}
        if rng.random() < 0.3:
            rec["extra"] = [{"k": rng.choice([1, 2.5, True])}, {"k": {"deep": []}}]
        if rng.random() < 0.1:
            rec = dict(reversed(list(rec.items())))  # the same keys in another order
        out.append(rec)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_random_documents_merge_as_one_by_one(seed):
    rng = random.Random(seed)
    values = [_random_value(rng, 0) for _ in range(rng.randint(1, 60))]
    one, bulk = _both(values)
    assert bulk == one


@pytest.mark.parametrize("seed", range(20))
def test_many_values_of_a_few_random_shapes_merge_as_one_by_one(seed):
    rng = random.Random(seed)
    shapes = [_random_value(rng, 1) for _ in range(rng.randint(1, 6))]
    one, bulk = _both([[rng.choice(shapes) for _ in range(200)], *shapes])
    assert bulk == one


@pytest.mark.parametrize("seed", range(5))
def test_records_merge_as_one_by_one(seed):
    rng = random.Random(seed)
    one, bulk = _both([_records(rng, 300)])
    assert bulk == one
    assert ".[].extra[].k.deep" in [row[0] for row in bulk]


def test_objects_that_share_no_keys_and_the_key_cap():
    values = [{f"k{i}": {"v": i}} for i in range(50)] + [{"k1": [1, {"z": None}]}]
    assert _both(values)[1] == _both(values)[0]
    one, bulk = _both(values, max_keys=10)
    assert bulk == one
    assert one[0][6] == 40  # the members past the cap merged into <other keys>


def test_other_number_types_and_empty_containers():
    values = [Decimal("1.5"), 2, {}, [], [[]], {"a": {}}, {"a": Decimal(3)}, True, 0.0]
    one, bulk = _both(values)
    assert bulk == one
    assert bulk[0][2] == [("number", 3), ("object", 3), ("array", 2), ("boolean", 1)]


def test_a_type_the_walk_refuses_is_refused_alike():
    with pytest.raises(TypeError):
        Node(Limits()).add({"a": (1, 2)})
    with pytest.raises(TypeError):
        add_all(Node(Limits()), [{"a": (1, 2)}])


def _deepest(merge, wrap, copies: int) -> int:
    """The deepest nesting ``merge`` handles before Python's recursion limit."""
    low, high = 1, 3000
    while low < high:
        middle = (low + high + 1) // 2
        value: object = 1
        for _ in range(middle):
            value = wrap(value)
        try:
            merge([value] * copies)
            low = middle
        except RecursionError:
            high = middle - 1
    return low


@pytest.mark.parametrize(("wrap", "copies"), [
    (lambda v: [v, 1], 20),
    (lambda v: {"a": v, "b": 1}, 20),  # many objects of one signature
    (lambda v: [{"a": v}, {"b": 1}], 1),  # objects that share no keys
])
def test_a_document_nests_about_as_deep_as_one_by_one(wrap, copies):
    one = _deepest(lambda values: [Node(Limits()).add(v) for v in values], wrap, copies)
    bulk = _deepest(lambda values: add_all(Node(Limits()), values), wrap, copies)
    assert one - 3 * 16 - 4 <= bulk <= one  # more frames a level for the first 16 only


def test_records_under_a_root_object_are_merged_column_by_column(monkeypatch):
    doc = {"meta": {"n": 1}, "users": _records(random.Random(7), 300)}
    one, _ = _both([doc])
    walked = []
    original = Node.add
    monkeypatch.setattr(Node, "add", lambda self, v: (walked.append(v), original(self, v)))
    bulk = Node(Limits())
    add_all(bulk, [doc])
    assert _dump(bulk) == one and walked == []  # nothing added one by one
