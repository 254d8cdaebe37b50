"""jqmagic: ask questions of big, nested or remote JSON and YAML.

The public API is a set of plain functions over a pure-Python core
(``import jqmagic`` never imports IPython); ``%load_ext jqmagic`` adds the magics.

>>> import jqmagic
>>> jqmagic.query(".users[].name", value={"users": [{"name": "ada"}]}).values
['ada']
"""

import sys

__version__ = "0.1.0"

# Each public name is imported from its module on first use (PEP 562), so that the
# command line and the worker start without the parts they do not need.
_LAZY = {
    "JqMagicError": "jqmagic.core.errors",
    "FetchResult": "jqmagic.core.web.fetch", "fetch": "jqmagic.core.web.fetch",
    "SearchResults": "jqmagic.core.web.search", "search": "jqmagic.core.web.search",
    "QueryResult": "jqmagic.core.query", "clear_cache": "jqmagic.core.query",
    "query": "jqmagic.core.query", "query_iter": "jqmagic.core.query",
    "ShapeResult": "jqmagic.core.shape",
    "shape": "jqmagic.core.shape", "patch": "jqmagic.core.patch",
    "payload": "jqmagic.core.payloads", "check": "jqmagic.notebook.teach",
    "explain": "jqmagic.core.explain", "suggest": "jqmagic.core.suggest",
    # SchemaBrowser needs anywidget: never imported by ``import jqmagic``
    "SchemaBrowser": "jqmagic.notebook.widget",
}

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
    "explain",
    "fetch",
    "load_ipython_extension",
    "patch",
    "payload",
    "query",
    "query_iter",
    "search",
    "shape",
    "suggest",
]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name == "tools":  # the agent face: jqmagic.tools.call / .wrap, loaded on first use
        import jqmagic.tools

        return jqmagic.tools
    raise AttributeError(f"module 'jqmagic' has no attribute {name!r}")


def load_ipython_extension(ipython):
    """Register the magics and their Tab completion (``%load_ext jqmagic``)."""
    from jqmagic.notebook.completer import register as register_completer
    from jqmagic.notebook.magics import register

    register(ipython)
    register_completer(ipython)


def _register_display_in_running_ipython() -> None:
    """Inside IPython, results render richly even without ``%load_ext jqmagic``."""
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    if shell is not None:
        from jqmagic.notebook.display import register

        register(shell)


_register_display_in_running_ipython()
