"""An edit by jq that deletes or adds array elements in the middle removes or inserts
those elements only: every other element keeps its text and its comments (the diff wrote
each later element over the one before it, so `# the region` ended up on B's line)."""

from __future__ import annotations

import difflib
import json
import shutil

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from jqmagic import patch
from jqmagic.core.patch.jqdiff import differences
from jqmagic.core.patch.steps import insert_at, remove_at, set_at
from jqmagic.core.patch.stores import TreeStore
from tests.shared import CORPUS_JSON

ENV = ("env:\n  - name: A   # the region\n    value: x\n  - name: B   # secret\n"
       "    value: y\n  - name: C\n    value: \"z\"  # quoted\n")


def test_a_deleted_element_takes_only_its_own_lines(tmp_path):
    path = tmp_path / "env.yaml"
    path.write_text(ENV)
    patch(path, jq="del(.env[0])")
    assert path.read_text() == ENV.replace("  - name: A   # the region\n    value: x\n", "")


def test_an_element_added_first_moves_nothing(tmp_path):
    path = tmp_path / "env.yaml"
    path.write_text(ENV)
    patch(path, jq='.env |= [{"name": "M", "value": "m"}] + .')
    assert path.read_text() == ENV.replace("env:\n", "env:\n  - name: M\n    value: m\n")


def test_jsonc_comments_stay_with_their_elements(tmp_path):
    text = ('{\n  "users": [\n    {"id": 1},  // admin\n    {"id": 2},  // guest\n'
            '    {"id": 3}   // bot\n  ]\n}\n')
    path = tmp_path / "u.jsonc"
    path.write_text(text)
    patch(path, jq="del(.users[1])")
    assert path.read_text() == text.replace('    {"id": 2},  // guest\n', "")


@pytest.mark.skipif(not (CORPUS_JSON / "k8s").is_dir(), reason="../shared corpus absent")
def test_a_corpus_manifest_loses_one_line(tmp_path):
    path = tmp_path / "deploy.yaml"
    shutil.copy(CORPUS_JSON / "k8s" / "ingress-nginx-cloud-deploy.yaml", path)
    path.chmod(0o644)
    before = path.read_text().splitlines()
    patch(path, jq='if .kind == "Deployment" then '
                   'del(.spec.template.spec.containers[0].args[2]) else . end')
    after = path.read_text().splitlines()
    gone = [line for line in difflib.ndiff(before, after) if line[:1] in "+-"]
    assert gone == ["-         - --election-id=ingress-nginx-leader"]


def _apply(old, new):
    root = {"doc": json.loads(json.dumps(old))}
    store = TreeStore(root)
    steps = list(differences(old, new, ["doc"]))
    for op, tokens, value in steps:
        if op == "remove":
            remove_at(store, tokens)
        else:
            {"set": set_at, "insert": insert_at}[op](store, tokens, value)
    store.settle(root)
    return root["doc"], steps


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 10**6), unique=True, max_size=12), st.data())
def test_distinct_elements_cost_one_step_each(items, data):
    """Elements deleted and inserted anywhere (the length changed: an array of the same
    length is compared index by index, as map() writes it): one step for each."""
    new = [x for x in items if data.draw(st.booleans())]
    extra = data.draw(st.lists(st.integers(-100, -1), unique=True, max_size=4))
    for value in extra:
        new.insert(data.draw(st.integers(0, len(new))), {"new": value})
    assume(len(new) != len(items))
    done, steps = _apply([{"old": x} for x in items], [{"old": x} if isinstance(x, int) else x
                                                       for x in new])
    assert done == [{"old": x} if isinstance(x, int) else x for x in new]
    assert len(steps) == len(items) - sum(isinstance(x, int) for x in new) + len(extra)


def test_repeated_values_are_not_aligned_by_difflib(monkeypatch):
    """difflib is quadratic on repeated values (2,000 values of periods 7 and 5: 4.4 s):
    such a middle is compared index by index, and the steps still make the new array."""
    import difflib

    calls = []
    real = difflib.SequenceMatcher
    monkeypatch.setattr(difflib, "SequenceMatcher", lambda *a: calls.append(a) or real(*a))
    old, new = [i % 7 for i in range(2000)], [i % 5 for i in range(1999)]
    assert _apply(old, new)[0] == new and not calls
    distinct = [{"id": i} for i in range(50)]
    changed = [{"id": -i} if i == 40 else {"id": i} for i in range(50) if i != 9]
    assert _apply(distinct, changed)[0] == changed and len(calls) == 1


def test_a_long_array_filtered_or_grown_costs_one_step_each(monkeypatch):
    """Past difflib's 2,000 elements, an array with elements only removed (a filter) or
    only inserted is aligned in one pass: -i '.items |= map(select(...))' over 10,000
    items wrote 26,983 steps (each a rewrite of the file: 3.5 minutes for 1.2 MB)."""
    import difflib

    monkeypatch.setattr(difflib, "SequenceMatcher", None)  # not needed, not called
    items = [{"id": i, "tags": ["a"]} for i in range(10_000)]
    kept = [item for item in items if item["id"] % 1000 != 7]
    done, steps = _apply(items, kept)
    assert done == kept and [op for op, _, _ in steps] == ["remove"] * 10
    grown = [{"id": -1}, *items[:5000], {"id": -2}, *items[5000:], {"id": -3}]
    done, steps = _apply(items, grown)
    assert done == grown and len(steps) == 3


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=30), st.data())
def test_repeated_values_filtered_are_removed_only(items, data):
    """A filter of repeated values: only removals, and the array they make is the new one."""
    new = [x for x in items if data.draw(st.booleans())]
    assume(len(new) != len(items))
    done, steps = _apply(items, new)
    assert done == new and {op for op, _, _ in steps} == {"remove"}
    assert len(steps) == len(items) - len(new)
