"""The merged-shape accumulator (shape/node.py) and the formats made from it (infer.py)."""

from __future__ import annotations

from jqmagic.core.shape.infer import build, jq_schema, json_schema
from jqmagic.core.shape.node import Limits, Node


def test_values_at_one_path_merge_by_type_in_jq_s_order():
    node = build([{"a": 1}, {"a": "x", "b": None}, {"a": 2.5}])
    items = node.items
    assert node.type_str() == "array" and (node.len_min, node.len_max) == (3, 3)
    assert items.count == 3 and items.objects == 3
    assert items.keys["a"].type_str() == "number|string" and items.keys["a"].floats == 1
    assert items.keys["b"].count == 1  # how many objects have the key


def test_keys_past_the_cap_merge_into_one_node():
    node = Node(Limits(max_keys=2))
    node.add({"a": 1, "b": 2, "c": "x", "d": True})
    assert list(node.keys) == ["a", "b"] and node.extra_count == 2
    assert node.extra.type_str() == "boolean|string"
    paths = [path for path, _, _ in node.walk()]
    assert paths == [".", ".a", ".b", ".<other keys>"]


def test_walk_names_every_path_as_jq_does():
    paths = [path for path, _, _ in build({"users": [{"first name": 1}]}).walk()]
    assert paths == [".", ".users", ".users[]", '.users[]["first name"]']


def test_the_schema_formats():
    assert jq_schema({"a": [{"b": 1}], "c": "x"}) == {"a": [{"b": "number"}], "c": "string"}
    schema = json_schema(build({"n": 1, "f": [1.5]}))
    assert schema["properties"]["n"]["type"] == "integer"
    assert schema["properties"]["f"]["items"]["type"] == "number"
