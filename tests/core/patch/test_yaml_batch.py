"""A diff's steps on a YAML stream made as one batch (scalars replaced in place left pending,
applied in one pass: YamlDoc.batching) write the bytes the same steps make one by one, with
the same error when one fails, on documents written any way (block and flow, quoted,
literal, comments, anchors and aliases, several documents), and read back as the new value."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError
from jqmagic.core.patch.batch import STEPS, apply_steps
from jqmagic.core.patch.jqdiff import differences
from jqmagic.core.patch.yamltext import YamlDoc
from jqmagic.core.sources import parse_yaml
from tests.core.patch.test_batch import _any_steps, _changed
from tests.core.patch.test_yaml_props import documents

ANCHORS = [  # (text added to a document's top mapping, its value)
    ("base: &b\n  p: 1\n  q: two\nref: *b\n", {"base": {"p": 1, "q": "two"},
                                               "ref": {"p": 1, "q": "two"}}),
    ("base: &b [1, x]\nref: *b\n", {"base": [1, "x"], "ref": [1, "x"]}),
    ("base: &b hi  # shared\nref: *b\n", {"base": "hi", "ref": "hi"}),
    ("solo: &s 5\n", {"solo": 5}),  # an anchor no alias shares: editable
]


@st.composite
def streams(draw):
    """(the documents' values, the stream's text): one to three documents."""
    values, texts = [], []
    for _ in range(draw(st.integers(1, 3))):
        value, text = draw(documents())
        if draw(st.booleans()):
            extra, more = draw(st.sampled_from(ANCHORS))
            if not set(more) & set(value):
                text, value = text + extra, {**value, **more}
        values.append(value)
        texts.append(text)
    marker = draw(st.sampled_from(["---\n", "--- # next\n", "...\n---\n"]))
    text = texts[0] if len(texts) == 1 else "---\n" + marker.join(texts)
    assert parse_yaml(text) == values, text  # the writer is right
    return values, text


def _run(data: bytes, steps, batched: bool) -> tuple[bytes | None, str | None]:
    doc = YamlDoc(data)
    steps = copy.deepcopy(steps)  # the tree keeps a value set, and later steps edit it
    try:
        if batched:
            apply_steps(doc, steps)
        else:
            for op, tokens, value in steps:
                STEPS[op](doc, tokens, value)
        if doc.changed:
            doc.verify()
    except JqMagicError as exc:
        return None, f"{exc.code}: {exc.message}"
    return b"".join(doc.chunks()), None


def _diff(values: list, new: list) -> list:
    """The steps -i makes: one diff a document (``/N/...`` in a stream of several)."""
    if len(values) == 1:
        return list(differences(values[0], new[0]))
    return [step for n, (old, now) in enumerate(zip(values, new, strict=True))
            for step in differences(old, now, [str(n)])]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32), st.sampled_from([0.05, 0.2, 0.6]))
def test_a_batch_writes_the_bytes_of_the_steps_one_by_one(data, seed, rate):
    values, text = data.draw(streams())
    rng = random.Random(seed)
    new = [_changed(value, rng, rate) for value in values]
    steps = _diff(values, new)
    raw = text.encode()
    want = _run(raw, steps, batched=False)
    assert _run(raw, steps, batched=True) == want, (text, steps)
    if want[0] is not None:
        assert parse_yaml(want[0].decode()) == json.loads(json.dumps(new)), (text, steps)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32), st.integers(1, 25))
def test_steps_in_any_order_write_the_one_by_one_bytes(data, seed, count):
    values, text = data.draw(streams())
    rng = random.Random(seed)
    root = values[0] if len(values) == 1 else values
    steps = _any_steps(root, rng, count)
    raw = text.encode()
    assert _run(raw, steps, batched=True) == _run(raw, steps, batched=False), (text, steps)


def _items(count: int) -> str:
    lines = ["# kept by hand", "meta:", "  version: 3   # bumped", "users:"]
    for n in range(count):
        lines += ([f"  # --- batch {n // 4} ---"] if n % 4 == 0 else []) + [
            f"  - id: u{n}", f"    status: {'new' if n % 3 else 'old'}  # s",
            f"    tags: [a, '{n}']", "    note: |", f"      line {n}", f"    n: {n}"]
    return "\n".join(lines) + "\n"


def test_many_scalars_in_one_pass_in_any_order():
    """Every item's scalars set (first to last and last to first), quoted and flow ones
    too: the one-by-one bytes; a step that must rewrite a block applies the pending ones
    first."""
    text = _items(40)
    old = parse_yaml(text)[0]
    new = json.loads(json.dumps(old))
    for n, user in enumerate(new["users"]):
        user["status"] = "active" if n % 2 else 'it\'s "new"'
        user["tags"][1] = n * 2
        user["n"] = None if n % 5 else {"deep": n}
    steps = list(differences(old, new))
    raw = text.encode()
    for order in (steps, steps[::-1]):
        want = _run(raw, order, batched=False)
        assert want[0] is not None and _run(raw, order, batched=True) == want
        assert parse_yaml(want[0].decode())[0] == new


def test_a_shared_anchor_refuses_in_a_batch_as_one_by_one():
    text = "a: 1\nb: &x 2\nc: *x\nd: 3\n"
    steps = [("set", ["a"], 5), ("set", ["d"], 6), ("set", ["b"], 7)]
    got = _run(text.encode(), steps, batched=True)
    assert got == _run(text.encode(), steps, batched=False)
    assert got[1].startswith("PATCH_CONFLICT")


def test_a_scalar_set_in_place_after_an_edit_that_moved_its_siblings():
    """A scalar replaced in place in a document edited since it was read (an item appended
    to a flow sequence, the first one removed): its values are read again before writing,
    not followed by pointer (that was a TypeError, found by the any-order property)."""
    text = "a: []  # note\n\nb: [~]  # note\n"
    steps = [("set", ["b", "-"], {"a": False, "c": True}), ("remove", ["b", "0"], None),
             ("set", ["b", "0", "c"], 1.5)]
    for batched in (False, True):
        got, error = _run(text.encode(), steps, batched)
        assert error is None and got == b"a: []  # note\n\nb: [{a: false, c: 1.5}]  # note\n"


def test_nothing_waits_while_a_document_has_nodes_to_read_again():
    """A flow sequence appended to (its node no longer tells its text), then a scalar set
    in place elsewhere, then the sequence walked into (read again from the text): the
    scalar is applied at once, so the reading sees it."""
    text = "a: 1  # keep\nb: [1, 2]\nc: x\n"
    steps = [("set", ["b", "-"], 3), ("set", ["a"], 5), ("set", ["b", "0"], 7),
             ("set", ["c"], "z")]
    want = b"a: 5  # keep\nb: [7, 2, 3]\nc: z\n"
    assert _run(text.encode(), steps, batched=True) == (want, None)
    assert _run(text.encode(), steps, batched=False) == (want, None)


def test_long_sequences_edited_everywhere():
    """Runs of items removed (adjacent ones too), the first one, every other one, a shift,
    with scalars set around them: the one-by-one bytes, reading back as the new value."""
    old = parse_yaml(_items(30))[0]
    users = old["users"]
    for new_users in ([u for n, u in enumerate(users) if n % 3 != 1],
                      [u for n, u in enumerate(users) if not 4 <= n < 17],
                      users[1:], users[1:] + users[:1], users[::2],
                      [dict(u, status="x") for n, u in enumerate(users) if n % 4]):
        new = {**old, "users": new_users, "meta": {"version": 4}}
        steps = list(differences(old, new))
        want = _run(_items(30).encode(), steps, batched=False)
        assert want[0] is not None and _run(_items(30).encode(), steps, batched=True) == want
        assert parse_yaml(want[0].decode())[0] == new
