"""The completion engine: the path at the cursor, the keys there with type and presence,
builtins, $names, @formats, SOURCE words; a file's shape kept per version."""

from __future__ import annotations

import json
import os

import pytest

from jqmagic.core.complete import complete, complete_source, forget, shapes
from jqmagic.core.complete.context import ITEMS, RECURSE, read

KUBE = {"apiVersion": "v1", "kind": "List", "items": [
    {"metadata": {"name": "a", "labels": {"app-name": "x"}}, "spec": {"replicas": 1}},
    {"metadata": {"name": "b"}, "status": {"phase": "Running"}}]}
PEOPLE = [{"name": "a", "address": {"city": "x"}, "a-b": 1}, {"name": "b", "age": 3},
          {"name": None, "age": 4}]


def texts(program: str, value=KUBE, **kw) -> list[str]:
    return complete(program, value=value, **kw).texts


@pytest.mark.parametrize(("program", "path"), [
    (".items[0].me", ("items", ITEMS)),
    (".[] | select(.ad", (ITEMS,)),
    (".a | .b[] | {x: .", ("a", "b", ITEMS)),
    ("..|.n", (RECURSE,)),
    ("[.[] | .a] | .[0].", (ITEMS, "a")),
    ("map(.x", (ITEMS,)),
    (".[] as $r | .k", ()),
    (".a[]?.", ("a", ITEMS)),
    ("group_by(.a) | .[0][0].", (ITEMS,)),
    (".a |= .", ("a",)),
    ('.["a-b"].', ("a-b",)),
    (".a[1:3] | .[0].", ("a", ITEMS)),
    ("if .a then .b.", ("b",)),
    ("1 + .", ()),
    ("reduce .[] as $x (0; .", None),
    ("{a: .x} | .", None),
])
def test_the_path_at_the_cursor(program, path):
    assert read(program).path == path


def test_keys_come_with_type_and_presence():
    done = complete(".[] | select(.a", value=PEOPLE)
    assert [(o.text, o.type) for o in done.offers] == [
        (".address", "object, in 1 of 3"), ('."a-b"', "number, in 1 of 3"),
        (".age", "number, in 2 of 3")]
    assert done.start == len(".[] | select(") and done.end == len(".[] | select(.a")
    assert ("name", "null|string, in all 3") in [
        (o.text, o.type) for o in complete(".[] | {na", value=PEOPLE).offers]


def test_the_done_when_programs():
    assert texts(".items[0].me") == [".metadata"]
    assert texts(".[] | select(.ad", PEOPLE) == [".address"]
    assert {"map(", "max_by("} <= set(texts(".items | ma"))
    assert texts(".[0].", PEOPLE) == [".name", ".address", '."a-b"', ".age"]


def test_quoted_keys_and_recursion():
    assert texts('.items[].metadata.labels."app') == ['."app-name"']
    assert texts(".items[].metadata.labels.") == ['."app-name"']
    assert texts("..|.ph") == [".phase"]
    assert texts('.items[] | {"me') == ['"metadata"']
    assert texts('.items[0]["me') == ['"metadata"']
    assert complete('.items[0]["me', value=KUBE).start == len(".items[0][")
    assert texts(".items[] | .metadata | {na") == ["name"]


def test_the_cursor_may_be_inside_the_program():
    program = ".items[0].me | length"
    done = complete(program, cursor=len(".items[0].me"), value=KUBE)
    assert done.texts == [".metadata"] and done.end == len(".items[0].me")


def test_builtins_variables_formats():
    builtins = {o.text: o.type for o in complete("ran").offers}
    assert builtins["range("] == "range/1, range/2, range/3"
    paths = {o.text: o.type for o in complete("pat").offers}
    assert paths["paths"] == "paths/0" and paths["paths("] == "paths/1" and "path(" in paths
    assert "_modify(" not in complete("_m").texts
    assert complete("if .a th").texts == ["then"]
    names = complete(".[] as $row | $r", names={"region": "--arg"},
                     namespace={"rows": [1, 2], "_hidden": [], "In": []}).offers
    assert [(o.text, o.type) for o in names] == [
        ("$row", "bound in the program"), ("$region", "--arg"), ("$rows", "Python list, 2 items")]
    assert complete("@cs").texts == ["@csv"]


def test_no_keys_where_the_path_is_unknown_or_no_source():
    assert texts(".kind + 1 | .") == []
    assert texts(".") == [".apiVersion", ".kind", ".items"]
    assert complete(".").texts == []  # no source: no keys
    assert texts("{a: .items} | .") == []
    assert complete('"abc').offers == []


def test_a_file_through_the_worker_kept_per_version(tmp_path):
    forget()
    path = tmp_path / "d.json"
    path.write_text(json.dumps([{"id": 1}, {"id": 2, "tags-x": []}]))
    assert complete(".[0].", source=str(path)).texts == [".id", '."tags-x"']
    assert len(shapes._kept) == 1
    assert complete(".[0].i", source=str(path)).texts == [".id"]
    assert len(shapes._kept) == 1  # the same version: read once
    path.write_text(json.dumps([{"idx": 1}]))
    os.utime(path, ns=(1, 1))
    assert complete(".[0].i", source=str(path)).texts == [".idx"]


def test_json_lines_slurp_null_input_and_errors(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_text('{"a": 1}\n{"b": {"c": 2}}\n')
    assert complete(".", source=str(path)).texts[:2] == [".a", ".b"]
    assert complete(".b.", source=str(path)).texts == [".c"]
    assert complete(".[].", source=str(path), slurp=True).texts == [".a", ".b"]
    assert complete("input.", source=str(path), null_input=True).texts == [".a", ".b"]
    assert complete(".", source=str(path), null_input=True).texts == []
    missing = complete(".", source=str(tmp_path / "no.json"))
    assert missing.texts == [] and "not found" in missing.note
    assert complete(".", exec="echo {}").note.startswith("a command's")


def test_source_words(tmp_path):
    (tmp_path / "data.json").write_text("{}")
    (tmp_path / "deep").mkdir()
    (tmp_path / ".hidden.json").write_text("{}")
    found = complete_source(f"{tmp_path}/d", {"docs": {"a": 1}, "n": 3}).offers
    assert [(o.text, o.type) for o in found] == [
        (f"{tmp_path}/deep/", "folder"), (f"{tmp_path}/data.json", "file, 2 bytes")]
    assert complete_source("do", {"docs": {"a": 1}, "n": 3}).texts[:1] == ["docs"]
    assert complete_source(f"{tmp_path}/.h").texts == [f"{tmp_path}/.hidden.json"]


def test_a_shape_the_caller_holds():
    from jqmagic.core.shape.infer import build

    root = build(KUBE)
    assert complete(".items[0].me", shape=root).texts == [".metadata"]
    node = root.keys["items"].items
    assert complete(".metadata.", shape=node).texts == [".name", ".labels"]


def test_arrays_offer_their_iteration():
    done = complete(".items.", value=KUBE).offers
    assert [(o.text, o.type) for o in done] == [(".[]", "each of 2 elements: object")]
    assert ".[]" in complete(".items | ", value=KUBE).texts
    assert ".[]" not in texts(".items[0].")
