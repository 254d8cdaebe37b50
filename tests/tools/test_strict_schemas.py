"""Strict-mode definitions: every schema follows OpenAI's strict-mode rules, a model's strict
answer (every key given, null for "not this one", objects as JSON text) validates against it,
and the tools take that answer as it is."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest

import jqmagic.tools as tools

# What strict mode accepts in a schema (OpenAI's structured outputs: supported schemas).
ALLOWED_KEYS = {"type", "properties", "required", "additionalProperties", "items", "enum",
                "description"}
ALLOWED_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}


def strict_problems(schema: dict[str, Any], where: str = "") -> list[str]:
    """Every way ``schema`` breaks strict mode's rules (none: it is strict-ready)."""
    problems = [f"{where}: {key}" for key in set(schema) - ALLOWED_KEYS]
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    problems += [f"{where}: type {k}" for k in kinds if k not in ALLOWED_TYPES]
    if "object" in kinds:
        props = schema.get("properties")
        if props is None or schema.get("additionalProperties") is not False:
            problems.append(f"{where}: an open object")
        elif sorted(schema.get("required", [])) != sorted(props):
            problems.append(f"{where}: not every property is required")
        for name, prop in (props or {}).items():
            problems += strict_problems(prop, f"{where}.{name}")
    if "items" in schema:
        problems += strict_problems(schema["items"], f"{where}[]")
    if "enum" in schema and "null" in kinds and None not in schema["enum"]:
        problems.append(f"{where}: a nullable enum without null")
    return problems


def test_openai_strict_definitions_follow_strict_mode():
    found = tools.definitions("openai", strict=True)
    assert [d["function"]["name"] for d in found] == list(tools.tools())
    for definition in found:
        function = definition["function"]
        assert function["strict"] is True
        assert strict_problems(function["parameters"], function["name"]) == []
    assert strict_problems(tools.get("jq").parameters) != []  # the plain form is not strict



def closed_problems(schema: dict[str, Any], where: str = "") -> list[str]:
    """Every way ``schema`` breaks Anthropic's strict mode (objects closed, no bounds)."""
    problems = [f"{where}: {key}" for key in set(schema) - ALLOWED_KEYS]
    if schema["type"] == "object" and schema.get("additionalProperties") is not False:
        problems.append(f"{where}: an open object")
    for name, prop in schema.get("properties", {}).items():
        problems += closed_problems(prop, f"{where}.{name}")
    return problems


def test_anthropic_strict_definitions_stay_within_its_ceilings():
    found = tools.definitions("anthropic", strict=True)
    strict = [d for d in found if d.get("strict")]
    assert len(strict) >= 4 and found[0]["name"] == "jq" and strict[0] is found[0]
    optional = unions = 0
    for d in found:
        schema = d["input_schema"]
        assert closed_problems(schema, d["name"]) == []
        if d.get("strict"):
            optional += len(schema["properties"]) - len(schema.get("required", []))
            unions += sum(isinstance(p["type"], list) for p in schema["properties"].values())
    ceilings = tools.ANTHROPIC_STRICT
    assert len(strict) <= ceilings["tools"] and optional <= ceilings["optional"]
    assert unions <= ceilings["unions"]
    picked = tools.definitions("anthropic", strict=True, names=["query_json", "json_patch"])
    assert [d.get("strict") for d in picked] == [True, True]


def test_openai_responses_and_description_limits():
    for strict in (False, True):
        for d in tools.definitions("openai-responses", strict=strict):
            assert set(d) == {"type", "name", "description", "parameters", "strict"}
            assert d["type"] == "function" and d["strict"] is strict
            assert len(d["description"]) <= 1024, d["name"]  # OpenAI's documented maximum
            assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", d["name"])


def test_strict_schemas_keep_what_the_plain_ones_say():
    plain = {d["name"]: d["parameters"] for d in tools.definitions()}
    for d in tools.definitions("openai", strict=True):
        strict, loose = d["function"]["parameters"], plain[d["function"]["name"]]
        assert list(strict["properties"]) == list(loose["properties"])
        for name, prop in loose["properties"].items():
            said = strict["properties"][name]["description"]
            assert said.startswith(prop["description"])
            if "default" in prop:
                assert f"Default: {json.dumps(prop['default'])}." in said


STRICT_ANSWERS = [  # what a model in strict mode sends: every key, null when unused
    ("jq", {"query": ".users | length", "file": None, "input": '{"users": [1, 2, 3]}',
            "exec": None, "payload": None, "null_input": None, "slurp": None, "args": None,
            "raw": False, "compact": False, "timeout": None, "explain": None},
     "3"),
    ("query_json", {"file_path": "FILE", "jq_expression": "[.users[] | select(.n > $min)]"
                    " | length", "timeout": None, "large_result_passthrough": None,
                    "slurp": None, "args": '{"min": 1}'}, "1"),
    ("json_inspect", {"filePath": "FILE", "path": None, "depth": None, "format": None,
                      "stats": None}, None),
    ("json_patch", {"filePath": "FILE", "operation": "set", "path": None,
                    "match": {"arrayPath": "/users", "where": '{"id": "u2"}'},
                    "value": '{"n": 5}', "all": None, "dryRun": True, "force": None,
                    "diffStart": None}, None),
]


@pytest.mark.parametrize(("name", "answer", "output"), STRICT_ANSWERS,
                         ids=[a[0] for a in STRICT_ANSWERS])
def test_a_strict_answer_validates_and_the_tool_takes_it(tmp_path, name, answer, output):
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"users": [{"id": "u1", "n": 1}, {"id": "u2", "n": 2}]}))
    answer = {k: str(data) if v == "FILE" else v for k, v in answer.items()}
    (schema,) = [d["function"]["parameters"] for d in tools.definitions("openai", strict=True)
                 if d["function"]["name"] == name]
    jsonschema.validate(answer, schema)
    out = tools.call(name, answer)
    assert out["success"] is True, out
    if output is not None:
        assert out["output"] == output
    if name == "json_patch":
        assert (out["targetPath"], out["newValue"], out["dryRun"]) == ("/users/1/n", 5, True)
    if name == "json_inspect":
        assert out["keys"] == ["users"]
