"""Every answer a tool gives in these tests is checked against that tool's outputSchema
(the closed schema MCP lists): the schemas describe the real fields, on every path."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from jqmagic.tools import transport
from jqmagic.tools.outputs import output_schema


@pytest.fixture(autouse=True)
def answers_match_their_output_schema(monkeypatch):
    fit = transport.fit

    def checked(answer: dict[str, Any], tool: Any = None) -> dict[str, Any]:
        out = fit(answer, tool)
        if tool is not None:
            jsonschema.validate(out, output_schema(tool.name))
        return out

    monkeypatch.setattr(transport, "fit", checked)
