"""A diff's steps made as one batch (batch.apply_steps) write the bytes the same steps make
one by one, on documents written any way (JSONC comments, trailing commas, odd spacing,
CRLF, one line), and the text reads back as the new value; the error of a step that fails
is the one-by-one error."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError, patch
from jqmagic.core.patch import jqdiff
from jqmagic.core.patch.batch import STEPS, apply_steps
from jqmagic.core.patch.jqdiff import differences
from jqmagic.core.patch.stores import TreeStore
from jqmagic.core.patch.textdoc import TextDoc


def _scalar(rng: random.Random):
    return rng.choice([None, True, False, rng.randint(-9, 99), rng.choice([1.5, -0.25, 1e20]),
                       rng.choice(["a", "é", "x\ny", "q\"", "", "AB"])])


def _value(rng: random.Random, depth: int = 0, scalar=_scalar, shares=(0.35, 0.7)):
    """A random value: a ``scalar`` (below ``shares[0]``), an array (below ``shares[1]``)
    or an object, four levels at most."""
    kind = rng.random()
    if depth > 3 or kind < shares[0]:
        return scalar(rng)
    if kind < shares[1]:
        return [_value(rng, depth + 1, scalar, shares) for _ in range(rng.randint(0, 6))]
    return {rng.choice("abcdefgh"): _value(rng, depth + 1, scalar, shares)
            for _ in range(rng.randint(0, 5))}


def _changed(value, rng: random.Random, rate: float):
    """``value`` with random edits: scalars changed, members removed, added, arrays shifted."""
    if rng.random() < rate / 4:
        return _value(rng, 2)
    if isinstance(value, list):
        out = [_changed(v, rng, rate) for v in value if rng.random() > rate / 2]
        for _ in range(rng.randint(0, 2) if rng.random() < rate else 0):
            out.insert(rng.randint(0, len(out)), _value(rng, 2))
        if out and rng.random() < rate / 3:
            out = out[1:] + out[:1]
        return out
    if isinstance(value, dict):
        out = {k: _changed(v, rng, rate) for k, v in value.items() if rng.random() > rate / 2}
        if rng.random() < rate:
            out[rng.choice("abcdefghz")] = _value(rng, 2)
        return out
    return _scalar(rng) if rng.random() < rate else value


class _Writer:
    """JSON text written by hand: indent, spacing, comments, trailing commas, newlines."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.unit = rng.choice(["  ", "    ", "\t", " "])
        self.newline = rng.choice(["\n", "\r\n"])
        self.comments = rng.random() < 0.6
        self.spread = rng.random()  # how often a container spreads over lines
        self.ascii = rng.random() < 0.3

    def gap(self) -> str:
        rng = self.rng
        if self.comments and rng.random() < 0.15:
            return rng.choice([" /* c */ ", "/**/", " /* a, b ] } */"])
        return rng.choice(["", "", " ", "  "])

    def write(self, value, indent: str = "") -> str:
        if not isinstance(value, (dict, list)) or not value:
            return json.dumps(value, ensure_ascii=self.ascii) if value not in ({}, []) else \
                ("{" if isinstance(value, dict) else "[") + self.gap() + \
                ("}" if isinstance(value, dict) else "]")
        spread = self.rng.random() < self.spread
        inner = indent + self.unit
        items = []
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            text = self.write(item, inner if spread else indent)
            if isinstance(value, dict):
                sep = self.rng.choice([":", ": ", " : ", ":  "])
                text = json.dumps(key, ensure_ascii=self.ascii) + sep + self.gap() + text
            items.append(text)
        pieces, noted = [], False  # noted: the last line ends in a comment
        for n, text in enumerate(items):
            last = n == len(items) - 1
            comma = "" if last and not (self.comments and self.rng.random() < 0.2) else ","
            tail = ""
            if spread and self.comments and self.rng.random() < 0.25:
                tail = " // note, ] }"
            if spread:
                lead = self.newline + inner if n == 0 or noted or self.rng.random() < 0.7 \
                    else self.rng.choice([" ", "", self.newline + inner + " "])
                if self.comments and self.rng.random() < 0.1:
                    lead += "// own line" + self.newline + inner
                pieces.append(lead + text + comma + tail)
                noted = bool(tail)
            else:
                pieces.append(text + self.gap() + comma + (self.rng.choice([" ", ""]) if not last
                                                          else ""))
        close = self.newline + indent if spread or noted else self.gap()
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        return opening + "".join(pieces) + close + closing


def _one_by_one(data: bytes, steps) -> tuple[bytes | None, str | None]:
    doc = TextDoc(data)
    try:
        for op, tokens, value in steps:
            STEPS[op](doc, tokens, value)
    except JqMagicError as exc:
        return None, f"{exc.code}: {exc.message}"
    return b"".join(doc.chunks()), None


def _batched(data: bytes, steps) -> tuple[bytes | None, str | None]:
    doc = TextDoc(data)
    try:
        apply_steps(doc, steps)
    except JqMagicError as exc:
        return None, f"{exc.code}: {exc.message}"
    return b"".join(doc.chunks()), None


def _check(seed: int, rate: float) -> None:
    rng = random.Random(seed)
    old = _value(rng)
    if not isinstance(old, (dict, list)):
        old = [old, _value(rng)]
    writer = _Writer(rng)
    data = (rng.choice(["", " ", "// top\n"]) + writer.write(old) +
            rng.choice(["", writer.newline])).encode()
    new = _changed(old, rng, rate)
    steps = list(differences(old, new))
    want = _one_by_one(data, steps)
    got = _batched(data, steps)
    assert got == want, (data, steps)
    assert want[0] is not None and _same(TextDoc(want[0]).get([]), new)


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=600, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([0.05, 0.2, 0.5]))
def test_a_batch_writes_the_bytes_of_the_steps_one_by_one(seed, rate):
    _check(seed, rate)


def _long(rng: random.Random, count: int) -> list:
    return [{"id": n, "v": rng.randint(0, 9), "tags": ["a", "b"][: rng.randint(0, 2)]}
            for n in range(count)]


@pytest.mark.parametrize("seed", range(40))
def test_long_arrays_edited_everywhere(seed):
    """Many steps in one array (each element, runs of removals, shifts) in every style."""
    rng = random.Random(seed)
    old = {"meta": {"n": 1}, "items": _long(rng, rng.randint(5, 60))}
    items = old["items"]
    programs = [
        [dict(x, v=x["v"] + 1) for x in items],
        [x for x in items if rng.random() < 0.6],
        [x for n, x in enumerate(items) if not 3 <= n < 9],
        items[1:] + items[:1],
        [dict(x, new=n) for n, x in enumerate(items)],
        [{k: v for k, v in x.items() if k != "tags"} for x in items],
        [dict(x, tags=[*x["tags"], "z"]) for x in items],
        [x["v"] for x in items],
    ]
    new = {"meta": {"n": 2}, "items": programs[seed % len(programs)]}
    writer = _Writer(rng)
    data = writer.write(old).encode()
    steps = list(differences(old, new))
    want = _one_by_one(data, steps)
    assert _batched(data, steps) == want
    assert _same(TextDoc(want[0]).get([]), new)


def _places(value, at=()):
    """Every place in ``value``: (tokens, the value there)."""
    yield list(at), value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*at, str(index)))


def _any_steps(value, rng: random.Random, count: int,
               ops=("set", "set", "remove", "insert", "add"), make=None) -> list:
    """Steps in any order (not only a diff's), drawn from ``ops``: replace, remove, insert,
    append, add a key, each valid where it comes (made on a copy of ``value`` as they
    come); ``make``: the new values' maker (:func:`_value`)."""
    make = make or _value
    store = TreeStore(json.loads(json.dumps(value)))
    steps = []
    for _ in range(count):
        places = list(_places(store.root))[1:]
        if not places:
            break
        tokens, here = rng.choice(places)
        parent = store.get(tokens[:-1])
        op = rng.choice(ops)
        if op == "insert" and isinstance(parent, list):
            step = ("insert", tokens, make(rng, 2))
        elif op == "add" and isinstance(here, (dict, list)):
            step = ("set", [*tokens, "-" if isinstance(here, list) else rng.choice("xyz")],
                    make(rng, 3))
        elif op == "remove":
            step = ("remove", tokens, None)
        else:
            step = ("set", tokens, make(rng, 2))
        STEPS[step[0]](store, step[1], copy.deepcopy(step[2]))  # later steps edit the copy
        steps.append(step)
    return steps


@settings(max_examples=600, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 30))
def test_steps_in_any_order_write_the_one_by_one_bytes(seed, count):
    rng = random.Random(seed)
    old = {"a": _value(rng), "b": [_value(rng) for _ in range(rng.randint(0, 8))]}
    data = _Writer(rng).write(old).encode()
    steps = _any_steps(old, rng, count)
    assert _batched(data, steps) == _one_by_one(data, steps), (data, steps)


ORACLE = Path(sys.executable).parent / "jq-1.8.2"
PROGRAMS = ['.items |= map(.v += 1)', '.items |= map(select(.id % 7 != 3))',
            '.items |= .[1:] + [.[0]]', '.items |= map(del(.tags))', '.items |= map(.new = .id)',
            '.items += [{"id": -1}]', '.items |= map(select(.id % 2 == 0) | .tags += ["z"])',
            'del(.items[5:200])', '.items |= reverse', '.meta.version = 4 | .items[3].v = null']


@pytest.mark.skipif(not ORACLE.exists(), reason="jq 1.8.2 (the oracle) is not in the venv")
@pytest.mark.parametrize("program", PROGRAMS)
def test_query_i_on_jsonc_is_jq_s_value_in_the_one_by_one_bytes(program, tmp_path, monkeypatch):
    """-i over a JSONC file (CRLF, comments, a trailing comma, items on one line each):
    the value jq 1.8.2 gives on the same document, in the bytes of the steps one by one."""
    rng = random.Random(3)
    items = [{"id": n, "v": rng.randint(0, 999), "tags": rng.sample(["a", "b", "c"], 2)}
             for n in range(300)]
    lines = ["{", "  // exported by hand", '  "meta": {"version": 3},', '  "items": [']
    lines += ["    " + json.dumps(item) + "," + ("  // first" if n == 0 else
                                                 "  /* odd */" if n % 37 == 0 else "")
              for n, item in enumerate(items)]
    text = "\r\n".join([*lines, "  ],", "}", ""])
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"meta": {"version": 3}, "items": items}))
    want = json.loads(subprocess.run([str(ORACLE), program, str(plain)], capture_output=True,
                                     check=True).stdout)
    batched, one_by_one = tmp_path / "a.jsonc", tmp_path / "b.jsonc"
    batched.write_bytes(text.encode())
    one_by_one.write_bytes(text.encode())
    patch(batched, jq=program)
    monkeypatch.setattr(jqdiff, "apply_steps", lambda store, steps: [
        STEPS[op](store, tokens, value) for op, tokens, value in steps])
    patch(one_by_one, jq=program)
    assert batched.read_bytes() == one_by_one.read_bytes()
    assert _same(TextDoc(batched.read_bytes()).get([]), want)


def test_a_failing_step_raises_the_one_by_one_error():
    data = b'{"a": [1, 2], "b": {"c": 1}}'
    steps = [("set", ["b", "c"], 2), ("remove", ["b", "x"], None)]
    assert _batched(data, steps) == _one_by_one(data, steps)
    assert _batched(data, steps)[1].startswith("NOT_FOUND")
