"""definitions() in every shape a model API takes, checked against each SDK's own request
types (openai's Chat Completions and Responses tool params, anthropic's ToolParam, mcp's
Tool) and the documented limits: names ^[a-zA-Z0-9_-]{1,64}$, OpenAI descriptions at most
1,024 characters, strict schemas closed."""

from __future__ import annotations

import re
import typing
from typing import Any

import pytest
from pydantic import TypeAdapter

import jqmagic.tools as tools
from jqmagic.core.settings import settings

openai_chat = pytest.importorskip("openai.types.chat", reason="openai is in the test extra")
openai_responses = pytest.importorskip("openai.types.responses",
                                       reason="openai is in the test extra")
openai_shared = pytest.importorskip("openai.types.shared_params",
                                    reason="openai is in the test extra")
anthropic_types = pytest.importorskip("anthropic.types", reason="anthropic is in the test extra")
NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def valid(value: dict[str, Any], typed: Any) -> None:
    """``value`` validates as the SDK's TypedDict, and every key it has is one the SDK knows
    (a TypedDict lets unknown keys through)."""
    TypeAdapter(typed).validate_python(value)
    known = typing.get_type_hints(typed)
    assert set(value) <= set(known), set(value) - set(known)


@pytest.mark.parametrize("strict", [False, True])
def test_openai_chat_completions(strict):
    for d in tools.definitions("openai", strict=strict):
        valid(d, openai_chat.ChatCompletionFunctionToolParam)
        valid(d["function"], openai_shared.FunctionDefinition)
        assert NAME.fullmatch(d["function"]["name"])
        assert len(d["function"]["description"]) <= 1024


@pytest.mark.parametrize("strict", [False, True])
def test_openai_responses(strict):
    for d in tools.definitions("openai-responses", strict=strict):
        valid(d, openai_responses.FunctionToolParam)
        assert NAME.fullmatch(d["name"]) and len(d["description"]) <= 1024


@pytest.mark.parametrize("strict", [False, True])
def test_anthropic(strict):
    for d in tools.definitions("anthropic", strict=strict):
        valid(d, anthropic_types.ToolParam)
        assert NAME.fullmatch(d["name"]) and d["input_schema"]["type"] == "object"


def test_mcp_and_what_the_sandbox_allows(monkeypatch):
    from mcp import types

    monkeypatch.setattr(settings, "sandbox", True)
    monkeypatch.setattr(settings, "exec_allowed", False)
    closed = {d["name"]: d for d in tools.definitions("mcp")}
    for d in closed.values():
        types.Tool.model_validate(d)
    jq = closed["jq"]
    assert "exec" not in jq["inputSchema"]["properties"] and "exec" not in jq["description"]
    assert jq["annotations"]["readOnlyHint"] is True
    for shape in ("openai", "anthropic", "plain"):
        text = repr(tools.definitions(shape, strict=True))
        assert "'exec'" not in text and "curl" not in text
    monkeypatch.setattr(settings, "exec_allowed", True)
    opened = {d["name"]: d for d in tools.definitions("mcp")}["jq"]
    assert "exec" in opened["inputSchema"]["properties"] and "exec=" in opened["description"]
    assert opened["annotations"]["readOnlyHint"] is False
    assert len(opened["description"]) <= 1024
