"""Issue 40: the tools package is untangled: one module per tool, listed in the registry's
table; no import circle among its modules, counting the imports inside functions too; no
module over 500 lines."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import jqmagic.tools
from jqmagic.tools import registry
from tests.core.jqlang.test_imports import cycles

FOLDER = Path(jqmagic.tools.__file__).parent


def every_import() -> dict[str, set[str]]:
    """Each jqmagic.tools module -> the jqmagic.tools modules it imports anywhere."""
    names = {f"jqmagic.tools.{p.stem}" for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    graph = {}
    for name in names:
        found = set()
        tree = ast.parse((FOLDER / f"{name.rpartition('.')[2]}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
        graph[name] = found & names
    return graph


def test_no_import_circle_in_tools():
    graph = every_import()
    assert graph["jqmagic.tools.answers"]  # the walk sees imports
    assert cycles(graph, "jqmagic.tools") == []


def test_no_tool_module_imports_the_registry():
    graph = every_import()
    modules = {entry.split(":")[0] for entry in registry.TABLE}
    assert all("jqmagic.tools.registry" not in graph[f"jqmagic.tools.{m}"] for m in modules)


def test_the_table_is_every_tool_in_order():
    listed = [entry.split(":")[1] for entry in registry.TABLE]
    assert list(registry.tools()) == listed
    for entry in registry.TABLE:
        module, name = entry.split(":")
        assert hasattr(importlib.import_module(f"jqmagic.tools.{module}"), name)


def test_no_module_over_500_lines():
    sizes = {p.name: len(p.read_text().splitlines()) for p in FOLDER.glob("*.py")}
    assert max(sizes.values()) <= 500, sizes
