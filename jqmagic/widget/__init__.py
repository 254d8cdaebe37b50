"""The schema tree widget (anywidget): ``SchemaBrowser``. Imported on first use only
(``import jqmagic`` never imports anywidget or ipywidgets)."""

from jqmagic.widget.browser import SchemaBrowser

__all__ = ["SchemaBrowser"]
