"""Shape inference: formats, merge rules, pointers, profiles, streaming, hints."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.errors import JqMagicError
from jqmagic.core.shape import JQSCHEMA_FILTER, shape
from jqmagic.core.shape.hints import hint_for, path_steps
from tests.shared import CORPUS_JSON

CORPUS = CORPUS_JSON
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")

USERS = {
    "total": 3,
    "users": [
        {"id": 1, "name": "ann", "settings": {"theme": "dark", "beta": True}, "tags": ["a"]},
        {"id": 2, "email": None, "settings": {"theme": "light"}, "tags": []},
        {"id": 3.5, "email": "c@x.org", "settings": None,
         "orders": [{"sku": "k1", "qty": 1}, {"sku": "k2", "gift": True}]},
    ],
}


def both(**kwargs):
    """The same shape request in memory and streamed; asserts they agree."""
    text = json.dumps(kwargs.pop("value"))
    memory = shape(text=text, stream=False, **kwargs)
    streamed = shape(text=text, stream=True, **kwargs)
    assert streamed.streamed and not memory.streamed
    assert streamed.value == memory.value
    return memory


# -- format "shape" -------------------------------------------------------------------------
def test_array_template_merges_every_element():
    users = both(value=USERS, path="/users", depth=1).value
    assert users["path"] == "/users" and users["type"] == "array"
    assert users["arrayLength"] == 3
    assert users["availableKeys"] == ["id", "name", "settings", "tags", "email", "orders"]
    assert users["keyPresence"] == {"id": 3, "name": 1, "settings": 3, "tags": 2, "email": 2,
                                    "orders": 1}
    template = users["elementTemplate"]
    assert template["email"] == "null|string"
    assert template["settings"] == {"theme": "string", "beta": "boolean"}
    assert template["tags"] == ["string"]
    # nested arrays of objects merge the same way: keys of both orders
    assert template["orders"] == [{"sku": "string", "qty": "number", "gift": "boolean"}]
    assert users["mixedTypes"] == {".users[].settings": "null|object"}


def test_values_never_appear_in_shape():
    text = both(value=USERS).text
    for secret in ("ann", "dark", "c@x.org", "k1"):
        assert secret not in text


def test_object_children_follow_depth():
    root = both(value=USERS, depth=1).value
    assert root["keys"] == ["total", "users"]
    assert root["children"]["total"] == {"type": "number"}
    assert root["children"]["users"]["arrayLength"] == 3
    assert "elementTemplate" not in root["children"]["users"]  # depth exhausted
    assert root["children"]["users"]["availableKeys"][0] == "id"
    flat = both(value=USERS, depth=0).value
    assert flat == {"path": "", "type": "object", "keys": ["total", "users"]}


def test_primitive_and_empty_values():
    assert both(value="x").value == {"path": "", "type": "string"}
    assert both(value=[]).value == {"path": "", "type": "array", "arrayLength": 0}
    mixed = both(value=[1, "a", None]).value
    assert mixed["elementType"] == "null|number|string"
    assert mixed["elementTypes"] == {"null": 1, "number": 1, "string": 1}


def test_many_keys_are_capped():
    value = {f"k{i}": {"v": i} for i in range(1500)}
    out = both(value=value, depth=1).value
    assert len(out["keys"]) == 100 and out["keyCount"] == 1500
    assert len(out["children"]) == 100
    schema = shape(value=value, format="jsonschema", value_given=True).value
    assert len(schema["properties"]) == 1000  # tracked keys; the rest merge
    assert schema["additionalProperties"]["properties"] == {"v": {"type": "integer"}}


# -- jqschema and jsonschema ---------------------------------------------------------------
def test_jqschema_matches_the_middleware_example():
    original = {"total_count": 1000, "items": [{"login": "user1", "id": 123, "verified": True},
                                               {"login": "user2", "id": 456}]}
    schema = both(value=original, format="jqschema").value
    assert schema == {"items": [{"id": "number", "login": "string", "verified": "boolean"}],
                      "total_count": "number"}
    assert list(schema) == ["items", "total_count"]  # keys sorted, as jq's keys


@needs_corpus
@pytest.mark.skipif(shutil.which("jq") is None, reason="the jq command line is not installed")
@pytest.mark.parametrize("name", ["geojson/world-countries.geo.json",
                                  "npm/axios-package-lock.json",
                                  "openapi/kubernetes-1.36-swagger.json"])
def test_jqschema_is_exactly_the_jq_filter(name):
    path = CORPUS / name
    jq_out = subprocess.run(["jq", "-c", JQSCHEMA_FILTER, str(path)], capture_output=True,
                            text=True, check=True).stdout.strip()
    for stream in (False, True):
        ours = shape(file=path, format="jqschema", stream=stream).value
        assert json.dumps(ours, separators=(",", ":"), ensure_ascii=False) == jq_out


def test_jsonschema_required_and_integer():
    schema = both(value=USERS, format="jsonschema").value
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    item = schema["properties"]["users"]["items"]
    assert item["required"] == ["id", "settings"]
    assert item["properties"]["id"] == {"type": "number"}  # 3.5 is not an integer
    assert schema["properties"]["total"] == {"type": "integer"}
    assert item["properties"]["email"] == {"type": ["null", "string"]}
    assert item["properties"]["settings"]["type"] == ["null", "object"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=4),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_property_schema_accepts_its_source_and_stream_agrees(value):
    from jsonschema import Draft202012Validator

    schema = shape(value=value, format="jsonschema", value_given=True).value
    Draft202012Validator(schema).validate(value)
    text = json.dumps(value)
    for fmt in ("shape", "jqschema", "jsonschema"):
        assert shape(text=text, format=fmt, stream=True).value == \
            shape(value=json.loads(text), format=fmt, value_given=True).value


# -- pointers --------------------------------------------------------------------------------
BIG = {"users": [{"id": i, "name": f"u{i}"} for i in range(1547)], "user": {"name": "x"}}


@pytest.mark.parametrize("stream", [False, True])
def test_pointer_errors_say_what_exists(stream):
    text = json.dumps(BIG)
    with pytest.raises(JqMagicError) as exc:
        shape(text=text, path="/users/9999", stream=stream)
    assert exc.value.code == "NOT_FOUND" and "Array length is 1547" in exc.value.message
    assert "0 to 1546" in exc.value.hint
    with pytest.raises(JqMagicError) as exc:
        shape(text=text, path="/usr", stream=stream)
    assert exc.value.code == "NOT_FOUND"
    assert 'Did you mean "/user"?' in exc.value.hint and "Keys are: users, user" in exc.value.hint
    with pytest.raises(JqMagicError) as exc:
        shape(text=text, path="/users/name", stream=stream)
    assert "is not an index" in exc.value.message
    with pytest.raises(JqMagicError) as exc:
        shape(text=text, path="/user/name/x", stream=stream)
    assert "'/user/name' is a string" in exc.value.message


@pytest.mark.parametrize("pointer", ["users", "/a~2b"])
def test_malformed_pointer(pointer):
    with pytest.raises(JqMagicError) as exc:
        shape(value=BIG, path=pointer)
    assert exc.value.code == "INVALID_POINTER"


@pytest.mark.parametrize("stream", [False, True])
def test_pointer_into_elements_and_escapes(stream):
    value = {"a/b": {"m~n": [10, {"k": "v"}]}}
    out = shape(text=json.dumps(value), path="/a~1b/m~0n/1", stream=stream)
    assert out.value == {"path": "/a~1b/m~0n/1", "type": "object", "keys": ["k"],
                         "children": {"k": {"type": "string"}}}
    assert out.jq_path == '.["a/b"]["m~n"][1]'


# -- profiles --------------------------------------------------------------------------------
def test_profiles_count_missing_null_distinct_and_samples():
    profiles = both(value=USERS, stats=True).value["profiles"]
    email = profiles[".users[].email"]
    assert email == {"types": "null|string", "count": 2, "missing": 1, "null": 1, "distinct": 1,
                     "minLength": 7, "maxLength": 7, "samples": ["c@x.org"]}
    ids = profiles[".users[].id"]
    assert (ids["min"], ids["max"], ids["distinct"], ids["missing"]) == (1, 3.5, 3, 0)
    assert profiles[".users"]["minItems"] == 3
    assert profiles[".users[].orders[].gift"]["missing"] == 1


def test_profile_distinct_is_estimated_past_the_cap_and_samples_are_bounded():
    value = [{"n": i, "s": "x" * 100 + str(i % 10)} for i in range(20_000)]
    profiles = shape(value=value, stats=True).value["profiles"]
    n = profiles[".[].n"]
    assert n["distinctEstimated"] is True
    assert 17_000 < n["distinct"] < 23_000
    assert len(n["samples"]) == 5
    s = profiles[".[].s"]
    assert s["distinct"] == 10 and "distinctEstimated" not in s
    assert all(len(x) == 61 and x.endswith("…") for x in s["samples"])


def test_stats_only_with_shape_format():
    with pytest.raises(JqMagicError) as exc:
        shape(value=USERS, format="jqschema", stats=True)
    assert exc.value.code == "INVALID_ARGUMENT"
    with pytest.raises(JqMagicError):
        shape(value=USERS, format="xml")
    with pytest.raises(JqMagicError):
        shape(value=USERS, depth=-1)


# -- sources and streaming -------------------------------------------------------------------
def test_threshold_chooses_streaming_and_yaml_loads_whole(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps(USERS))
    assert not shape(path).streamed
    assert shape(path, stream_threshold=10).streamed
    yml = tmp_path / "d.yaml"
    yml.write_text("a: 1\n---\na: null\n")
    out = shape(yml, stream=True)
    assert not out.streamed
    assert out.value["elementTemplate"] == {"a": "null|number"}


def test_jsonl_reads_as_an_array(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"q": "a"}\n{"q": "b", "x": 1}\n')
    for stream in (False, True):
        out = shape(path, stream=stream)
        assert out.value["arrayLength"] == 2 and out.value["keyPresence"] == {"q": 2, "x": 1}
    assert shape(path, format="jqschema", stream=True).value == [{"q": "string"}]


def test_source_errors():
    with pytest.raises(JqMagicError) as exc:
        shape("/no/such/file.json")
    assert exc.value.code == "NOT_FOUND"
    with pytest.raises(JqMagicError) as exc:
        shape(text="{", stream=True)
    assert exc.value.code == "INVALID_JSON"
    with pytest.raises(JqMagicError) as exc:
        shape(value=1, text="1")
    assert exc.value.code == "AMBIGUOUS_SOURCE"


def test_streaming_memory_is_bounded_by_the_shape(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "w") as fh:
        fh.write('{"rows": [')
        fh.write(",".join(json.dumps({"id": i, "name": f"n{i}", "tags": ["a", "b"],
                                      "geo": {"lat": i / 7, "lon": -i / 3}})
                          for i in range(120_000)))
        fh.write("]}")
    assert path.stat().st_size > 9_000_000
    tracemalloc.start()
    out = shape(path, stream=True, depth=3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert out.value["children"]["rows"]["arrayLength"] == 120_000
    assert peak < 2_000_000, f"streaming peak {peak} bytes"


@needs_corpus
def test_corpus_files():
    k8s = shape(CORPUS / "openapi/kubernetes-1.36-swagger.json", path="/definitions", depth=0)
    assert k8s.value["keyCount"] == 771 and len(k8s.value["keys"]) == 100
    gh = shape(CORPUS / "openapi/github-api.github.com-2020-07.json", path="/paths", depth=0)
    assert gh.value["keyCount"] == 403
    lines = shape(CORPUS / "jsonl/gsm8k-test.jsonl", stats=True).value
    assert lines["arrayLength"] == 1319 and lines["keyPresence"] == {"question": 1319,
                                                                     "answer": 1319}
    question = lines["profiles"][".[].question"]  # 1319 distinct: past the exact cap of 1000
    assert question["distinctEstimated"] and abs(question["distinct"] - 1319) < 66
    argo = shape(CORPUS / "k8s/argo-cd-install.yaml", depth=1).value
    assert argo["arrayLength"] == 59 and "kind" in argo["availableKeys"]
    geo = shape(CORPUS / "geojson/world-countries.geo.json", path="/features", depth=3).value
    assert geo["arrayLength"] == 180
    assert geo["elementTemplate"]["geometry"]["coordinates"] == [[[["number"]]]]
    assert geo["mixedTypes"] == {".features[].geometry.coordinates[][][]": "number|array"} or \
        ".features[].geometry.coordinates[][]" in geo["mixedTypes"]


@needs_corpus
@pytest.mark.parametrize("name", ["npm/axios-package-lock.json",
                                  "openapi/github-api.github.com-2020-07.json"])
def test_corpus_stream_equals_memory(name):
    path = CORPUS / name
    assert shape(path, stats=True, stream=True).value == shape(path, stats=True).value
    assert shape(path, format="jsonschema", stream=True).value == \
        shape(path, format="jsonschema").value


def test_core_imports_without_ipython():
    code = ("import sys; sys.modules['IPython'] = None; sys.modules['ipywidgets'] = None; "
            "import jqmagic.core.shape, jqmagic.core.shape.hints, jqmagic.core.payloads, "
            "jqmagic.core.shape.stream")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- hints -----------------------------------------------------------------------------------
HINT_DOC = {"items": [{"id": i, "name": "n", "email": None} for i in range(1547)],
            "user": {"name": "x"}, "count": 3}


@pytest.mark.parametrize(("program", "expected"), [
    (".items.name", "at .items there is an array of 1547 objects with keys id, name, email; "
                    "try .items[].name"),
    (".usr", "no key .usr at .; did you mean .user?"),
    (".user.nme", "no key .nme at .user; did you mean .user.name?"),
    (".items[] | select(.id > 3) | .nmae", "no key .nmae at .items[]; did you mean "
                                           ".items[].name?"),
    (".items[].email", "every value at .items[].email is null (1547 of 1547)"),
    (".count.x", "at .count there is a number, not an object; 'x' cannot be read"),
    (".count[]", "at .count there is a number; [] iterates only arrays and objects"),
    (".items[2000]", "at .items there is an array of length 1547; index 2000 is out of range"),
    (".user | .zzz", "no key .zzz at .user; keys are: name"),
    ('.["user"].name', ""),
    ("[.items[].id] | add", ""),
])
def test_hints(program, expected):
    assert hint_for(program, HINT_DOC, results=[1]) == expected


def test_hint_for_an_empty_result():
    assert hint_for(".items[0].name", HINT_DOC, results=[]) == \
        "at .items[0].name there is 1 value (string)"


def test_path_steps():
    assert path_steps('.a[0].b[]? | ."c d" | keys') == ["a", 0, "b", None, "c d"]
    assert path_steps("map(.x.y)") == [None, "x", "y"]
    assert path_steps("length") == []


def test_integers_past_64_bits_stream():
    value = {"n": [2**70, 1], "x": "y"}
    assert both(value=value, format="jsonschema").value["properties"]["n"]["items"] == \
        {"type": "integer"}


def test_forced_formats(tmp_path):
    assert shape(text="a: [1]", yaml=True).value["keys"] == ["a"]
    lines = tmp_path / "d.txt"
    lines.write_text('{"a": 1}\n{"b": 2}\n')
    for stream in (False, True):
        out = shape(lines, jsonl=True, stream=stream).value
        assert out["keyPresence"] == {"a": 1, "b": 1}
    assert shape(text='{"a": 1}\n', jsonl=True, stream=True).value["arrayLength"] == 1


def test_several_top_level_values_read_as_an_array_when_streamed_too():
    text = '{"a": 1} {"a": "x", "b": null}'
    memory = shape(text=text, stream=False).value
    assert memory["arrayLength"] == 2 and memory["elementTemplate"]["a"] == "number|string"
    assert shape(text=text, stream=True).value == memory
    assert shape(text=text, stream=True, format="jqschema").value == [{"a": "number"}]
    with pytest.raises(JqMagicError) as exc:
        shape(text='{"a": 1} x', stream=True)
    assert exc.value.code == "INVALID_JSON"


def test_hint_for_a_source(tmp_path):
    from jqmagic.core.options import Source
    from jqmagic.core.shape.hints import hint_for_source

    path = tmp_path / "d.json"
    path.write_text(json.dumps(HINT_DOC))
    assert hint_for_source(".usr", Source("file", str(path)), results=[None]) == \
        "no key .usr at .; did you mean .user?"
    assert hint_for_source(".usr", Source("file", str(path)), results=[None], max_bytes=10) == ""
    assert hint_for_source(".usr", Source("file", str(tmp_path / "missing.json"))) == ""
    assert hint_for_source(".a.b", Source("value", {"a": [{"b": 1}]}),
                           error="Cannot index array") == \
        "at .a there is an array of 1 object with keys b; try .a[].b"


def test_distinct_estimate_never_exceeds_the_values_seen():
    from jqmagic.core.shape.profile import Profile

    profile = Profile(distinct_cap=10)
    for i in range(5000):
        profile.see(f"id-{i}")
    estimate, estimated = profile.distinct()
    assert estimated and estimate <= 5000
