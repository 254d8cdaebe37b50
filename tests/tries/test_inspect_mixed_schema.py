"""json_inspect's answers fit its closed outputSchema: a field sometimes null and sometimes
a list (``tags``) made the answer carry ``mixedTypes``, which the schema did not name, so
the MCP SDK's client, which validates structured content, failed the whole session
(jsonschema's "Additional properties are not allowed ('mixedTypes' was unexpected)").
Random documents of mixed kinds, at every depth, with and without stats, validate."""

from __future__ import annotations

import json
import random

import anyio
import jsonschema
import pytest

from jqmagic.tools import call
from jqmagic.tools.outputs import output_schema

MIXED = {"items": [{"id": 1, "tags": ["x"], "sub": {"n": 1}}, {"id": 2, "tags": None,
                                                              "sub": [1]}]}


def _value(rng: random.Random, depth: int):
    kinds = ["int", "str", "null", "list", "dict"] if depth else ["int", "str", "null"]
    kind = rng.choice(kinds)
    if kind == "list":
        return [_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    if kind == "dict":
        return {rng.choice("abcd"): _value(rng, depth - 1) for _ in range(rng.randrange(4))}
    return {"int": 1, "str": "s", "null": None}[kind]


def test_random_documents_answer_within_the_schema(tmp_path):
    schema, rng = output_schema("json_inspect"), random.Random(7)
    mixed = 0
    for n in range(40):
        document = {"rows": [_value(rng, 3) for _ in range(6)], "one": _value(rng, 3)}
        path = tmp_path / f"d{n}.json"
        path.write_text(json.dumps(document))
        for depth in range(4):
            answer = call("json_inspect", {"filePath": str(path), "depth": depth,
                                           "stats": depth % 2 == 1},
                          allow_root=[str(tmp_path)])
            assert answer["success"], answer
            jsonschema.validate(answer, schema)
            mixed += "mixedTypes" in answer
    assert mixed > 10


def test_an_sdk_client_reads_a_mixed_answer(tmp_path, monkeypatch):
    pytest.importorskip("mcp")
    from mcp import Client

    from jqmagic.tools.mcp import build_server

    (tmp_path / "m.json").write_text(json.dumps(MIXED))
    monkeypatch.chdir(tmp_path)

    async def ask():
        async with Client(build_server(), read_timeout_seconds=60) as client:
            return await client.call_tool("json_inspect", {"filePath": "m.json",
                                                           "path": "/items", "depth": 1})

    said = anyio.run(ask).structured_content
    assert said["mixedTypes"] == {".items[].tags": "null|array", ".items[].sub":
                                  "array|object"}, said
