"""A Python value's JSON text for the worker: orjson's speed, ``json.dumps``'s meaning; the
literal facts learnt from the value; a digest that names one version of it."""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import struct
from decimal import Decimal

import orjson
import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.jqlang.literals import facts_of
from jqmagic.core.sources.formats import dumps, text_digest, value_facts, value_json, value_text


def _floats(count: int, seed: int = 5) -> list[float]:
    rng = random.Random(seed)
    out = [0.0, -0.0, 5e-324, 1.7976931348623157e308, 2.0**53, 2.0**63, 12.0, 0.1 + 0.2,
           1e-05, 1e16, 1e22, 123456789012345678.0]
    while len(out) < count:
        f = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(f):
            out.append(f)
    for e in range(-30, 30):
        out += [10.0**e, 1.5 * 10.0**e, rng.random() * 10.0**e]
    return out


def _decimals(data: bytes | str) -> list:
    return json.loads(data, parse_float=Decimal, parse_int=Decimal)


def test_floats_are_the_same_decimals_as_json_dumps_writes():
    floats = _floats(5000)
    fast = value_json(floats)
    assert fast == orjson.dumps(floats)  # orjson wrote it
    assert _decimals(fast) == _decimals(json.dumps(floats))


@pytest.mark.parametrize("value, text", [
    ([2**64, -(2**63) - 1], "[18446744073709551616, -9223372036854775809]"),
    ([float("nan"), float("inf"), -math.inf, None], "[NaN, Infinity, -Infinity, null]"),
    ({1: "a", None: "b"}, '{"1": "a", "null": "b"}'),
    ("a\ud800b", '"a\ufffdb"'),
])
def test_what_orjson_would_write_otherwise_is_written_by_json(value, text):
    assert dumps(value) == text


def test_other_types_are_converted_as_before():
    value = {"when": dt.date(2024, 5, 1), "tags": (1, 2), "raw": b"x", "n": 1.5}
    assert json.loads(value_json(value)) == {"when": "2024-05-01", "tags": [1, 2],
                                             "raw": "x", "n": 1.5}
    with pytest.raises(JqMagicError) as exc:
        dumps({"x": object()})
    assert exc.value.code == "INVALID_ARGUMENT" and "object" in exc.value.message
    deep: list = []
    for _ in range(300):  # past orjson's 254 levels: json writes it
        deep = [deep]
    assert dumps(deep) == "[" * 301 + "]" * 301


@pytest.mark.parametrize("value, facts", [
    ({"score": 12.345678901234567, "n": 3, "s": "1.50"}, set()),
    ([12.0], {"whole"}), ([-0.0], {"whole"}), ([1e-05], {"odd"}), ([1e16], {"odd"}),
    ([2.5e16], {"odd"}), ([10**15], {"long"}), ([-(10**15)], {"long"}),
    ([10**15 - 1, True, None], set()),
])
def test_facts_learnt_from_the_value(value, facts):
    assert value_facts(value) == facts
    # never less cautious than the text scan would be, except about long floats
    assert value_facts(value) <= facts_of(value_json(value))


def test_facts_of_other_types_are_left_to_the_text():
    assert value_facts([1, {"when": dt.date(2024, 5, 1)}]) is None
    assert value_facts(3.5) == set()


def test_a_digest_names_the_text():
    value = {"a": [1, 2.5]}
    assert text_digest(value_json(value)) == text_digest(value_json({"a": [1, 2.5]}))
    value["a"].append(3)
    assert text_digest(value_json(value)) != text_digest(value_json({"a": [1, 2.5]}))


def test_the_worker_reads_the_text_back_exactly():
    plain = value_text({"n": [1, 2.5, 2**63, "é"]})
    assert plain.plain and plain.value() == {"n": [1, 2.5, 2**63, "é"]}
    big = value_text({"n": [2**64, 1.5]})
    assert not big.plain and big.value() == {"n": [2**64, 1.5]}  # orjson: a float
    nan = value_text([float("nan")]).value()[0]
    assert nan != nan
    assert plain.digest == text_digest(plain.data) and len(plain.digest) == 40
