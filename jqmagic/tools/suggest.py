"""The jq_suggest tool: a jq program from examples of input and output."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from jqmagic.tools.schema import JsonValue, Param
from jqmagic.tools.spec import tool


class Example(TypedDict):
    """One input and the output wanted from it."""

    input: Annotated[str | JsonValue | None, Param("A JSON value the program reads.")]
    output: Annotated[str | JsonValue | None, Param("The JSON value it should give.")]


@tool()
def jq_suggest(
    examples: Annotated[list[Example], Param(
        "One or more examples; the program must turn each input into its output.",
        min_items=1)],
    timeout: Annotated[float, Param("Seconds to search.", minimum=1, maximum=30)] = 5,
) -> dict[str, Any]:
    """Find the shortest jq programs that turn each example input into its output.

    A search over jq's grammar (no guessing): every program returned was run by jq on
    every example. Use it when you know the output you want but not the filter; then
    run the program with the jq tool. Nothing found: give another example or more time.

    Examples:
    - A field: examples=[{"input": {"user": {"name": "ada"}}, "output": "ada"}]
    - Sort: examples=[{"input": [3, 1, 2], "output": [1, 2, 3]}]
    """
    from jqmagic.core.suggest import suggest

    return {"success": True, **suggest(examples=examples, timeout=timeout).to_dict()}
