"""jqmagic: ask questions of big, nested or remote JSON and YAML.

The public API is a set of plain functions over a pure-Python core
(``import jqmagic`` never imports IPython); ``%load_ext jqmagic`` adds the magics.

>>> import jqmagic
>>> jqmagic.query(".users[].name", value={"users": [{"name": "ada"}]}).values
['ada']
"""

import sys

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import patch
from jqmagic.core.payloads import payload
from jqmagic.core.query import QueryResult, clear_cache, query
from jqmagic.core.shape import ShapeResult, shape
from jqmagic.core.web.fetch import FetchResult, fetch
from jqmagic.core.web.search import SearchResults, search
from jqmagic.teach import check

__version__ = "0.1.0"

__all__ = [
    "FetchResult",
    "JqMagicError",
    "QueryResult",
    "SchemaBrowser",
    "SearchResults",
    "ShapeResult",
    "__version__",
    "check",
    "clear_cache",
    "fetch",
    "load_ipython_extension",
    "patch",
    "payload",
    "query",
    "search",
    "shape",
]


def __getattr__(name: str):
    # SchemaBrowser needs ipywidgets: import it on first use, never with ``import jqmagic``
    if name == "SchemaBrowser":
        from jqmagic.widget import SchemaBrowser

        return SchemaBrowser
    if name == "tools":  # the agent face: jqmagic.tools.call / .wrap, loaded on first use
        import jqmagic.tools

        return jqmagic.tools
    raise AttributeError(f"module 'jqmagic' has no attribute {name!r}")


def load_ipython_extension(ipython):
    """Register the magics (``%load_ext jqmagic``)."""
    from jqmagic.magics import register

    register(ipython)


def _register_display_in_running_ipython() -> None:
    """Inside IPython, results render richly even without ``%load_ext jqmagic``."""
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    if shell is not None:
        from jqmagic.display import register

        register(shell)


_register_display_in_running_ipython()
