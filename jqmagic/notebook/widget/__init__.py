"""The schema tree widget (anywidget): ``SchemaBrowser``. Imported on first use only
(``import jqmagic`` never imports anywidget or ipywidgets; ``jqmagic browse`` reads
the tree's model, ``core/browsing``, without them)."""

from typing import Any

__all__ = ["SchemaBrowser"]


def __getattr__(name: str) -> Any:
    if name == "SchemaBrowser":
        from jqmagic.notebook.widget.browser import SchemaBrowser

        return SchemaBrowser
    raise AttributeError(f"module 'jqmagic.notebook.widget' has no attribute {name!r}")
