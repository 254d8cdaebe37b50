"""Tool definitions: schemas derived from the handlers, the specs' contracts, validation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated

import pytest

import jqmagic.tools as tools
from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings
from jqmagic.tools.schema import Param, parameters, run, validate

NAMES = ["jq", "query_json", "query_yaml", "json_inspect", "jq_suggest", "json_patch",
         "read_file", "web_fetch", "web_search_brave", "web_search_google"]

# The parameters of the web tools spec (tool-schemas), copied from its --schema outputs.
DOMAINS = {"type": "array", "items": {"type": "string"}}
SPEC_PARAMETERS = {
    "web_search_brave": {
        "query": {"type": "string", "minLength": 2},
        "count": {"type": "integer", "minimum": 1, "maximum": 20, "default": 10},
        "offset": {"type": "integer", "minimum": 0, "default": 0},
        "allowed_domains": DOMAINS, "blocked_domains": DOMAINS},
    "web_search_google": {
        "query": {"type": "string", "minLength": 2},
        "num": {"type": "integer", "minimum": 1, "maximum": 10, "default": 10},
        "start": {"type": "integer", "minimum": 1, "maximum": 91, "default": 1},
        "allowed_domains": DOMAINS, "blocked_domains": DOMAINS},
    "web_fetch": {
        "url": {"type": "string", "format": "uri"},
        "offset": {"type": "integer", "minimum": 1},
        "limit": {"type": "integer", "minimum": 1}},
    "jq": {"query": {"type": "string"}, "file": {"type": "string"},
           # the spec's JSON text, or (issue 54) the JSON value itself
           "input": {"type": ["string", "object", "array", "number", "boolean"]},
           "exec": {"type": "string"},
           "raw": {"type": "boolean"}, "compact": {"type": "boolean"}},
    "json_inspect": {"filePath": {"type": "string"}, "path": {"type": "string"},
                     "depth": {"type": "integer", "default": 2}},
}
SPEC_REQUIRED = {"web_search_brave": ["query"], "web_search_google": ["query"],
                 "web_fetch": ["url"], "jq": ["query"], "json_inspect": ["filePath"],
                 "json_patch": ["filePath", "operation"],
                 "query_json": ["file_path", "jq_expression"],
                 "query_yaml": ["file_path", "yq_expression"], "read_file": ["file_path"],
                 "jq_suggest": ["examples"]}


def test_every_tool_is_defined_in_order():
    assert [d["name"] for d in tools.definitions()] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_definitions_are_described_objects(name):
    definition = tools.get(name).definition()
    assert set(definition) == {"name", "description", "parameters"}
    params = definition["parameters"]
    assert params["type"] == "object" and params["additionalProperties"] is False
    assert params["required"] == SPEC_REQUIRED[name]
    for prop, spec in params["properties"].items():
        assert len(spec["description"]) > 10, prop
    description = definition["description"]
    examples = [line for line in description.splitlines() if line.startswith("- ")]
    assert 2 <= len(examples) <= 6, description
    assert "Examples:" in description and "Use it" in description


@pytest.mark.parametrize("name", sorted(SPEC_PARAMETERS))
def test_parameters_keep_the_specs_contract(name):
    props = tools.get(name).parameters["properties"]
    for prop, expected in SPEC_PARAMETERS[name].items():
        assert {k: props[prop].get(k) for k in expected} == expected, prop


def test_query_tools_follow_the_query_spec():
    for name, expr in (("query_json", "jq_expression"), ("query_yaml", "yq_expression")):
        props = tools.get(name).parameters["properties"]
        # the spec's parameters, plus slurp and args (jq's -s and --argjson)
        assert set(props) == {"file_path", expr, "timeout", "large_result_passthrough",
                              "slurp", "args"}
        assert props["timeout"]["default"] == 30 and props["timeout"]["type"] == "number"
        assert "100 results" in tools.get(name).description
    assert "large_file_passthrough" in tools.get("read_file").parameters["properties"]


@dataclass(frozen=True)
class _Reading:
    timeout: Annotated[float, Param("Seconds it may run.", minimum=1)] = 30
    slurp: Annotated[bool, Param("All values as one array.")] = False


def _flat(path: Annotated[str, Param("The file.")],
          timeout: Annotated[float, Param("Seconds it may run.", minimum=1)] = 30,
          slurp: Annotated[bool, Param("All values as one array.")] = False) -> dict:
    return {"path": path, "timeout": timeout, "slurp": slurp}


def _grouped(path: Annotated[str, Param("The file.")], reading: _Reading) -> dict:
    return {"path": path, "reading": reading}


def test_an_options_dataclass_stands_for_its_fields():
    """A handler's options dataclass gives the schema its fields, in their place, as the
    same parameters written one by one would; a call gathers them into one instance."""
    assert json.dumps(parameters(_grouped)) == json.dumps(parameters(_flat))
    assert run(_grouped, {"path": "a.json", "slurp": True}) == {
        "path": "a.json", "reading": _Reading(slurp=True)}
    assert run(_flat, {"path": "a.json"}) == {"path": "a.json", "timeout": 30,
                                              "slurp": False}
    jq_tool = tools.get("jq").parameters
    assert list(jq_tool["properties"]) == ["query", "file", "input", "exec", "payload",
                                           "null_input", "slurp", "args", "raw", "compact",
                                           "timeout", "explain"]
    assert jq_tool["required"] == ["query"]


def test_json_patch_schema():
    props = tools.get("json_patch").parameters["properties"]
    assert props["operation"]["enum"] == ["set", "insert", "remove", "merge"]
    assert props["match"]["required"] == ["arrayPath", "where"]
    assert props["match"]["additionalProperties"] is False
    # JSON text, or the value itself (a common model mistake, accepted)
    assert props["value"]["type"] == ["string", "object", "array", "number", "boolean"]


@pytest.mark.parametrize(("name", "read_only", "destructive", "open_world"), [
    ("jq", True, False, True), ("query_json", True, False, False),
    ("json_inspect", True, False, False), ("json_patch", False, True, False),
    ("read_file", True, False, False), ("web_fetch", True, False, True),
    ("web_search_google", True, False, True)])
def test_annotations(name, read_only, destructive, open_world, monkeypatch):
    monkeypatch.setattr(settings, "sandbox", True)  # as the agent faces run
    hints = tools.get(name).annotations
    assert (hints["readOnlyHint"], hints["destructiveHint"], hints["openWorldHint"]) == (
        read_only, destructive, open_world)


def test_annotations_tell_the_truth_when_commands_run(monkeypatch):
    """Outside the sandbox (or with commands allowed) the jq tool's exec runs anything."""
    for sandboxed, allowed in ((False, False), (True, True)):
        monkeypatch.setattr(settings, "sandbox", sandboxed)
        monkeypatch.setattr(settings, "exec_allowed", allowed)
        hints = tools.get("jq").annotations
        assert hints["readOnlyHint"] is False and hints["destructiveHint"] is True
    assert tools.get("query_json").annotations["readOnlyHint"] is True


def test_unknown_tool():
    out = tools.call("nope", {})
    assert out["success"] is False and out["error_code"] == "NOT_FOUND"
    assert "jq" in out["hint"]


# ---------------------------------------------------------------- validation

BRAVE = tools.get("web_search_brave").parameters
PATCH = tools.get("json_patch").parameters


def invalid(schema, request) -> JqMagicError:
    with pytest.raises(JqMagicError) as info:
        validate(schema, request)
    assert info.value.code == "INVALID_ARGUMENT"
    return info.value


def test_unknown_field_suggests_the_close_one():
    error = invalid(BRAVE, {"query": "jq", "cuont": 3})
    assert error.message == "Unknown field 'cuont'."
    assert error.hint.startswith("Did you mean 'count'?")


@pytest.mark.parametrize(("request_", "message"), [
    ({"query": 5}, "Field 'query' must be a string, not an integer."),
    ({"query": "jq", "count": "5"}, "Field 'count' must be an integer, not a string."),
    ({"query": "jq", "count": 2.5}, "Field 'count' must be an integer, not a number."),
    ({"query": "jq", "count": True}, "Field 'count' must be an integer, not a boolean."),
    ({"query": "jq", "count": 21}, "Field 'count' must be at most 20; got 21."),
    ({"query": "jq", "offset": -1}, "Field 'offset' must be at least 0; got -1."),
    ({"query": "j"}, "Field 'query' needs at least 2 characters."),
    ({"query": "jq", "allowed_domains": "a.com"},
     "Field 'allowed_domains' must be an array, not a string."),
    ({"query": "jq", "blocked_domains": ["a.com", 3]},
     "Field 'blocked_domains[1]' must be a string, not an integer."),
    ({}, "Missing required field 'query'."),
    ({"query": None}, "Field 'query' must be a string, not null."),
])
def test_wrong_types_ranges_and_missing(request_, message):
    assert invalid(BRAVE, request_).message == message


def test_nested_objects_and_enums():
    base = {"filePath": "f.json", "operation": "set"}
    assert invalid(PATCH, {**base, "operation": "replace"}).message.startswith(
        "Field 'operation' must be one of 'set', 'insert', 'remove', 'merge'")
    assert invalid(PATCH, {**base, "match": {"arrayPath": "/u"}}).message == \
        "Missing required field 'match.where'."
    assert invalid(PATCH, {**base, "match": {"arrayPath": "/u", "where": {}, "x": 1}}
                   ).message == "Unknown field 'match.x'."
    assert invalid(PATCH, {**base, "match": {"arrayPath": "/u", "where": []}}).message == \
        "Field 'match.where' must be an object, not an array."


def test_leniency_null_optional_and_whole_floats():
    assert validate(BRAVE, {"query": "jq", "count": 5.0, "offset": None}) == {
        "query": "jq", "count": 5}


def test_request_must_be_an_object():
    assert invalid(BRAVE, ["jq"]).message == "The request must be a JSON object, not an array."
