"""Shapes: what a document looks like, merged across its elements, with per-path statistics.

- ``operation``: :func:`shape`, read in the worker; ``infer``: the three formats (shape,
  jqschema, JSON Schema) made in this process;
- ``node``: the merged-shape accumulator; ``profile``: per-path statistics;
- ``source``: the document behind a request; ``stream``: one streaming pass with ijson;
- ``hints``: what is there when a query fails or finds nothing.
"""

from jqmagic.core.shape.infer import (
                                      FORMATS,
                                      JQSCHEMA_FILTER,
                                      STREAM_THRESHOLD,
                                      ShapeResult,
                                      jq_schema,
)
from jqmagic.core.shape.operation import shape

__all__ = ["FORMATS", "JQSCHEMA_FILTER", "STREAM_THRESHOLD", "ShapeResult", "jq_schema",
           "shape"]
