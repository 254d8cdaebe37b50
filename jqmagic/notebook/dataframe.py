"""Query results as a pandas DataFrame (``--to df``; pandas is the ``df`` extra)."""

from __future__ import annotations

from typing import Any

from jqmagic.core.errors import JqMagicError


def to_dataframe(values: list[Any]):
    """A DataFrame of the results: rows from objects (nested keys flattened with dots)."""
    try:
        import pandas as pd
    except ImportError:
        raise JqMagicError("INVALID_ARGUMENT", "--to df needs pandas, which is not installed.",
                           "pip install 'jqmagic[df]'") from None
    rows = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    if all(isinstance(row, dict) for row in rows):
        return pd.json_normalize(rows)
    return pd.DataFrame({"value": rows})
