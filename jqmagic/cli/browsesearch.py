"""The values ``jqmagic browse`` searches: the notebook tree's model (widget/model.py) of
the file, read in this process on the first search, so ``/`` finds keys and values as
the notebook's tree does; a file too big to hold is searched in its keys and sample
values (the worker's streamed shape)."""

from __future__ import annotations

from jqmagic.core.browsing.model import Tree, build
from jqmagic.core.options import Source
from jqmagic.core.shape import STREAM_THRESHOLD, shape
from jqmagic.core.shape.source import open_source


def values_model(path: str) -> Tree:
    """The search model of the file at ``path`` (its root one input for JSON Lines)."""
    doc = open_source(Source.of(file=path))
    if doc.streamable and doc.size > STREAM_THRESHOLD:
        result = shape(file=doc.spec, stats=True, stream=True, jsonl=doc.lines)
        node = result.node.items if doc.lines and result.node.items else result.node
        return Tree(node, inputs=doc.lines)
    values = doc.values()
    inputs = len(values) != 1 or doc.lines
    value = values if inputs else values[0]
    return Tree(build(value, inputs), value=value, inputs=inputs)
