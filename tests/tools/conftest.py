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


@pytest.fixture(autouse=True)
def host_opened_the_sandbox(monkeypatch):
    """These tests are about answers, not the sandbox: their in-process calls run as a host
    that opened it (``no_sandbox=True``) would, reading the test's folder and its local web
    servers. test_policy.py tries the Python API closed, as every host gets it."""
    from jqmagic.tools import policy

    monkeypatch.setattr(policy, "HOST_DEFAULT", policy.Policy(no_sandbox=True))
