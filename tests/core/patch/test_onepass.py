"""A plain JSON diff made in one pass (onepass.py) writes the bytes of the same steps made
one by one, on documents written any way (odd spacing, CRLF, tabs, several members a line,
escapes, ``-0.0``, big numbers, numbers as written), and the file reads as jq 1.8.2's
value; where it cannot be sure (repeated keys, inserts, a second key added) it declines."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError
from jqmagic.core.patch import jsonscan
from jqmagic.core.patch.batch import STEPS
from jqmagic.core.patch.jqdiff import differences, jq_runner
from jqmagic.core.patch.jsonscan import members, plain_members
from jqmagic.core.patch.onepass import one_pass
from jqmagic.core.patch.textdoc import TextDoc
from tests.core.patch.test_batch import _any_steps as _batch_any_steps
from tests.core.patch.test_batch import _batched
from tests.core.patch.test_batch import _one_by_one as _step_path
from tests.core.patch.test_batch import _value as _batch_value

ORACLE = Path(sys.executable).parent / "jq-1.8.2"
_STRINGS = ["a", "é", "x\ny", 'q"', "", "AB", "tab\there", "/slash", "\u2028", "😀"]


def _scalar(rng: random.Random):
    return rng.choice([None, True, False, rng.randint(-9, 99), 1.5, -0.25, 1e20,
                       rng.choice(_STRINGS)])


def _value(rng: random.Random, depth: int = 0):
    return _batch_value(rng, depth, _scalar, (0.3, 0.65))


class _Writer:
    """Plain JSON written by hand: indent, spacing, newlines, escapes, number literals."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.unit = rng.choice(["  ", "    ", "\t", " "])
        self.newline = rng.choice(["\n", "\r\n"])
        self.spread = rng.random()
        self.ascii = rng.random() < 0.3
        self.repeat = rng.random() < 0.15  # write a key twice somewhere

    def scalar(self, value) -> str:
        rng = self.rng
        if isinstance(value, float) and value == 1.5:
            return rng.choice(["1.5", "1.50", "15e-1", "1.5E0"])
        if value == 0 and rng.random() < 0.3:
            return rng.choice(["-0.0", "-0", "0.0", "0e5"])
        if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.1:
            return rng.choice(["123456789012345678901234567890", "1e400", "1.000000000000000001"])
        text = json.dumps(value, ensure_ascii=self.ascii)
        if isinstance(value, str) and rng.random() < 0.3:
            text = text.replace("/", "\\/").replace("a", "\\u0061")
        return text

    def write(self, value, indent: str = "") -> str:
        rng = self.rng
        if not isinstance(value, (dict, list)):
            return self.scalar(value)
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        if not value:
            return opening + rng.choice(["", " ", self.newline]) + closing
        spread = rng.random() < self.spread
        inner = indent + self.unit
        items = []
        pairs = list(value.items() if isinstance(value, dict) else enumerate(value))
        if isinstance(value, dict) and self.repeat and rng.random() < 0.3:
            pairs.insert(rng.randint(0, len(pairs)), (pairs[0][0], _scalar(rng)))
        for key, item in pairs:
            text = self.write(item, inner if spread else indent)
            if isinstance(value, dict):
                key_text = json.dumps(key, ensure_ascii=self.ascii)
                text = key_text + rng.choice([":", ": ", " : ", ":\t"]) + text
            items.append(text)
        if spread:
            body = "".join((self.newline + inner if n == 0 or rng.random() < 0.8 else " ")
                           + text + ("," if n < len(items) - 1 else "")
                           for n, text in enumerate(items))
            return opening + body + self.newline + indent + closing
        sep = rng.choice([",", ", ", " , "])
        return opening + rng.choice(["", " "]) + sep.join(items) + rng.choice(["", " "]) + closing


PROGRAMS = [
    'walk(if type == "number" then . + 1 else . end)',
    'walk(if type == "object" then del(.a) else . end)',
    'walk(if type == "array" then map(select(type != "string")) else . end)',
    'walk(if type == "object" then .z = 1 else . end)',
    'walk(if type == "object" then .z = [1, {"y": "é"}] else . end)',
    'walk(if type == "array" and length > 0 then .[1:] + [.[0]] else . end)',
    'walk(if type == "string" then ascii_upcase else . end)',
    'walk(if type == "array" then .[:-1] else . end)',
    'walk(if type == "array" then .[:-2] else . end)',
    'walk(if type == "array" then del(.[0]) else . end)',
    'walk(if type == "object" then with_entries(select(.key != "b" and .key != "c")) '
    'else . end)',
    'walk(if type == "boolean" then not elif type == "null" then {"n": [1, 2]} else . end)',
    'walk(if type == "object" and has("c") then .c = {"n": [1, [2, 3]]} else . end)',
    'walk(if type == "array" then map(select(type != "object")) + [7] else . end)',
    'walk(if type == "object" then to_entries | reverse | from_entries else . end)',
    '(.. | select(type == "number")) |= 0',
]


def _one_pass(data: bytes, steps) -> tuple[bytes | None, str | None] | None:
    doc = TextDoc(data)
    if one_pass(doc, steps) is None:
        return None if not doc.changed else (b"declined yet changed", None)
    return b"".join(doc.chunks()), None


def _document(seed: int) -> tuple[bytes, object]:
    rng = random.Random(seed)
    old = _value(rng)
    if not isinstance(old, (dict, list)):
        old = {"a": old, "b": [_value(rng), _value(rng)]}
    data = (rng.choice(["", " ", "\n"]) + _Writer(rng).write(old)
            + rng.choice(["", "\n", "\r\n "])).encode()
    return data, old


_taken = {"yes": 0, "all": 0}


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(PROGRAMS))
def test_one_pass_writes_the_step_path_bytes(seed, program):
    """Random documents x jq programs: the one pass's bytes and changes are the step
    path's (the diff's steps one by one), or it declines and changes nothing."""
    data, _ = _document(seed)
    doc = TextDoc(data)
    old = doc.get([])
    from jqmagic.core.query import query

    try:
        new = query(program, value=old, passthrough=True).values[0]
    except JqMagicError:
        return  # e.g. a number past jq's range: nothing to edit
    steps = list(differences(old, new))
    _taken["all"] += 1
    got = _one_pass(data, steps)
    if got is None:
        return
    _taken["yes"] += 1
    assert got == _step_path(data, steps), (data, program, steps)
    fast, slow = TextDoc(data), TextDoc(data)
    assert one_pass(fast, steps) == [STEPS[op](slow, tokens, value)
                                     for op, tokens, value in steps]


def test_the_one_pass_is_taken_for_most_edits():
    """The test above would pass if the pass always declined: it must not."""
    rng = random.Random(5)
    taken = 0
    for seed in range(300):
        data, old = _document(seed)
        new = json.loads(json.dumps(old))
        if isinstance(new, dict):
            new[rng.choice("abz")] = rng.randint(0, 5)
            new.pop(rng.choice("cd"), None)
        else:
            new = [x for x in new if rng.random() < 0.7] + new[:0]
        steps = list(differences(TextDoc(data).get([]), new))
        got = _one_pass(data, steps)
        taken += got is not None
        if got is not None:
            assert got == _step_path(data, steps), (data, steps)
    assert taken > 150


@pytest.mark.parametrize(("data", "steps"), [
    # the last two items cut: the second reads the comma the first cut
    (b'[1, 2, 3]', [("remove", ["2"], None), ("remove", ["1"], None)]),
    # two keys added to an object that was empty
    (b'{"a": {}}', [("set", ["a", "c"], 2), ("set", ["a", "b"], 3)]),
    # the first member cut: the next one's line is the object's first (a newline before)
    (b'{"o": {"a": 1,\n  "b": 2,\n  "c": 3}, "p": [\n  1\n]}',
     [("remove", ["o", "a"], None), ("set", ["o", "c"], {"x": 1})]),
    # an index past an item cut before it names another item now
    (b'[1, 2, 3]', [("remove", ["0"], None), ("set", ["1"], 9)]),
    # a place set twice; a container set to a scalar, then a place inside it
    (b'{"a": 1, "b": 2}', [("set", ["a"], 5), ("set", ["a"], 6)]),
    (b'{"a": {"x": 1}}', [("set", ["a"], 5), ("set", ["a", "x"], 2)]),
    # a key written twice: which one a step reads is not the first
    (b'{"a": 1, "a": 2}', [("set", ["a"], 3)]),
    # an insert, two appends to an empty array, a missing parent
    (b'[1]', [("insert", ["0"], 0)]),
    (b'[[]]', [("set", ["0", "-"], 2), ("set", ["0", "-"], 3)]),
    (b'{"a": {}}', [("set", ["b", "c"], 2)]),
    # JSONC
    (b'{"a": 1 // one\n}', [("set", ["a"], 2)]),
])
def test_the_one_pass_declines_what_it_cannot_tell(data, steps):
    assert _one_pass(data, steps) is None
    assert _batched(data, steps) == _step_path(data, steps)  # made (or refused) as before


@pytest.mark.parametrize(("data", "steps"), [
    (b'{\n  "a": [\n    1,\n    2,\n    3,\n    4\n  ]\n}\n',
     [("remove", ["a", "2"], None), ("remove", ["a", "1"], None)]),
    (b'{\n  "a": [\n    1,\n    2\n  ],\n  "e": {}\n}', [("remove", ["a", "1"], None),
                                                      ("set", ["e", "k"], {"x": [1]})]),
    (b'{"a": [1, 2, 3, 4], "b": {"x": 1}}', [("remove", ["a", "2"], None),
                                             ("remove", ["a", "0"], None),
                                             ("set", ["b", "y"], [1])]),
    (b'{\n\t"k": {"x": 1, "y": 2},\n\t"l": 1\n}', [("set", ["k", "x"], {"p": [1]}),
                                                ("set", ["l"], {"q": {}})]),
    (b'[{"a": 1}, {"a": 1}]', [("remove", ["1"], None)]),
    # appends, after cuts too (the index an append reports counts the cut)
    (b'[1, 2, 3, 4, 5]', [("remove", ["2"], None), ("set", ["-"], 9)]),
    (b'{"a": [1, 2], "b": [0]}', [("set", ["a", "-"], 3), ("set", ["a", "-"], {"x": 1}),
                                  ("set", ["b", "-"], [5])]),
    (b'{\n  "a": [\n    1,\n    2,\n    7\n  ]}', [("set", ["a", "-"], 3), ("set", ["a", "-"], [4]),
                                             ("remove", ["a", "1"], None)]),
    # keys added to one object: each after the one before
    (b'{"a": 1}', [("set", ["c"], 2), ("set", ["b"], [3, {"d": 4}])]),
    (b'{\r\n\t"a": 1,\r\n\t"b": 2,\r\n\t"c": [2]\r\n}',
     [("set", ["z"], {"y": [1]}), ("set", ["c", "0"], 3), ("set", ["x"], "s"),
      ("set", ["w"], None)]),
    (b'{"only": [5]}', [("remove", ["only", "0"], None)]),
])
def test_the_one_pass_cases_by_hand(data, steps):
    got = _one_pass(data, steps)
    assert got is not None and got == _step_path(data, steps)
    fast, slow = TextDoc(data), TextDoc(data)
    assert one_pass(fast, steps) == [STEPS[op](slow, tokens, value)
                                     for op, tokens, value in steps]  # appends' indexes


@pytest.mark.skipif(not ORACLE.exists(), reason="jq 1.8.2 (the oracle) is not in the venv")
@pytest.mark.parametrize("program", PROGRAMS)
def test_query_i_reads_as_jq_s_value(program, tmp_path):
    """-i on random plain documents: the file reads as jq 1.8.2's output for the program."""
    for seed in range(8):
        data, _ = _document(seed * 31 + len(program))
        data = data.replace(b"1e400", b"1e300")  # kept as written by design (jqdiff)
        path = tmp_path / f"{seed}.json"
        path.write_bytes(data)
        want = subprocess.run([str(ORACLE), "-S", "-c", program, str(path)],
                              capture_output=True)
        if want.returncode:
            continue
        doc = TextDoc(data)
        jq_runner(program)(doc)
        path.write_bytes(b"".join(doc.chunks()))  # read by jq too: 1e400 is kept as written
        got = subprocess.run([str(ORACLE), "-S", "-c", ".", str(path)], capture_output=True,
                             check=True).stdout
        assert json.loads(got) == json.loads(want.stdout), (data, program)  # 1.50 == 1.5


def _any_steps(value, rng: random.Random, count: int) -> list:
    """Replaces, removals, keys added and appends in any order (not only a diff's)."""
    return _batch_any_steps(value, rng, count, ("set", "remove", "remove", "add"), _value)


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 12))
def test_steps_in_any_order_one_pass_or_decline(seed, count):
    """The checks hold for steps in any order: each one the pass takes is made as one
    by one would make it, reading the text an earlier step changed."""
    rng = random.Random(seed)
    old = {"a": _value(rng), "b": [rng.choice([1, "s", [2], {"k": 3}]) for _ in range(
        rng.randint(1, 8))], "c": {"d": [1, 2, 3, 4][: rng.randint(0, 4)]}}
    writer = _Writer(rng)
    writer.repeat = False
    data = writer.write(old).encode()
    steps = _any_steps(old, rng, count)
    got = _one_pass(data, steps)
    if got is not None:
        assert got == _step_path(data, steps), (data, steps)
        fast, slow = TextDoc(data), TextDoc(data)
        assert one_pass(fast, steps) == [STEPS[op](slow, tokens, value)
                                         for op, tokens, value in steps]


@pytest.mark.parametrize("seed", range(0, 600, 3))
def test_plain_members_are_members(seed):
    """jsonscan.plain_members (in C where built) and its regular expressions read each
    container of a plain document as members() does."""
    data, _ = _document(seed)
    doc = TextDoc(data)
    if not doc._first_wins:
        return
    text, stack = doc.text, [doc.root]
    while stack:
        pos = stack.pop()
        if text[pos] in "{[":
            read = list(members(text, pos))
            assert list(plain_members(text, pos)) == read, (text, pos)
            assert list(jsonscan._plain_members(text, pos)) == read, (text, pos)
            stack += [member.vstart for member in read]


def test_plain_members_in_c():
    """The C reader is built here (setup.py), and reads what its regular expressions read:
    escaped keys, strings holding brackets and quotes, nesting, spacing; text it cannot
    read as a container is refused, never read past."""
    assert jsonscan._spans is not None, "build it: python setup.py build_ext --inplace"
    text = TextDoc(b'{"a\\"]": "x}\\\\", "b" :\t[1 , {"c": "]"}, -0.5e3],"\\u00e9":null}\n').text
    got = list(plain_members(text, 0))
    assert got == list(jsonscan._plain_members(text, 0)) == list(members(text, 0))
    assert [m.key for m in got] == ['a"]', "b", "\xc3\xa9"]
    assert list(plain_members(text, got[1].vstart)) == list(members(text, got[1].vstart))
    for bad, pos in (('{"a": 1', 0), ('{"a" 1}', 0), ("[1, ", 0), ('["x]', 0), ("1", 0),
                     ("[1]", 5)):
        with pytest.raises(ValueError):
            jsonscan._spans.members(bad, pos, jsonscan.Member, jsonscan._escaped_key)
